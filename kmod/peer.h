/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The node table: every configured member, the local node included. Lookups
 * from the receive path and the timer are RCU-protected xarray loads; changes
 * happen under ftd_net.lock; a removed peer is freed after a grace period.
 */
#ifndef FTD_PEER_H
#define FTD_PEER_H

#include <linux/types.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/socket.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/rhashtable.h>
#include "net.h"
#include "proto/iat.h"
#include "proto/relay.h"
#include "proto/delay.h"
#include "proto/ranks.h"
#include "proto/fresh.h"
#include "proto/health.h"
#include "proto/seq.h"
#include "proto/vote.h"

union ftd_addr {
	struct sockaddr sa;
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
};

/*
 * What a rail's heartbeats tell of their timing. Only a node that sends us
 * heartbeats (one we observe) has any: allocated at its first heartbeat
 * (detect.c), not held for every node of the table.
 */
struct ftd_rail_timing {
	struct ftd_iat iat;
	struct ftd_delay driver_delay;	/* module receive time - XDP stamp */
};

/* One address (rail) of a node, with that rail's heartbeat stream state. */
struct ftd_rail {
	union ftd_addr addr;
	u32 node;			/* the node it is a rail of (addrs.c) */
	struct rhash_head addr_node;	/* in fn->addrs (addrs.h) */
	u8 route;			/* routes.h: the timer's guess of its route
					 * cache's slot */
	atomic64_t tx_seq;		/* last sequence number sent on this rail */
	u64 rx_seq;			/* highest sequence number received */
	u64 rx_tx_ns;			/* the sender's clock in that frame */
	u64 rx;				/* frames accepted */
	u64 lost;			/* sequence gaps */
	u64 report_key;			/* newest IFACE report applied (proto/rail.h) */
	u32 back;			/* times it came back up (its RDMA endpoint may be
					 * new: rdma_ud.c finds its queue pair again) */
	u64 last_heard_ns;		/* CLOCK_MONOTONIC, 0 if never */
	u8 stamp;			/* enum ftd_stamp_source of the last frame */
	struct ftd_rail_timing *timing;	/* NULL until its first heartbeat; under the
					 * peer's lock, freed with the peer */
};

struct ftd_peer {
	u32 id;
	u8 nrails;
	spinlock_t lock;		/* everything below */
	bool self;
	enum ftd_node_state state;
	u32 incarnation;
	u64 last_heard_ns;		/* max over rails; CLOCK_MONOTONIC */
	u64 baseline_ns;		/* silence counts from here at the latest: since
					 * observing it, or since it was reported alive */
	u64 fence_sent_ns;		/* last DEAD notice sent to it directly */
	u64 burst_counted_ns;		/* the burst of deaths its death was counted in
					 * (proto/partition.h: a member counts once) */
	u64 live_since_ns;		/* members.c, under ring_lock: when the ring last
					 * took it live (0: at its publication);
					 * READ_ONCE elsewhere */
	u32 watch_gen;			/* detect.c, the timer's own: the tick that
					 * last watched it (struct ftd_watchlist) */
	u32 dead_told;			/* the incarnation whose NODE_DEAD was delivered
					 * here: once each, even if we are fenced, forget
					 * it, and learn it again (but see
					 * ftd_peer_alive_again) */
	struct ftd_rank_table *ranks;	/* its registered ranks, allocated on first use
					 * and grown as they come (proto/ranks.h) */
	u8 rails_down;			/* bit i: rail i reported IFACE_DEAD */
	struct ftd_slowness slow;	/* how late its ticks ran (proto/health.h) */
	struct ftd_votes votes;		/* with quorum > 1: against it (proto/vote.h) */
	u64 tx;
	u64 hb_tick;			/* our timer's tick of its last heartbeat (timer only) */
	struct ftd_fresh fresh;		/* proven incarnation, notice windows */
	struct ftd_relay relay;		/* PROBE_REQs waiting for its answer (relay.c) */
	/* Frames refused, by reason (FTDETECT_A_NODE_RX_*); WRITE_ONCE. */
	u64 rx_badmac, rx_stale, rx_replay, rx_unproven;
	u64 badmac_ns;			/* its last bad MAC if none accepted since, else 0 */
	u64 key_id;			/* keys.h: its last authentic frame's key, 0: none */
	u8 view_pending;		/* view.c: what to send it */
	u64 view_sent_ns;		/* view.c: when we last sent it our view */
	bool digest_pending;		/* repair.c: its digest, to compare with ours */
	struct ftd_digest digest;
	u64 contact_sent_ns;		/* repair.c: we last sent it a contact digest */
	u64 contact_answered_ns;	/* repair.c: and last answered one of its own */
	struct ftd_peer *successor;	/* set when a changed node table replaced it
					 * (ftd_peer_add): its state moved there, and
					 * what is changed here is lost */
	bool deleted;			/* taken out of the node table (ftd_peer_del):
					 * nothing more is learnt or told of it */
	struct rcu_head rcu;
	struct ftd_rail rails[];	/* nrails of them: most nodes have one or two */
};

/*
 * Add a node, or replace it when its addresses changed: the node is the same,
 * so what we know of it (state, incarnation, ranks, proofs, the deaths told)
 * moves to the new peer; only our streams to it restart. fn->lock held.
 */
int ftd_peer_add(struct ftd_net *fn, u32 id, const union ftd_addr *addrs, u8 nrails,
		 struct netlink_ext_ack *extack);
/* The peers' slab caches, for the module's life (after the last RCU free). */
int ftd_peer_caches_init(void);
void ftd_peer_caches_exit(void);
/* Remove a node; fn->lock held. -ENOENT if unknown. */
int ftd_peer_del(struct ftd_net *fn, u32 id);
/* Remove every node; fn->lock held, instance down. */
void ftd_peer_del_all(struct ftd_net *fn);
/* Re-derive which peer is the local node after the node id changed. */
void ftd_peer_mark_self(struct ftd_net *fn);
/*
 * The instance restarts: states and timings start over; incarnations, proofs
 * and stream positions stay (a frame captured before must stay stale).
 */
void ftd_peer_reset_all(struct ftd_net *fn);

/*
 * A new peer struct for a node (added, or replaced by a changed node table):
 * its heartbeat streams start in a new epoch (proto/seq.h), above every
 * seq this incarnation sent the node before, which it would refuse.
 */
void ftd_peer_start_streams(struct ftd_net *fn, struct ftd_peer *peer);
/*
 * peer lost track of our streams (it PROBEd us): move every rail's stream
 * to a new epoch; returns its floor, for our PROBE_ACK. Any context.
 */
u64 ftd_peer_restart_streams(struct ftd_net *fn, struct ftd_peer *peer);

/*
 * A higher incarnation is a restart: its streams and reports begin again.
 * Returns the old incarnation's rank table, detached (NULL if none): the
 * caller reports what is still registered there and frees it.
 */
struct ftd_rank_table *ftd_peer_new_incarnation(struct ftd_peer *peer, u32 incarnation);

/*
 * The peer's rank table, allocated if need be, with room for one more
 * entry if it can be had (ftd_ranks_grow_to; the old one is freed at
 * once: read it under the lock only). peer->lock held. NULL: no memory.
 */
struct ftd_rank_table *ftd_peer_ranks(struct ftd_peer *peer);

/* Rail index whose address equals src, or -1. */
int ftd_peer_rail_of(const struct ftd_peer *peer, const union ftd_addr *src);
bool ftd_addr_equal(const union ftd_addr *a, const union ftd_addr *b);

/* What the node table holds now (FTDETECT_A_STATS_MEM_*), in bytes. */
struct ftd_peer_memory {
	u64 nodes;	/* the peers, each the object of its number of rails,
			 * and the timing figures of rails heard (struct ftd_rail_timing) */
	u64 ranks;	/* their rank tables */
};
/* A walk over every node, a lock each: for an admin's stats. Process context. */
void ftd_peer_memory(struct ftd_net *fn, struct ftd_peer_memory *mem);

/*
 * Lock the node's current peer: peer, or the one that replaced it since the
 * caller found it (its successor holds its state). Under rcu_read_lock: a
 * successor is freed only a grace period after its own replacement.
 */
static inline struct ftd_peer *ftd_peer_lock_current(struct ftd_peer *peer)
{
	spin_lock_bh(&peer->lock);
	while (unlikely(peer->successor)) {
		struct ftd_peer *next = peer->successor;

		spin_unlock_bh(&peer->lock);
		peer = next;
		spin_lock_bh(&peer->lock);
	}
	return peer;
}

/* The node's current peer, without its lock (it may be replaced after). Under RCU. */
static inline struct ftd_peer *ftd_peer_current(struct ftd_peer *peer)
{
	struct ftd_peer *next;

	while (unlikely((next = READ_ONCE(peer->successor))))
		peer = next;
	return peer;
}

/* Caller holds rcu_read_lock (any flavour) or fn->lock. */
static inline struct ftd_peer *ftd_peer_find(struct ftd_net *fn, u32 id)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held() && !rcu_read_lock_bh_held() &&
			 !lockdep_is_held(&fn->lock), "ftd_peer_find without RCU or lock");
	return xa_load(&fn->peers, id);
}

/* Our own address on rail, if the table has it. Under RCU. */
static inline const union ftd_addr *ftd_peer_own_addr(struct ftd_net *fn, u8 rail)
{
	struct ftd_peer *self = ftd_peer_find(fn, fn->cfg.node);

	return self && rail < self->nrails ? &self->rails[rail].addr : NULL;
}

/*
 * peer is alive again at the incarnation whose NODE_DEAD we delivered (we
 * are a minority or a cut-off node that declared it, forgot it and hear it
 * now; our readers got NODE_ALIVE): that death was false, so its real one
 * must be delivered too, not taken for the same. Under peer->lock.
 */
static inline void ftd_peer_alive_again(struct ftd_peer *peer)
{
	lockdep_assert_held(&peer->lock);
	if (peer->dead_told == peer->incarnation)
		peer->dead_told = 0;
}

#endif
