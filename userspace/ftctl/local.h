/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which node of the config file is this host? One file serves the whole
 * cluster, so by default the answer comes from the addresses configured on
 * this host's interfaces (in the current network namespace); --node and
 * "node =" override that for hosts where it is ambiguous.
 */
#ifndef FTCTL_LOCAL_H
#define FTCTL_LOCAL_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "common/addr.h"
#include "ftctl/config.h"

struct ftctl_local {
	uint32_t id;
	char how[160];		/* why this node, for --dry-run */
};

/*
 * Resolve the local node: `opt_node` (--node; NULL if not given) first,
 * then the file's "node =", then the one node owning one of the `host`
 * addresses. Returns 0, or -1 with a message in err that tells the admin
 * what to do. `name` is the file's name for messages.
 */
int ftctl_local_resolve(const struct ftctl_conf *conf, const char *name,
			const uint32_t *opt_node, const struct ftu_addr *host, size_t nhost,
			struct ftctl_local *out, char *err, size_t errlen);

/*
 * A node named by --node or "node =" must have an address on this host:
 * otherwise this host would heartbeat as another node (a copied file, a
 * wrong --node). Returns 0 if one of its addresses is among `host`, or -1
 * with a message in err. `how` names where the id came from, for it.
 */
int ftctl_local_check_owned(const struct ftctl_conf *conf, uint32_t id, const char *how,
			    const struct ftu_addr *host, size_t nhost, char *err, size_t errlen);

/* The IPv4/IPv6 addresses of this network namespace (getifaddrs); -errno. */
int ftctl_host_addrs(struct ftu_addr **addrs, size_t *n);

/* An address of this host and the interface that carries it. */
struct ftctl_ifaddr {
	struct ftu_addr addr;
	char ifname[IF_NAMESIZE];
};

/* ftctl_host_addrs() with the interface of each; free *out with free(). */
int ftctl_host_ifaddrs(struct ftctl_ifaddr **out, size_t *n);

/*
 * The heartbeat interfaces of `node` on this host: those carrying its rail
 * addresses, in rail order, each once; where the eBPF programs go. Rails
 * whose address no interface carries are left out. Returns the number of
 * names written to `names` (at most FTD_MAX_RAILS).
 */
size_t ftctl_rail_ifaces(const struct ftctl_conf_node *node, const struct ftctl_ifaddr *host,
			 size_t nhost, char names[][IF_NAMESIZE]);

#endif /* FTCTL_LOCAL_H */
