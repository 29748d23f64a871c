// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "health.h"
#include "elapsed.h"

static bool forgotten(const struct ftd_slowness *s, u64 timeout_ns, u64 now_ns)
{
	return ftd_elapsed(now_ns, s->at_ns) > FTD_HEALTH_WINDOW * timeout_ns;
}

void ftd_health_note_gap(struct ftd_slowness *s, u64 prev_tx, u64 tx, u64 period_ns,
			 u64 timeout_ns, u64 now_ns)
{
	u64 late;

	/* On time, late by less than a period (timer jitter), or a clock step back. */
	if (tx <= prev_tx + 2 * period_ns)
		return;
	late = tx - prev_tx - period_ns;
	/*
	 * A timeout or more is no stall that a node survives: its stream to
	 * us paused (we were not its successor for a while), or its clock
	 * stepped forward.
	 */
	if (late >= timeout_ns)
		return;
	if (late >= s->late_ns || forgotten(s, timeout_ns, now_ns)) {
		s->late_ns = late;
		s->at_ns = now_ns;
	}
}

void ftd_health_note_lag(struct ftd_slowness *own_rx, u64 lag_ns, u64 period_ns, u64 timeout_ns,
			 u64 now_ns)
{
	/* Waits up to a period are the receive path's ordinary pace. */
	if (lag_ns <= period_ns)
		return;
	/* Longer than a timeout: as far behind as the stretch can take in. */
	if (lag_ns > timeout_ns)
		lag_ns = timeout_ns;
	if (lag_ns >= own_rx->late_ns || forgotten(own_rx, timeout_ns, now_ns)) {
		own_rx->late_ns = lag_ns;
		own_rx->at_ns = now_ns;
	}
}

/* The lateness s remembers at now_ns; 0: none, or forgotten. */
static u64 remembered(const struct ftd_slowness *s, u64 timeout_ns, u64 now_ns)
{
	return s && s->late_ns && !forgotten(s, timeout_ns, now_ns) ? s->late_ns : 0;
}

u64 ftd_health_deadline(const struct ftd_slowness *s, const struct ftd_slowness *own_rx,
			u64 timeout_ns, u64 now_ns)
{
	u64 extra = remembered(s, timeout_ns, now_ns) + remembered(own_rx, timeout_ns, now_ns);

	return timeout_ns + (extra < timeout_ns ? extra : timeout_ns);
}
