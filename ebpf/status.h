/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space view of the eBPF programs of this network namespace: where
 * their pins are, which interfaces carry them in which mode, and their
 * counters. Read-only, and no program object is embedded here (ftstat links
 * it); attaching is loader.h's.
 */
#ifndef FTD_EBPF_STATUS_H
#define FTD_EBPF_STATUS_H

#include <net/if.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftd_ebpf.h"

/* How an XDP program is attached (the kernel's XDP_ATTACHED_*, by name). */
enum ftd_xdp_attach {
	FTD_XDP_NONE,
	FTD_XDP_NATIVE,		/* in the driver (XDP_ATTACHED_DRV) */
	FTD_XDP_GENERIC,	/* in the core receive path, on skbs (XDP_ATTACHED_SKB) */
	FTD_XDP_OFFLOAD,	/* on the NIC (XDP_ATTACHED_HW) */
	FTD_XDP_MULTI,		/* several at once (XDP_ATTACHED_MULTI) */
};

const char *ftd_xdp_attach_name(enum ftd_xdp_attach a);

/* Whether a program is ftdetect's: by name, which needs CAP_SYS_ADMIN. */
enum ftd_owner { FTD_OWNER_UNKNOWN, FTD_OWNER_OURS, FTD_OWNER_OTHER };

struct ftd_ebpf_iface {
	char name[IF_NAMESIZE];
	unsigned int ifindex;

	uint32_t xdp_prog_id;		/* the XDP program attached, 0: none */
	enum ftd_xdp_attach xdp_mode;
	enum ftd_owner xdp_owner;
	bool has_xdp_stats;		/* counters read from the pinned map */
	uint64_t xdp[__FTD_XDP_NR];	/* summed over CPUs */

	uint32_t tc_prog_id;		/* ftdetect's clsact egress filter, 0: none */
	enum ftd_owner tc_owner;
	bool has_tc_stats;
	uint64_t tc[__FTD_TC_NR];	/* summed; DELAY_MAX_NS: max over CPUs */
};

struct ftd_ebpf_status {
	char dir[PATH_MAX];		/* the namespace's pin directory, "" if unknown */
	bool has_config;		/* its config map was readable */
	struct ftd_ebpf_config config;
	bool has_members;
	size_t nr_members;
	struct ftd_ebpf_iface *ifaces;	/* interfaces with an XDP program, our TC
					 * filter or pins, by ifindex */
	size_t nr_ifaces;
};

/*
 * Fill *st for the current network namespace. Interfaces without any
 * program or pin are left out. Pins are only read (bpffs is root-only);
 * without them the attachment is still shown. Returns 0 or -errno (only
 * for failures to list interfaces or out of memory).
 */
int ftd_ebpf_status(struct ftd_ebpf_status *st);
void ftd_ebpf_status_free(struct ftd_ebpf_status *st);

/* The entry of an interface, or NULL. */
const struct ftd_ebpf_iface *ftd_ebpf_status_find(const struct ftd_ebpf_status *st,
						  const char *name);

/* Names of the counters as status output prints them (JSON keys). */
extern const char *const ftd_xdp_counter_names[__FTD_XDP_NR];
extern const char *const ftd_tc_counter_names[__FTD_TC_NR];

/*
 * The root of the pins: $FTD_BPFFS if set; else /sys/fs/bpf if it is a
 * bpf file system; else /proc/1/root/sys/fs/bpf if that is one: `ip netns
 * exec` mounts a fresh sysfs over /sys for the namespace, which hides the
 * system's bpffs; init's view of it is still the same file system. Returns
 * 0, or -ENOENT with what to do in err.
 */
int ftd_ebpf_bpffs(char *path, size_t len, char *err, size_t errlen);

/* Inode and cookie (0 before 5.14) of the current network namespace; -errno. */
int ftd_ebpf_netns(uint64_t *inode, uint64_t *cookie);

/* <bpffs>/ftdetect/net-<inode> of the current namespace; -errno with err. */
int ftd_ebpf_netns_dir(char *dir, size_t len, char *err, size_t errlen);

/* The per-CPU counter array of a map fd, summed (entries 0..n-1); -errno. */
int ftd_ebpf_read_counters(int fd, uint64_t *out, unsigned int n, int max_index);

#endif /* FTD_EBPF_STATUS_H */
