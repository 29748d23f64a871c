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
 * The headers are parsed in place (ftd_parse.h, the XDP program's parse),
 * reading only: parsing every packet must not make cloned skbs (TCP's)
 * private, as bpf_skb_pull_data() or a direct write would; the frame is
 * read with bpf_skb_load_bytes(), and only the store into an ftdetect frame
 * unclones. Headers beyond the linear part are not parsed: the module's
 * frames are built linear.
 *
 * Returns TC_ACT_UNSPEC always: the frame continues to the next filter or
 * the default action; nothing is ever dropped here.
 */
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include <linux/ftdetect.h>
#include "ftd_ebpf.h"
#include "ftd_parse.h"

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

/* Stamp the frame whose UDP header is at `off`. */
static __always_inline int stamp(struct __sk_buff *skb, __u32 off, __u64 now)
{
	__u32 p = off + sizeof(struct udphdr);
	__be32 magic;
	__u8 version;
	__u64 old, new;
	__s64 diff;

	/* Ours only: magic and version; the rest is the receiver's business. */
	if (bpf_skb_load_bytes(skb, p + FTD_WIRE_HDR_OFF(magic), &magic, sizeof(magic)) ||
	    magic != bpf_htonl(FTD_WIRE_MAGIC) ||
	    bpf_skb_load_bytes(skb, p + FTD_WIRE_HDR_OFF(version), &version, sizeof(version)) ||
	    version != FTD_WIRE_VERSION)
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
	struct ftd_parsed pkt = {};
	__u32 zero = 0;

	cfg = bpf_map_lookup_elem(&config, &zero);
	if (!cfg || !cfg->port)
		return TC_ACT_UNSPEC;
	/* Cheap first: most of what leaves is no IP datagram we could stamp. */
	if (skb->protocol != bpf_htons(ETH_P_IP) && skb->protocol != bpf_htons(ETH_P_IPV6) &&
	    skb->protocol != bpf_htons(ETH_P_8021Q) && skb->protocol != bpf_htons(ETH_P_8021AD))
		return TC_ACT_UNSPEC;
	switch (ftd_parse_udp((void *)(long)skb->data, (void *)(long)skb->data_end, cfg->port, &pkt)) {
	case FTD_PARSE_FRAME:
		return stamp(skb, pkt.udp_off, now);
	case FTD_PARSE_HIDDEN:
		return count(FTD_TC_NOT_PARSED);
	default:
		return TC_ACT_UNSPEC;
	}
}

char LICENSE[] SEC("license") = "GPL";
