// SPDX-License-Identifier: GPL-2.0-only
#include "ftctl/rdma.h"

#include <ifaddrs.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#define GID_ENTRIES 512	/* a device's GID tables, all ports */

static int failf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* The GID a RoCE port has for addr: the IPv6 address, or IPv4-mapped. */
static void gid_of(const struct ftu_addr *addr, union ibv_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	if (addr->family == AF_INET6) {
		memcpy(gid->raw, &addr->in6, 16);
	} else {
		gid->raw[10] = 0xff;
		gid->raw[11] = 0xff;
		memcpy(gid->raw + 12, &addr->in, 4);
	}
}

/*
 * The hardware address of the interface holding addr (IPoIB: 20 bytes, the
 * last 16 its port's GID); its length, 0 if none.
 */
static size_t hwaddr_of(const struct ftu_addr *addr, unsigned char *hw, size_t max)
{
	struct ifaddrs *ifs, *i, *j;
	const char *name = NULL;
	size_t n = 0;

	if (getifaddrs(&ifs))
		return 0;
	for (i = ifs; i && !name; i = i->ifa_next) {
		struct ftu_addr a;

		if (i->ifa_addr && !ftu_addr_from_sockaddr(i->ifa_addr, &a) &&
		    !ftu_addr_cmp(&a, addr))
			name = i->ifa_name;
	}
	for (j = ifs; j && name && !n; j = j->ifa_next) {
		const struct sockaddr_ll *ll = (const void *)j->ifa_addr;

		if (ll && ll->sll_family == AF_PACKET && !strcmp(j->ifa_name, name) &&
		    ll->sll_halen <= max) {
			memcpy(hw, ll->sll_addr, ll->sll_halen);
			n = ll->sll_halen;
		}
	}
	freeifaddrs(ifs);
	return n;
}

/* Is addr on port `port` of ctx (0: any port)? */
static bool addr_on(struct ibv_context *ctx, uint32_t port, const struct ftu_addr *addr)
{
	static struct ibv_gid_entry gids[GID_ENTRIES];
	unsigned char hw[32];
	union ibv_gid want;
	size_t hwlen;
	ssize_t n;

	gid_of(addr, &want);
	hwlen = hwaddr_of(addr, hw, sizeof(hw));
	n = ibv_query_gid_table(ctx, gids, GID_ENTRIES, 0);
	for (ssize_t i = 0; i < n; i++) {
		if (port && gids[i].port_num != port)
			continue;
		if (!memcmp(gids[i].gid.raw, want.raw, 16))
			return true;	/* RoCE */
		if (hwlen == 20 && !memcmp(hw + 4, gids[i].gid.raw, 16))
			return true;	/* IPoIB over this port */
	}
	return false;
}

/* "mlx5_0, mlx5_1" or "none", into buf. */
static const char *device_names(struct ibv_device **list, int n, char *buf, size_t len)
{
	size_t used = 0;

	snprintf(buf, len, "none");
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 ibv_get_device_name(list[i]));
	return buf;
}

/* The device and port that addr is on, as "rxe0 port 1", or "no RDMA port". */
static const char *where_is(struct ibv_device **list, int n, const struct ftu_addr *addr,
			    char *buf, size_t len)
{
	snprintf(buf, len, "no RDMA port");
	for (int i = 0; i < n; i++) {
		struct ibv_context *ctx = ibv_open_device(list[i]);
		struct ibv_device_attr attr;
		bool found = false;

		if (!ctx)
			continue;
		if (!ibv_query_device(ctx, &attr))
			for (uint32_t p = 1; p <= attr.phys_port_cnt && !found; p++)
				if (addr_on(ctx, p, addr)) {
					snprintf(buf, len, "%s port %u", ibv_get_device_name(list[i]), p);
					found = true;
				}
		ibv_close_device(ctx);
		if (found)
			break;
	}
	return buf;
}

static int check_rail(struct ibv_device **list, int n, unsigned int rail,
		      const struct ftctl_conf_rdma *want, const struct ftu_addr *addr,
		      char *err, size_t errlen)
{
	char a[FTU_ADDR_BUFSZ], names[256], where[96];
	struct ibv_device_attr attr;
	struct ibv_context *ctx;
	int i, ret = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), want->device))
			break;
	if (i == n)
		return failf(err, errlen, "rdma: rail %u is to be on RDMA device %s, which this "
			     "node does not have (it has: %s)", rail, want->device,
			     device_names(list, n, names, sizeof(names)));
	ctx = ibv_open_device(list[i]);
	if (!ctx)
		return failf(err, errlen, "rdma: rail %u: cannot open RDMA device %s: %m", rail,
			     want->device);
	if (ibv_query_device(ctx, &attr)) {
		ret = failf(err, errlen, "rdma: rail %u: cannot query RDMA device %s: %m", rail,
			    want->device);
	} else if (want->port > attr.phys_port_cnt) {
		ret = failf(err, errlen, "rdma: rail %u is to be on %s port %u, but %s has %u "
			    "port%s", rail, want->device, want->port, want->device,
			    attr.phys_port_cnt, attr.phys_port_cnt == 1 ? "" : "s");
	} else if (!addr_on(ctx, want->port, addr)) {
		if (want->port)
			snprintf(names, sizeof(names), "%s port %u", want->device, want->port);
		else
			snprintf(names, sizeof(names), "%s", want->device);
		ret = failf(err, errlen, "rdma: rail %u is to be on %s, but this node's address "
			    "on it, %s, is not (it is on %s)", rail, names,
			    ftu_addr_format(addr, a, sizeof(a)),
			    where_is(list, n, addr, where, sizeof(where)));
	}
	ibv_close_device(ctx);
	return ret;
}

int ftctl_rdma_check(const struct ftctl_conf *conf, const struct ftctl_conf_node *local,
		     char *err, size_t errlen)
{
	struct ibv_device **list = NULL;
	int n = 0, ret = 0;

	for (unsigned int r = 0; r < FTD_MAX_RAILS && !ret; r++) {
		if (!(conf->rdma_rails & (1U << r)) || !conf->rdma_dev[r].device[0] ||
		    r >= local->nr_addrs)
			continue;
		if (!list) {
			list = ibv_get_device_list(&n);
			if (!list)
				return failf(err, errlen, "rdma: cannot list RDMA devices: %m");
		}
		ret = check_rail(list, n, r, &conf->rdma_dev[r], &local->addrs[r], err, errlen);
	}
	if (list)
		ibv_free_device_list(list);
	return ret;
}
