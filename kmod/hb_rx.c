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
#include "lag.h"
#include "stamp.h"
#include "fresh.h"
#include "keys.h"
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

/*
 * The arrival time of a UDP frame is found only once it is known authentic
 * (ftd_arrival_of reads the packet's metadata): at is NULL then, and skb set.
 */
static void rx_frame(struct ftd_net *fn, const u8 *buf, unsigned int len,
		     const union ftd_addr *src, u8 rail, const struct sk_buff *skb,
		     const struct ftd_arrival *at, u64 now)
{
	const struct ftd_keyring *keys;
	struct ftd_arrival a;
	struct ftd_peer *peer;
	struct ftd_frame f;
	u16 notices = 0;
	int k;

	if (ftd_wire_decode(buf, len, &f) != FTD_WIRE_OK)
		goto malformed;
	if (f.cluster != fn->cfg.cluster)
		goto foreign;
	peer = ftd_peer_find(fn, f.sender);
	/*
	 * The sender must be a member and speak from its address for that
	 * rail, or, over RDMA, on that rail.
	 */
	if (!peer || peer->self || f.rail >= peer->nrails ||
	    (src ? !ftd_addr_equal(src, &peer->rails[f.rail].addr) : f.rail != rail))
		goto foreign;
	keys = ftd_keys_get(fn);
	k = ftd_keyring_verify(keys, buf, len);
	if (k < 0) {
		WRITE_ONCE(peer->rx_badmac, peer->rx_badmac + 1);
		WRITE_ONCE(peer->badmac_ns, now);
		goto badmac;
	}
	/*
	 * A notice frame is whole or nothing (the uapi header's "Batches"):
	 * checked once here, its notices then decoded where each is applied.
	 */
	if (f.type == FTD_FRAME_NOTICE) {
		notices = ftd_notices_check(f.payload, f.payload_len,
					    f.flags & FTD_WIRE_F_SHARE);
		if (!notices)
			goto malformed;
	}
	/* Authentic; but new? Stale, replayed and unproven frames stop here. */
	a = at ? *at : ftd_arrival_of(skb, now);
	if (!ftd_fresh_accept(fn, peer, &f, now, a.ns))
		return;
	/*
	 * Which key it speaks with (rounds of a key change show there), once
	 * the frame is known fresh: a replay under a still accepted old key
	 * must not move it back. An accepted frame ends a bad-MAC spell.
	 */
	if (unlikely(READ_ONCE(peer->key_id) != keys->id[k]))
		WRITE_ONCE(peer->key_id, keys->id[k]);
	if (unlikely(READ_ONCE(peer->badmac_ns)))
		WRITE_ONCE(peer->badmac_ns, 0);

	atomic64_inc(&fn->stats.rx);
	if (f.type == FTD_FRAME_HEARTBEAT) {
		ftd_lag_note(fn, now - a.ns);
		ftd_detect_heard(fn, peer, &f, a);
	} else {
		WRITE_ONCE(fn->last_rx_ns, now);
		ftd_detect_heard_anyone(fn, a.ns);
		ftd_dissem_rx(fn, peer, &f, notices);
	}
	return;

malformed:
	atomic64_inc(&fn->stats.rx_malformed);
	return;
foreign:
	atomic64_inc(&fn->stats.rx_foreign);
	return;
badmac:
	atomic64_inc(&fn->stats.rx_badmac);
}

void ftd_hb_rx_frame(struct ftd_net *fn, const u8 *buf, unsigned int len,
		     const union ftd_addr *src, u8 rail, struct ftd_arrival at, u64 now)
{
	if (unlikely(!READ_ONCE(fn->up)))
		return;
	if (len < FTD_WIRE_HDR_LEN || len > FTD_MAX_FRAME) {
		atomic64_inc(&fn->stats.rx_malformed);
		return;
	}
	rx_frame(fn, buf, len, src, rail, NULL, &at, now);
}

int ftd_hb_rx(struct sock *sk, struct sk_buff *skb)
{
	struct ftd_net *fn = rcu_dereference_sk_user_data(sk);
	u64 now = ktime_get_ns();
	union ftd_addr src;
	unsigned int off, len;

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
	if (!source_of(skb, &src)) {
		atomic64_inc(&fn->stats.rx_foreign);
		goto drop;
	}
	rx_frame(fn, skb->data + off, len, &src, 0, skb, NULL, now);
	consume_skb(skb);
	return 0;

malformed:
	atomic64_inc(&fn->stats.rx_malformed);
drop:
	kfree_skb(skb);
	return 0;
}
