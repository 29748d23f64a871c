// SPDX-License-Identifier: GPL-2.0-only
/*
 * Load, attach, detach and feed the eBPF programs (libbpf skeletons). The
 * layout of the pins is in ftd_ebpf.h; the reasoning in docs/ebpf.md.
 *
 * Attachments (XDP link-level, clsact filter) and pins outlive this process:
 * ftctl loads, attaches, pins and exits; a later ftctl finds the maps again
 * through the pins of its network namespace.
 */
#define _GNU_SOURCE
#include "loader.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <dirent.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/if_link.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ftd_xdp.skel.h"
#include "ftd_tc.skel.h"

const char *ftd_xdp_want_name(enum ftd_xdp_want w)
{
	switch (w) {
	case FTD_XDP_WANT_OFF:		return "off";
	case FTD_XDP_WANT_AUTO:		return "auto";
	case FTD_XDP_WANT_NATIVE:	return "native";
	case FTD_XDP_WANT_GENERIC:	return "generic";
	}
	return "?";
}

int ftd_xdp_want_parse(const char *s, enum ftd_xdp_want *w)
{
	for (int i = FTD_XDP_WANT_OFF; i <= FTD_XDP_WANT_GENERIC; i++) {
		if (!strcmp(s, ftd_xdp_want_name(i))) {
			*w = i;
			return 0;
		}
	}
	return -1;
}

void ftd_ebpf_member_v4(struct ftd_ebpf_member *m, const void *in_addr)
{
	memset(m, 0, sizeof(*m));
	m->addr[10] = 0xff;
	m->addr[11] = 0xff;
	memcpy(&m->addr[12], in_addr, 4);
}

void ftd_ebpf_member_v6(struct ftd_ebpf_member *m, const void *in6_addr)
{
	memcpy(m->addr, in6_addr, 16);
}

struct member_ref {
	struct ftd_ebpf_member m;
	uint32_t node;
};

static int cmp_member_ref(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct ftd_ebpf_member));
}

void ftd_ebpf_members_sort(struct ftd_ebpf_member *m, uint32_t *nodes, size_t n)
{
	struct member_ref *r = calloc(n ? n : 1, sizeof(*r));

	if (!r) {	/* unsorted: lookups fall back to a linear scan */
		return;
	}
	for (size_t i = 0; i < n; i++)
		r[i] = (struct member_ref){ m[i], nodes[i] };
	qsort(r, n, sizeof(*r), cmp_member_ref);
	for (size_t i = 0; i < n; i++) {
		m[i] = r[i].m;
		nodes[i] = r[i].node;
	}
	free(r);
}

static bool wanted(const struct ftd_ebpf_params *p, const struct ftd_ebpf_member *k)
{
	size_t lo = 0, hi = p->nr_members;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(k, &p->members[mid], sizeof(*k));

		if (!c)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/* ---------------------------------------------------------------- libbpf messages */

/* libbpf's last warning and the kernel's last extack message, for errors. */
static char last_warn[256], last_kmsg[256];

static int capture(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static const char tag[] = "Kernel error message: ";
	char buf[512];
	const char *k;
	size_t n;

	if (level == LIBBPF_DEBUG && !getenv("FTD_LIBBPF_DEBUG"))
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (getenv("FTD_LIBBPF_DEBUG"))
		fputs(buf, stderr);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	k = strstr(buf, tag);
	if (k)
		snprintf(last_kmsg, sizeof(last_kmsg), "%s", k + sizeof(tag) - 1);
	else if (level == LIBBPF_WARN)
		snprintf(last_warn, sizeof(last_warn), "%s", buf);
	return 0;
}

static libbpf_print_fn_t quiet_libbpf(void)
{
	last_warn[0] = last_kmsg[0] = '\0';
	return libbpf_set_print(capture);
}

/* "<strerror>[: <kernel's message>]" of the last failure. */
static const char *why(int e, char *buf, size_t len)
{
	if (e < 0)
		e = -e;
	if (last_kmsg[0])
		snprintf(buf, len, "%s: %s", strerror(e), last_kmsg);
	else
		snprintf(buf, len, "%s", strerror(e));
	last_kmsg[0] = '\0';
	return buf;
}

__attribute__((format(printf, 4, 5)))
static int fail(int ret, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret < 0 ? ret : -EINVAL;
}

/* ---------------------------------------------------------------- pins */

struct pins {
	char dir[PATH_MAX];		/* the namespace's */
	char ifdir[PATH_MAX + 32];	/* the interface's */
	uint64_t cookie;
};

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int remove_tree(const char *dir)
{
	return nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS) && errno != ENOENT ? -errno : 0;
}

/* The cookie recorded in the pinned config map; 0 if none or unreadable. */
static uint64_t pinned_cookie(const char *dir, bool *exists)
{
	struct ftd_ebpf_config c = { 0 };
	char path[PATH_MAX + 32];
	uint32_t zero = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/" FTD_PIN_CONFIG, dir);
	fd = bpf_obj_get(path);
	*exists = fd >= 0;
	if (fd < 0)
		return 0;
	if (bpf_map_lookup_elem(fd, &zero, &c))
		c.netns_cookie = 0;
	close(fd);
	return c.netns_cookie;
}

/*
 * The namespace's pin directory, created when `create`; a directory left by
 * a dead namespace whose inode number this one reuses is removed first.
 */
static int pins_open(struct pins *p, unsigned int ifindex, bool create, char *err, size_t errlen)
{
	char root[PATH_MAX + 16];
	uint64_t ino, cookie;
	bool exists;
	int ret;

	ret = ftd_ebpf_netns_dir(p->dir, sizeof(p->dir), err, errlen);
	if (ret)
		return ret;
	ret = ftd_ebpf_netns(&ino, &p->cookie);
	if (ret)
		return fail(ret, err, errlen, "cannot identify this network namespace: %s",
			    strerror(-ret));
	snprintf(p->ifdir, sizeof(p->ifdir), "%s/" FTD_PIN_IF_FMT, p->dir, ifindex);

	cookie = pinned_cookie(p->dir, &exists);
	if (exists && cookie && p->cookie && cookie != p->cookie) {
		ret = remove_tree(p->dir);
		if (ret)
			return fail(ret, err, errlen, "cannot remove the stale pins %s: %s",
				    p->dir, strerror(-ret));
	}
	if (!create)
		return 0;
	snprintf(root, sizeof(root), "%s", p->dir);
	*strrchr(root, '/') = '\0';	/* <bpffs>/ftdetect */
	if ((mkdir(root, 0700) && errno != EEXIST) || (mkdir(p->dir, 0700) && errno != EEXIST) ||
	    (mkdir(p->ifdir, 0700) && errno != EEXIST))
		return fail(-errno, err, errlen, "cannot create the pin directory %s: %s",
			    p->ifdir, strerror(errno));
	return 0;
}

/* Remove the interface's pins `names`, then whatever directory is now unused. */
static void pins_remove(const struct pins *p, const char *const *names, size_t n)
{
	char path[PATH_MAX + 64];
	struct dirent *de;
	bool any_if = false;
	DIR *d;

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", p->ifdir, names[i]);
		unlink(path);
	}
	rmdir(p->ifdir);	/* only if empty: the other program may be pinned there */
	d = opendir(p->dir);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "if", 2))
			any_if = true;
	closedir(d);
	if (!any_if)
		remove_tree(p->dir);
}

static int pin_path(struct bpf_map *map, const char *dir, const char *name)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return bpf_map__set_pin_path(map, path);
}

static int pin_prog(struct bpf_program *prog, const char *ifdir, const char *name)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", ifdir, name);
	unlink(path);
	return bpf_program__pin(prog, path);
}

/* ---------------------------------------------------------------- maps */

static int write_config(int fd, const struct ftd_ebpf_params *p, uint64_t cookie)
{
	struct ftd_ebpf_config c = {
		.netns_cookie = cookie,
		.cluster = p->cluster,
		.port = p->port,
		.flags = (p->has_members ? FTD_EBPF_F_MEMBERS : 0) |
			 (p->has_cluster ? FTD_EBPF_F_CLUSTER : 0),
	};
	uint32_t zero = 0;

	return bpf_map_update_elem(fd, &zero, &c, BPF_ANY) ? -errno : 0;
}

/* Make the member map hold exactly p's members. */
static int write_members(int fd, const struct ftd_ebpf_params *p)
{
	struct ftd_ebpf_member k, next, *stale = NULL;
	size_t nstale = 0, cap = 0;
	void *prev = NULL;
	int ret = 0;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		if (!wanted(p, &next)) {
			if (nstale == cap) {
				struct ftd_ebpf_member *s;

				cap = cap ? 2 * cap : 64;
				s = reallocarray(stale, cap, sizeof(*s));
				if (!s) {
					free(stale);
					return -ENOMEM;
				}
				stale = s;
			}
			stale[nstale++] = next;
		}
		k = next;
		prev = &k;
	}
	for (size_t i = 0; i < nstale; i++)
		bpf_map_delete_elem(fd, &stale[i]);
	free(stale);
	for (size_t i = 0; i < p->nr_members && !ret; i++)
		if (bpf_map_update_elem(fd, &p->members[i], &p->member_nodes[i], BPF_ANY))
			ret = -errno;
	return ret;
}

/* Write p into the pinned maps under `dir` that exist; -ENOENT if no config. */
static int sync_pins(const char *dir, const struct ftd_ebpf_params *p, uint64_t cookie,
		     char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/" FTD_PIN_MEMBERS, dir);
	fd = bpf_obj_get(path);
	if (fd >= 0) {
		ret = write_members(fd, p);
		close(fd);
		if (ret)
			return fail(ret, err, errlen, "cannot update the member map %s: %s", path,
				    strerror(-ret));
	}
	/* Config last: the member filter goes on once the members are in. */
	snprintf(path, sizeof(path), "%s/" FTD_PIN_CONFIG, dir);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -ENOENT;
	ret = write_config(fd, p, cookie);
	close(fd);
	if (ret)
		return fail(ret, err, errlen, "cannot update the config map %s: %s", path,
			    strerror(-ret));
	return 0;
}

int ftd_ebpf_sync(const struct ftd_ebpf_params *p, char *err, size_t errlen)
{
	libbpf_print_fn_t old = quiet_libbpf();
	struct pins pins;
	int ret;

	/* No bpffs, or nothing pinned in it: nothing is attached to feed. */
	ret = pins_open(&pins, 0, false, err, errlen);
	if (!ret) {
		ret = sync_pins(pins.dir, p, pins.cookie, err, errlen);
		if (ret == -ENOENT)
			ret = 0;
	} else if (ret == -ENOENT) {
		ret = 0;
	}
	libbpf_set_print(old);
	return ret;
}

/* A map of a program and where it is pinned; a list ends with map NULL. */
struct pin_map {
	struct bpf_map *map;
	const char *dir;
	const char *name;
};

/*
 * Load an opened skeleton's program (what: "XDP", "TC") with its maps
 * pinned where the list maps says (an existing pin is reused: both programs share
 * config), then write the configuration into them. The program's own pin
 * waits until it is attached. The one load path of both programs.
 */
static int load_pinned(struct bpf_object_skeleton *skel, const char *what,
		       const struct pin_map *maps, const struct pins *pins,
		       const struct ftd_ebpf_params *p, char *err, size_t errlen)
{
	char w[320];
	int ret;

	for (; maps->map; maps++)
		if (pin_path(maps->map, maps->dir, maps->name))
			return fail(-ENOMEM, err, errlen, "cannot set the pin paths");
	ret = bpf_object__load_skeleton(skel);
	if (ret)
		return fail(ret, err, errlen, "cannot load the %s program: %s%s%s (pins: %s)", what,
			    why(ret, w, sizeof(w)), last_warn[0] ? "; libbpf: " : "", last_warn,
			    pins->dir);
	return sync_pins(pins->dir, p, pins->cookie, err, errlen);
}

/* ---------------------------------------------------------------- interfaces */

static int check_iface(const char *ifname, unsigned int *ifindex, char *err, size_t errlen)
{
	struct ifreq ifr = { 0 };
	int fd, ret = 0;

	if (strlen(ifname) >= IF_NAMESIZE)
		return fail(-EINVAL, err, errlen, "bad interface name '%s'", ifname);
	*ifindex = if_nametoindex(ifname);
	if (!*ifindex)
		return fail(-ENODEV, err, errlen, "no interface %s in this network namespace",
			    ifname);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(-errno, err, errlen, "socket: %s", strerror(errno));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		ret = fail(-errno, err, errlen, "%s: cannot read the link type: %s", ifname,
			   strerror(errno));
	else if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER)
		ret = fail(-EOPNOTSUPP, err, errlen, "%s is not an Ethernet device (link type %u); "
			   "the programs parse Ethernet frames", ifname, ifr.ifr_hwaddr.sa_family);
	close(fd);
	return ret;
}

static enum ftd_owner owner(uint32_t prog_id, const char *name)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	enum ftd_owner o;
	int fd = bpf_prog_get_fd_by_id(prog_id);

	if (fd < 0)
		return FTD_OWNER_UNKNOWN;
	memset(&info, 0, sizeof(info));
	o = bpf_obj_get_info_by_fd(fd, &info, &len) ? FTD_OWNER_UNKNOWN :
	    strncmp(info.name, name, sizeof(info.name)) ? FTD_OWNER_OTHER : FTD_OWNER_OURS;
	close(fd);
	return o;
}

static uint32_t mode_flags(uint8_t attach_mode)
{
	switch (attach_mode) {
	case XDP_ATTACHED_DRV:	return XDP_FLAGS_DRV_MODE;
	case XDP_ATTACHED_SKB:	return XDP_FLAGS_SKB_MODE;
	case XDP_ATTACHED_HW:	return XDP_FLAGS_HW_MODE;
	}
	return 0;
}

/* ---------------------------------------------------------------- XDP */

/* Attach prog_fd in mode m (replacing ours in that mode, atomically). */
static int xdp_attach_mode(unsigned int ifindex, int prog_fd, uint32_t m, uint32_t *cur,
			   int *old_fd)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, ao);

	if (*cur && *cur != m) {
		/* Native and generic cannot coexist: ours goes first. */
		if (bpf_xdp_detach((int)ifindex, *cur, NULL))
			return -errno;
		*cur = 0;
	}
	if (*cur == m && *old_fd >= 0) {
		ao.old_prog_fd = *old_fd;
		return bpf_xdp_attach((int)ifindex, prog_fd, m | XDP_FLAGS_REPLACE, &ao);
	}
	return bpf_xdp_attach((int)ifindex, prog_fd, m | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
}

int ftd_xdp_attach(const char *ifname, enum ftd_xdp_want want, const struct ftd_ebpf_params *p,
		   enum ftd_xdp_attach *got, char *note, size_t notelen, char *err, size_t errlen)
{
	static const uint32_t try_auto[] = { XDP_FLAGS_DRV_MODE, XDP_FLAGS_SKB_MODE };
	static const uint32_t try_native[] = { XDP_FLAGS_DRV_MODE };
	static const uint32_t try_generic[] = { XDP_FLAGS_SKB_MODE };
	libbpf_print_fn_t old = quiet_libbpf();
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	const uint32_t *modes;
	struct ftd_xdp *skel = NULL;
	unsigned int ifindex;
	size_t nmodes;
	uint32_t cur = 0, orig;
	struct pins pins;
	int ret, old_fd = -1, prog_fd;
	char w[320];

	*got = FTD_XDP_NONE;
	if (note && notelen)
		note[0] = '\0';
	switch (want) {
	case FTD_XDP_WANT_AUTO:	   modes = try_auto; nmodes = 2; break;
	case FTD_XDP_WANT_NATIVE:  modes = try_native; nmodes = 1; break;
	case FTD_XDP_WANT_GENERIC: modes = try_generic; nmodes = 1; break;
	default:
		ret = fail(-EINVAL, err, errlen, "no XDP mode to attach in");
		goto out;
	}
	ret = check_iface(ifname, &ifindex, err, errlen);
	if (ret)
		goto out;

	ret = bpf_xdp_query((int)ifindex, 0, &q);
	if (ret) {
		ret = fail(ret, err, errlen, "%s: cannot query XDP: %s", ifname, why(ret, w, sizeof(w)));
		goto out;
	}
	if (q.attach_mode == XDP_ATTACHED_MULTI || q.attach_mode == XDP_ATTACHED_HW) {
		ret = fail(-EBUSY, err, errlen, "%s has XDP programs attached in %s mode; "
			   "detach them first", ifname,
			   q.attach_mode == XDP_ATTACHED_HW ? "offload" : "several");
		goto out;
	}
	if (q.prog_id) {
		enum ftd_owner o = owner(q.prog_id, FTD_XDP_PROG_NAME);

		if (o != FTD_OWNER_OURS) {
			ret = fail(-EBUSY, err, errlen, "%s already has %s XDP program (id %u); "
				   "detach it first (ip link set dev %s xdp off)", ifname,
				   o == FTD_OWNER_OTHER ? "another" : "an unknown", q.prog_id,
				   ifname);
			goto out;
		}
		cur = mode_flags(q.attach_mode);
		old_fd = bpf_prog_get_fd_by_id(q.prog_id);
	}

	ret = pins_open(&pins, ifindex, true, err, errlen);
	if (ret)
		goto out;
	skel = ftd_xdp__open();
	if (!skel) {
		ret = fail(-errno, err, errlen, "cannot open the XDP program: %s", strerror(errno));
		goto out;
	}
	ret = load_pinned(skel->skeleton, "XDP", (const struct pin_map[]){
				  { skel->maps.config, pins.dir, FTD_PIN_CONFIG },
				  { skel->maps.members, pins.dir, FTD_PIN_MEMBERS },
				  { skel->maps.xdp_stats, pins.ifdir, FTD_PIN_XDP_STATS },
				  { NULL },
			  }, &pins, p, err, errlen);
	if (ret)
		goto out;

	prog_fd = bpf_program__fd(skel->progs.ftd_xdp);
	orig = cur;
	for (size_t i = 0; i < nmodes; i++) {
		ret = xdp_attach_mode(ifindex, prog_fd, modes[i], &cur, &old_fd);
		if (!ret) {
			*got = modes[i] == XDP_FLAGS_DRV_MODE ? FTD_XDP_NATIVE : FTD_XDP_GENERIC;
			break;
		}
		why(ret, w, sizeof(w));
		if (note && notelen && modes[i] == XDP_FLAGS_DRV_MODE && nmodes > 1)
			snprintf(note, notelen, "native mode failed: %s", w);
	}
	if (ret && orig && !cur &&
	    !bpf_xdp_attach((int)ifindex, prog_fd, orig | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL)) {
		/* Ours had to go to try the other mode: it is back as it was. */
		ret = fail(ret, err, errlen, "%s: cannot attach XDP in %s mode: %s; left in %s "
			   "mode", ifname, ftd_xdp_want_name(want), w,
			   orig == XDP_FLAGS_DRV_MODE ? "native" : "generic");
		goto pin;
	}
	if (ret) {
		ret = fail(ret, err, errlen, "%s: cannot attach XDP in %s mode: %s", ifname,
			   ftd_xdp_want_name(want), w);
		pins_remove(&pins, (const char *const[]){ FTD_PIN_XDP_STATS }, 1);
		goto out;
	}
pin:
	if (pin_prog(skel->progs.ftd_xdp, pins.ifdir, FTD_PIN_XDP_PROG) && !ret)
		ret = fail(-errno, err, errlen, "%s: XDP attached, but the program could not be "
			   "pinned under %s: %s", ifname, pins.ifdir, strerror(errno));
out:
	if (old_fd >= 0)
		close(old_fd);
	ftd_xdp__destroy(skel);
	libbpf_set_print(old);
	return ret;
}

int ftd_xdp_detach(const char *ifname, char *err, size_t errlen)
{
	static const char *const names[] = { FTD_PIN_XDP_PROG, FTD_PIN_XDP_STATS };
	libbpf_print_fn_t old = quiet_libbpf();
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	unsigned int ifindex;
	struct pins pins;
	char w[320];
	int ret;

	ret = check_iface(ifname, &ifindex, err, errlen);
	if (ret == -EOPNOTSUPP)
		ret = 0;	/* nothing of ours can be there */
	if (ret || bpf_xdp_query((int)ifindex, 0, &q))
		goto out;
	if (q.prog_id && q.attach_mode != XDP_ATTACHED_MULTI) {
		if (owner(q.prog_id, FTD_XDP_PROG_NAME) == FTD_OWNER_OTHER) {
			ret = fail(-EBUSY, err, errlen, "the XDP program on %s (id %u) is not "
				   "ftdetect's: left alone", ifname, q.prog_id);
			goto out;
		}
		ret = bpf_xdp_detach((int)ifindex, mode_flags(q.attach_mode), NULL);
		if (ret) {
			ret = fail(ret, err, errlen, "%s: cannot detach XDP: %s", ifname,
				   why(ret, w, sizeof(w)));
			goto out;
		}
	}
	if (!pins_open(&pins, ifindex, false, err, errlen))
		pins_remove(&pins, names, 2);
	ret = 0;
out:
	libbpf_set_print(old);
	return ret;
}

/* ---------------------------------------------------------------- TC */

int ftd_tc_attach(const char *ifname, const struct ftd_ebpf_params *p, char *err, size_t errlen)
{
	libbpf_print_fn_t old = quiet_libbpf();
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, q, .handle = FTD_TC_HANDLE, .priority = FTD_TC_PRIORITY);
	struct ftd_tc *skel = NULL;
	unsigned int ifindex;
	struct pins pins;
	char w[320];
	int ret;

	ret = check_iface(ifname, &ifindex, err, errlen);
	if (ret)
		goto out;
	hook.ifindex = (int)ifindex;
	ret = bpf_tc_hook_create(&hook);
	if (ret && ret != -EEXIST) {
		ret = fail(ret, err, errlen, "%s: cannot add the clsact qdisc: %s", ifname,
			   why(ret, w, sizeof(w)));
		goto out;
	}
	if (!bpf_tc_query(&hook, &q) && owner(q.prog_id, FTD_TC_PROG_NAME) == FTD_OWNER_OTHER) {
		ret = fail(-EBUSY, err, errlen, "%s: the egress filter handle %#x priority %#x is "
			   "taken by another program (id %u)", ifname, FTD_TC_HANDLE,
			   FTD_TC_PRIORITY, q.prog_id);
		goto out;
	}

	ret = pins_open(&pins, ifindex, true, err, errlen);
	if (ret)
		goto out;
	skel = ftd_tc__open();
	if (!skel) {
		ret = fail(-errno, err, errlen, "cannot open the TC program: %s", strerror(errno));
		goto out;
	}
	ret = load_pinned(skel->skeleton, "TC", (const struct pin_map[]){
				  { skel->maps.config, pins.dir, FTD_PIN_CONFIG },
				  { skel->maps.tc_stats, pins.ifdir, FTD_PIN_TC_STATS },
				  { NULL },
			  }, &pins, p, err, errlen);
	if (ret)
		goto out;

	{
		LIBBPF_OPTS(bpf_tc_opts, ao, .handle = FTD_TC_HANDLE, .priority = FTD_TC_PRIORITY,
			    .prog_fd = bpf_program__fd(skel->progs.ftd_tc_egress),
			    .flags = BPF_TC_F_REPLACE);

		ret = bpf_tc_attach(&hook, &ao);
	}
	if (ret) {
		ret = fail(ret, err, errlen, "%s: cannot attach the egress filter: %s", ifname,
			   why(ret, w, sizeof(w)));
		pins_remove(&pins, (const char *const[]){ FTD_PIN_TC_STATS }, 1);
		goto out;
	}
	if (pin_prog(skel->progs.ftd_tc_egress, pins.ifdir, FTD_PIN_TC_PROG))
		ret = fail(-errno, err, errlen, "%s: TC attached, but the program could not be "
			   "pinned under %s: %s", ifname, pins.ifdir, strerror(errno));
out:
	ftd_tc__destroy(skel);
	libbpf_set_print(old);
	return ret;
}

int ftd_tc_detach(const char *ifname, char *err, size_t errlen)
{
	static const char *const names[] = { FTD_PIN_TC_PROG, FTD_PIN_TC_STATS };
	libbpf_print_fn_t old = quiet_libbpf();
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, q, .handle = FTD_TC_HANDLE, .priority = FTD_TC_PRIORITY);
	unsigned int ifindex;
	struct pins pins;
	char w[320];
	int ret;

	ret = check_iface(ifname, &ifindex, err, errlen);
	if (ret == -EOPNOTSUPP)
		ret = 0;
	if (ret)
		goto out;
	hook.ifindex = (int)ifindex;
	if (!bpf_tc_query(&hook, &q)) {
		if (owner(q.prog_id, FTD_TC_PROG_NAME) == FTD_OWNER_OTHER) {
			ret = fail(-EBUSY, err, errlen, "the egress filter on %s (id %u) is not "
				   "ftdetect's: left alone", ifname, q.prog_id);
			goto out;
		}
		LIBBPF_OPTS(bpf_tc_opts, d, .handle = FTD_TC_HANDLE, .priority = FTD_TC_PRIORITY);
		ret = bpf_tc_detach(&hook, &d);
		if (ret) {
			ret = fail(ret, err, errlen, "%s: cannot remove the egress filter: %s",
				   ifname, why(ret, w, sizeof(w)));
			goto out;
		}
	}
	if (!pins_open(&pins, ifindex, false, err, errlen))
		pins_remove(&pins, names, 2);
	ret = 0;
out:
	libbpf_set_print(old);
	return ret;
}
