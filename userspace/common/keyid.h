/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Key ids (include/uapi/linux/ftdetect.h, FTD_KEY_ID_INPUT) as the tools
 * print them: 16 hex digits, or "none" for the all-zero key that an
 * instance without a key signs with. Links kmod/proto/keyring.c (the one
 * definition of a key id) and what it needs.
 */
#ifndef FTU_KEYID_H
#define FTU_KEYID_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/ftdetect.h>

#define FTU_KEYID_BUFSZ 17

/* The id of key, as the kernel computes it. */
uint64_t ftu_key_id(const uint8_t key[FTD_KEY_LEN]);

/* id as text in buf (FTU_KEYID_BUFSZ bytes); returns buf. */
const char *ftu_key_id_format(uint64_t id, char *buf);

struct ftu_print;
struct ftu_config;

/*
 * "key_id" and "accepted_key_ids" of an instance, if it reports them;
 * text as a line each (ftctl show), or brief ("key ID (+2 accepted), ").
 */
void ftu_print_key_ids(struct ftu_print *p, const struct ftu_config *cfg, bool brief);

#endif
