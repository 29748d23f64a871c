/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The module's outbox (kmod/outbox.h) for a simulated node: the notices
 * one pass of a node (a tick, a received notice frame) sends to the same
 * destination go in one frame, up to FTD_WIRE_NOTICES_MAX, in the order
 * queued. Destinations that get the same notices share one encoded frame,
 * as the copies of a broadcast do outside a pass.
 */
#ifndef FTD_SIM_OUTBOX_H
#define FTD_SIM_OUTBOX_H

#include "proto/wire.h"

/* Notices and destinations one pass holds before it sends what it has. */
#define SIM_OUTBOX_NOTICES	128
#define SIM_OUTBOX_DSTS		64

struct sim_outbox_dst {
	u32 dst;
	u64 has[SIM_OUTBOX_NOTICES / 64];	/* which notices go to dst */
};

struct sim_outbox {
	bool open;
	u32 src;		/* the node whose pass it is */
	u16 hops;		/* the frames': the most of any notice queued */
	u32 n_notices, n_dsts;
	u8 notice[SIM_OUTBOX_NOTICES][FTD_WIRE_NOTICE_LEN];
	struct sim_outbox_dst d[SIM_OUTBOX_DSTS];
	/* the notices for the shares, each with its arc's end (span.h) */
	u32 n_tree;
	u16 tree_hops;
	u8 tree[SIM_OUTBOX_NOTICES][FTD_WIRE_NOTICE_LEN];
	u32 tree_end[SIM_OUTBOX_NOTICES];
};

struct sim;

/* Open v's pass (none may be open). */
void sim_outbox_begin(struct sim *s, u32 v);
/* Close it: send what it queued. */
void sim_outbox_end(struct sim *s);
/*
 * Queue notice n from v to dst[0..cnt) (those the caller keeps), at hops;
 * false when no pass of v's is open or n's kind travels alone
 * (ftd_notice_batchable()): the caller sends it at once.
 */
bool sim_outbox_add(struct sim *s, u32 v, const struct ftd_notice *n, const u32 *dst, u32 cnt,
		    u16 hops);

/*
 * A notice frame of v's holding the len bytes at payload, unsent (net.h);
 * a share (span.h) if share, its arc ending before position end. -1: no
 * memory.
 */
s64 sim_notice_frame(struct sim *s, u32 v, const u8 *payload, u16 len, bool share, u32 end);

/*
 * Queue notice n from v for the shares of the arc (v, end),
 * at hops; false when no pass of v's is open (the caller sends it alone).
 */
bool sim_outbox_tree(struct sim *s, u32 v, const struct ftd_notice *n, u32 end, u16 hops);

/*
 * The len bytes of notices at payload, in one frame from v to each of
 * dst[0..cnt) at hops: one encoding serves every copy (the module's
 * copies differ at most in tx_ns, which the MAC does not cover).
 */
void sim_send_notices(struct sim *s, u32 v, const u8 *payload, u16 len, const u32 *dst, u32 cnt,
		      u16 hops);

#endif
