// SPDX-License-Identifier: GPL-2.0-only
/*
 * Names of the uapi enums as the tools print them: events and node states
 * from the library's tables (lib/names.h), stamp sources from this file's.
 * The static assertions fail the build when the uapi header grows a value
 * without a name, instead of printing "(null)" in the field.
 */
#include "common/names.h"

#include <stddef.h>
#include <stdio.h>
#include <strings.h>

#include <linux/ftdetect.h>
#include "lib/names.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *ftu_event_name(unsigned int type)
{
	return type < ARRAY_SIZE(ftd__event_names) ? ftd__event_names[type] : NULL;
}

int ftu_event_type(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(ftd__event_names); i++)
		if (ftd__event_names[i] && !strcasecmp(ftd__event_names[i], name))
			return (int)i;
	return -1;
}

const char *ftu_node_state_name(unsigned int state)
{
	return state < ARRAY_SIZE(ftd__node_state_names) ? ftd__node_state_names[state] : NULL;
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
