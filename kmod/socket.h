/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instance's kernel UDP sockets (IPv4 and, when the kernel has it, IPv6)
 * bound to the heartbeat port. Received datagrams go straight to hb_rx.c
 * from the UDP receive softirq; sends bypass the socket layer with the UDP
 * tunnel helpers so that they can run from the timer softirq.
 */
#ifndef FTD_SOCKET_H
#define FTD_SOCKET_H

#include <linux/skbuff.h>
#include <net/dst_cache.h>
#include "net.h"
#include "peer.h"

/* fn->lock held. */
int ftd_socket_open(struct ftd_net *fn, u16 port, struct netlink_ext_ack *extack);
void ftd_socket_close(struct ftd_net *fn);

/*
 * Send skb (UDP payload only, with headroom for the headers) to rail->addr,
 * from src when it is a local address of the same family, routed through
 * cache (routes.h; NULL: the route is looked up). Consumes skb. Caller
 * holds rcu_read_lock_bh or runs in softirq.
 */
int ftd_socket_send(struct ftd_net *fn, struct sk_buff *skb, struct ftd_rail *rail,
		    struct dst_cache *cache, const union ftd_addr *src);

/*
 * We hear a peer again after a silence (it rejoined, or came back across a
 * healed partition): an unresolved entry of ours for rail's next hop, made
 * while it could not answer (by every probe we sent it meanwhile), holds
 * our frames to it until its next solicitation, up to retrans_time (1 s by
 * default) away, and its observers time it out meanwhile, again after each
 * fence. Its retransmit timer is made to fire now. (A rail whose
 * carrier comes back evicts them all, link.c; a partition that heals in
 * the switch moves no carrier.) Any context but hard irq.
 */
void ftd_socket_hurry_neighbour(struct ftd_net *fn, struct ftd_rail *rail,
				const union ftd_addr *src);

#define FTD_TX_HEADROOM (MAX_HEADER + sizeof(struct ipv6hdr) + sizeof(struct udphdr))

#endif
