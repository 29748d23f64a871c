/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A heartbeat's arrival time: the earliest trustworthy stamp of it on this
 * host's CLOCK_MONOTONIC, and where that stamp came from.
 */
#ifndef FTD_STAMP_H
#define FTD_STAMP_H

#include <linux/skbuff.h>
#include "detect.h"

/* Receive softirq; now is the module's own CLOCK_MONOTONIC reading. */
struct ftd_arrival ftd_arrival_of(const struct sk_buff *skb, u64 now);

#endif
