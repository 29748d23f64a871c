/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The spanning broadcast (kmod/proto/span.h) for simulated nodes, with
 * the module's span.c: each share a node sends is kept until its holder
 * acknowledges it, sent again, or handed over to the holder's own shares,
 * when the sender's share timer fires (a message to itself,
 * SIM_MSG_SPAN_TIMER, never lost). --flood: none of it.
 *
 * A share is a notice frame of its own, flagged FTD_WIRE_F_SHARE with its
 * arc's end, as the module's; the acknowledgement names the frame
 * (sim_msg.ref, where the module's names its seq). A frame is kept while
 * its share waits, so that name is unique meanwhile.
 */
#ifndef FTD_SIM_SPAN_H
#define FTD_SIM_SPAN_H

#include "proto/span.h"

struct sim_span_wait {
	u64 first_ns, sent_ns;
	u32 frame;	/* net.h: one reference held */
	u32 to, end;	/* the share [to, end) */
	u32 next;	/* the sender's next waiting share, SIM_SPAN_NONE: none */
	u16 hops;
	u8 sends;
};

#define SIM_SPAN_NONE	0xffffffffU

struct sim_span {
	struct sim_span_wait *w;
	u32 cap, free;	/* free: the first unused entry, a list through next */
	u32 *head;	/* per node: its first waiting share */
	u64 *timer_at;	/* per node: when its share timer fires, 0: not armed */
	u64 *forwarded;	/* per node, a bit per item (view.h): forwarded in a share */
	u32 words;	/* of forwarded, per node */
	u64 resends, handovers, drops;
};

struct sim;
struct sim_msg;

/* words: the view's bits of items per node. */
int sim_span_init(struct sim_span *sp, u32 nodes, u32 words);
void sim_span_free(struct sim_span *sp, u32 nodes);

/*
 * Has v forwarded item in a share already? If not, it now has. A share
 * that brings nothing v has not forwarded yet is a copy (sent again after
 * a lost acknowledgement, or another declarer's tree): acknowledged, not
 * forwarded again. News v was told directly is still forwarded with the
 * share that brings it.
 */
bool sim_span_forwarded(struct sim *s, u32 v, u32 item);

/*
 * The len bytes of notices from v as the shares of the arc (v, end) of
 * v's ring (end == v: all of it), each frame at hops.
 */
void sim_span_send(struct sim *s, u32 v, u32 end, const u8 *payload, u16 len, u16 hops);
/* v received the share m: acknowledge it to its sender. */
void sim_span_ack(struct sim *s, u32 v, const struct sim_msg *m);
/* m acknowledges a share of its receiver's. */
void sim_span_acked(struct sim *s, const struct sim_msg *m);
/* v's share timer m fired: its shares due are sent again or handed over. */
void sim_span_timer(struct sim *s, const struct sim_msg *m);

#endif
