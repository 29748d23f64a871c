/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive path's lag: how long frames waited between their arrival
 * stamp (the driver's or the core's, stamp.h) and the module.
 *
 * A tick that fires on time is not enough to judge silence. The receive
 * softirq has a budget (netdev_budget, two jiffies): a node whose CPU is
 * swamped hands the rest of its backlog to ksoftirqd, a task like any
 * other, while the heartbeat timer still fires on time. Frames from live
 * peers then wait in the backlog, unseen, and their senders look silent
 * (seen on the debug kernel under emulation: docs/detection.md). So a tick is
 * starved (proto/detect.h: it suspects, but declares nobody and does not
 * fence) also when a frame handled since the last tick had waited longer
 * than a period: the backlog it came from may hold more.
 */
#ifndef FTD_LAG_H
#define FTD_LAG_H

#include "net.h"

/* A frame waited lag_ns before the module saw it. Softirq, any CPU. */
static inline void ftd_lag_note(struct ftd_net *fn, u64 lag_ns)
{
	s64 old = atomic64_read(&fn->rx_lag_ns);

	while ((s64)lag_ns > old && !atomic64_try_cmpxchg(&fn->rx_lag_ns, &old, lag_ns))
		;
}

/* The timer, once a tick: did a frame wait longer than a period since the last? */
static inline bool ftd_lag_behind(struct ftd_net *fn, u64 period_ns)
{
	bool behind = atomic64_xchg(&fn->rx_lag_ns, 0) > (s64)period_ns;

	if (behind)
		atomic64_inc(&fn->stats.ticks_rx_behind);
	return behind;
}

#endif
