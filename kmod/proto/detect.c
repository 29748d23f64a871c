// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "detect.h"

enum ftd_node_state ftd_detect_on_silence(enum ftd_node_state st, u64 silence_ns,
					  u64 timeout_ns, bool starved)
{
	if (st != FTD_NODE_ALIVE && st != FTD_NODE_SUSPECT)
		return st;
	if (silence_ns >= timeout_ns)
		return starved ? FTD_NODE_SUSPECT : FTD_NODE_DEAD;
	if (silence_ns >= ftd_detect_suspect_after(timeout_ns))
		return FTD_NODE_SUSPECT;
	return st;
}

enum ftd_node_state ftd_detect_on_heard(enum ftd_node_state st)
{
	if (st == FTD_NODE_UNKNOWN || st == FTD_NODE_SUSPECT)
		return FTD_NODE_ALIVE;
	return st;
}

enum ftd_event_type ftd_detect_event(enum ftd_node_state from, enum ftd_node_state to)
{
	if (from == to)
		return 0;
	switch (to) {
	case FTD_NODE_ALIVE:	return FTD_EV_NODE_ALIVE;
	case FTD_NODE_SUSPECT:	return FTD_EV_NODE_SUSPECT;
	case FTD_NODE_DEAD:	return FTD_EV_NODE_DEAD;
	case FTD_NODE_LEFT:	return FTD_EV_NODE_LEFT;
	default:		return 0;
	}
}
