// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "iat.h"

#define FTD_IAT_GAIN_SHIFT 4

static u64 ewma(u64 avg, u64 sample)
{
	if (sample >= avg)
		return avg + ((sample - avg) >> FTD_IAT_GAIN_SHIFT);
	return avg - ((avg - sample) >> FTD_IAT_GAIN_SHIFT);
}

void ftd_iat_update(struct ftd_iat *s, u64 arrival_ns)
{
	u64 iat, dev;

	/* Out-of-order stamps (clock source change) carry no interval. */
	if (s->last_ns && arrival_ns > s->last_ns) {
		iat = arrival_ns - s->last_ns;
		if (iat > s->max_ns)
			s->max_ns = iat;
		if (!s->samples) {
			s->mean_ns = iat;
			s->jitter_ns = 0;
		} else {
			dev = iat > s->mean_ns ? iat - s->mean_ns : s->mean_ns - iat;
			s->jitter_ns = ewma(s->jitter_ns, dev);
			s->mean_ns = ewma(s->mean_ns, iat);
		}
		s->samples++;
	}
	if (arrival_ns > s->last_ns)
		s->last_ns = arrival_ns;
}
