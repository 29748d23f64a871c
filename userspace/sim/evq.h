/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event queue: what happens next, in time order.
 *
 * Two kinds of events. Frames in flight (struct sim_msg) are kept in a
 * calendar: a wheel of buckets of 2^wb ns spanning a few times the largest
 * likely latency, each sorted (counting sort on the time, stable in
 * insertion order) when it comes up; the rare frame beyond the wheel waits
 * in a 4-ary heap. Frames are served by (arrival time, insertion order), so
 * a run is a pure function of its seed. Heartbeat ticks are strictly
 * periodic (the module's hrtimer, never late here): node v ticks at
 * phase[v] + i * period, so they need only the nodes sorted by phase and a
 * cursor. At equal times frames come before ticks: what arrived by the
 * tick is seen by it.
 */
#ifndef FTD_SIM_EVQ_H
#define FTD_SIM_EVQ_H

#include "proto/compat.h"

/* A frame on its way from src to dst (node positions). */
struct sim_msg {
	u32 src;
	u32 dst;
	u64 ref;	/* heartbeat: its sequence number; notice: its frame (net.h) */
	u16 hops;	/* notices: hops from the origin, kept out of band */
	u8 type;	/* enum ftd_frame_type */
	u32 about;	/* indirect probes: the suspect, or the requester */
};

/* A queued frame: 16 bytes; the frame itself is msgs[msg]. */
struct sim_ev {
	u64 t;
	u32 order;	/* insertion order, compared modulo 2^32 */
	u32 msg;
};

struct sim_bucket {
	struct sim_ev *e;
	u32 len, cap, pos;	/* e[pos..len) are waiting */
	bool sorted;
};

struct sim_evq {
	/* the wheel: buckets [cur, cur + nb) by absolute index t >> wb */
	u32 wb, nb;
	struct sim_bucket *b;
	u64 cur;		/* no waiting frame before this bucket */
	u64 scan;		/* nor before this one */
	size_t in_wheel;
	struct sim_ev *tmp;	/* sort scratch */
	u32 tmp_cap;
	u32 *count;		/* sort scratch: 2^wb + 1 counters */
	/* beyond the wheel */
	struct sim_ev *heap;
	size_t len, cap;
	/* frames */
	struct sim_msg *msgs;
	u32 *free_msgs;
	size_t n_msgs, n_free, in_flight, peak;
	u32 order;
	u64 last;		/* time of the last event taken */
	/* periodic ticks */
	u32 n;
	u32 *who;	/* nodes sorted by phase */
	u64 *phase;	/* phase of who[i], in [0, period) */
	u64 period;
	u64 round;
	u32 cursor;
};

enum sim_ev_kind {
	SIM_EV_TICK,
	SIM_EV_MSG,
};

/*
 * n nodes, node v ticking at phase[v] + i * period (phase[v] < period);
 * span: the latency most frames stay under (sizes the wheel).
 */
int sim_evq_init(struct sim_evq *q, u32 n, const u64 *phase, u64 period, u64 span);
void sim_evq_free(struct sim_evq *q);

/* A frame arriving at time t (not before the last event taken). -1: out of memory. */
int sim_evq_push(struct sim_evq *q, u64 t, const struct sim_msg *m);

/* Time of the next event (ticks never run out). */
u64 sim_evq_next_time(struct sim_evq *q);

/* Take the next event: a tick of *node, or the frame *m. */
enum sim_ev_kind sim_evq_pop(struct sim_evq *q, u64 *t, u32 *node, struct sim_msg *m);

#endif
