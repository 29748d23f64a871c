/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A PROBE as proto/fresh.h keeps it (struct ftd_ask), from what the
 * simulator keeps of it: a nonce is made of the time it is made, so the
 * making time is the nonce itself while it is outstanding, and 2 of the 3
 * words are kept (the watch tables are most of the simulator's memory).
 * Observers, voters and reach checks keep theirs so.
 */
#ifndef FTD_SIM_ASK_H
#define FTD_SIM_ASK_H

#include "proto/fresh.h"

static inline struct ftd_ask sim_ask_of(u64 nonce, u64 probe_ns)
{
	return (struct ftd_ask){ .nonce = nonce, .nonce_ns = nonce, .probe_ns = probe_ns };
}

static inline void sim_ask_keep(const struct ftd_ask *a, u64 *nonce, u64 *probe_ns)
{
	*nonce = a->nonce;
	*probe_ns = a->probe_ns;
}

#endif
