/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Scoped registrations (the uapi header's "Scoped registrations"): a
 * rank's end told to the nodes of its job only, each of them directly.
 *
 * A job's nodes hear of its ranks' ends, and nobody else: a job start
 * costs no frame at all, and a rank's end a frame to each node of its job
 * instead of a notice at every node of the cluster. What is told, and to
 * whom, is decided here; the module queues and sends (kmod/scope.c), over
 * a share held alone (span.h: acknowledged, sent again while its receiver
 * is not held dead, for FTD_SPAN_ALONE_TIMEOUTS).
 */
#ifndef FTD_PROTO_SCOPE_H
#define FTD_PROTO_SCOPE_H

#include "compat.h"
#include <linux/ftdetect.h>

/*
 * How long a scoped end waits for others to go with it: the ranks of a
 * job on a node often end together (an MPI abort, the OOM killer, the job
 * finishing), and each node of the job then gets one frame with all of
 * them instead of one each. Short next to any timeout (a rank's end is
 * known at its scope's nodes this much later), long next to the time a
 * node takes to reap a killed job's processes one after the other.
 */
#define FTD_SCOPE_BATCH_NS	(10 * 1000 * 1000ULL)

/*
 * May a walk that sends to `nodes` nodes start while `waiting` shares
 * wait for their acknowledgement, at most `max` (FTD_SHARES_WAITING_MAX:
 * past it the oldest is given up, and nothing repairs a scoped end)? Only
 * if they all fit, or nothing waits (the module's walks are sized to fit
 * alone: the scopes of their ends add up to at most max). Otherwise its
 * ends wait another batch while the acknowledgements come back: the ends
 * of many ranks with 1024-node scopes, from a node whose receivers are
 * slow to answer, go out a walk at a time instead of losing the oldest
 * shares.
 */
static inline bool ftd_scope_walk_fits(u32 waiting, u32 nodes, u32 max)
{
	return !waiting || waiting + nodes <= max;
}

/*
 * A scope as FTD_IOC_SCOPE gives it: 0, or the uapi header's errno for
 * it (every id must be checked with ftd_scope_id_ok as well). count 0 is
 * no scope: the end goes to every node.
 */
static inline int ftd_scope_check(u32 count, u32 flags, u64 reserved)
{
	if (flags || reserved)
		return -EINVAL;
	return count > FTD_SCOPE_MAX ? -E2BIG : 0;
}

static inline bool ftd_scope_id_ok(u32 id)
{
	return id != FTD_NODE_NONE;
}

/*
 * Sort nodes[0, count) and drop duplicates and self (we tell ourselves
 * through our own events): the nodes to tell, in ring order. Returns how
 * many are left.
 */
u32 ftd_scope_normalize(u32 *nodes, u32 count, u32 self);

/*
 * The ends of several registrations, each with its normalized scope,
 * walked node by node so that each node gets all of its ends at once:
 * the next node at or after `from` that any scope holds, and for each
 * scope whether it holds that node. cursors[] (one per scope, from 0)
 * keep the walk linear. Returns false when no scope holds another node.
 */
struct ftd_scope_walk {
	const u32 *const *nodes;	/* each scope's nodes */
	const u32 *count;		/* and their count */
	u32 *cursor;			/* per scope: the first node not yet passed */
	u32 n;				/* scopes */
};

bool ftd_scope_next(struct ftd_scope_walk *w, u32 *id);
/* Does scope i hold the node ftd_scope_next() just gave? Call once per scope. */
bool ftd_scope_holds(struct ftd_scope_walk *w, u32 i, u32 id);

#endif
