// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "watch.h"

u32 ftd_watch_span(struct ftd_watch *w, u32 k, bool near_vouched, bool may_extend, u64 now,
		   u32 live)
{
	u32 half = live / 2;

	w->cap = half < k ? k : half < FTD_WATCH_MAX ? half : FTD_WATCH_MAX;
	if (near_vouched || w->cap <= k) {
		w->span = 0;
		w->edge = false;
		w->capped_ns = 0;
		return k;
	}
	/* Starved, or hearing nobody: no new walk, no growth; one under way stays. */
	w->frozen = !may_extend;
	if (w->frozen && !w->span)
		return k;
	if (!w->span) {		/* k more at once */
		w->span = 2 * k < w->cap ? 2 * k : w->cap;
		w->grown_ns = 0;
	}
	return w->span < w->cap ? w->span : w->cap;
}

u32 ftd_watch_edges(const bool *vouched, u32 n, u32 k, u32 *idx, u32 max)
{
	u32 i, m = 0;

	for (i = 0; n > k && i < n && m < max; i++)
		if (vouched[i])
			idx[m++] = i;
	return m;
}

u32 ftd_watch_trim(struct ftd_watch *w, const bool *vouched, u32 span, u32 k, u64 now,
		   u64 grow_ns, u64 reach_held_ns)
{
	u32 i, seen = 0;
	u64 more;

	for (i = 0; i < span; i++) {
		seen += vouched[i];
		if (i + 1 >= k && seen >= k) {
			w->edge = true;
			w->capped_ns = 0;
			return i + 1;
		}
	}
	/*
	 * A walk over the whole cap without k vouched: the silence goes on
	 * past what one observer looks at (the far side of a partition, a run
	 * longer than FTD_WATCH_MAX), there is no far edge to find. Its nodes
	 * count as a run's once a reach check begun since says we are not an
	 * island; the partition rule decides who applies them.
	 */
	if (w->span >= w->cap && span >= w->cap) {
		if (!w->capped_ns)
			w->capped_ns = now ? now : 1;
	} else {
		w->capped_ns = 0;
	}
	w->edge = w->capped_ns && reach_held_ns >= w->capped_ns;
	/* Not k vouched yet: the next walk goes further, once a period. */
	if (w->span && !w->frozen && w->span <= span &&
	    (!w->grown_ns || ftd_elapsed(now, w->grown_ns) >= grow_ns)) {
		more = (u64)k + (u64)(w->span - k) * FTD_WATCH_GROWTH;
		w->span = more < w->cap ? (u32)more : w->cap;
		w->grown_ns = now;
	}
	return span;
}
