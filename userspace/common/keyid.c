// SPDX-License-Identifier: GPL-2.0-only
#include "common/keyid.h"

#include <inttypes.h>
#include <stdio.h>

#include "proto/keyring.h"

uint64_t ftu_key_id(const uint8_t key[FTD_KEY_LEN])
{
	return ftd_key_id(key);
}

const char *ftu_key_id_format(uint64_t id, char *buf)
{
	static const uint8_t zero[FTD_KEY_LEN];

	if (id == ftd_key_id(zero))
		snprintf(buf, FTU_KEYID_BUFSZ, "none");
	else
		snprintf(buf, FTU_KEYID_BUFSZ, "%016" PRIx64, id);
	return buf;
}
