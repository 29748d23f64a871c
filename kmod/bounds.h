/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one instance may make the kernel spend. An instance belongs to the
 * user namespace that owns its network namespace; one owned by another
 * user namespace than the initial one can be configured by any local user
 * (unshare -Urn), so it gets tighter limits: fewer nodes, a longer minimum
 * period, or no configuration at all (userns_config=0). Every limit is a
 * module parameter, documented in docs/trust.md. RDMA rails (rdma_ud.h)
 * are for the initial network namespace's instance only (net.c).
 */
#ifndef FTD_BOUNDS_H
#define FTD_BOUNDS_H

#include <linux/netlink.h>
#include "net.h"

/* The instance's network namespace is owned by the initial user namespace. */
bool ftd_net_owned_by_init_ns(const struct ftd_net *fn);

/* Nodes the instance's table may hold. */
u32 ftd_max_nodes(const struct ftd_net *fn);
/* The shortest heartbeat period the instance may run. */
u64 ftd_min_period_ns(const struct ftd_net *fn);
/* /dev/ftdetect files open on one instance at once. */
u32 ftd_max_openers(void);

/* May this instance be configured at all? -EPERM with a message if not. */
int ftd_config_allowed(const struct ftd_net *fn, struct netlink_ext_ack *extack);

#endif
