// SPDX-License-Identifier: GPL-2.0
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <linux/ktime.h>
#include <linux/netdevice.h>
#include <net/udp_tunnel.h>
#include "hb_rx.h"
#include "peer.h"
#include "detect.h"
#include "dissem.h"
#include "proto/wire.h"

static bool source_of(const struct sk_buff *skb, union ftd_addr *src)
{
	memset(src, 0, sizeof(*src));
	if (skb->protocol == htons(ETH_P_IP)) {
		src->sin.sin_family = AF_INET;
		src->sin.sin_addr.s_addr = ip_hdr(skb)->saddr;
		return true;
	}
	if (skb->protocol == htons(ETH_P_IPV6)) {
		src->sin6.sin6_family = AF_INET6;
		src->sin6.sin6_addr = ipv6_hdr(skb)->saddr;
		return true;
	}
	return false;
}

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
static struct ftd_arrival arrival_of(const struct sk_buff *skb, const struct ftd_frame *f,
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

int ftd_hb_rx(struct sock *sk, struct sk_buff *skb)
{
	struct ftd_net *fn = rcu_dereference_sk_user_data(sk);
	u64 now = ktime_get_ns();
	struct ftd_peer *peer;
	union ftd_addr src;
	struct ftd_frame f;
	unsigned int off, len;
	const u8 *buf;

	if (unlikely(!fn || !READ_ONCE(fn->up)))
		goto drop;

	len = ntohs(udp_hdr(skb)->len);
	if (len < sizeof(struct udphdr) + FTD_WIRE_HDR_LEN ||
	    len > sizeof(struct udphdr) + FTD_MAX_FRAME)
		goto malformed;
	len -= sizeof(struct udphdr);
	off = skb_transport_offset(skb) + sizeof(struct udphdr);
	if (skb->len < off + len || !pskb_may_pull(skb, off + len))
		goto malformed;
	buf = skb->data + off;

	if (ftd_wire_decode(buf, len, &f) != FTD_WIRE_OK)
		goto malformed;
	if (f.cluster != fn->cfg.cluster || !source_of(skb, &src))
		goto foreign;
	peer = ftd_peer_find(fn, f.sender);
	/* The sender must be a member and speak from its address for that rail. */
	if (!peer || peer->self || f.rail >= peer->nrails ||
	    !ftd_addr_equal(&src, &peer->rails[f.rail].addr))
		goto foreign;
	if (!ftd_wire_mac_ok(buf, len, fn->cfg.key))
		goto badmac;

	atomic64_inc(&fn->stats.rx);
	WRITE_ONCE(fn->last_rx_ns, now);
	if (f.type == FTD_FRAME_HEARTBEAT)
		ftd_detect_heard(fn, peer, &f, arrival_of(skb, &f, now));
	else
		ftd_dissem_rx(fn, peer, &f);
	consume_skb(skb);
	return 0;

malformed:
	atomic64_inc(&fn->stats.rx_malformed);
	goto drop;
foreign:
	atomic64_inc(&fn->stats.rx_foreign);
	goto drop;
badmac:
	atomic64_inc(&fn->stats.rx_badmac);
drop:
	kfree_skb(skb);
	return 0;
}
