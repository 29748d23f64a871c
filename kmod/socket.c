// SPDX-License-Identifier: GPL-2.0
#include <linux/ipv6.h>
#include <linux/inetdevice.h>
#include <linux/udp.h>
#include <net/udp_tunnel.h>
#include <net/ipv6_stubs.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <net/addrconf.h>
#include <net/sock.h>
#include <net/arp.h>
#include <net/ndisc.h>
#include "socket.h"
#include "hb_rx.h"

static void set_sock_opts(struct socket *sock)
{
	/* Emission runs in softirq and must never sleep on the socket. */
	sock->sk->sk_allocation = GFP_ATOMIC;
	sock->sk->sk_sndbuf = INT_MAX;
	/* Stamp arrivals in the core receive path: the earliest point the
	 * stack offers when no XDP program has stamped the frame.
	 */
	sock_enable_timestamps(sock->sk);
}

static int open_one(struct ftd_net *fn, struct udp_port_cfg *port_cfg, struct socket **out)
{
	struct udp_tunnel_sock_cfg tunnel_cfg = {
		.sk_user_data = fn,
		.encap_type = 1,
		.encap_rcv = ftd_hb_rx,
	};
	int ret;

	ret = udp_sock_create(fn->net, port_cfg, out);
	if (ret)
		return ret;
	set_sock_opts(*out);
	setup_udp_tunnel_sock(fn->net, *out, &tunnel_cfg);
	return 0;
}

int ftd_socket_open(struct ftd_net *fn, u16 port, struct netlink_ext_ack *extack)
{
	struct udp_port_cfg cfg4 = {
		.family = AF_INET,
		.local_ip.s_addr = htonl(INADDR_ANY),
		.local_udp_port = htons(port),
		.use_udp_checksums = true,
	};
	struct socket *sock4 = NULL, *sock6 = NULL;
	int ret;

	lockdep_assert_held(&fn->lock);

	ret = open_one(fn, &cfg4, &sock4);
	if (ret) {
		if (ret == -EADDRINUSE)
			NL_SET_ERR_MSG_MOD(extack, "UDP port already in use in this namespace");
		else
			NL_SET_ERR_MSG_MOD(extack, "cannot create the IPv4 UDP socket");
		return ret;
	}
#if IS_ENABLED(CONFIG_IPV6)
	if (ipv6_mod_enabled()) {
		struct udp_port_cfg cfg6 = {
			.family = AF_INET6,
			.local_ip6 = IN6ADDR_ANY_INIT,
			.local_udp_port = htons(port),
			.ipv6_v6only = true,
			.use_udp6_tx_checksums = true,
			.use_udp6_rx_checksums = true,
		};

		ret = open_one(fn, &cfg6, &sock6);
		if (ret) {
			udp_tunnel_sock_release(sock4);
			if (ret == -EADDRINUSE)
				NL_SET_ERR_MSG_MOD(extack, "UDP port already in use in this namespace (IPv6)");
			else
				NL_SET_ERR_MSG_MOD(extack, "cannot create the IPv6 UDP socket");
			return ret;
		}
	}
#endif
	rcu_assign_pointer(fn->sock4, sock4);
	rcu_assign_pointer(fn->sock6, sock6);
	return 0;
}

void ftd_socket_close(struct ftd_net *fn)
{
	struct socket *sock4, *sock6;

	lockdep_assert_held(&fn->lock);
	sock4 = rcu_dereference_protected(fn->sock4, lockdep_is_held(&fn->lock));
	sock6 = rcu_dereference_protected(fn->sock6, lockdep_is_held(&fn->lock));
	RCU_INIT_POINTER(fn->sock4, NULL);
	RCU_INIT_POINTER(fn->sock6, NULL);
	/* Senders and the receive hook run under RCU: let them finish. */
	synchronize_net();
	if (sock4)
		udp_tunnel_sock_release(sock4);
	if (sock6)
		udp_tunnel_sock_release(sock6);
}

/*
 * The flow from saddr (0: the route's choice) to rail over our IPv4 socket,
 * and its route: from cache when there is one (routes.h), else looked up
 * (and kept there). *sk: the socket. An ERR_PTR when there is no socket or
 * no route.
 */
static struct rtable *route4(struct ftd_net *fn, struct ftd_rail *rail, struct dst_cache *cache,
			     __be32 saddr, struct flowi4 *fl, struct sock **sk)
{
	struct socket *sock = rcu_dereference_bh(fn->sock4);
	struct rtable *rt;

	if (unlikely(!sock))
		return ERR_PTR(-ENETUNREACH);
	*sk = sock->sk;
	*fl = (struct flowi4){
		.saddr = saddr,
		.daddr = rail->addr.sin.sin_addr.s_addr,
		.fl4_sport = inet_sk(sock->sk)->inet_sport,
		.fl4_dport = htons(fn->cfg.port),
		.flowi4_proto = IPPROTO_UDP,
	};
	rt = cache ? dst_cache_get_ip4(cache, &fl->saddr) : NULL;
	if (rt)
		return rt;
	rt = ip_route_output_flow(fn->net, fl, sock->sk);
	/*
	 * A configured source that is not (or no longer) ours makes the
	 * lookup fail (-ENETUNREACH, as no route does): let the route choose
	 * then, rather than send with a foreign source. Asked only on a
	 * failure: most frames are sent without a cache (routes.h).
	 */
	if (IS_ERR(rt) && fl->saddr) {
		fl->saddr = 0;
		rt = ip_route_output_flow(fn->net, fl, sock->sk);
	}
	if (cache && !IS_ERR(rt))
		dst_cache_set_ip4(cache, &rt->dst, fl->saddr);
	return rt;
}

static int send4(struct ftd_net *fn, struct sk_buff *skb, struct ftd_rail *rail,
		 struct dst_cache *cache, __be32 saddr)
{
	struct flowi4 fl;
	struct rtable *rt;
	struct sock *sk;

	rt = route4(fn, rail, cache, saddr, &fl, &sk);
	if (IS_ERR(rt)) {
		kfree_skb(skb);
		return -ENETUNREACH;
	}
	skb->ignore_df = 1;
	udp_tunnel_xmit_skb(rt, sk, skb, fl.saddr, fl.daddr, 0, ip4_dst_hoplimit(&rt->dst), 0,
			    fl.fl4_sport, fl.fl4_dport, false, false);
	return 0;
}

#if IS_ENABLED(CONFIG_IPV6)
/* As route4(), over our IPv6 socket; saddr NULL: the route's choice. */
static struct dst_entry *route6(struct ftd_net *fn, struct ftd_rail *rail,
				struct dst_cache *cache, const struct in6_addr *saddr,
				struct flowi6 *fl, struct sock **sk)
{
	struct socket *sock = rcu_dereference_bh(fn->sock6);
	struct dst_entry *dst;

	if (unlikely(!sock))
		return ERR_PTR(-ENETUNREACH);
	*sk = sock->sk;
	*fl = (struct flowi6){
		.saddr = saddr ? *saddr : in6addr_any,
		.daddr = rail->addr.sin6.sin6_addr,
		.fl6_sport = inet_sk(sock->sk)->inet_sport,
		.fl6_dport = htons(fn->cfg.port),
		.flowi6_oif = rail->addr.sin6.sin6_scope_id,
		.flowi6_proto = IPPROTO_UDP,
	};
	dst = cache ? dst_cache_get_ip6(cache, &fl->saddr) : NULL;
	if (dst)
		return dst;
	if (!ipv6_addr_any(&fl->saddr) && !ipv6_chk_addr(fn->net, &fl->saddr, NULL, 0))
		fl->saddr = in6addr_any;
	dst = ipv6_stub->ipv6_dst_lookup_flow(fn->net, sock->sk, fl, NULL);
	if (cache && !IS_ERR(dst))
		dst_cache_set_ip6(cache, dst, &fl->saddr);
	return dst;
}

static int send6(struct ftd_net *fn, struct sk_buff *skb, struct ftd_rail *rail,
		 struct dst_cache *cache, const struct in6_addr *saddr)
{
	struct dst_entry *dst;
	struct flowi6 fl;
	struct sock *sk;

	dst = route6(fn, rail, cache, saddr, &fl, &sk);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return -ENETUNREACH;
	}
	skb->ignore_df = 1;
	udp_tunnel6_xmit_skb(dst, sk, skb, NULL, &fl.saddr, &fl.daddr, 0, ip6_dst_hoplimit(dst),
			     0, fl.fl6_sport, fl.fl6_dport, false);
	return 0;
}
#endif

int ftd_socket_send(struct ftd_net *fn, struct sk_buff *skb, struct ftd_rail *rail,
		    struct dst_cache *cache, const union ftd_addr *src)
{
	sa_family_t family = rail->addr.sa.sa_family;
	bool src_ok = src && src->sa.sa_family == family;
	int ret;

	skb_mark_not_on_list(skb);
	rcu_read_lock_bh();
	if (family == AF_INET) {
		ret = send4(fn, skb, rail, cache, src_ok ? src->sin.sin_addr.s_addr : 0);
#if IS_ENABLED(CONFIG_IPV6)
	} else if (family == AF_INET6) {
		ret = send6(fn, skb, rail, cache, src_ok ? &src->sin6.sin6_addr : NULL);
#endif
	} else {
		kfree_skb(skb);
		ret = -EAFNOSUPPORT;
	}
	rcu_read_unlock_bh();
	return ret;
}

/*
 * An unresolved entry of the neighbour table tbl for the next hop nh on
 * dev: its retransmit timer fires now, and solicits (or, past its probes,
 * fails the entry as it would have then). Nothing queued is dropped: other
 * local flows to that hop wait behind it too, and the peer just heard will
 * answer.
 */
static void hurry(struct neigh_table *tbl, const void *nh, struct net_device *dev)
{
	struct neighbour *n = neigh_lookup(tbl, nh, dev);

	if (!n)
		return;
	write_lock_bh(&n->lock);
	if ((n->nud_state & NUD_INCOMPLETE) && timer_pending(&n->timer))
		mod_timer(&n->timer, jiffies);
	write_unlock_bh(&n->lock);
	neigh_release(n);
}

static void hurry4(struct ftd_net *fn, struct ftd_rail *rail, __be32 saddr)
{
	struct flowi4 fl;
	struct rtable *rt;
	struct sock *sk;
	__be32 nh;

	rt = route4(fn, rail, NULL, saddr, &fl, &sk);
	if (IS_ERR(rt))
		return;
	nh = rt_nexthop(rt, fl.daddr);
	hurry(&arp_tbl, &nh, rt->dst.dev);
	ip_rt_put(rt);
}

#if IS_ENABLED(CONFIG_IPV6)
static void hurry6(struct ftd_net *fn, struct ftd_rail *rail, const struct in6_addr *saddr)
{
	struct dst_entry *dst;
	struct flowi6 fl;
	struct sock *sk;

	dst = route6(fn, rail, NULL, saddr, &fl, &sk);
	if (IS_ERR(dst))
		return;
	hurry(&nd_tbl, rt6_nexthop((struct rt6_info *)dst, &fl.daddr), dst->dev);
	dst_release(dst);
}
#endif

void ftd_socket_hurry_neighbour(struct ftd_net *fn, struct ftd_rail *rail,
				const union ftd_addr *src)
{
	sa_family_t family = rail->addr.sa.sa_family;
	bool src_ok = src && src->sa.sa_family == family;

	rcu_read_lock_bh();
	if (family == AF_INET)
		hurry4(fn, rail, src_ok ? src->sin.sin_addr.s_addr : 0);
#if IS_ENABLED(CONFIG_IPV6)
	else if (family == AF_INET6)
		hurry6(fn, rail, src_ok ? &src->sin6.sin6_addr : NULL);
#endif
	rcu_read_unlock_bh();
}
