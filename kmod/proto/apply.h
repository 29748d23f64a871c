/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What a notice of another node's end or return changes in what we hold
 * of it: the rule every notice is applied by, whoever sent it, and the one
 * deduplication there is (a notice delivers only what it changed). The
 * module's dissem.c (apply_gone, apply_alive) and the simulator's node.c
 * (rx_notice) both ask it.
 *
 * An end (DEAD, LEFT) is news for a later incarnation than the one held,
 * or for the one held while it has not ended. Of a node held live, a
 * death is the partition rule's to judge (partition.h): only a majority
 * declares. Of one not held live (never heard, or a later incarnation of
 * one that ended) it is hearsay, which a minority does not take: it holds
 * live only the members it hears itself.
 *
 * A return (ALIVE) is news at a later incarnation, or at the one held
 * when we knew nothing of it: at an incarnation held dead it is older
 * than the death (fail-stop). Of a node not held live it is hearsay too.
 */
#ifndef FTD_PROTO_APPLY_H
#define FTD_PROTO_APPLY_H

#include "compat.h"
#include <linux/ftdetect.h>

enum ftd_apply {
	FTD_APPLY_OLD,		/* not news: nothing changes */
	FTD_APPLY_LIVE,	/* of a node held live: a death is judged (partition.h) */
	FTD_APPLY_HEARSAY,	/* of a node not held live: taken where hearsay is */
};

static inline bool ftd_apply_held_live(enum ftd_node_state st)
{
	return st == FTD_NODE_ALIVE || st == FTD_NODE_SUSPECT;
}

/* A notice that a node held in st at held_inc ended (DEAD or LEFT) at inc. */
static inline enum ftd_apply ftd_apply_gone(enum ftd_node_state st, u32 held_inc, u32 inc)
{
	if (inc < held_inc ||
	    (inc == held_inc && (st == FTD_NODE_DEAD || st == FTD_NODE_LEFT)))
		return FTD_APPLY_OLD;
	return ftd_apply_held_live(st) ? FTD_APPLY_LIVE : FTD_APPLY_HEARSAY;
}

/* A notice that a node held in st at held_inc is alive at inc. */
static inline enum ftd_apply ftd_apply_alive(enum ftd_node_state st, u32 held_inc, u32 inc)
{
	if (inc < held_inc || (inc == held_inc && st != FTD_NODE_UNKNOWN))
		return FTD_APPLY_OLD;
	return ftd_apply_held_live(st) ? FTD_APPLY_LIVE : FTD_APPLY_HEARSAY;
}

#endif
