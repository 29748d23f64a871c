// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "verdict.h"
#include "detect.h"
#include "elapsed.h"
#include "overload.h"
#include "relay.h"

static u64 later(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * Is the silence of a node no evidence of its death (a suspect at most)?
 * Hearing nobody is about us; a silence nobody's later frame proves may
 * be our receive path's (detect.h); a starved or overloaded machine may
 * have the frames waiting (overload.h).
 */
static bool silence_excused(const struct ftd_tick *t, u64 silence_ns, u64 since_ns,
			    u64 deadline_ns)
{
	return t->isolated ||
	       (t->can_tell && !ftd_detect_silence_proven(t->heard_any_ns, since_ns, deadline_ns)) ||
	       (t->excused && ftd_overload_excuses(silence_ns, deadline_ns));
}

void ftd_verdict_silence(const struct ftd_tick *t, bool near, struct ftd_watched *w,
			 struct ftd_verdict *v)
{
	u64 since;

	*v = (struct ftd_verdict){ .old = w->state, .state = w->state,
				   .deadline_ns = t->timeout_ns };
	/* Past a run whose far edge is not found, silence is no evidence. */
	if (!near && !t->walk->edge)
		w->baseline_ns = later(w->baseline_ns, t->now_ns);
	since = ftd_detect_silence_from(later(w->last_heard_ns, w->baseline_ns),
					t->timing_since_ns);
	/* Silence inside our own stall is not counted. */
	if (t->stalled) {
		since = ftd_health_skip_stall(since, t->due_ns, t->now_ns);
		w->baseline_ns = later(w->baseline_ns, since);
	}
	v->since_ns = since;
	/* In a minority, silence is no evidence: we suspect nobody. */
	if (since && t->now_ns > since && t->judging) {
		v->deadline_ns = ftd_health_deadline(w->slow, t->own_rx, t->timeout_ns, t->now_ns);
		v->state = ftd_detect_on_silence(v->old, t->now_ns - since, v->deadline_ns,
						 silence_excused(t, t->now_ns - since, since,
								 v->deadline_ns));
	}
	/* With a quorum, our own timeout is only a vote. */
	v->vote = v->state == FTD_NODE_DEAD && t->quorum > 1;
	if (v->vote)
		v->state = FTD_NODE_SUSPECT;
}

void ftd_verdict_finish(const struct ftd_tick *t, bool near, const struct ftd_watched *w,
			struct ftd_verdict *v)
{
	v->event = ftd_detect_event(v->old, v->state);
	v->silent_ns = ftd_elapsed(t->now_ns, w->last_heard_ns);
	/* A node we time that sends us nothing may not know we do. */
	v->remind = near && ftd_detect_reminds(v->state, v->silent_ns, t->period_ns);
	v->ask = ftd_watch_ask(t->walk, near, v->state, v->silent_ns, t->ask_every_ns);
	v->ask_interval_ns = ftd_watch_ask_interval(t->walk, near, t->ask_every_ns, t->timeout_ns);
	v->helpers = ftd_relay_helpers(v->silent_ns, t->period_ns, t->timeout_ns, t->excused);
	v->tell_between = ftd_watch_tells_between(v->ask);
}
