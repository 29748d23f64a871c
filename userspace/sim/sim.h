/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftdsim: a discrete-event simulator of the ftdetect protocol at scale,
 * built from the very protocol core the module compiles (kmod/proto/).
 * See docs/simulation.md for the model and what it assumes.
 *
 *   evq.c       event queue (frames in flight, periodic ticks)
 *   rng.c       deterministic random streams; mem.c counted allocations
 *   net.c       network model (latency, jitter, loss, partition)
 *   view.c      per-node knowledge and ring views over one shared ring
 *   quorum.c    votes, with quorum q > 1
 *   minority.c  a node fences itself: partition rule, reach check, lease
 *   node.c      node model (the module's tick, receive and broadcast paths)
 *   scenario.c  failures: what fails, when, and who must learn it
 *   report.c    metrics, checks, table and JSON
 *   sim.c       one run: set up, loop, sum up
 *   main.c      command line
 */
#ifndef FTD_SIM_SIM_H
#define FTD_SIM_SIM_H

#include "sim/evq.h"
#include "sim/net.h"
#include "sim/view.h"
#include "sim/node.h"
#include "sim/report.h"
#include "sim/quorum.h"
#include "sim/outbox.h"
#include "sim/rng.h"
#include "sim/span.h"
#include "sim/minority.h"

enum sim_scenario {
	SIM_SC_SINGLE,		/* one node dies */
	SIM_SC_ADJACENT,	/* consecutive nodes in ring order die at once */
	SIM_SC_PARTITION,	/* a set of nodes is cut off from the rest */
	SIM_SC_PROC,		/* a registered rank crashes: PROC_DEAD, no timeout */
	__SIM_SC_MAX
};

enum sim_layout {
	SIM_LAYOUT_CONTIGUOUS,	/* consecutive node ids (a rack, a chassis) */
	SIM_LAYOUT_RANDOM,	/* anywhere */
};

struct sim_config {
	u32 nodes;
	enum sim_scenario scenario;
	u64 period_ns;
	u64 timeout_ns;
	u32 k;			/* observers of each node */
	u32 quorum;		/* q: votes that declare a node, 1..k (1: no votes) */
	u64 isolated_after_ns;	/* what-if: the isolation rule's silence; 0: the
				 * suspicion delay (timeout / 2), as the module */
	bool no_repair;		/* what-if: no digests (the module before repair.c) */
	bool no_relay;		/* what-if: no indirect probes (before relay.c) */
	bool no_tell_preds;	/* what-if: a declarer tells the broadcast only */
	bool declare_unproven;	/* what-if: no ftd_detect_silence_proven() */
	bool flood;		/* what-if: notices flooded over the fingers (wire v6) */
	struct sim_net_config net;
	u32 adjacent;		/* SIM_SC_ADJACENT: how many */
	u32 cut;		/* SIM_SC_PARTITION: how many */
	enum sim_layout cut_layout;
	enum sim_cut_mode cut_mode;
	s64 first;		/* position of the (first) failing node, -1: drawn */
	u64 warmup_ns;		/* failure time; 0: 2 timeouts */
	u64 tail_ns;		/* simulated after all know; 0: timeout + 2 periods */
	u64 limit_ns;		/* give up this long after the failure; 0: see sim.c */
	bool stop_at_false;	/* end the run at the first false declaration */
	u64 seed;
};

/* Defaults of every field (period 10ms, timeout 50ms, k 2, ...). */
void sim_config_default(struct sim_config *cfg);
/* NULL if cfg can run, else why not. */
const char *sim_config_check(const struct sim_config *cfg);

struct sim {
	const struct sim_config *cfg;
	u64 now;
	u64 t_fail;
	int err;		/* -1: out of memory or out of items; the run stops */
	u8 key[FTD_KEY_LEN];
	u32 cluster;
	struct sim_evq q;
	struct sim_net net;
	struct sim_view view;
	struct sim_report rep;
	struct sim_quorum quorum;
	struct sim_outbox outbox;	/* the pass of the node whose event runs */
	struct sim_span span;		/* shares waiting for their acknowledgement */
	struct sim_rng repair_rng;	/* whom a digest goes to, and when */
	struct sim_rng relay_rng;	/* whom a suspect's observer asks to probe it */
	struct sim_rng reach_rng;	/* whom a reach check asks (minority.h) */
	struct sim_node *nodes;
	struct sim_obs *obs;	/* k per node (struct sim_node.wide: more) */
	u32 walk[FTD_WATCH_MAX];	/* scratch of one tick: predecessors */
	bool vouched[FTD_WATCH_MAX];
	struct sim_obs old_obs[FTD_WATCH_MAX];
	u8 *receiver;		/* per node: must deliver the failures (the side that goes on) */
	u32 n_receivers;
	u8 *must_fence;		/* per node: on a side that must fence itself (minority.h) */
	u32 unfenced;		/* ... and has not yet */
	bool no_side_goes_on;	/* a partition leaves every node in a minority */
	u32 pending;		/* (receiver, failure) deliveries still missing */
	u32 failures;
};

/* Run cfg; res gets the numbers. 0, or -1 (memory, or too many items: see stderr). */
int sim_run(const struct sim_config *cfg, struct sim_result *res);

/* The run cannot go on (what: why, said once on stderr): sim_run returns -1. */
void sim_fail(struct sim *s, const char *what);

#endif
