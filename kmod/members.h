/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instance's view of the ring (proto/ring.h): members sorted by node id,
 * live or not. Rebuilt under ftd_net.lock when the node table changes and
 * published with RCU; liveness changes from the receive path and the timer
 * under ftd_net.ring_lock.
 */
#ifndef FTD_MEMBERS_H
#define FTD_MEMBERS_H

#include "net.h"
#include "peer.h"
#include "proto/ring.h"
#include "proto/watch.h"

struct ftd_members {
	u32 n;
	struct ftd_peer **peers;	/* sorted by id */
	struct ftd_ring ring;
	struct rcu_head rcu;
	u8 mem[];
};

/*
 * A node table change is made in two steps, so that one that cannot get
 * memory changes nothing, and no peer is freed while a published ring
 * still points at it (fn->lock held for both):
 *  - prepare: the ring as it will be, with drop left out and add put in
 *    its place (either may be NULL); NULL when out of memory;
 *  - publish: after the xarray change, replace the ring, each member live
 *    or not by its state (ftd_detect_in_ring). Only then may a dropped
 *    peer go to call_rcu. A prepared ring not published is discarded.
 */
struct ftd_members *ftd_members_prepare(struct ftd_net *fn, const struct ftd_peer *drop,
					struct ftd_peer *add);
void ftd_members_publish(struct ftd_net *fn, struct ftd_members *m);
void ftd_members_discard(struct ftd_members *m);
/* A new ring of the same members (the instance comes up); fn->lock held. */
int ftd_members_rebuild(struct ftd_net *fn);
/* Free at instance exit; fn->lock held. */
void ftd_members_free(struct ftd_net *fn);

/*
 * The peer's state changed: it takes or leaves its place in the ring as the
 * state says (ftd_detect_in_ring). Any context, without peer->lock; a
 * change racing a publish is seen by one or the other.
 */
void ftd_members_sync(struct ftd_net *fn, struct ftd_peer *peer);

/* The live members, ourselves included, and the lowest of their ids. */
u32 ftd_members_live(struct ftd_net *fn, u32 *lowest);

/*
 * Up to max live members other than the local node, drawn at random
 * (repeats possible). Caller holds rcu_read_lock. Returns the count.
 */
u32 ftd_members_random(struct ftd_net *fn, struct ftd_peer **out, u32 max);

/*
 * The ids of up to max (at most FTD_REACH_SAMPLE) distinct live members
 * other than the local node, drawn uniformly (proto/ring.h
 * ftd_ring_sample_live). Any context. Returns the count.
 */
u32 ftd_members_sample(struct ftd_net *fn, u32 *ids, u32 max);

/*
 * Up to max (at most FTD_MAX_OBSERVERS) live members other than the local
 * node, in turn from *cursor (proto/ring.h ftd_ring_sweep_live). Caller
 * holds rcu_read_lock. Returns the count.
 */
u32 ftd_members_sweep(struct ftd_net *fn, struct ftd_peer **out, u32 max, u32 *cursor);

/*
 * The local node's k live successors (it heartbeats to them) and fingers
 * (it sends notices to them); its predecessors: _far below. Caller holds
 * rcu_read_lock; the peers stay valid until it drops it. Returns the count.
 */
u32 ftd_members_successors(struct ftd_net *fn, struct ftd_peer **out, u32 k);
/* Node id's k live predecessors (it need not be live): those that send it heartbeats. */
u32 ftd_members_predecessors_of(struct ftd_net *fn, u32 id, struct ftd_peer **out, u32 k);
/* Up to max of node id's live successors (it need not be live): its observers. */
u32 ftd_members_successors_of(struct ftd_net *fn, u32 id, struct ftd_peer **out, u32 max);
u32 ftd_members_fingers(struct ftd_net *fn, struct ftd_peer **out, u32 max);
/*
 * The shares of the arc (from, end) of our ring (proto/span.h), from left
 * out, end the node id it ends before (from: the whole ring): up to max,
 * each member in to[i] with its share's end in ends[i]; from may be a node
 * no longer ours (ftd_span_from_gone). 0 when the arc holds no live member.
 */
u32 ftd_members_shares(struct ftd_net *fn, u32 from, u32 end, struct ftd_peer **to, u32 *ends,
		       u32 max);
/*
 * The members held dead (ftd_watch_tells_of) after node id `from` and
 * before the local node, nearest `from` first, as far as the walk of
 * proto/watch.h (ftd_watch_between_*) goes. Caller holds rcu_read_lock.
 * Returns the count.
 */
u32 ftd_members_dead_between(struct ftd_net *fn, u32 from,
			     struct ftd_peer *out[FTD_WATCH_TELL_MAX]);
/*
 * Up to max of the local node's live predecessors (it observes them), past
 * FTD_MAX_FINGERS (pos_buf: scratch); *live: the live members, ourselves
 * included.
 */
u32 ftd_members_predecessors_far(struct ftd_net *fn, struct ftd_peer **out, u32 *pos_buf,
				 u32 max, u32 *live);

#endif
