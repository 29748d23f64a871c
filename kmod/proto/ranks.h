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

#define FTD_RANKS_PER_NODE	256	/* the most a table holds */
#define FTD_RANKS_FIRST		8	/* a new table's room: it doubles as it fills */

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
	u32 room;	/* entries e holds: FTD_RANKS_FIRST, doubled up to FTD_RANKS_PER_NODE */
	struct ftd_rank_entry e[];
};

/* The bytes of a table with room entries. */
#define FTD_RANKS_SIZE(room) \
	(sizeof(struct ftd_rank_table) + (size_t)(room) * sizeof(struct ftd_rank_entry))

/*
 * Sized to the registrations it keeps, live and ended: a node with a few
 * ranks costs a few entries, not FTD_RANKS_PER_NODE (one whose jobs come
 * and go fills up with ended ones, up to it). Before a notice may add an
 * entry, the shell grows a full table to this room (0: no need, room left
 * or at the most), moving the entries over. One that cannot grow (no
 * memory) takes no new entry: the notice is no news yet, and the views
 * (digest.h) bring it again; it forgets only at FTD_RANKS_PER_NODE.
 */
static inline u32 ftd_ranks_grow_to(const struct ftd_rank_table *t)
{
	if (t->n < t->room || t->room >= FTD_RANKS_PER_NODE)
		return 0;
	if (!t->room)
		return FTD_RANKS_FIRST;
	return t->room * 2 < FTD_RANKS_PER_NODE ? t->room * 2 : FTD_RANKS_PER_NODE;
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
