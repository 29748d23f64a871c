/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What a valid frame of a node tells us of it: the rule every receive
 * path applies before it counts a frame as hearing the node (a heartbeat,
 * an answer to our PROBE, a helper's relay of one). The module's
 * detect.c and the simulator's node.c both ask it.
 *
 * Fail-stop: an incarnation held dead stays dead, and a frame of it is
 * the node's cue that it was declared (it fences itself, fence.c). A
 * frame of an older incarnation is from before a restart. A newer one is
 * a restart, or a fenced node back: its streams begin again, and what is
 * left of the old incarnation is told (detect.h, ftd_detect_restart_ends).
 */
#ifndef FTD_PROTO_HEARING_H
#define FTD_PROTO_HEARING_H

#include "compat.h"
#include "detect.h"

enum ftd_hearing {
	FTD_HEARING_NODE,	/* the node is there */
	FTD_HEARING_RESTART,	/* the node is there, as a newer incarnation */
	FTD_HEARING_STALE,	/* from before a restart: nothing */
	FTD_HEARING_DEAD,	/* of an incarnation held dead: tell it so */
	FTD_HEARING_LEFT,	/* of an incarnation that left: nothing */
};

/* A frame of incarnation inc, from a node we hold in state st at held_inc. */
static inline enum ftd_hearing ftd_hearing_of(enum ftd_node_state st, u32 held_inc, u32 inc)
{
	if (inc < held_inc)
		return FTD_HEARING_STALE;
	if (inc > held_inc)
		return FTD_HEARING_RESTART;
	if (st == FTD_NODE_DEAD)
		return FTD_HEARING_DEAD;
	if (st == FTD_NODE_LEFT)
		return FTD_HEARING_LEFT;
	return FTD_HEARING_NODE;
}

/*
 * Is a heartbeat numbered seq news after the last one taken, last? A
 * replayed, duplicated or reordered one is not: it says nothing newer.
 * The numbers restart with each incarnation (last is then 0).
 */
static inline bool ftd_hearing_news(u64 last, u64 seq)
{
	return seq > last;
}

#endif
