/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a packet's heartbeat frame is: the one parse of Ethernet (up to two
 * VLAN tags), IPv4 or IPv6 and UDP that both eBPF programs use (XDP on
 * ingress, TC on egress), over the packet's linear bytes [data, end), with
 * direct packet access, as xdp-tools' parsing_helpers.h parses.
 *
 * A datagram to the heartbeat port is FTD_PARSE_FRAME, or FTD_PARSE_HIDDEN
 * when its frame cannot be judged here: an IPv4 fragment (the first, with
 * the UDP header; the others carry no port and are FTD_PARSE_OTHER) or
 * behind IPv6 extension headers. Everything else, including headers that
 * run past end, is FTD_PARSE_OTHER and is left alone.
 */
#ifndef FTD_PARSE_H
#define FTD_PARSE_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "ftd_ebpf.h"

/* Not in the uapi headers. */
struct ftd_vlan_tag {
	__be16 tci;
	__be16 proto;
};

#define FTD_IPV4_MF		0x2000
#define FTD_IPV4_OFFSET		0x1fff
#define FTD_IPV6_FRAG_OFFSET	0xfff8
#define FTD_MAX_VLAN_TAGS	2
#define FTD_MAX_IPV6_EXT	4

enum ftd_parse {
	FTD_PARSE_OTHER,	/* not a datagram to the port we can see: leave it */
	FTD_PARSE_HIDDEN,	/* to the port, but fragmented or behind extension headers */
	FTD_PARSE_FRAME,	/* to the port: udp and udp_off say where, src from whom */
};

struct ftd_parsed {
	struct udphdr *udp;		/* the UDP header, in [data, end) */
	__u32 udp_off;			/* its offset from data */
	struct ftd_ebpf_member src;	/* source address, IPv4 mapped */
};

static __always_inline int ftd_is_ipv6_ext(__u8 nh)
{
	return nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING || nh == IPPROTO_DSTOPTS ||
	       nh == IPPROTO_FRAGMENT;
}

/* Is udp, a header within the packet, a datagram to port? */
static __always_inline int ftd_to_port(struct udphdr *udp, void *end, __u16 port)
{
	return (void *)(udp + 1) <= end && udp->dest == bpf_htons(port);
}

static __always_inline enum ftd_parse ftd_parse_ipv4(void *l3, void *end, __u16 port,
						     struct ftd_parsed *out)
{
	struct iphdr *iph = l3;
	__u32 ihl;

	if ((void *)(iph + 1) > end || iph->protocol != IPPROTO_UDP)
		return FTD_PARSE_OTHER;
	ihl = iph->ihl * 4;	/* options are skipped, whatever they are */
	if (ihl < sizeof(*iph))
		return FTD_PARSE_OTHER;
	if (iph->frag_off & bpf_htons(FTD_IPV4_OFFSET))
		return FTD_PARSE_OTHER;	/* no UDP header in this fragment */
	out->udp = l3 + ihl;
	if (!ftd_to_port(out->udp, end, port))
		return FTD_PARSE_OTHER;
	if (iph->frag_off & bpf_htons(FTD_IPV4_MF))
		return FTD_PARSE_HIDDEN;
	out->src.addr[10] = 0xff;
	out->src.addr[11] = 0xff;
	__builtin_memcpy(&out->src.addr[12], &iph->saddr, 4);
	return FTD_PARSE_FRAME;
}

static __always_inline enum ftd_parse ftd_parse_ipv6(void *l3, void *end, __u16 port,
						     struct ftd_parsed *out)
{
	struct ipv6hdr *ip6 = l3;
	__u8 nh, *pos;
	int i, ext = 0;

	if ((void *)(ip6 + 1) > end)
		return FTD_PARSE_OTHER;
	nh = ip6->nexthdr;
	pos = (__u8 *)(ip6 + 1);
	/* Extension headers are walked only to learn the port: such datagrams
	 * are not parsed further, but told apart when they are aimed at us.
	 */
#pragma unroll
	for (i = 0; i < FTD_MAX_IPV6_EXT; i++) {
		if (!ftd_is_ipv6_ext(nh))
			break;
		if (pos + 8 > (__u8 *)end)
			return FTD_PARSE_OTHER;
		ext = 1;
		if (nh == IPPROTO_FRAGMENT) {
			__be16 off;

			__builtin_memcpy(&off, pos + 2, 2);
			if (off & bpf_htons(FTD_IPV6_FRAG_OFFSET))
				return FTD_PARSE_OTHER;	/* not the first fragment */
			nh = pos[0];
			pos += 8;
		} else {
			nh = pos[0];
			pos += (pos[1] + 1) * 8;
		}
	}
	if (nh != IPPROTO_UDP)
		return FTD_PARSE_OTHER;
	out->udp = (struct udphdr *)pos;
	if (!ftd_to_port(out->udp, end, port))
		return FTD_PARSE_OTHER;
	if (ext)
		return FTD_PARSE_HIDDEN;
	__builtin_memcpy(out->src.addr, &ip6->saddr, 16);
	return FTD_PARSE_FRAME;
}

/* Parse the packet [data, end) for a datagram to port (host order). */
static __always_inline enum ftd_parse ftd_parse_udp(void *data, void *end, __u16 port,
						    struct ftd_parsed *out)
{
	struct ethhdr *eth = data;
	enum ftd_parse res;
	__u16 proto;
	void *l3;
	int i;

	if ((void *)(eth + 1) > end)
		return FTD_PARSE_OTHER;
	proto = eth->h_proto;
	l3 = eth + 1;
#pragma unroll
	for (i = 0; i < FTD_MAX_VLAN_TAGS; i++) {
		struct ftd_vlan_tag *tag = l3;

		if (proto != bpf_htons(ETH_P_8021Q) && proto != bpf_htons(ETH_P_8021AD))
			break;
		if ((void *)(tag + 1) > end)
			return FTD_PARSE_OTHER;
		proto = tag->proto;
		l3 = tag + 1;
	}
	if (proto == bpf_htons(ETH_P_IP))
		res = ftd_parse_ipv4(l3, end, port, out);
	else if (proto == bpf_htons(ETH_P_IPV6))
		res = ftd_parse_ipv6(l3, end, port, out);
	else
		return FTD_PARSE_OTHER;
	if (res != FTD_PARSE_OTHER)
		out->udp_off = (__u32)((long)out->udp - (long)data);
	return res;
}

#endif /* FTD_PARSE_H */
