// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "delay.h"

unsigned int ftd_log2_us_bucket(u64 ns, unsigned int nbuckets)
{
	u64 us = ns / 1000;
	unsigned int b = 0;

	/* bucket 0: < 1 us; bucket i: [2^(i-1), 2^i) us; the last: the rest */
	while (us && b < nbuckets - 1) {
		us >>= 1;
		b++;
	}
	return b;
}

unsigned int ftd_delay_bucket(u64 ns)
{
	return ftd_log2_us_bucket(ns, FTD_DELAY_BUCKETS);
}

unsigned int ftd_latency_bucket(u64 ns)
{
	return ftd_log2_us_bucket(ns, FTD_LATENCY_BUCKETS);
}

void ftd_delay_add(struct ftd_delay *d, u64 ns)
{
	if (!d->samples || ns < d->min_ns)
		d->min_ns = ns;
	if (ns > d->max_ns)
		d->max_ns = ns;
	d->sum_ns += ns;
	d->samples++;
	d->hist[ftd_delay_bucket(ns)]++;
}
