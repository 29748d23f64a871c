/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Loading, attaching and detaching the eBPF programs, and keeping their
 * maps in step with the cluster config (libbpf skeletons). Used by ftctl.
 *
 * Every function returns 0 or -errno; on error `err` holds a sentence that
 * says what went wrong and, where there is one, what to do about it
 * (including the kernel's extack message when it gave one).
 */
#ifndef FTD_EBPF_LOADER_H
#define FTD_EBPF_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftd_ebpf.h"
#include "status.h"

/* What is asked of XDP: the config file's `xdp =` and --mode. */
enum ftd_xdp_want {
	FTD_XDP_WANT_OFF,
	FTD_XDP_WANT_AUTO,	/* native, else generic */
	FTD_XDP_WANT_NATIVE,
	FTD_XDP_WANT_GENERIC,
};

const char *ftd_xdp_want_name(enum ftd_xdp_want w);
/* "auto", "native", "generic", "off" -> *w; -1 for anything else. */
int ftd_xdp_want_parse(const char *s, enum ftd_xdp_want *w);

/* What the maps must say: from the config file or the running instance. */
struct ftd_ebpf_params {
	uint16_t port;
	bool has_cluster;		/* drop frames of other clusters */
	uint32_t cluster;
	bool has_members;		/* drop frames from non-members */
	const struct ftd_ebpf_member *members;	/* sorted by ftd_ebpf_members_sort() */
	const uint32_t *member_nodes;	/* node id of each, same order */
	size_t nr_members;
};

/* IPv4 a.b.c.d as ::ffff:a.b.c.d, the member map's key. */
void ftd_ebpf_member_v4(struct ftd_ebpf_member *m, const void *in_addr);
void ftd_ebpf_member_v6(struct ftd_ebpf_member *m, const void *in6_addr);

/*
 * Attach the XDP program to `ifname` (replacing ftdetect's own, atomically
 * when the mode stays; another program there is an error). With AUTO,
 * native is tried first; *got says what was attached and, when native was
 * tried and failed, `note` says why. Config and member maps are written
 * from `p` before the program is attached, so it never runs on stale ones.
 */
int ftd_xdp_attach(const char *ifname, enum ftd_xdp_want want, const struct ftd_ebpf_params *p,
		   enum ftd_xdp_attach *got, char *note, size_t notelen, char *err, size_t errlen);

/* Detach ftdetect's XDP program (if any) and remove its pins. */
int ftd_xdp_detach(const char *ifname, char *err, size_t errlen);

/* Attach the TC egress program to `ifname` (clsact created if needed). */
int ftd_tc_attach(const char *ifname, const struct ftd_ebpf_params *p, char *err, size_t errlen);

/* Remove ftdetect's egress filter (the clsact qdisc stays) and its pins. */
int ftd_tc_detach(const char *ifname, char *err, size_t errlen);

/*
 * Write `p` into the pinned config and member maps of this namespace, if
 * there are any (nothing attached: nothing to do, returns 0).
 */
int ftd_ebpf_sync(const struct ftd_ebpf_params *p, char *err, size_t errlen);

/* Sort members (and their node ids alongside) for ftd_ebpf_params. */
void ftd_ebpf_members_sort(struct ftd_ebpf_member *m, uint32_t *nodes, size_t n);

#endif /* FTD_EBPF_LOADER_H */
