/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What a node knows of another node's registered ranks, from PROC_REG and
 * PROC_DEAD/PROC_EXIT notices that may arrive in any order and more than
 * once. An entry is a registration (regid, unique per node incarnation); an
 * ended registration stays as a tombstone, so that a late or repeated notice
 * is recognised as no news.
 */
#ifndef FTD_PROTO_RANKS_H
#define FTD_PROTO_RANKS_H

#include "compat.h"
#include <linux/ftdetect.h>	/* enum ftd_event_type: how a registration ended */

#define FTD_RANKS_PER_NODE	256

struct ftd_rank_entry {
	u32 job;
	u32 rank;
	u32 regid;
	u32 uid;	/* its owner, as the wire carries it */
	u8 ended;	/* 0: live; else how it ended: FTD_EV_PROC_DEAD,
			 * FTD_EV_PROC_EXIT or FTD_EV_RANKS_DEAD */
};

struct ftd_rank_table {
	u32 n;
	/*
	 * The sum of ftd_digest_rank_word() over the live entries, kept as
	 * they change: what the node's digest says of its ranks (digest.h),
	 * so a lost end of a registration is repaired like a lost death.
	 */
	u64 live_sum;
	/*
	 * The highest regid an entry was evicted at: a notice about a regid
	 * at or below it that is not in the table is one we forgot, not news
	 * (a view carries ended registrations: delivered again otherwise).
	 */
	u32 forgot_upto;
	struct ftd_rank_entry e[FTD_RANKS_PER_NODE];
};

/* Forget every entry: a new incarnation of the node (a restart, a fence). */
static inline void ftd_ranks_clear(struct ftd_rank_table *t)
{
	t->n = 0;
	t->live_sum = 0;
	t->forgot_upto = 0;
}

/* A registration: true if it is news. */
bool ftd_ranks_register(struct ftd_rank_table *t, u32 job, u32 rank, u32 regid, u32 uid);
/*
 * The end of a registration, how = FTD_EV_PROC_DEAD or FTD_EV_PROC_EXIT:
 * true if it is news. copy: a view's copy (FTD_NOTICE_F_VIEW), news only
 * for a registration held live; else the end may overtake its
 * registration, and is kept as a tombstone.
 */
bool ftd_ranks_end(struct ftd_rank_table *t, u32 job, u32 rank, u32 regid, u32 uid, u8 how,
		   bool copy);
/*
 * The node died: end up to max registrations still live (how:
 * FTD_EV_RANKS_DEAD), copying each into out. Returns how many; call again
 * until it returns 0.
 */
u32 ftd_ranks_end_some(struct ftd_rank_table *t, struct ftd_rank_entry *out, u32 max);

#endif
