// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include "ftctl/local.h"

#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool on_host(const struct ftu_addr *addr, const struct ftu_addr *host, size_t nhost)
{
	for (size_t h = 0; h < nhost; h++)
		if (!ftu_addr_cmp(addr, &host[h]))
			return true;
	return false;
}

int ftctl_local_resolve(const struct ftctl_conf *conf, const char *name,
			const uint32_t *opt_node, const struct ftu_addr *host, size_t nhost,
			struct ftctl_local *out, char *err, size_t errlen)
{
	const struct ftctl_conf_node *found = NULL;
	const struct ftu_addr *found_addr = NULL;
	char a[FTU_ADDR_BUFSZ], b[FTU_ADDR_BUFSZ];

	if (opt_node) {
		if (!ftctl_conf_find(conf, *opt_node)) {
			snprintf(err, errlen, "node %u (--node) is not listed in [nodes] of %s",
				 *opt_node, name);
			return -1;
		}
		out->id = *opt_node;
		snprintf(out->how, sizeof(out->how), "given with --node");
		return 0;
	}
	if (conf->has_node) {
		/* The parser already checked that it is listed. */
		out->id = conf->node;
		snprintf(out->how, sizeof(out->how), "'node = %u' in %s", conf->node, name);
		return 0;
	}

	for (size_t i = 0; i < conf->nr_nodes; i++) {
		const struct ftctl_conf_node *n = &conf->nodes[i];

		for (unsigned int r = 0; r < n->nr_addrs; r++) {
			if (!on_host(&n->addrs[r], host, nhost))
				continue;
			if (found && found != n) {
				snprintf(err, errlen,
					 "nodes %u (%s) and %u (%s) of %s both have an "
					 "address on this host; choose one with --node ID",
					 found->id, ftu_addr_format(found_addr, a, sizeof(a)),
					 n->id, ftu_addr_format(&n->addrs[r], b, sizeof(b)), name);
				return -1;
			}
			found = n;
			found_addr = &n->addrs[r];
		}
	}
	if (!found) {
		snprintf(err, errlen,
			 "no address of %s is configured on this host (in this network "
			 "namespace); say which node this is with --node ID or 'node = ID' "
			 "under [cluster]", name);
		return -1;
	}
	out->id = found->id;
	snprintf(out->how, sizeof(out->how), "its address %s is configured on this host",
		 ftu_addr_format(found_addr, a, sizeof(a)));
	return 0;
}

int ftctl_local_check_owned(const struct ftctl_conf *conf, uint32_t id, const char *how,
			    const struct ftu_addr *host, size_t nhost, char *err, size_t errlen)
{
	const struct ftctl_conf_node *n = ftctl_conf_find(conf, id);
	char list[FTD_MAX_RAILS * (FTU_ADDR_BUFSZ + 2)] = "", a[FTU_ADDR_BUFSZ];
	size_t used = 0;

	if (!n)
		return 0;	/* ftctl_local_resolve said so already */
	for (unsigned int r = 0; r < n->nr_addrs; r++) {
		if (on_host(&n->addrs[r], host, nhost))
			return 0;
		used += snprintf(list + used, sizeof(list) - used, "%s%s", r ? ", " : "",
				 ftu_addr_format(&n->addrs[r], a, sizeof(a)));
		if (used >= sizeof(list))
			used = sizeof(list) - 1;
	}
	snprintf(err, errlen,
		 "node %u (%s) has no address on this host: %s%s is%s configured in this "
		 "network namespace, and this host would heartbeat as node %u; check the "
		 "node id, or apply anyway with --force (its addresses are not configured "
		 "yet)", id, how, n->nr_addrs > 1 ? "none of " : "", list,
		 n->nr_addrs > 1 ? "" : " not", id);
	return -1;
}

int ftctl_host_addrs(struct ftu_addr **addrs, size_t *n)
{
	struct ifaddrs *ifa, *i;
	size_t count = 0;

	*addrs = NULL;
	*n = 0;
	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i; i = i->ifa_next)
		count++;
	*addrs = calloc(count ? count : 1, sizeof(**addrs));
	if (!*addrs) {
		freeifaddrs(ifa);
		return -ENOMEM;
	}
	for (i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr && !ftu_addr_from_sockaddr(i->ifa_addr, &(*addrs)[*n]))
			(*n)++;
	freeifaddrs(ifa);
	return 0;
}

int ftctl_host_ifaddrs(struct ftctl_ifaddr **out, size_t *n)
{
	struct ifaddrs *ifa, *i;
	size_t count = 0;

	*out = NULL;
	*n = 0;
	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i; i = i->ifa_next)
		count++;
	*out = calloc(count ? count : 1, sizeof(**out));
	if (!*out) {
		freeifaddrs(ifa);
		return -ENOMEM;
	}
	for (i = ifa; i; i = i->ifa_next) {
		struct ftctl_ifaddr *e = &(*out)[*n];

		if (!i->ifa_addr || ftu_addr_from_sockaddr(i->ifa_addr, &e->addr))
			continue;
		snprintf(e->ifname, sizeof(e->ifname), "%s", i->ifa_name);
		(*n)++;
	}
	freeifaddrs(ifa);
	return 0;
}

size_t ftctl_rail_ifaces(const struct ftctl_conf_node *node, const struct ftctl_ifaddr *host,
			 size_t nhost, char names[][IF_NAMESIZE])
{
	size_t n = 0;

	for (unsigned int r = 0; r < node->nr_addrs; r++) {
		for (size_t h = 0; h < nhost; h++) {
			bool seen = false;

			if (ftu_addr_cmp(&node->addrs[r], &host[h].addr))
				continue;
			for (size_t k = 0; k < n; k++)
				seen |= !strcmp(names[k], host[h].ifname);
			if (!seen && n < FTD_MAX_RAILS)
				snprintf(names[n++], IF_NAMESIZE, "%s", host[h].ifname);
			break;
		}
	}
	return n;
}
