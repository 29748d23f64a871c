/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A small island fences itself: the reach check.
 *
 * The partition rule (proto/partition.h) fences a node whose deaths would
 * take it below half of the membership. A small island at the edge of a
 * large ring (a rack that lost its uplink but still hears itself) never
 * gets there: its observers declare only the members they walk back to
 * (proto/watch.h: past half of the ring a silence is declared k at a time,
 * a timeout apart), while the majority declares the island in one or two
 * timeouts; its ranks would run on as zombies long after. The lease
 * (proto/lease.h) fences only a node that hears nobody at all, and an
 * island's nodes hear each other.
 *
 * So a node asks whether it still reaches the cluster when a burst passes
 * k deaths (more than the nearest observers of one node declare), when
 * a predecessor it observes comes back as a new incarnation while held
 * live (it fenced itself: the lease of an island's first node, which hears
 * nobody, ends first, and its successors on the island hear only it and
 * would never learn a death to count), or when its walk past a silent run
 * spans its whole cap without an end (proto/watch.h: that silence counts
 * only once a check begun since says we reach the cluster). It PROBEs a sample of
 * FTD_REACH_SAMPLE members it holds live, drawn at random from the whole
 * ring (proto/ring.h ftd_ring_sample_live), each every quarter of a
 * timeout until heard, and after a timeout counts those it heard (a
 * heartbeat, an answer to a PROBE or a helper's relay of one: what the
 * node's last-heard time takes, proto/hearing.h); a check that finds it in a
 * minority is made once more at once, with a fresh sample, and only a
 * second such verdict fences. Holding takes two running too, each
 * having heard half or more: a check between a quarter and half, or the
 * first to hear half, asks a fresh sample at once. With one check that
 * heard a quarter as the verdict, an interior node of an island of 15 %
 * held with a probability of 0.1 and, no further death reaching it,
 * never checked again: 31 of 150 never fenced (ftdsim, 1,000 nodes,
 * k = 1, the island from node 1), up to 394 of 4,000 at 4,000 nodes;
 * none since, at 10 % to 50 %, k = 1 and 2, 1,000 and 4,000 nodes.
 * Members of the sample it declared
 * dead meanwhile count neither way: they are the burst's deaths, not the
 * part of the cluster it fails to reach (counted, a node of the majority
 * that drew half its sample among 490 of 1,000 cut off at random heard 7
 * of 32 at 20 % loss now and then, and fenced itself: ftdsim). Fewer than
 * a quarter of the rest heard: it is
 * in a minority of the burst's membership (or, without a burst, of the
 * members it held live when the check began), fenced as by the partition
 * rule, until it holds more than half of them live again. A burst's check is made again each time its deaths double, so
 * an island whose first check came before its cut is still caught.
 *
 * An island of a fraction f of the cluster hears about f of its sample
 * (binomial, 32 asked): it fences at its first check and the one that
 * confirms it with a probability of 0.92 at an eighth of the cluster, of
 * 0.999 at a sixteenth; otherwise it checks on, one check a timeout,
 * until two running hear under a quarter (0.49 a pair at a fifth) or
 * two hear half (4e-6 a pair at a quarter, 2e-8 at a fifth). Islands
 * past a quarter are fenced by the partition rule as their count crosses
 * half; until then their nodes check on, 32 to 128 PROBEs a timeout, as
 * does a node that loses over half its frames each way (1 - (1 - 0.4 x
 * 0.4)^4: half its sample answers): the price of not holding on one
 * lucky sample. A node of the majority hears at least half of its
 * sample, less loss (each member is asked four times, so 20 % loss each
 * way leaves 98 % answering): a rack failure leaves most of the sample
 * answering. In an even split of a large cluster, while the losing half
 * is still held live, a node of the winning half finds itself in a
 * minority with a probability of about 0.001 per check (7 or fewer heard
 * of 32): with one check as the verdict, an even split of 10,000 nodes
 * fenced a dozen of the winning half (ftdsim), each check repeated as
 * the deaths double. The confirming check asks members drawn a timeout
 * later, most of the losing half declared by then: at most about 1e-6
 * per check, the price of catching islands without a cluster-wide
 * exchange.
 *
 * A starved node judges nothing (answers may wait in its receive queues);
 * the check waits for a tick on time. Nor does a node that hears nobody
 * (proto/detect.h, isolated) start or judge one: its lease answers that,
 * once per isolation. A check begun the tick before it noticed (a walk
 * reaches its cap as the silence starts) fenced a cut-off node a second
 * time, after its lease (rejoin_quiet.sh); it waits until the node hears
 * someone again.
 */
#ifndef FTD_PROTO_REACH_H
#define FTD_PROTO_REACH_H

#include "compat.h"
#include "elapsed.h"

#define FTD_REACH_SAMPLE	32	/* members asked by one check */
#define FTD_REACH_ASKS		4	/* asks per member and timeout */

struct ftd_reach {
	u64 since_ns;			/* the check under way began; 0: none */
	u32 asked;			/* members in the sample */
	u32 members;			/* the membership whose majority it asks for */
	u32 deaths;			/* the burst's deaths that started it; 0: a restart */
	u32 burst;			/* the burst the next check is for */
	u32 next;			/* its deaths that start that check; 0: k + 1 */
	bool confirming;		/* the check before found a minority */
	bool reached;			/* the check before heard half or more */
	u64 held_ns;			/* the last check that found us reaching the
					 * cluster began then; 0: none */
	u32 ids[FTD_REACH_SAMPLE];	/* the sample's node ids */
};

enum ftd_reach_verdict {
	FTD_REACH_WAIT,		/* no check, or not over yet */
	FTD_REACH_HELD,		/* we reach the cluster: half heard, twice running */
	FTD_REACH_AGAIN,	/* no verdict yet: ask a fresh sample now (ftd_reach_start) */
	FTD_REACH_FENCE,	/* a minority twice running: we do not reach it */
};

/*
 * Should a check start now? burst: the partition rule's burst (its
 * number), deaths: the deaths applied in it so far (0: none under way),
 * k: the observers per node; prompted: a predecessor we observe came
 * back as a new incarnation while we held it live, or our walk spans its
 * whole cap without an end (ftd_watch_wants_reach). A burst's next check
 * waits for twice as many deaths.
 */
static inline bool ftd_reach_due(struct ftd_reach *r, u32 burst, u32 deaths, u32 k,
				 bool prompted)
{
	if (burst != r->burst) {
		r->burst = burst;
		r->next = 0;
	}
	if (r->since_ns)
		return false;
	r->confirming = false;	/* a confirmation that asked nobody lapsed */
	r->reached = false;
	r->deaths = 0;
	if (deaths && deaths >= (r->next ? r->next : k + 1)) {
		r->next = 2 * deaths;
		r->deaths = deaths;
		return true;
	}
	return prompted;
}

/*
 * The sample is drawn (asked of a membership of members): the check runs
 * from now_ns. After FTD_REACH_AGAIN, the same membership (r->members).
 */
static inline void ftd_reach_start(struct ftd_reach *r, u32 asked, u32 members, u64 now_ns)
{
	r->asked = asked;
	r->members = members;
	r->since_ns = asked ? (now_ns ? now_ns : 1) : 0;
}

/*
 * The check under way, at now_ns, heard: how many of the sample were
 * heard since it began; held: how many of it we still hold live. Over
 * after a timeout, unless starved (then at the next tick on time).
 */
static inline enum ftd_reach_verdict ftd_reach_judge(struct ftd_reach *r, u32 heard, u32 held,
						     u64 now_ns, u64 timeout_ns, bool starved)
{
	u64 began = r->since_ns;

	if (!began || ftd_elapsed(now_ns, began) < timeout_ns || starved)
		return FTD_REACH_WAIT;
	r->since_ns = 0;
	if (4 * heard >= held) {
		r->confirming = false;
		r->held_ns = began;
		if (2 * heard >= held && r->reached) {
			r->reached = false;
			return FTD_REACH_HELD;
		}
		r->reached = 2 * heard >= held;
		return FTD_REACH_AGAIN;
	}
	r->reached = false;
	if (r->confirming) {
		r->confirming = false;
		return FTD_REACH_FENCE;
	}
	r->confirming = true;
	return FTD_REACH_AGAIN;
}

#endif
