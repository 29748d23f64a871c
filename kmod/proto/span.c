// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "span.h"
#include "elapsed.h"

u32 ftd_span_split(const struct ftd_ring *r, u32 from, u32 end, struct ftd_span_share *out,
		   u32 max)
{
	u32 fingers[FTD_MAX_FINGERS], cnt, i, n = 0, arc = ftd_span_dist(r->n, from, end);

	/* Fingers come nearest first; those past the arc's end are someone else's. */
	cnt = ftd_ring_fingers(r, from, fingers, FTD_MAX_FINGERS);
	for (i = 0; i < cnt && n < max; i++) {
		if (ftd_span_dist(r->n, from, fingers[i]) >= arc)
			break;
		if (n)
			out[n - 1].end = fingers[i];
		out[n].to = fingers[i];
		n++;
	}
	if (n)
		out[n - 1].end = end;
	return n;
}

enum ftd_span_step ftd_span_step(u64 now, u64 first_ns, u32 sends, u64 timeout_ns,
				 bool holder_dead, bool alone)
{
	if (alone)
		return holder_dead ||
		       ftd_elapsed(now, first_ns) >= FTD_SPAN_ALONE_TIMEOUTS * timeout_ns ?
		       FTD_SPAN_DROP : FTD_SPAN_RESEND;
	return holder_dead || sends >= FTD_SPAN_SENDS ? FTD_SPAN_HAND_OVER : FTD_SPAN_RESEND;
}
