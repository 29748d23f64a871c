// SPDX-License-Identifier: GPL-2.0
#include <linux/moduleparam.h>
#include <linux/user_namespace.h>
#include <linux/ftdetect.h>
#include "bounds.h"

/*
 * 131072 nodes covers the largest machines the design aims at (100k nodes)
 * at about 1.5 KiB each; 256 is more than a test cluster of namespaces needs.
 */
static unsigned int max_nodes = 131072;
module_param(max_nodes, uint, 0644);
MODULE_PARM_DESC(max_nodes, "nodes an instance of the initial user namespace may hold (default 131072)");

static unsigned int userns_max_nodes = 256;
module_param(userns_max_nodes, uint, 0644);
MODULE_PARM_DESC(userns_max_nodes, "nodes an instance owned by another user namespace may hold (default 256)");

/* 1 ms: ten times the design's floor, a thousand timer interrupts a second. */
static unsigned int userns_min_period_us = 1000;
module_param(userns_min_period_us, uint, 0644);
MODULE_PARM_DESC(userns_min_period_us, "shortest period, in microseconds, for an instance owned by another user namespace (default 1000)");

static bool userns_config = true;
module_param(userns_config, bool, 0644);
MODULE_PARM_DESC(userns_config, "allow configuring instances owned by other user namespaces (default Y)");

static unsigned int max_openers = 8192;
module_param(max_openers, uint, 0644);
MODULE_PARM_DESC(max_openers, "/dev/ftdetect files open on one instance at once (default 8192)");

bool ftd_net_owned_by_init_ns(const struct ftd_net *fn)
{
	return fn->net->user_ns == &init_user_ns;
}

u32 ftd_max_nodes(const struct ftd_net *fn)
{
	return ftd_net_owned_by_init_ns(fn) ? READ_ONCE(max_nodes) : READ_ONCE(userns_max_nodes);
}

u64 ftd_min_period_ns(const struct ftd_net *fn)
{
	u64 floor = FTD_MIN_PERIOD_NS;

	if (!ftd_net_owned_by_init_ns(fn))
		floor = max_t(u64, floor, (u64)READ_ONCE(userns_min_period_us) * NSEC_PER_USEC);
	return floor;
}

u32 ftd_max_openers(void)
{
	return READ_ONCE(max_openers);
}

int ftd_config_allowed(const struct ftd_net *fn, struct netlink_ext_ack *extack)
{
	if (ftd_net_owned_by_init_ns(fn) || READ_ONCE(userns_config))
		return 0;
	NL_SET_ERR_MSG_MOD(extack,
		"configuring an instance in a user namespace is disabled (module parameter userns_config)");
	return -EPERM;
}
