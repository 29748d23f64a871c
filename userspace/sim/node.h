/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The node model: what one ftdetect instance does, in the module's order,
 * over the protocol core. Each function names the module code it stands
 * for; only the kernel plumbing (sockets, locks, RCU, events to readers) is
 * left out. The rules themselves (ring, fingers, suspicion state machine,
 * frame and notice codec, MAC) are the core's functions, called here.
 *
 *   sim_node_tick      timer.c timer_fired: send_heartbeats, then
 *                      detect.c ftd_detect_tick (the isolation rule,
 *                      watch_further past a silent run, note_observed,
 *                      ftd_detect_on_silence per watched node, PROBEs of
 *                      suspects and of nodes past the run, quorum votes)
 *   probe / answer     fresh.c ftd_fresh_ping and the PROBE_ACK: an
 *                      answer counts as hearing the node
 *   sim_node_rx        hb_rx.c ftd_hb_rx: decode, MAC, last_rx; then
 *                      detect.c ftd_detect_heard or dissem.c ftd_dissem_rx
 *   declare / forward  dissem.c ftd_dissem_declare_dead, broadcast
 *   repair             repair.c: the DIGEST to a random live member, and
 *                      the views exchanged when the digests differ
 *
 * Per node the simulator keeps the module's per-node state that matters to
 * these rules: last_rx, the heartbeat sequence, and the watched
 * predecessors (struct sim_obs: the fields of struct ftd_peer that
 * ftd_detect_tick and ftd_detect_heard use): k of them, more past a
 * silent run (proto/watch.h). Every other member's state is
 * ALIVE (converged start: all nodes have heard each other) unless the node
 * learnt its death (view.h).
 */
#ifndef FTD_SIM_NODE_H
#define FTD_SIM_NODE_H

#include "proto/compat.h"
#include "proto/fresh.h"
#include "proto/lease.h"
#include "proto/partition.h"
#include "proto/watch.h"
#include "sim/evq.h"

struct sim;

/* One observed predecessor: the fields of struct ftd_peer the rules use. */
struct sim_obs {
	u32 pos;
	u8 state;		/* enum ftd_node_state */
	u64 last_heard_ns;
	u64 baseline_ns;
	u64 rx_seq;
	/*
	 * Our PROBE to it, struct ftd_ask less nonce_ns: a nonce here is the
	 * time it was made (ask_of() in node.c).
	 */
	u64 nonce;
	u64 probe_ns;
};

struct sim_node {
	u64 last_rx_ns;		/* any valid frame */
	u64 isolated_since_ns;	/* hearing nobody since (detect.c), 0: not isolated */
	u32 reach_cursor;	/* detect.c check_own_reach: whom it asks next */
	u64 tx_seq;		/* heartbeats sent */
	u32 incarnation;
	u8 up;			/* running; 0 once crashed */
	u8 started;		/* ticked once: it heard its predecessors at start */
	u16 n_obs;
	struct sim_obs *wide;	/* watching past a silent run: FTD_WATCH_MAX
				 * entries, allocated the first time; else the
				 * k of struct sim.obs */
	struct ftd_watch watch;	/* proto/watch.h */
	u64 probe_rtt_ns;	/* ftd_watch_rtt over its answered PROBEs */
	u8 fenced;		/* received its own DEAD notice */
	u8 fenced_why;		/* enum sim_fence: how it fenced itself, 0: it did not */
	u64 fenced_ns;		/* ... and when */
	struct ftd_partition part;	/* proto/partition.h: only a majority declares */
	struct ftd_lease lease;		/* proto/lease.h */
	struct sim_reach *reach;	/* proto/reach.h: allocated at its first check */
	u64 learned_ns;		/* repair: when its view last changed */
	u64 digest_next_ns;	/* repair: when it sends its digest next */
};

/* The heartbeat timer of node v fired at s->now. */
void sim_node_tick(struct sim *s, u32 v);

/* Frame m arrives at s->now. */
void sim_node_rx(struct sim *s, const struct sim_msg *m);

/* A registered rank of node v died without deregistering (proc.c): PROC_DEAD. */
void sim_node_proc_dead(struct sim *s, u32 v, u32 job, u32 rank, u32 regid);

/* Node id on the wire of the node at ring position pos, and back. */
static inline u32 sim_node_id(u32 pos)
{
	return pos + 1;
}

static inline u32 sim_node_pos(u32 id)
{
	return id - 1;
}

#endif
