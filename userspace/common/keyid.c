// SPDX-License-Identifier: GPL-2.0-only
#include "common/keyid.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/msg.h"
#include "common/print.h"
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

void ftu_print_key_ids(struct ftu_print *p, const struct ftu_config *cfg, bool brief)
{
	char id[FTU_KEYID_BUFSZ];

	if (!FTU_HAS(cfg, FTDETECT_A_KEY_ID))
		return;
	ftu_key_id_format(cfg->key_id, id);
	ftu_print_string(p, "key_id", brief ? "key %s" : "key          %s", id);
	if (brief && cfg->n_accepted_ids)
		ftu_print_text(p, " (+%u accepted)", cfg->n_accepted_ids);
	else if (!brief && !strcmp(id, "none"))
		ftu_print_text(p, " (frames are not authenticated)");
	ftu_print_text(p, brief ? ", " : "\n");
	ftu_print_array_begin(p, "accepted_key_ids");
	for (unsigned int i = 0; i < cfg->n_accepted_ids; i++)
		ftu_print_string(p, NULL, brief ? NULL : i ? "             %s\n" : "accepted     %s\n",
				 ftu_key_id_format(cfg->accepted_ids[i], id));
	ftu_print_array_end(p);
}
