/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Notices and their reliable broadcast (see the uapi header): originate a
 * decision, apply one received, forward it to the fingers the first time.
 */
#ifndef FTD_DISSEM_H
#define FTD_DISSEM_H

#include "net.h"
#include "peer.h"
#include "proto/wire.h"

/*
 * This node, as observer, declares peer dead at incarnation. Softirq.
 * edges: live nodes it watches past a silent run (detect.c), told directly.
 */
/*
 * The death that would leave us in a minority (proto/partition.h) is not
 * applied here but passed on, before we fence: the rest of our side then
 * counts it too and fences with us, where it would otherwise wait for a
 * declaration that none of our side may be left to make.
 */
void ftd_dissem_last_straw(struct ftd_net *fn, u32 subject, u32 incarnation);
void ftd_dissem_declare_dead(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation,
			     struct ftd_peer *const *edges, u32 n_edges);
/* With quorum > 1: this observer votes peer dead; declares it on a quorum. */
void ftd_dissem_vote(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation);
/* This node heard peer first at incarnation: tell the group it is alive. */
void ftd_dissem_announce_alive(struct ftd_net *fn, u32 node, u32 incarnation);
/* This node leaves the cluster cleanly. */
void ftd_dissem_announce_left(struct ftd_net *fn);
/* A rank of this node registered, died or exited. */
void ftd_dissem_proc(struct ftd_net *fn, u8 kind, u32 job, u32 rank, u32 regid, u32 uid);
/* peer, which we hold dead, is still talking: tell it, at most once a timeout. */
void ftd_dissem_tell_dead(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation);
/*
 * A suspect asked through helpers: tell it the deaths we know between it
 * and us (proto/watch.h ftd_watch_tells_between). Caller holds
 * rcu_read_lock.
 */
void ftd_dissem_tell_between(struct ftd_net *fn, struct ftd_peer *peer);

/*
 * One of peer's rails went silent after heartbeat rail_seq (dead), or
 * carries heartbeats again from rail_seq on.
 */
void ftd_dissem_iface(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation, u8 rail,
		      bool dead, u64 rail_seq);

/*
 * peer came back at a newer incarnation while we held the old one
 * (old_inc) alive: it restarted within the timeout, nobody declared it,
 * yet that incarnation and its ranks are gone. Report its death and what
 * was registered in ranks (its detached table, freed here), here only:
 * every node infers it from the new incarnation itself. NULL ranks: none.
 */
void ftd_dissem_restarted(struct ftd_net *fn, struct ftd_peer *peer, u32 old_inc,
			  struct ftd_rank_table *ranks);

/* Send n to peer directly, on every rail. Any context, under RCU. */
void ftd_dissem_send_to(struct ftd_net *fn, struct ftd_peer *peer, const struct ftd_notice *n);

/*
 * A notice frame f of cnt notices, checked whole (ftd_notices_check) and
 * fresh, arrived from sender. Softirq.
 */
void ftd_dissem_rx(struct ftd_net *fn, struct ftd_peer *sender, const struct ftd_frame *f,
		   u16 cnt);

#endif
