// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where the eBPF programs are: interfaces (netlink queries, which need no
 * privilege) and pins (bpffs, root only). See status.h.
 */
#define _GNU_SOURCE
#include "status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/magic.h>
#include <linux/pkt_sched.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

const char *const ftd_xdp_counter_names[__FTD_XDP_NR] = {
	[FTD_XDP_STAMPED] = "stamped",
	[FTD_XDP_NOT_PARSED] = "not_parsed",
	[FTD_XDP_DROP_SHORT] = "drop_short",
	[FTD_XDP_DROP_MAGIC] = "drop_magic",
	[FTD_XDP_DROP_VERSION] = "drop_version",
	[FTD_XDP_DROP_LENGTH] = "drop_length",
	[FTD_XDP_DROP_CLUSTER] = "drop_cluster",
	[FTD_XDP_DROP_NONMEMBER] = "drop_nonmember",
	[FTD_XDP_UNSTAMPED] = "unstamped",
};

const char *const ftd_tc_counter_names[__FTD_TC_NR] = {
	[FTD_TC_STAMPED] = "stamped",
	[FTD_TC_NOT_PARSED] = "not_parsed",
	[FTD_TC_ERRORS] = "errors",
	[FTD_TC_DELAY_SAMPLES] = "delay_samples",
	[FTD_TC_DELAY_SUM_NS] = "delay_sum_ns",
	[FTD_TC_DELAY_MAX_NS] = "delay_max_ns",
	[FTD_TC_DELAY_NEGATIVE] = "delay_negative",
};

const char *ftd_xdp_attach_name(enum ftd_xdp_attach a)
{
	switch (a) {
	case FTD_XDP_NONE:	return "off";
	case FTD_XDP_NATIVE:	return "native";
	case FTD_XDP_GENERIC:	return "generic";
	case FTD_XDP_OFFLOAD:	return "offload";
	case FTD_XDP_MULTI:	return "multi";
	}
	return "?";
}

static bool is_bpffs(const char *path)
{
	struct statfs sfs;

	return !statfs(path, &sfs) && sfs.f_type == BPF_FS_MAGIC;
}

int ftd_ebpf_bpffs(char *path, size_t len, char *err, size_t errlen)
{
	static const char *const where[] = { "/sys/fs/bpf", "/proc/1/root/sys/fs/bpf" };
	const char *env = getenv("FTD_BPFFS");

	if (env && *env) {
		if (!is_bpffs(env)) {
			snprintf(err, errlen, "FTD_BPFFS=%s is not a bpf file system", env);
			return -ENOENT;
		}
		snprintf(path, len, "%s", env);
		return 0;
	}
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		if (is_bpffs(where[i])) {
			snprintf(path, len, "%s", where[i]);
			return 0;
		}
	}
	snprintf(err, errlen, "no bpf file system at /sys/fs/bpf to pin the maps in "
		 "(mount -t bpf bpf /sys/fs/bpf)");
	return -ENOENT;
}

int ftd_ebpf_netns(uint64_t *inode, uint64_t *cookie)
{
	socklen_t len = sizeof(*cookie);
	struct stat st;
	int fd;

	*cookie = 0;
	if (stat("/proc/self/ns/net", &st))
		return -errno;
	*inode = st.st_ino;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, cookie, &len))
		*cookie = 0;	/* before 5.14: no cookie, no stale check */
	close(fd);
	return 0;
}

int ftd_ebpf_netns_dir(char *dir, size_t len, char *err, size_t errlen)
{
	char root[PATH_MAX];
	uint64_t ino, cookie;
	int ret;

	ret = ftd_ebpf_bpffs(root, sizeof(root), err, errlen);
	if (ret)
		return ret;
	ret = ftd_ebpf_netns(&ino, &cookie);
	if (ret) {
		snprintf(err, errlen, "cannot identify this network namespace: %s", strerror(-ret));
		return ret;
	}
	if (snprintf(dir, len, "%s/" FTD_PIN_ROOT "/" FTD_PIN_NETNS_FMT, root,
		     (unsigned long long)ino) >= (int)len) {
		snprintf(err, errlen, "pin path too long");
		return -ENAMETOOLONG;
	}
	return 0;
}

int ftd_ebpf_read_counters(int fd, uint64_t *out, unsigned int n, int max_index)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *v;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (unsigned int k = 0; k < n; k++) {
		out[k] = 0;
		if (bpf_map_lookup_elem(fd, &k, v)) {
			int e = -errno;

			free(v);
			return e;
		}
		for (int c = 0; c < ncpu; c++) {
			if ((int)k == max_index)
				out[k] = v[c] > out[k] ? v[c] : out[k];
			else
				out[k] += v[c];
		}
	}
	free(v);
	return 0;
}

/* Ours if the kernel names it so; unknown without the right to ask. */
static enum ftd_owner owner_of(uint32_t prog_id, const char *name)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	enum ftd_owner o;
	int fd;

	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0)
		return FTD_OWNER_UNKNOWN;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		o = FTD_OWNER_UNKNOWN;
	else
		o = strncmp(info.name, name, sizeof(info.name)) ? FTD_OWNER_OTHER : FTD_OWNER_OURS;
	close(fd);
	return o;
}

static enum ftd_xdp_attach attach_of(uint8_t mode)
{
	switch (mode) {
	case XDP_ATTACHED_DRV:	 return FTD_XDP_NATIVE;
	case XDP_ATTACHED_SKB:	 return FTD_XDP_GENERIC;
	case XDP_ATTACHED_HW:	 return FTD_XDP_OFFLOAD;
	case XDP_ATTACHED_MULTI: return FTD_XDP_MULTI;
	}
	return FTD_XDP_NONE;
}

/* The pinned map at dir/name, summed into out; false if not readable. */
static bool read_pinned_counters(const char *dir, const char *name, uint64_t *out,
				 unsigned int n, int max_index)
{
	char path[PATH_MAX + 64];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return false;
	ret = ftd_ebpf_read_counters(fd, out, n, max_index);
	close(fd);
	return !ret;
}

static void query_iface(struct ftd_ebpf_iface *e, const char *nsdir, bool *pinned)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, xq);
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = (int)e->ifindex, .attach_point = BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, to, .handle = FTD_TC_HANDLE, .priority = FTD_TC_PRIORITY);
	char ifdir[PATH_MAX + 32];
	struct stat st;

	if (!bpf_xdp_query((int)e->ifindex, 0, &xq) && xq.attach_mode != XDP_ATTACHED_NONE) {
		e->xdp_mode = attach_of(xq.attach_mode);
		e->xdp_prog_id = xq.prog_id ? xq.prog_id :
				 xq.drv_prog_id ? xq.drv_prog_id : xq.skb_prog_id;
		e->xdp_owner = owner_of(e->xdp_prog_id, FTD_XDP_PROG_NAME);
	}
	if (!bpf_tc_query(&hook, &to)) {
		e->tc_prog_id = to.prog_id;
		e->tc_owner = owner_of(e->tc_prog_id, FTD_TC_PROG_NAME);
	}
	*pinned = false;
	if (!*nsdir)
		return;
	snprintf(ifdir, sizeof(ifdir), "%s/" FTD_PIN_IF_FMT, nsdir, e->ifindex);
	if (stat(ifdir, &st))
		return;
	*pinned = true;
	e->has_xdp_stats = read_pinned_counters(ifdir, FTD_PIN_XDP_STATS, e->xdp, __FTD_XDP_NR, -1);
	e->has_tc_stats = read_pinned_counters(ifdir, FTD_PIN_TC_STATS, e->tc, __FTD_TC_NR,
					       FTD_TC_DELAY_MAX_NS);
}

static void read_config(struct ftd_ebpf_status *st)
{
	char path[PATH_MAX + 32];
	uint32_t zero = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/" FTD_PIN_CONFIG, st->dir);
	fd = bpf_obj_get(path);
	if (fd >= 0) {
		st->has_config = !bpf_map_lookup_elem(fd, &zero, &st->config);
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/" FTD_PIN_MEMBERS, st->dir);
	fd = bpf_obj_get(path);
	if (fd >= 0) {
		struct ftd_ebpf_member k, next;
		void *prev = NULL;

		st->has_members = true;
		while (!bpf_map_get_next_key(fd, prev, &next)) {
			st->nr_members++;
			k = next;
			prev = &k;
		}
		close(fd);
	}
}

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int ftd_ebpf_status(struct ftd_ebpf_status *st)
{
	libbpf_print_fn_t old = libbpf_set_print(silent);
	struct if_nameindex *ifs, *i;
	char err[256];
	size_t n = 0;

	memset(st, 0, sizeof(*st));
	if (ftd_ebpf_netns_dir(st->dir, sizeof(st->dir), err, sizeof(err)))
		st->dir[0] = '\0';
	else
		read_config(st);

	ifs = if_nameindex();
	if (!ifs) {
		libbpf_set_print(old);
		return -errno;
	}
	for (i = ifs; i->if_index; i++)
		n++;
	st->ifaces = calloc(n ? n : 1, sizeof(*st->ifaces));
	if (!st->ifaces) {
		if_freenameindex(ifs);
		libbpf_set_print(old);
		return -ENOMEM;
	}
	for (i = ifs; i->if_index; i++) {
		struct ftd_ebpf_iface *e = &st->ifaces[st->nr_ifaces];
		bool pinned;

		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", i->if_name);
		e->ifindex = i->if_index;
		query_iface(e, st->dir, &pinned);
		if (e->xdp_prog_id || e->tc_prog_id || pinned)
			st->nr_ifaces++;
	}
	if_freenameindex(ifs);
	libbpf_set_print(old);
	return 0;
}

void ftd_ebpf_status_free(struct ftd_ebpf_status *st)
{
	free(st->ifaces);
	st->ifaces = NULL;
	st->nr_ifaces = 0;
}

const struct ftd_ebpf_iface *ftd_ebpf_status_find(const struct ftd_ebpf_status *st,
						  const char *name)
{
	for (size_t i = 0; i < st->nr_ifaces; i++)
		if (!strcmp(st->ifaces[i].name, name))
			return &st->ifaces[i];
	return NULL;
}
