/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Quorum: who judges a node, and how many votes declare it.
 *
 * With quorum = q above 1, an observer's timeout is only a vote. The
 * node's judges are its k observers (its k nearest successors in the
 * ring) that the voter itself holds alive, itself included: those that may
 * well be dead with it (suspect) are not counted on. Votes go to the
 * judges alone, not to the whole cluster: they are the nodes that count
 * them, and a refreshed vote is resent every half timeout, so a lost one,
 * or one sent before the ring changed, is not lost for good.
 *
 * The votes needed are q, but never more than the judges there are: a
 * vote that cannot be cast (its observer is dead too, or every other node
 * is) must not keep a death undeclared forever. A judge with a bad link to
 * the node is still outvoted, as long as the others are alive: that is
 * what the quorum is for. When the others are suspect, the quorum shrinks
 * with them; a partition is not the quorum's business (the primary
 * partition rule is).
 */
#ifndef FTD_PROTO_VOTE_H
#define FTD_PROTO_VOTE_H

#include "compat.h"
#include <linux/ftdetect.h>

/* May a node in this state (in the voter's view) judge another? */
static inline bool ftd_vote_may_judge(enum ftd_node_state st)
{
	return st == FTD_NODE_ALIVE || st == FTD_NODE_SELF;
}

/* The fresh votes that declare a node, with that many judges of it. */
static inline u32 ftd_vote_needed(u32 quorum, u32 judges)
{
	if (judges >= quorum)
		return quorum;
	return judges ? judges : 1;
}

#endif
