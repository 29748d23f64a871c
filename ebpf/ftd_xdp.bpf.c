// SPDX-License-Identifier: GPL-2.0
/*
 * ftd_xdp: the driver-level side of ftdetect's receive path.
 *
 * For every UDP datagram aimed at the heartbeat port (IPv4 or IPv6, up to
 * two VLAN tags), at the driver's XDP hook:
 *
 *   - a well-formed frame from a member gets its arrival time, the
 *     receiver's CLOCK_MONOTONIC (bpf_ktime_get_ns()) read on entry, in the
 *     packet's XDP metadata (struct ftd_xdp_meta); the module takes it as
 *     the arrival time, so what the stack and the scheduler add later never
 *     counts against a peer. Not in the packet: a sender could write that;
 *   - a frame that can never be a heartbeat (too short, bad magic, version
 *     or length, as kmod/proto/wire.c judges them), of another cluster, or
 *     from an address that is no member's is dropped and counted by reason;
 *   - a datagram behind IPv6 extension headers or an IPv4 fragment is passed
 *     untouched and counted as not parsed.
 *
 * Everything else passes untouched and uncounted. Type, flags and payload
 * rules are left to the module: they change with the protocol, the envelope
 * checked here does not. The packet itself is never modified.
 *
 * Only uapi structures are touched (struct xdp_md and packet headers): no
 * vmlinux.h and no CO-RE relocations are needed (docs/ebpf.md).
 */
#include <linux/bpf.h>
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
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FTD_EBPF_MAX_MEMBERS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct ftd_ebpf_member);
	__type(value, __u32);
} members SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, __FTD_XDP_NR);
	__type(key, __u32);
	__type(value, __u64);
} xdp_stats SEC(".maps");

#define HDR(field) FTD_WIRE_HDR_OFF(field)

static __always_inline int count(__u32 what, int action)
{
	__u64 *c = bpf_map_lookup_elem(&xdp_stats, &what);

	if (c)
		*c += 1;	/* per-CPU: no other writer */
	return action;
}

/*
 * Judge and stamp a frame: `p` is the UDP payload, `ulen` the UDP length.
 * The packet bytes are read with __builtin_memcpy: the frame sits at any
 * alignment behind the headers.
 */
/* Pass the arrival time to the module in the packet's metadata. */
static __always_inline int stamp(struct xdp_md *ctx, __u64 now)
{
	struct ftd_xdp_meta *meta;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return count(FTD_XDP_UNSTAMPED, XDP_PASS);
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > (void *)(long)ctx->data)
		return count(FTD_XDP_UNSTAMPED, XDP_PASS);
	meta->rx_ns = now;
	meta->magic = FTD_XDP_META_MAGIC;
	meta->reserved = 0;
	return count(FTD_XDP_STAMPED, XDP_PASS);
}

static __always_inline int frame(struct xdp_md *ctx, struct udphdr *udp, void *end,
				 const struct ftd_ebpf_config *cfg,
				 const struct ftd_ebpf_member *src, __u64 now)
{
	__u8 *p = (__u8 *)(udp + 1);
	__u32 ulen = bpf_ntohs(udp->len), flen, magic, cluster;
	__u16 length, reserved;

	if (ulen < sizeof(*udp) + FTD_WIRE_HDR_LEN)
		return count(FTD_XDP_DROP_SHORT, XDP_DROP);
	flen = ulen - sizeof(*udp);
	if (flen > FTD_MAX_FRAME)
		return count(FTD_XDP_DROP_LENGTH, XDP_DROP);
	if (p + FTD_WIRE_HDR_LEN > (__u8 *)end || p + flen > (__u8 *)end)
		return count(FTD_XDP_DROP_SHORT, XDP_DROP);	/* truncated */

	__builtin_memcpy(&magic, p + HDR(magic), 4);
	if (magic != bpf_htonl(FTD_WIRE_MAGIC))
		return count(FTD_XDP_DROP_MAGIC, XDP_DROP);
	if (p[HDR(version)] != FTD_WIRE_VERSION)
		return count(FTD_XDP_DROP_VERSION, XDP_DROP);
	__builtin_memcpy(&length, p + HDR(length), 2);
	__builtin_memcpy(&reserved, p + HDR(reserved), 2);
	if (bpf_ntohs(length) != flen || reserved)
		return count(FTD_XDP_DROP_LENGTH, XDP_DROP);
	__builtin_memcpy(&cluster, p + HDR(cluster), 4);
	if ((cfg->flags & FTD_EBPF_F_CLUSTER) && cluster != bpf_htonl(cfg->cluster))
		return count(FTD_XDP_DROP_CLUSTER, XDP_DROP);
	if ((cfg->flags & FTD_EBPF_F_MEMBERS) && !bpf_map_lookup_elem(&members, src))
		return count(FTD_XDP_DROP_NONMEMBER, XDP_DROP);

	return stamp(ctx, now);
}

SEC("xdp")
int ftd_xdp(struct xdp_md *ctx)
{
	/* First thing: the arrival time at the driver hook. */
	__u64 now = bpf_ktime_get_ns();
	const struct ftd_ebpf_config *cfg;
	struct ftd_parsed pkt = {};
	__u32 zero = 0;

	cfg = bpf_map_lookup_elem(&config, &zero);
	if (!cfg || !cfg->port)
		return XDP_PASS;
	switch (ftd_parse_udp((void *)(long)ctx->data, (void *)(long)ctx->data_end, cfg->port, &pkt)) {
	case FTD_PARSE_FRAME:
		return frame(ctx, pkt.udp, (void *)(long)ctx->data_end, cfg, &pkt.src, now);
	case FTD_PARSE_HIDDEN:
		return count(FTD_XDP_NOT_PARSED, XDP_PASS);
	default:
		return XDP_PASS;
	}
}

char LICENSE[] SEC("license") = "GPL";
