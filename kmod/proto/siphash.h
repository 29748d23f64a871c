/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SipHash-2-4 (Aumasson and Bernstein), streaming form: the frame MAC covers
 * two separate byte ranges, so the core needs init/update/final rather than
 * the kernel's one-shot siphash(), and the same code must run in user space.
 */
#ifndef FTD_PROTO_SIPHASH_H
#define FTD_PROTO_SIPHASH_H

#include "compat.h"

struct ftd_siphash {
	u64 v0, v1, v2, v3;
	u64 tail;	/* pending bytes, little-endian */
	u64 total;	/* bytes absorbed */
};

void ftd_siphash_init(struct ftd_siphash *s, const u8 key[16]);
void ftd_siphash_update(struct ftd_siphash *s, const u8 *data, size_t len);
u64 ftd_siphash_final(struct ftd_siphash *s);

#endif
