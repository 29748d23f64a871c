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

struct ftd_members {
	u32 n;
	struct ftd_peer **peers;	/* sorted by id */
	struct ftd_ring ring;
	struct rcu_head rcu;
	u8 mem[];
};

/* Rebuild after the node table or the local node id changed; fn->lock held. */
int ftd_members_rebuild(struct ftd_net *fn);
/* Free at instance exit; fn->lock held. */
void ftd_members_free(struct ftd_net *fn);

/* The peer is live (in the ring) or not. Any context. */
void ftd_members_set_live(struct ftd_net *fn, struct ftd_peer *peer, bool live);

/*
 * The local node's k live successors (it heartbeats to them), predecessors
 * (it observes them) and fingers (it sends notices to them). Caller holds
 * rcu_read_lock; the peers stay valid until it drops it. Returns the count.
 */
u32 ftd_members_successors(struct ftd_net *fn, struct ftd_peer **out, u32 k);
u32 ftd_members_predecessors(struct ftd_net *fn, struct ftd_peer **out, u32 k);
u32 ftd_members_fingers(struct ftd_net *fn, struct ftd_peer **out, u32 max);

#endif
