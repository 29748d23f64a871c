// SPDX-License-Identifier: GPL-2.0-only
#include "common/keyid.h"

#include <inttypes.h>
#include <stdio.h>

#include "common/json.h"
#include "common/msg.h"
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

void ftu_json_key_ids(struct ftu_json *j, const struct ftu_config *cfg)
{
	char id[FTU_KEYID_BUFSZ];

	if (!FTU_HAS(cfg, FTDETECT_A_KEY_ID))
		return;
	ftu_json_kv_string(j, "key_id", ftu_key_id_format(cfg->key_id, id));
	ftu_json_key(j, "accepted_key_ids");
	ftu_json_array_begin(j);
	for (unsigned int i = 0; i < cfg->n_accepted_ids; i++)
		ftu_json_string(j, ftu_key_id_format(cfg->accepted_ids[i], id));
	ftu_json_array_end(j);
}
