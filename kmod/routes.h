/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Route caches for what the timer sends every tick: heartbeats to our k
 * live successors and an observer's reminders to the nodes it watches, at
 * most 2 x FTD_MAX_OBSERVERS nodes (more for a few ticks after the ring
 * changed: FTD_ROUTE_IDLE_TICKS, FTD_ROUTE_FREE_TICKS). A route cache holds an entry per CPU
 * (about 40 bytes: 5 kB on a 128-CPU machine), so one for each rail of
 * every node would cost 1 GB at 100,000 nodes with two rails, nearly all
 * of it for nodes we seldom send to. Everything else (notices, probes,
 * views, digests) goes to a node now and then and looks its route up
 * (socket.c). The timer's own, like the heartbeats: no lock.
 */
#ifndef FTD_ROUTES_H
#define FTD_ROUTES_H

#include <net/dst_cache.h>
#include "net.h"
#include "peer.h"

#define FTD_ROUTES	(2 * FTD_MAX_OBSERVERS * FTD_MAX_RAILS)
/*
 * A cache not used for this many ticks is taken over by the next node
 * sent to, before another is allocated: a node that is no longer our
 * successor (the ring changed) gives its caches up to the new one.
 */
#define FTD_ROUTE_IDLE_TICKS	4
/* One not used for this many is freed (looked at once in as many ticks). */
#define FTD_ROUTE_FREE_TICKS	32

struct ftd_route {
	union ftd_addr addr;	/* where it routes to; family 0: unused */
	u8 rail;		/* from our own rail of that index (its source) */
	u64 used_tick;		/* the tick that last sent through it */
	struct dst_cache cache;	/* .cache NULL: its per-CPU entries not had */
};

struct ftd_routes {
	struct ftd_route slot[FTD_ROUTES];
	u64 swept_tick;		/* when those idle for FTD_ROUTE_FREE_TICKS were last freed */
};

/* At up, before the timer starts; fn->lock held. */
int ftd_routes_start(struct ftd_net *fn);
/* At down (and on a failed up), after the timer stopped; fn->lock held. */
void ftd_routes_stop(struct ftd_net *fn);
/*
 * The route cache to send a heartbeat on rail (rail_idx of its node)
 * through: its own, else one idle for FTD_ROUTE_IDLE_TICKS taken over,
 * else a new one, else the one used longest ago. NULL when none could be
 * allocated (the route is looked up instead). The timer only.
 */
struct dst_cache *ftd_routes_get(struct ftd_net *fn, struct ftd_rail *rail, u8 rail_idx);

#endif
