/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * What the eBPF programs (ftd_xdp.bpf.c, ftd_tc.bpf.c) and their user-space
 * side (loader.c, status.c, ftctl) share: map layouts, counter indices, pin
 * names and the TC filter's identity. See docs/ebpf.md.
 *
 * Maps and programs are pinned per network namespace (each namespace is a
 * node) and per interface:
 *
 *   <bpffs>/ftdetect/net-<netns inode>/
 *     config               array[1] of struct ftd_ebpf_config  (both programs)
 *     members              hash: struct ftd_ebpf_member -> node id (XDP)
 *     if<ifindex>/
 *       xdp_prog           the XDP program attached to that interface
 *       xdp_stats          per-CPU array[__FTD_XDP_NR] of __u64, enum ftd_xdp_counter
 *       tc_prog            the TC egress program
 *       tc_stats           per-CPU array[__FTD_TC_NR] of __u64, enum ftd_tc_counter
 *
 * <bpffs> is /sys/fs/bpf. The directory is named after the inode of the
 * namespace (as `readlink /proc/self/ns/net` shows it); an inode number can
 * be reused once a namespace is gone, so the config map also records the
 * namespace's cookie, which never is: a directory whose cookie is not the
 * current namespace's is a leftover and is replaced.
 */
#ifndef FTD_EBPF_H
#define FTD_EBPF_H

#include <linux/types.h>
#include <linux/ftdetect.h>

#define FTD_PIN_ROOT		"ftdetect"
#define FTD_PIN_NETNS_FMT	"net-%llu"
#define FTD_PIN_IF_FMT		"if%u"
#define FTD_PIN_CONFIG		"config"
#define FTD_PIN_MEMBERS		"members"
#define FTD_PIN_XDP_PROG	"xdp_prog"
#define FTD_PIN_XDP_STATS	"xdp_stats"
#define FTD_PIN_TC_PROG		"tc_prog"
#define FTD_PIN_TC_STATS	"tc_stats"

/* Program names as the kernel reports them (bpf_prog_info.name, 15 chars). */
#define FTD_XDP_PROG_NAME	"ftd_xdp"
#define FTD_TC_PROG_NAME	"ftd_tc_egress"

/* The single entry of the config map. */
struct ftd_ebpf_config {
	__u64 netns_cookie;	/* namespace that owns the pins (stale check) */
	__u32 cluster;		/* cluster id, host order (with FTD_EBPF_F_CLUSTER) */
	__u16 port;		/* heartbeat UDP port, host order; 0: pass everything */
	__u16 flags;		/* FTD_EBPF_F_* */
};

#define FTD_EBPF_F_MEMBERS	0x1	/* XDP drops sources not in the member map */
#define FTD_EBPF_F_CLUSTER	0x2	/* XDP drops frames of another cluster */
#define __FTD_EBPF_F_ALL	0x3

/* A member's source address: IPv6, or IPv4 mapped (::ffff:a.b.c.d). */
struct ftd_ebpf_member {
	__u8 addr[16];
};

/* Every rail of every node of a 64k-node cluster; allocated on use. */
#define FTD_EBPF_MAX_MEMBERS	(65536 * FTD_MAX_RAILS)

/* XDP counters: what happened to frames aimed at the heartbeat port. */
enum ftd_xdp_counter {
	FTD_XDP_STAMPED,	/* passed, arrival time in its metadata */
	FTD_XDP_NOT_PARSED,	/* passed untouched: IPv6 extension headers, IPv4 fragment */
	FTD_XDP_DROP_SHORT,	/* dropped: shorter than a frame header, or truncated */
	FTD_XDP_DROP_MAGIC,	/* dropped: bad magic */
	FTD_XDP_DROP_VERSION,	/* dropped: unsupported version */
	FTD_XDP_DROP_LENGTH,	/* dropped: length field disagrees with UDP, too long, reserved bits */
	FTD_XDP_DROP_CLUSTER,	/* dropped: another cluster */
	FTD_XDP_DROP_NONMEMBER,	/* dropped: source address of no member */
	FTD_XDP_UNSTAMPED,	/* passed without a stamp: no metadata room */
	__FTD_XDP_NR
};

/* TC egress counters. */
enum ftd_tc_counter {
	FTD_TC_STAMPED,		/* frames whose tx_ns was rewritten */
	FTD_TC_NOT_PARSED,	/* to the port, but behind IPv6 extension headers or fragmented */
	FTD_TC_ERRORS,		/* a helper failed: frame left as it was built */
	FTD_TC_DELAY_SAMPLES,	/* frames that carried a build time (tx_ns != 0) */
	FTD_TC_DELAY_SUM_NS,	/* sum of (TC stamp - build time) over them */
	FTD_TC_DELAY_MAX_NS,	/* largest such delay */
	FTD_TC_DELAY_NEGATIVE,	/* build time later than the TC stamp (clock stepped) */
	__FTD_TC_NR
};

/*
 * The clsact egress filter: its handle and priority identify it, so that
 * ftctl finds, replaces and removes only its own filter. The priority is
 * high (runs after other filters: the stamp is taken as late as the hook
 * allows) and the program returns TC_ACT_UNSPEC, so other filters and the
 * default action still apply.
 */
#define FTD_TC_HANDLE		0xf7d
#define FTD_TC_PRIORITY		0xf7d0

#endif /* FTD_EBPF_H */
