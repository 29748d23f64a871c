/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A node fences itself: the module's three rules, over the core's
 * functions, as kmod/majority.c, kmod/reach.c and the lease in detect.c
 * call them.
 *
 *   sim_minority_judge   majority.c ftd_majority_judge (proto/partition.h):
 *                        a death is applied only by a majority; the death
 *                        that would leave v in a minority fences it
 *   sim_minority_tick    reach.c ftd_reach_tick (proto/reach.h): when a
 *                        burst passes k deaths, and each time they double,
 *                        or v's walk spans its whole cap (proto/watch.h),
 *                        v PROBEs FTD_REACH_SAMPLE members it holds live
 *                        and fences if it heard under a quarter of them
 *                        within a timeout; and the lease (proto/lease.h):
 *                        a node that hears nobody for a timeout fences
 *
 * What the simulator leaves out: the cut never heals, so a node in a
 * minority stays there (the module leaves it when it holds more than half
 * of the membership live again); a fenced node's new incarnation and
 * rejoin; and the minority's forgotten view: the simulator's view only
 * grows (view.h), so a node in a minority, which in the module holds live
 * only the members it hears itself, is instead kept from judging, applying
 * deaths and exchanging views (node.c) - what the module's minority does
 * with the nodes of the other side. Each death is judged once per node
 * (the view only grows): the partition rule's per-member record of the
 * burst it was counted in (ftd_partition_judge()'s counted) is always
 * fresh.
 */
#ifndef FTD_SIM_MINORITY_H
#define FTD_SIM_MINORITY_H

#include "proto/partition.h"
#include "proto/reach.h"

struct sim;

/* How a node fenced itself (struct sim_node.fenced_why). */
enum sim_fence {
	SIM_FENCE_NONE,
	SIM_FENCE_MAJORITY,	/* a death would have left it in a minority */
	SIM_FENCE_REACH,	/* it reached under a quarter of its sample */
	SIM_FENCE_LEASE,	/* it heard nobody for a timeout */
};

/* A reach check of one node (proto/reach.h) and who of its sample answered. */
struct sim_reach {
	struct ftd_reach r;
	u32 pos[FTD_REACH_SAMPLE];	/* the sample (r.ids: their node ids) */
	u64 heard_ns[FTD_REACH_SAMPLE];	/* last frame from each, 0: none */
	/* our PROBE to each (sim/ask.h; the module's one per peer, fresh.c) */
	u64 nonce[FTD_REACH_SAMPLE];
	u64 probe_ns[FTD_REACH_SAMPLE];
};

/* May v apply the death of x, a member it holds live? FENCE: v fenced itself. */
enum ftd_partition_verdict sim_minority_judge(struct sim *s, u32 v, u32 x);

/* v's tick, after its detection: the reach check and the lease (n: nodes v watches). */
void sim_minority_tick(struct sim *s, u32 v, u32 n);

/*
 * v heard src, as the module's last_heard_ns says (a heartbeat, a relay
 * of its answer): the reach check's sample hears it. nonce: of an answer
 * to a PROBE, which counts only if it answers the check's (ftd_ask_answered);
 * 0 for anything else.
 */
void sim_minority_heard(struct sim *s, u32 v, u32 src, u64 nonce);

/* v is in a minority: it judges, applies and exchanges nothing (above). */
bool sim_minority_in(const struct sim *s, u32 v);

void sim_minority_free(struct sim *s);

#endif
