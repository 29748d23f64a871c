/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Watching past a silent run of predecessors.
 *
 * An observer watches its k live predecessors (proto/ring.h). When nodes
 * next to each other in the ring die together (a rack, a switch, a power
 * strip), the observer after the run sees its k predecessors fall silent,
 * declares them a timeout later, and only then begins to watch the next
 * k: silence counts from the start of a watch, since a node had no reason
 * to send to us before. A run of r adjacent deaths took ceil(r/k) timeouts.
 *
 * So while one of its k nearest predecessors is not vouched for (heard
 * within the suspicion delay), an observer also watches the predecessors
 * beyond them and asks each directly (a PROBE, whose answer is as fresh as
 * a heartbeat): k more at once, then the extension grows eightfold every
 * period (or two round trips of a PROBE, if longer: answers must have had
 * time to come back), and the walk back stops at the k-th vouched node. The live nodes
 * it found on both edges of the run are told of each death directly (the
 * fingers of the nodes before a run land in it). A live node
 * answers within a round trip and so ends the walk; a dead one never
 * answers and is declared a timeout after its watch began, like any node
 * we observe. A run of r is declared within about
 *   suspicion delay + log8(r/k) periods + timeout
 * after it died, instead of ceil(r/k) timeouts.
 *
 * The walk never goes past FTD_WATCH_MAX nodes nor past half of the live
 * ring (its cap), and an observer that is starved or hears nobody starts
 * no walk and grows none (one under way stays as it is): then the fault
 * is likely its own. The silence of a node past the k nearest counts only
 * from the moment the walk has found the run's far edge (k vouched nodes
 * beyond it), or has spanned its whole cap without finding k and a reach
 * check begun since (proto/reach.h) found that we reach the cluster: a
 * silence that long is the other side of a partition, or a run longer
 * than one observer looks at. An island at the edge of a large ring
 * walks over the whole cap too, and had its silence counted at once, it
 * would declare up to FTD_WATCH_MAX live members of the majority a
 * timeout later, whose notices reach them if the cut heals in the
 * window; its reach check fences it instead. Past that, the partition
 * rule (proto/partition.h) decides who applies those deaths. Until then
 * those nodes are asked once a timeout.
 *
 * The same rules run in the module (kmod/detect.c) and in the simulator.
 */
#ifndef FTD_PROTO_WATCH_H
#define FTD_PROTO_WATCH_H

#include "compat.h"
#include "detect.h"
#include "elapsed.h"

#define FTD_WATCH_MAX		1024	/* predecessors watched at most, k included */
#define FTD_WATCH_GROWTH	8	/* the extension's growth per period */

struct ftd_watch {
	u32 span;	/* predecessors walked over; 0: the k nearest are vouched */
	u32 cap;	/* the walk's bound: half the live ring, FTD_WATCH_MAX */
	u64 grown_ns;	/* when span last grew; 0: not yet */
	u64 capped_ns;	/* the walk spans its whole cap without k vouched since; 0: not */
	bool edge;	/* the last walk found k vouched nodes, or spans its
			 * cap and we reach the cluster: nodes past the k
			 * nearest may be declared */
	bool frozen;	/* starved or hearing nobody: the walk does not grow */
};

/* Was a node last heard at last_heard_ns vouched for at now? */
static inline bool ftd_watch_vouched(u64 last_heard_ns, u64 now, u64 timeout_ns)
{
	return last_heard_ns &&
	       ftd_elapsed(now, last_heard_ns) < ftd_detect_suspect_after(timeout_ns);
}

/*
 * How many predecessors to walk back over at now (k at least, at most
 * FTD_WATCH_MAX and half of the live members, ourselves included):
 * near_vouched says the k nearest are all vouched for, may_extend that
 * the observer is neither starved nor hearing nobody.
 */
u32 ftd_watch_span(struct ftd_watch *w, u32 k, bool near_vouched, bool may_extend, u64 now,
		   u32 live);

/* How often a node past the k nearest is asked (ping_every: a suspect's). */
static inline u64 ftd_watch_ask_every(const struct ftd_watch *w, u64 ping_every, u64 timeout_ns)
{
	return w->edge || ping_every >= timeout_ns ? ping_every : timeout_ns;
}

enum ftd_watch_ask {
	FTD_WATCH_ASK_NONE,
	FTD_WATCH_ASK_DIRECT,		/* a PROBE */
	FTD_WATCH_ASK_HELPERS,		/* a PROBE, and through helpers (proto/relay.h) */
};

/*
 * Is a watched node in state st, silent for silent_ns, asked on this tick
 * (near: one of the k nearest)? A near suspect is, directly and through
 * helpers: its answer refutes the silence. A node past the run sends us
 * no heartbeats: it is asked whenever not heard for ping_every; once the
 * run's far edge is found its silence counts toward a declaration as a
 * near one's does, so as a suspect it is asked through helpers too
 * (before, a lossy direct path alone declared a live node past a run).
 * The interval between asks: ftd_watch_ask_interval.
 */
static inline enum ftd_watch_ask ftd_watch_ask(const struct ftd_watch *w, bool near,
					       enum ftd_node_state st, u64 silent_ns,
					       u64 ping_every)
{
	if (near)
		return st == FTD_NODE_SUSPECT ? FTD_WATCH_ASK_HELPERS : FTD_WATCH_ASK_NONE;
	if (!ftd_detect_in_ring(st) || silent_ns < ping_every)
		return FTD_WATCH_ASK_NONE;
	return w->edge && st == FTD_NODE_SUSPECT ? FTD_WATCH_ASK_HELPERS : FTD_WATCH_ASK_DIRECT;
}

/*
 * A suspect asked through helpers may not know of the deaths between it
 * and us: adopted past a run, it still heartbeats to the dead nodes after
 * it, not to us, and we would declare it for a silence it does not know
 * it keeps (a declarer tells the run's edges once; at 20 % loss that one
 * notice is lost one time in five). So with each such ask we tell it the
 * deaths we know between it and us, nearest it first: at most
 * FTD_WATCH_TELL_MAX notices, looking at most FTD_WATCH_TELL_SCAN
 * members. ftdsim, 1,000 nodes, 490 cut off at random, 20 % loss, seeds
 * 1-62: a false declaration in 17 runs instead of 28, undelivered pairs in
 * 4 instead of 10.
 */
#define FTD_WATCH_TELL_MAX	8
#define FTD_WATCH_TELL_SCAN	1024

static inline bool ftd_watch_tells_between(enum ftd_watch_ask ask)
{
	return ask == FTD_WATCH_ASK_HELPERS;
}

/*
 * Which members between count toward FTD_WATCH_TELL_MAX: the dead only. A
 * node that left says so itself, and had left nodes counted, a run of them
 * would hide the deaths behind it.
 */
static inline bool ftd_watch_tells_of(enum ftd_node_state state)
{
	return state == FTD_NODE_DEAD;
}

/*
 * The walk of the members between a suspect and us, for the deaths we
 * tell it: from the position after the suspect's (from) toward our own
 * (self) in a ring of n, at most FTD_WATCH_TELL_SCAN positions, until
 * FTD_WATCH_TELL_MAX are told:
 *
 *	for (ftd_watch_between_start(&b, n, self, from);
 *	     ftd_watch_between_more(&b, told); ftd_watch_between_next(&b))
 *		if (ftd_watch_tells_of(state of b.pos)) tell it, told++;
 */
struct ftd_watch_between {
	u32 n, self, pos, scanned;
};

static inline void ftd_watch_between_start(struct ftd_watch_between *b, u32 n, u32 self,
					   u32 from)
{
	*b = (struct ftd_watch_between){ .n = n, .self = self, .pos = (from + 1) % n };
}

static inline bool ftd_watch_between_more(const struct ftd_watch_between *b, u32 told)
{
	return b->pos != b->self && b->scanned < FTD_WATCH_TELL_SCAN && told < FTD_WATCH_TELL_MAX;
}

static inline void ftd_watch_between_next(struct ftd_watch_between *b)
{
	b->pos = (b->pos + 1) % b->n;
	b->scanned++;
}

/* The least interval between two asks of a watched node. */
static inline u64 ftd_watch_ask_interval(const struct ftd_watch *w, bool near, u64 ping_every,
					 u64 timeout_ns)
{
	return near ? ping_every : ftd_watch_ask_every(w, ping_every, timeout_ns);
}

/*
 * The walk back over span predecessors (span from ftd_watch_span, or
 * fewer: the ring is smaller), nearest first, vouched[i] for each: how
 * many of them to watch, up to and including the k-th vouched one, the k
 * nearest always. A walk that found fewer than k vouched grows the next
 * one, at most once per grow_ns (the first time at once), and sets no
 * edge, unless it spans its whole cap and a reach check that began at
 * reach_held_ns (proto/reach.h; 0: none), since the walk did, found that
 * we reach the cluster.
 */
u32 ftd_watch_trim(struct ftd_watch *w, const bool *vouched, u32 span, u32 k, u64 now,
		   u64 grow_ns, u64 reach_held_ns);

/*
 * Should a reach check start: the walk spans its whole cap, not counted
 * yet. Not while starved or hearing nobody: the lease answers that (a
 * cut-off node in cluster16.sh fenced by its lease, then by a check its
 * frozen walk asked for: twice for one cut).
 */
static inline bool ftd_watch_wants_reach(const struct ftd_watch *w)
{
	return w->capped_ns && !w->edge && !w->frozen;
}

/*
 * The live nodes on the edges of a run: of the n watched (vouched[i] for
 * each), the vouched ones when the walk went past the k nearest; their
 * indices in idx (at most max). A declarer tells them directly.
 */
u32 ftd_watch_edges(const bool *vouched, u32 n, u32 k, u32 *idx, u32 max);

/* How often the walk may grow: a period, or two round trips of a PROBE. */
static inline u64 ftd_watch_grow_every(u64 period_ns, u64 rtt_ns)
{
	return 2 * rtt_ns > period_ns ? 2 * rtt_ns : period_ns;
}

/*
 * A PROBE answered after sample_ns: the round trip the walk allows for,
 * *rtt_ns, follows a slower answer at once and a faster one slowly.
 */
static inline u64 ftd_watch_rtt(u64 rtt_ns, u64 sample_ns)
{
	return sample_ns >= rtt_ns ? sample_ns : rtt_ns - (rtt_ns - sample_ns) / 8;
}

#endif
