/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a run measured and how it is shown: deliveries are recorded as they
 * happen (sim_report_deliver), summed up at the end (sim_report_finish) and
 * printed as a table row or one JSON object per run.
 *
 * A delivery is what the module turns into an event for its readers
 * (NODE_DEAD, PROC_DEAD): the origin's own declaration (0 hops) or the first
 * notice that was news. The delivered bits here are kept apart from the
 * knowledge bits that drive deduplication (view.h), so a second delivery
 * would be seen even if deduplication were broken.
 */
#ifndef FTD_SIM_REPORT_H
#define FTD_SIM_REPORT_H

#include <stdio.h>
#include "proto/compat.h"

struct sim;

struct sim_item_stats {
	u8 expected;		/* a failure the scenario caused */
	u32 receivers;		/* nodes that must deliver it */
	u32 delivered;		/* ... and did (first delivery only) */
	u32 origins;		/* declarations by receivers (DEAD broadcasts begun) */
	u32 cut_deliveries;	/* deliveries by cut-off nodes */
	u64 t_first;		/* first delivery by a receiver, 0: none */
	u64 t_last;		/* last first-delivery by a receiver */
	u32 hops_max;
	u64 hops_sum, hops_n;	/* over receivers that were not origins */
};

struct sim_report {
	u32 n, words;
	u64 *delivered;			/* n x words bits */
	struct sim_item_stats *items;	/* per view item */
	u32 cap;
	u64 multi;			/* deliveries of something already delivered */
	u64 suspects, recoveries;	/* SUSPECT events, SUSPECT -> ALIVE */
	u64 tell_dead;			/* frames from a node held dead (the module tells it) */
	u64 fenced;			/* nodes that got their own DEAD notice */
	u64 codec_errors;		/* a simulated frame failed decode or MAC */
	u64 notices_rx, notices_dup;
	u64 notice_items;		/* notices the notice frames sent carried */
	u64 to_dead;			/* frames that arrived at a crashed node */
	u64 declarations;		/* NODE_DEAD declarations (origins) */
	u64 votes;			/* quorum: an observer's timeout, a vote */
	u64 digests, repairs;		/* DIGESTs sent; views exchanged on a difference */
	u64 probes;			/* PROBEs of suspects and of nodes past a run */
	u64 relays_asked, relays_heard;	/* PROBE_REQs sent; PROBE_RELAYs believed */
	u64 minority_deliveries;	/* by nodes off the side that goes on, but isolated ones */
	u64 fenced_by[4];		/* nodes that fenced themselves, by enum sim_fence */
	u64 fenced_wrongly;		/* ... of the side that goes on */
	u64 t_fenced_last;		/* the last node that had to fence did */
	u64 t_false_first;		/* a live node first declared dead, 0: never */
	u64 reach_checks, reach_probes, reach_nodes;	/* proto/reach.h: checks, their PROBEs,
							 * nodes that checked */
};

/* The numbers of one run (a JSON object, a table row). */
struct sim_result {
	/* what ran */
	const char *scenario;
	u32 nodes, k, quorum, failures, receivers;
	u64 period_ns, timeout_ns, latency_ns, jitter_ns;
	const char *jitter;
	const char *cut_layout, *cut_mode;	/* partition */
	double loss;
	u64 seed;
	/* times, from the failure */
	s64 detect_min_ns, detect_max_ns;	/* first node knows: earliest, latest failure */
	s64 overshoot_min_ns, overshoot_max_ns;	/* detection - timeout */
	u64 all_know_ns;			/* the last receiver knows every failure */
	u64 spread_max_ns;			/* first to last knower, worst failure */
	u32 hops_max;
	double hops_mean;
	u32 origins_max;			/* declarations of one failure */
	/* traffic over the simulated time */
	u64 sim_ns;
	u64 hb_frames, hb_bytes, hb_lost, hb_cut;
	u64 notice_frames, notice_bytes, notice_lost, notice_cut, notice_dup;
	u64 notice_items;			/* the notices those frames carried */
	double hb_per_node_s, hb_bytes_per_node_s;
	double notice_per_node_s, notice_bytes_per_node_s;
	double notice_per_node_failure;		/* notice frames sent per node per failure */
	/* correctness: all must be 0 */
	u64 never_delivered;		/* (receiver, failure) pairs never delivered */
	u64 delivered_again;		/* deliveries beyond the first */
	u64 false_deaths;		/* NODE_DEAD deliveries about a node that did not fail */
	u64 cut_declared;		/* isolated mode: deliveries by cut-off nodes */
	u64 codec_errors;
	u64 unfenced;			/* nodes off the side that goes on that never fenced */
	u64 fenced_wrongly;		/* nodes of the side that goes on that fenced themselves */
	/* information */
	u64 minority_delivered;		/* deliveries by nodes off the side that goes on
					 * (an island, or the rest), before they fenced */
	u64 fenced_majority, fenced_reach, fenced_lease;	/* self-fenced, by rule (minority.h) */
	u64 fence_all_ns;		/* from the failure until the last of them fenced */
	u64 reach_checks, reach_probes, reach_nodes;
	u64 declarations, suspects, recoveries, tell_dead, fenced, to_dead, votes;
	u64 false_declared;		/* live nodes some live node declared dead */
	u64 first_false_ns;		/* simulated time (from the start) of the first
					 * of them, 0: none; the exposure a loss-rate
					 * estimate needs (bench/sim-loss.sh) */
	u64 digests, repairs;			/* anti-entropy (repair.c) */
	u64 probes;				/* PROBEs sent (each answered if it arrives) */
	u64 relays_asked, relays_heard;		/* indirect probes (relay.c) */
	u64 fate_lost, fate_late;		/* fuzzing: frames its bytes lost, delayed */
	bool repair;				/* on (the module), or what-if off */
	bool relay;				/* indirect probes: likewise */
	u64 isolated_after_ns;			/* what-if knob, 0: as the module (timeout / 2) */
	bool declare_unproven;			/* what-if knob, false: as the module */
	bool flood;				/* what-if: flooded notices, not the spanning broadcast */
	u64 span_acks, span_resends, span_handovers, span_drops;	/* its acknowledgements,
							 * shares sent again, handed over, given up */
	bool complete;			/* every receiver knew before the time limit */
	bool ok;
	/* cost of the simulation itself */
	u64 events, ring_flips, peak_in_flight;
	double wall_s;
	u64 mem_peak;
};

int sim_report_init(struct sim_report *r, u32 n, u32 cap);
void sim_report_free(struct sim_report *r);

/* Node v delivers item after hops (0: it declared it) at s->now. */
void sim_report_deliver(struct sim *s, u32 v, u32 item, u32 hops);

/* Node v fenced itself at s->now (why: enum sim_fence). */
void sim_report_fenced(struct sim *s, u32 v, int why);

/* Sum up the run into res. */
void sim_report_finish(struct sim *s, struct sim_result *res);

void sim_report_table_header(FILE *f);
void sim_report_table_row(FILE *f, const struct sim_result *res);
/* res as one JSON object on one line (no newline). */
void sim_report_json(FILE *f, const struct sim_result *res);
/* Every violation of res, one line each, to f; returns how many kinds. */
int sim_report_violations(FILE *f, const struct sim_result *res);

#endif
