/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Distribution of a delay (the driver-to-module delay of received frames):
 * count, min, mean, max and a log2 histogram in microseconds, laid out as
 * FTDETECT_A_DELAY_* reports it (see the uapi header for the buckets).
 */
#ifndef FTD_PROTO_DELAY_H
#define FTD_PROTO_DELAY_H

#include "compat.h"
#include <linux/ftdetect.h>

struct ftd_delay {
	u64 samples;
	u64 min_ns;
	u64 max_ns;
	u64 sum_ns;
	u64 hist[FTD_DELAY_BUCKETS];
};

/*
 * The log2-microsecond bucket of ns among nbuckets (>= 1): 0 below 1 us,
 * i in [2^(i-1), 2^i) us, nbuckets - 1 for the rest. Both histograms of
 * the uapi use it: FTD_DELAY_BUCKETS and FTD_LATENCY_BUCKETS.
 */
unsigned int ftd_log2_us_bucket(u64 ns, unsigned int nbuckets);
unsigned int ftd_delay_bucket(u64 ns);
unsigned int ftd_latency_bucket(u64 ns);
void ftd_delay_add(struct ftd_delay *d, u64 ns);

static inline u64 ftd_delay_mean(const struct ftd_delay *d)
{
	return d->samples ? d->sum_ns / d->samples : 0;
}

#endif
