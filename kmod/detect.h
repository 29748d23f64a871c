/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Applies the protocol core's suspicion state machine (proto/detect.c) to the
 * node table and turns its transitions into events.
 */
#ifndef FTD_DETECT_H
#define FTD_DETECT_H

#include "net.h"
#include "peer.h"
#include "proto/wire.h"
#include "proto/watch.h"

/*
 * Whom the timer watches: its k live predecessors, and past a silent run
 * more of them (proto/watch.h). Allocated when the instance first comes
 * up, freed with the namespace; used by the timer alone.
 */
struct ftd_watchlist {
	struct ftd_watch rule;
	u32 gen;			/* ticks, numbering peer->watch_gen */
	u32 n;				/* watched at the last tick */
	u32 ids[FTD_WATCH_MAX];		/* their node ids */
	u32 near_ids[FTD_MAX_OBSERVERS];	/* the k nearest at the last tick, */
	u32 near_incs[FTD_MAX_OBSERVERS];	/* at these incarnations */
	/* scratch of one tick */
	u32 pos[FTD_WATCH_MAX];
	struct ftd_peer *peers[FTD_WATCH_MAX];
	bool vouched[FTD_WATCH_MAX];
};

/* The instance comes up: a watch list, empty. Process context, fn->lock. */
int ftd_detect_start(struct ftd_net *fn);
/* The namespace goes away. */
void ftd_detect_free(struct ftd_net *fn);

struct ftd_arrival {
	u64 ns;			/* CLOCK_MONOTONIC */
	u8 source;		/* enum ftd_stamp_source */
	u64 driver_delay_ns;	/* FTD_STAMP_XDP: from the driver hook to the module */
};

/*
 * A valid, fresh frame from anyone arrived at at_ns: a silence that ran
 * out before that is evidence now (proto/detect.h,
 * ftd_detect_silence_proven). Any context.
 */
void ftd_detect_heard_anyone(struct ftd_net *fn, u64 at_ns);

/* A valid frame from peer arrived. Softirq. */
void ftd_detect_heard(struct ftd_net *fn, struct ftd_peer *peer, const struct ftd_frame *f,
		      struct ftd_arrival at);

/*
 * peer answered a PROBE of ours (at incarnation, received at now_ns, rtt_ns
 * after we sent it; 0: not known): it is there now, as if heard. The
 * answer's frame arrived at arrived_ns (0: it came relayed by another
 * member, whose frame counted as it arrived). Softirq or process context.
 */
void ftd_detect_answered(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation, u64 now_ns,
			 u64 rtt_ns, u64 arrived_ns);

/*
 * Periodic check of every observed node's silence at now_ns, by the tick
 * due at due_ns. Softirq. A tick more than a period late is a stall of
 * ours: silence inside it is not counted (proto/health.h). starved: this
 * tick or the one before was late. Then frames that did arrive may still
 * wait in the receive queues behind us, so silence is no evidence:
 * suspect, but declare nobody dead until a tick on time.
 */
void ftd_detect_tick(struct ftd_net *fn, u64 now_ns, u64 due_ns, bool starved);

#endif
