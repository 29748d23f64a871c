/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The cluster's keys: one that signs every frame we send, and up to
 * FTD_KEYS_ACCEPTED_MAX more whose frames are accepted too, so that a
 * running cluster changes its key in three rounds without a node ever
 * refusing another's heartbeats (include/uapi/linux/ftdetect.h, section 4).
 */
#ifndef FTD_PROTO_KEYRING_H
#define FTD_PROTO_KEYRING_H

#include "compat.h"
#include <linux/ftdetect.h>

#define FTD_KEYRING_MAX	(1 + FTD_KEYS_ACCEPTED_MAX)

struct ftd_keyring {
	u8 n;				/* keys held, >= 1 */
	u8 key[FTD_KEYRING_MAX][FTD_KEY_LEN];	/* [0] signs; all verify */
	u64 id[FTD_KEYRING_MAX];	/* ftd_key_id() of each */
};

/* FTD_KEY_ID_INPUT under key: names a key without revealing it. */
u64 ftd_key_id(const u8 key[FTD_KEY_LEN]);

/*
 * The ring of primary followed by the n_accepted keys at accepted (each
 * FTD_KEY_LEN bytes, at most FTD_KEYS_ACCEPTED_MAX); an accepted key equal to
 * one already held is held once.
 */
void ftd_keyring_init(struct ftd_keyring *r, const u8 primary[FTD_KEY_LEN],
		      const u8 *accepted, unsigned int n_accepted);

/*
 * Which key of the ring made the MAC of the frame of len bytes at buf: its
 * index (0: the primary, tried first, so a cluster not rotating pays one
 * MAC per frame), or -1 if none did (a frame nobody accepts costs n MACs).
 */
int ftd_keyring_verify(const struct ftd_keyring *r, const u8 *buf, size_t len);

#endif
