/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The writer's side of the status table that /dev/ftdetect maps read-only
 * (layout and reader rules: "The status table" in <linux/ftdetect.h>).
 *
 * Plain C on a memory area, so that the host unit tests drive the very code
 * the module runs, with a reader racing it. The caller provides the area
 * (zeroed), the two private arrays, and one lock around every call: the
 * functions below only ever run between ftd_stab_begin() and
 * ftd_stab_end(), which make the seq counter odd, then even again.
 *
 * The table is a fold of the event stream (ftd_stab_event) plus the changes
 * that have no event (registrations, the node table, restarts).
 */
#ifndef FTD_PROTO_STATUS_H
#define FTD_PROTO_STATUS_H

#include "compat.h"
#include <linux/ftdetect.h>

struct ftd_stab {
	struct ftd_status_hdr *hdr;
	struct ftd_status_node *nodes;
	struct ftd_status_rank *ranks;
	u32 *buckets;
	u64 gen;		/* changes + 1 while a write section is open */
	/*
	 * Private to the writer: the slots of ended (or stale) entries in the
	 * order they ended, the recycling order when the table is full. A
	 * slot is queued at most once (queued[]), so rank_cap entries hold
	 * them all; a queued slot found ALIVE again is skipped.
	 */
	u32 *fifo;
	u8 *queued;
	u32 fifo_head, fifo_len;
};

/* Which registration a rank event is about (events carry no regid). */
struct ftd_stab_ref {
	u32 regid;
	u32 uid;		/* the owner, recorded in a new entry */
	bool local;		/* registered on this node: match by regid alone */
};

/*
 * Bytes of the shared area for these capacities, rounded up to page (a
 * power of two); 0 if they are out of range (see FTD_STAB_MAX_*).
 */
#define FTD_STAB_MAX_NODES	(1U << 20)
#define FTD_STAB_MAX_RANKS	(1U << 22)
size_t ftd_stab_size(u32 node_cap, u32 rank_cap, u32 page);

/*
 * Lay out a zeroed area of ftd_stab_size() bytes. fifo and queued: rank_cap
 * entries each, private to the writer.
 */
void ftd_stab_init(struct ftd_stab *t, void *area, u32 size, u32 node_cap, u32 rank_cap,
		   u32 *fifo, u8 *queued);

void ftd_stab_begin(struct ftd_stab *t);
void ftd_stab_end(struct ftd_stab *t);

/* Apply one event (its seq already assigned). ref: for rank events. */
void ftd_stab_event(struct ftd_stab *t, const struct ftd_event *ev,
		    const struct ftd_stab_ref *ref);

/*
 * A node's state as the node table holds it, for changes that have no event
 * (configuration, a restart heard without a state change, a fenced node
 * forgetting its verdicts). forget: the kernel dropped the node's history
 * (added, replaced, instance restart): its ALIVE remote ranks go STALE.
 */
void ftd_stab_node_set(struct ftd_stab *t, u32 id, u8 state, u32 incarnation, u8 rails_down,
		       u8 nrails, bool forget);
void ftd_stab_node_del(struct ftd_stab *t, u32 id);

/* A registration; an entry that already ended stays ended. */
void ftd_stab_rank_reg(struct ftd_stab *t, u32 node, u32 incarnation, u32 job, u32 rank,
		       const struct ftd_stab_ref *ref);
/*
 * The end of a registration known without its event (filling a new table
 * from the kernel's rank tables): how = FTD_EV_PROC_DEAD, _PROC_EXIT or
 * _RANKS_DEAD.
 */
void ftd_stab_rank_ended(struct ftd_stab *t, u32 node, u32 incarnation, u32 job, u32 rank,
			 const struct ftd_stab_ref *ref, u8 how);

/* Header fields that follow the configuration. */
void ftd_stab_set_local(struct ftd_stab *t, u32 node, u32 incarnation, u32 cluster, bool up);
void ftd_stab_set_event_seq(struct ftd_stab *t, u64 seq);

/* Lookups, for the writer and the tests. */
struct ftd_status_node *ftd_stab_node_find(struct ftd_stab *t, u32 id);

#endif
