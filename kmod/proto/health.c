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

u64 ftd_health_deadline(const struct ftd_slowness *s, u64 timeout_ns, u64 now_ns)
{
	u64 late = s->late_ns;

	if (!late || forgotten(s, timeout_ns, now_ns))
		return timeout_ns;
	return timeout_ns + (late < timeout_ns ? late : timeout_ns);
}
