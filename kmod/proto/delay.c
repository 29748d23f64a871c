// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "delay.h"

unsigned int ftd_delay_bucket(u64 ns)
{
	u64 us = ns / 1000;
	unsigned int b = 0;

	/* bucket 0: < 1 us; bucket i: [2^(i-1), 2^i) us; the last: the rest */
	while (us && b < FTD_DELAY_BUCKETS - 1) {
		us >>= 1;
		b++;
	}
	return b;
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
