// SPDX-License-Identifier: GPL-2.0
/*
 * ftd_tc_egress: the transmit stamp, at the clsact egress hook.
 *
 * For every ftdetect frame leaving the interface (UDP to the heartbeat port,
 * IPv4 or IPv6, up to two VLAN tags, magic and version right), the tx_ns
 * field (FTD_WIRE_TX_OFF) is rewritten with the sender's CLOCK_TAI
 * (bpf_ktime_get_tai_ns(), which 6.1 has), the clock the module used when
 * it built the frame. The receiver can then tell the time a frame spent in
 * the sender (timer, stack, qdisc queues before this hook are now behind
 * the stamp) from the time on the network, given synchronised clocks.
 *
 * The UDP checksum: the module sends through the UDP tunnel helpers, so on
 * a device with checksum offload the skb is CHECKSUM_PARTIAL here: the field
 * holds only the pseudo-header sum and the device (or skb_checksum_help())
 * sums the payload later, so the field must not change with the payload.
 * Without offload the checksum is complete and must be updated.
 * bpf_l4_csum_replace() without BPF_F_PSEUDO_HDR does exactly this: it
 * leaves a CHECKSUM_PARTIAL field alone and updates a complete one; with
 * BPF_F_MARK_MANGLED_0 an IPv4 "no checksum" zero stays zero and a result
 * of zero is written as 0xffff. The sum over the datagram is unchanged, so
 * skb->csum needs no update (no BPF_F_RECOMPUTE_CSUM).
 *
 * The frame is read with bpf_skb_load_bytes(): parsing every packet must not
 * make cloned skbs (TCP's) private, as bpf_skb_pull_data() would; only the
 * store into an ftdetect frame does.
 *
 * Returns TC_ACT_UNSPEC always: the frame continues to the next filter or
 * the default action; nothing is ever dropped here.
 */
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include <linux/ftdetect.h>
#include "ftd_ebpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ftd_ebpf_config);
} config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, __FTD_TC_NR);
	__type(key, __u32);
	__type(value, __u64);
} tc_stats SEC(".maps");

struct vlan_tag {
	__be16 tci;
	__be16 proto;
};

#define IPV4_MF		0x2000
#define IPV4_OFFSET	0x1fff
#define IPV6_FRAG_OFFSET 0xfff8
#define MAX_VLAN_TAGS	2
#define MAX_IPV6_EXT	4

static __always_inline __u64 *counter(__u32 what)
{
	return bpf_map_lookup_elem(&tc_stats, &what);
}

static __always_inline int count(__u32 what)
{
	__u64 *c = counter(what);

	if (c)
		*c += 1;
	return TC_ACT_UNSPEC;
}

/* The sender-side delay: from the module's build time to this hook. */
static __always_inline void count_delay(__u64 built, __u64 now)
{
	__u64 *c;

	if (!built)
		return;		/* a frame built without a time (test tools) */
	if (built > now) {
		count(FTD_TC_DELAY_NEGATIVE);
		return;
	}
	count(FTD_TC_DELAY_SAMPLES);
	c = counter(FTD_TC_DELAY_SUM_NS);
	if (c)
		*c += now - built;
	c = counter(FTD_TC_DELAY_MAX_NS);
	if (c && *c < now - built)
		*c = now - built;
}

static __always_inline int is_ipv6_ext(__u8 nh)
{
	return nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING || nh == IPPROTO_DSTOPTS ||
	       nh == IPPROTO_FRAGMENT;
}

/* Stamp the frame whose UDP header is at `off`. */
static __always_inline int stamp(struct __sk_buff *skb, __u32 off, __u64 now)
{
	__u32 p = off + sizeof(struct udphdr);
	struct {
		__be32 magic;
		__u8 version;
	} head;
	__u64 old, new;
	__s64 diff;

	/* Ours only: magic and version; the rest is the receiver's business. */
	if (bpf_skb_load_bytes(skb, p, &head, 5) || head.magic != bpf_htonl(FTD_WIRE_MAGIC) ||
	    head.version != FTD_WIRE_VERSION)
		return TC_ACT_UNSPEC;
	if (bpf_skb_load_bytes(skb, p + FTD_WIRE_TX_OFF, &old, sizeof(old)))
		return TC_ACT_UNSPEC;	/* shorter than a header */

	new = bpf_cpu_to_be64(now);
	if (bpf_skb_store_bytes(skb, p + FTD_WIRE_TX_OFF, &new, sizeof(new), 0))
		return count(FTD_TC_ERRORS);
	diff = bpf_csum_diff((__be32 *)&old, sizeof(old), (__be32 *)&new, sizeof(new), 0);
	if (diff < 0 ||
	    bpf_l4_csum_replace(skb, off + offsetof(struct udphdr, check), 0, diff,
				BPF_F_MARK_MANGLED_0))
		return count(FTD_TC_ERRORS);
	count_delay(bpf_be64_to_cpu(old), now);
	return count(FTD_TC_STAMPED);
}

SEC("tc")
int ftd_tc_egress(struct __sk_buff *skb)
{
	__u64 now = bpf_ktime_get_tai_ns();
	const struct ftd_ebpf_config *cfg;
	struct udphdr udp;
	__u32 zero = 0, off;
	__be16 proto;
	int i;

	cfg = bpf_map_lookup_elem(&config, &zero);
	if (!cfg || !cfg->port)
		return TC_ACT_UNSPEC;
	if (skb->protocol != bpf_htons(ETH_P_IP) && skb->protocol != bpf_htons(ETH_P_IPV6) &&
	    skb->protocol != bpf_htons(ETH_P_8021Q) && skb->protocol != bpf_htons(ETH_P_8021AD))
		return TC_ACT_UNSPEC;
	if (bpf_skb_load_bytes(skb, offsetof(struct ethhdr, h_proto), &proto, sizeof(proto)))
		return TC_ACT_UNSPEC;
	off = sizeof(struct ethhdr);
#pragma unroll
	for (i = 0; i < MAX_VLAN_TAGS; i++) {
		struct vlan_tag tag;

		if (proto != bpf_htons(ETH_P_8021Q) && proto != bpf_htons(ETH_P_8021AD))
			break;
		if (bpf_skb_load_bytes(skb, off, &tag, sizeof(tag)))
			return TC_ACT_UNSPEC;
		proto = tag.proto;
		off += sizeof(tag);
	}

	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr iph;

		if (bpf_skb_load_bytes(skb, off, &iph, sizeof(iph)) || iph.protocol != IPPROTO_UDP ||
		    iph.ihl < 5 || (iph.frag_off & bpf_htons(IPV4_OFFSET)))
			return TC_ACT_UNSPEC;
		off += iph.ihl * 4;
		if (bpf_skb_load_bytes(skb, off, &udp, sizeof(udp)) ||
		    udp.dest != bpf_htons(cfg->port))
			return TC_ACT_UNSPEC;
		if (iph.frag_off & bpf_htons(IPV4_MF))
			return count(FTD_TC_NOT_PARSED);
		return stamp(skb, off, now);
	}
	if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr ip6;
		int ext = 0;
		__u8 nh;

		if (bpf_skb_load_bytes(skb, off, &ip6, sizeof(ip6)))
			return TC_ACT_UNSPEC;
		nh = ip6.nexthdr;
		off += sizeof(ip6);
#pragma unroll
		for (i = 0; i < MAX_IPV6_EXT; i++) {
			__u8 opt[4];

			if (!is_ipv6_ext(nh))
				break;
			if (bpf_skb_load_bytes(skb, off, opt, sizeof(opt)))
				return TC_ACT_UNSPEC;
			ext = 1;
			if (nh == IPPROTO_FRAGMENT) {
				if ((opt[2] << 8 | opt[3]) & IPV6_FRAG_OFFSET)
					return TC_ACT_UNSPEC;
				off += 8;
			} else {
				off += (opt[1] + 1) * 8;
			}
			nh = opt[0];
		}
		if (nh != IPPROTO_UDP || bpf_skb_load_bytes(skb, off, &udp, sizeof(udp)) ||
		    udp.dest != bpf_htons(cfg->port))
			return TC_ACT_UNSPEC;
		if (ext)
			return count(FTD_TC_NOT_PARSED);
		return stamp(skb, off, now);
	}
	return TC_ACT_UNSPEC;
}

char LICENSE[] SEC("license") = "GPL";
