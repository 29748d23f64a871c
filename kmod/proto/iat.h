/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Inter-arrival statistics of one heartbeat stream. Both figures are
 * exponentially weighted with gain 1/16, as RFC 3550's interarrival jitter,
 * so they describe the recent stream rather than its whole history.
 *   mean:   EWMA of the inter-arrival time
 *   jitter: EWMA of |inter-arrival - mean|
 *   max:    the longest gap seen, what a timeout must cover
 */
#ifndef FTD_PROTO_IAT_H
#define FTD_PROTO_IAT_H

#include "compat.h"

struct ftd_iat {
	u64 last_ns;	/* arrival time of the previous frame, 0 before the first */
	u64 mean_ns;
	u64 jitter_ns;
	u64 max_ns;
	u64 samples;
};

void ftd_iat_update(struct ftd_iat *s, u64 arrival_ns);

#endif
