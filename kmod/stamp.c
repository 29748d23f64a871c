// SPDX-License-Identifier: GPL-2.0
#include <linux/ktime.h>
#include <linux/netdevice.h>
#include "stamp.h"

/* A stamp more than a second old came from a clock step, not from the past. */
static bool plausible(s64 stamp, u64 now)
{
	return stamp > 0 && stamp <= (s64)now && now - stamp <= NSEC_PER_SEC;
}

/*
 * Only our XDP program writes rx_ns, and the slot lies outside the MAC: a
 * non-zero rx_ns on a device without XDP came from the sender or the path,
 * not from this host's driver hook, and is no arrival time. (A frame that
 * arrives through an upper device, a VLAN or a bond over the XDP device,
 * falls back to the skb stamp: the safe side.)
 */
static bool stamped_here(const struct sk_buff *skb)
{
	return skb->dev && dev_xdp_prog_count(skb->dev);
}

/*
 * The earliest arrival time there is, on CLOCK_MONOTONIC: the XDP program's
 * stamp at the driver hook, else the core receive path's skb stamp (taken on
 * CLOCK_REALTIME), else now.
 */
struct ftd_arrival ftd_arrival_of(const struct sk_buff *skb, const struct ftd_frame *f,
				  u64 now)
{
	s64 stamp;

	if (f->rx_ns && stamped_here(skb) && plausible(f->rx_ns, now))
		return (struct ftd_arrival){ .ns = f->rx_ns, .source = FTD_STAMP_XDP,
					     .driver_delay_ns = now - f->rx_ns };
	if (skb->tstamp) {
		stamp = ktime_to_ns(ktime_sub(skb->tstamp, ktime_mono_to_real(0)));
		if (plausible(stamp, now))
			return (struct ftd_arrival){ .ns = stamp, .source = FTD_STAMP_SKB };
	}
	return (struct ftd_arrival){ .ns = now, .source = FTD_STAMP_MODULE };
}
