/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What one detection tick decides about one node it watches: the
 * composition of the rules of detect.h, health.h, overload.h, vote.h and
 * watch.h, in the order they apply. The module's tick (detect.c) and the
 * simulator's (userspace/sim/node.c) call it for each watched node and do
 * only the I/O it asks for: the events, the PROBEs, the vote, the
 * declaration. Neither shell writes a rule of its own.
 *
 * A tick is two steps, because the partition rule (partition.h) sits
 * between them and needs the shell's view of the members:
 *
 *   ftd_verdict_silence()   the state the silence leads to; a vote
 *   (ftd_verdict_declares(): the shell asks the partition rule, and
 *    ftd_verdict_partition() holds the node suspect if it must)
 *   ftd_verdict_finish()    the event, and whom to ask, how
 */
#ifndef FTD_PROTO_VERDICT_H
#define FTD_PROTO_VERDICT_H

#include "compat.h"
#include "health.h"
#include "partition.h"
#include "watch.h"

/* What a tick knows of itself: the same for every node it watches. */
struct ftd_tick {
	u64 now_ns;
	u64 due_ns;		/* when it was due: a stalled tick fired late */
	u64 period_ns, timeout_ns;
	u64 ask_every_ns;	/* ftd_detect_ask_every() */
	u64 timing_since_ns;	/* silence before it is none (detect.h); 0: never */
	u64 heard_any_ns;	/* the latest valid frame from anyone; 0: none */
	const struct ftd_slowness *own_rx;	/* our receive path's lag; NULL: none */
	const struct ftd_watch *walk;	/* the walk past a silent run */
	u32 quorum;
	bool stalled;		/* more than a period late */
	bool isolated;		/* hearing nobody from several (detect.h) */
	bool can_tell;		/* several watched: hearing nobody is about us */
	bool excused;		/* starved, or the machine overloaded (overload.h) */
	bool judging;		/* not in a minority (partition.h) */
};

/* One watched node, as the tick reads it. The tick may move baseline_ns. */
struct ftd_watched {
	enum ftd_node_state state;
	u64 last_heard_ns;
	u64 baseline_ns;	/* its silence counts from here at the earliest */
	const struct ftd_slowness *slow;	/* its stalls (health.h); NULL: none */
};

struct ftd_verdict {
	enum ftd_node_state old, state;
	u64 since_ns;		/* its silence counts from here (0: never heard) */
	u64 deadline_ns;	/* the timeout, stretched by stalls (health.h) */
	u64 silent_ns;		/* since its last frame */
	bool vote;		/* with a quorum our timeout is a vote, not a death */
	/* ftd_verdict_finish(): */
	enum ftd_event_type event;	/* 0: none */
	enum ftd_watch_ask ask;
	u64 ask_interval_ns;	/* the least time between two asks */
	u32 helpers;		/* asked through this many (relay.h) */
	bool tell_between;	/* with the ask, the deaths between it and us */
	bool remind;		/* one heartbeat back (detect.h) */
};

/* The tick's first step for one node (near: one of the k nearest). */
void ftd_verdict_silence(const struct ftd_tick *t, bool near, struct ftd_watched *w,
			 struct ftd_verdict *v);

/* Does the verdict declare the node dead, so that the partition rule judges it? */
static inline bool ftd_verdict_declares(const struct ftd_verdict *v)
{
	return v->state == FTD_NODE_DEAD && v->old != FTD_NODE_DEAD;
}

/* Only a majority declares: any other verdict holds the node suspect. */
static inline void ftd_verdict_partition(struct ftd_verdict *v, enum ftd_partition_verdict pv)
{
	if (pv != FTD_PARTITION_APPLY)
		v->state = FTD_NODE_SUSPECT;
}

/* The tick's second step: the event, the ask and the reminder. */
void ftd_verdict_finish(const struct ftd_tick *t, bool near, const struct ftd_watched *w,
			struct ftd_verdict *v);

#endif
