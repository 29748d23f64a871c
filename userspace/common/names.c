// SPDX-License-Identifier: GPL-2.0-only
/*
 * Name tables for enum ftd_event_type and enum ftd_node_state. The static
 * assertions fail the build when the uapi header grows a value without a
 * name here, instead of printing "(null)" in the field.
 */
#include "common/names.h"

#include <stddef.h>
#include <stdio.h>
#include <strings.h>

#include <linux/ftdetect.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const event_names[] = {
	[FTD_EV_NODE_ALIVE]	= "NODE_ALIVE",
	[FTD_EV_NODE_SUSPECT]	= "NODE_SUSPECT",
	[FTD_EV_NODE_DEAD]	= "NODE_DEAD",
	[FTD_EV_NODE_LEFT]	= "NODE_LEFT",
	[FTD_EV_NODE_RESTORED]	= "NODE_RESTORED",
	[FTD_EV_RANKS_DEAD]	= "RANKS_DEAD",
	[FTD_EV_PROC_DEAD]	= "PROC_DEAD",
	[FTD_EV_PROC_EXIT]	= "PROC_EXIT",
	[FTD_EV_IFACE_DEAD]	= "IFACE_DEAD",
	[FTD_EV_IFACE_RESTORED]	= "IFACE_RESTORED",
	[FTD_EV_FENCED]		= "FENCED",
	[FTD_EV_OVERFLOW]	= "OVERFLOW",
};
_Static_assert(ARRAY_SIZE(event_names) == __FTD_EV_MAX,
	       "every enum ftd_event_type value needs a name");

static const char *const state_names[] = {
	[FTD_NODE_UNKNOWN]	= "unknown",
	[FTD_NODE_ALIVE]	= "alive",
	[FTD_NODE_SUSPECT]	= "suspect",
	[FTD_NODE_DEAD]		= "dead",
	[FTD_NODE_LEFT]		= "left",
	[FTD_NODE_SELF]		= "self",
};
_Static_assert(ARRAY_SIZE(state_names) == __FTD_NODE_STATE_MAX,
	       "every enum ftd_node_state value needs a name");

const char *ftu_event_name(unsigned int type)
{
	return type < ARRAY_SIZE(event_names) ? event_names[type] : NULL;
}

int ftu_event_type(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(event_names); i++)
		if (event_names[i] && !strcasecmp(event_names[i], name))
			return (int)i;
	return -1;
}

const char *ftu_node_state_name(unsigned int state)
{
	return state < ARRAY_SIZE(state_names) ? state_names[state] : NULL;
}

static const char *const stamp_names[] = {
	[FTD_STAMP_NONE]	= "none",
	[FTD_STAMP_XDP]		= "xdp",
	[FTD_STAMP_SKB]		= "skb",
	[FTD_STAMP_MODULE]	= "module",
	[FTD_STAMP_RDMA]	= "rdma",
};
_Static_assert(ARRAY_SIZE(stamp_names) == __FTD_STAMP_MAX,
	       "every enum ftd_stamp_source value needs a name");

const char *ftu_stamp_name(unsigned int source)
{
	return source < ARRAY_SIZE(stamp_names) ? stamp_names[source] : NULL;
}

const char *ftu_rails_format(unsigned int mask, char *buf, size_t len)
{
	size_t used = 0;

	if (!mask || !len) {
		snprintf(buf, len, "none");
		return buf;
	}
	buf[0] = '\0';
	for (unsigned int r = 0; r < FTD_MAX_RAILS && used < len; r++)
		if (mask & (1U << r))
			used += (size_t)snprintf(buf + used, len - used, "%s%u", used ? "," : "", r);
	return buf;
}
