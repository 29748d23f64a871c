/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * The names of the uapi enums, written once: libftdetect's
 * ftd_event_name(), ftd_node_state_name() and ftd_rank_state_name(), and
 * the tools' names (userspace/common/names.c), index these tables. The
 * event names are the CIFTS FTB vocabulary documented in <linux/ftdetect.h>;
 * scripts match on them, so they never change once released. The static
 * assertions fail the build when the uapi header grows a value without a
 * name here.
 */
#ifndef FTD_LIB_NAMES_H
#define FTD_LIB_NAMES_H

#include <linux/ftdetect.h>

static const char *const ftd__event_names[] __attribute__((unused)) = {
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
_Static_assert(sizeof(ftd__event_names) / sizeof(ftd__event_names[0]) == __FTD_EV_MAX,
	       "every enum ftd_event_type value needs a name");

static const char *const ftd__node_state_names[] __attribute__((unused)) = {
	[FTD_NODE_UNKNOWN]	= "unknown",
	[FTD_NODE_ALIVE]	= "alive",
	[FTD_NODE_SUSPECT]	= "suspect",
	[FTD_NODE_DEAD]		= "dead",
	[FTD_NODE_LEFT]		= "left",
	[FTD_NODE_SELF]		= "self",
};
_Static_assert(sizeof(ftd__node_state_names) / sizeof(ftd__node_state_names[0]) ==
	       __FTD_NODE_STATE_MAX, "every enum ftd_node_state value needs a name");

static const char *const ftd__rank_state_names[] __attribute__((unused)) = {
	[FTD_RANK_FREE]		= "free",
	[FTD_RANK_ALIVE]	= "alive",
	[FTD_RANK_DEAD]		= "dead",
	[FTD_RANK_EXITED]	= "exited",
	[FTD_RANK_STALE]	= "stale",
};
_Static_assert(sizeof(ftd__rank_state_names) / sizeof(ftd__rank_state_names[0]) ==
	       __FTD_RANK_STATE_MAX, "every enum ftd_rank_state value needs a name");

#endif /* FTD_LIB_NAMES_H */
