// SPDX-License-Identifier: GPL-2.0
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include "timer.h"
#include "hb_tx.h"
#include "detect.h"
#include "lag.h"
#include "members.h"
#include "outbox.h"

/* One heartbeat on every rail to each of our k live successors. */
static void send_heartbeats(struct ftd_net *fn)
{
	struct ftd_peer *succ[FTD_MAX_OBSERVERS];
	u32 i, n;

	rcu_read_lock();
	n = ftd_members_successors(fn, succ, READ_ONCE(fn->cfg.observers));
	for (i = 0; i < n; i++)
		ftd_tx_heartbeat(fn, succ[i]);
	rcu_read_unlock();
}

/* How late this tick fired; counted, since a starved observer is a bad judge. */
static u64 tick_lateness(struct ftd_net *fn, struct hrtimer *timer, u64 now, u64 period)
{
	s64 late = now - ktime_to_ns(hrtimer_get_expires(timer));

	atomic64_inc(&fn->stats.ticks);
	if (late <= 0)
		return 0;
	if (late > period)
		atomic64_inc(&fn->stats.ticks_late);
	if (late > atomic64_read(&fn->stats.tick_late_max_ns))
		atomic64_set(&fn->stats.tick_late_max_ns, late);
	return late;
}

static enum hrtimer_restart timer_fired(struct hrtimer *timer)
{
	struct ftd_net *fn = container_of(timer, struct ftd_net, timer);
	u64 period = READ_ONCE(fn->cfg.period_ns);
	u64 now = ktime_get_ns();
	u64 late;

	if (!READ_ONCE(fn->up))
		return HRTIMER_NORESTART;
	late = tick_lateness(fn, timer, now, period);
	ftd_lag_tick(fn, now, period, READ_ONCE(fn->cfg.timeout_ns));
	send_heartbeats(fn);
	/* What the tick decides goes out together, a frame per peer (outbox.h). */
	ftd_outbox_begin();
	/*
	 * The tick after a late one is starved too: it comes right after the
	 * catch-up, before the receive path has drained what queued meanwhile.
	 */
	ftd_detect_tick(fn, now, now - late, late > period || fn->tick_was_late);
	ftd_outbox_end();
	fn->tick_was_late = late > period;
	/* Overruns (a late softirq) skip periods instead of bursting. */
	hrtimer_forward_now(timer, ns_to_ktime(period));
	return HRTIMER_RESTART;
}

void ftd_timer_init(struct ftd_net *fn)
{
	hrtimer_init(&fn->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	fn->timer.function = timer_fired;
}

void ftd_timer_start(struct ftd_net *fn)
{
	lockdep_assert_held(&fn->lock);
	hrtimer_start(&fn->timer, 0, HRTIMER_MODE_REL_SOFT);
}

void ftd_timer_restart(struct ftd_net *fn)
{
	lockdep_assert_held(&fn->lock);
	/* Not from under a running callback: its forward would meet our start. */
	hrtimer_cancel(&fn->timer);
	hrtimer_start(&fn->timer, 0, HRTIMER_MODE_REL_SOFT);
}

void ftd_timer_stop(struct ftd_net *fn)
{
	lockdep_assert_held(&fn->lock);
	WARN_ON(READ_ONCE(fn->up));
	hrtimer_cancel(&fn->timer);
}
