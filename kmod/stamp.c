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
 * The XDP program's stamp, from the packet's metadata (<linux/ftdetect.h>,
 * struct ftd_xdp_meta), which no sender can write; the in-packet rx_ns slot
 * is never believed. Metadata ends at the MAC header; a head reallocated on
 * the way clears it, and the skb stamp is then the safe side.
 */
static bool xdp_stamp(const struct sk_buff *skb, s64 *ns)
{
	struct ftd_xdp_meta meta;

	if (skb_metadata_len(skb) != sizeof(meta) || !skb_mac_header_was_set(skb))
		return false;
	memcpy(&meta, skb_metadata_end(skb) - sizeof(meta), sizeof(meta));
	if (meta.magic != FTD_XDP_META_MAGIC)
		return false;
	*ns = (s64)meta.rx_ns;
	return true;
}

/*
 * The earliest arrival time there is, on CLOCK_MONOTONIC: the XDP program's
 * stamp at the driver hook, else the core receive path's skb stamp (taken on
 * CLOCK_REALTIME), else now.
 */
struct ftd_arrival ftd_arrival_of(const struct sk_buff *skb, u64 now)
{
	s64 stamp;

	if (xdp_stamp(skb, &stamp) && plausible(stamp, now))
		return (struct ftd_arrival){ .ns = stamp, .source = FTD_STAMP_XDP,
					     .driver_delay_ns = now - stamp };
	if (skb->tstamp) {
		stamp = ktime_to_ns(ktime_sub(skb->tstamp, ktime_mono_to_real(0)));
		if (plausible(stamp, now))
			return (struct ftd_arrival){ .ns = stamp, .source = FTD_STAMP_SKB };
	}
	return (struct ftd_arrival){ .ns = now, .source = FTD_STAMP_MODULE };
}
