/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What a view says (the whole of what we hold, sent to a member whose
 * digest differs from ours: digest.h): a notice per node we know, of its
 * state at the incarnation we hold; and of a node held up, its rank
 * registrations: a live one as PROC_REG, an ended one as a copy of its end
 * (FTD_NOTICE_F_VIEW: news only where the registration is held live). The
 * ranks that ended with their node (RANKS_DEAD) go unsaid: the node's
 * death tells them. The module's view.c and the simulator's node.c
 * (send_view) both write their views by it.
 */
#ifndef FTD_PROTO_VIEW_H
#define FTD_PROTO_VIEW_H

#include "compat.h"
#include "wire.h"
#include <linux/ftdetect.h>

/* The notice kind for a node held in st; false: none (never heard of). */
static inline bool ftd_view_node(enum ftd_node_state st, u8 *kind)
{
	switch (st) {
	case FTD_NODE_SELF:
	case FTD_NODE_ALIVE:
	case FTD_NODE_SUSPECT:
		*kind = FTD_NOTICE_ALIVE;
		return true;
	case FTD_NODE_DEAD:
		*kind = FTD_NOTICE_DEAD;
		return true;
	case FTD_NODE_LEFT:
		*kind = FTD_NOTICE_LEFT;
		return true;
	default:
		return false;
	}
}

/* Does the view carry the registrations of a node it tells as kind? */
static inline bool ftd_view_with_ranks(u8 kind)
{
	return kind == FTD_NOTICE_ALIVE;
}

/*
 * The notice for a registration that ended as `ended` (the event type of
 * its end; 0: live): its kind and flags; false: none.
 */
static inline bool ftd_view_rank(u8 ended, u8 *kind, u8 *flags)
{
	switch (ended) {
	case 0:
		*kind = FTD_NOTICE_PROC_REG;
		break;
	case FTD_EV_PROC_DEAD:
		*kind = FTD_NOTICE_PROC_DEAD;
		break;
	case FTD_EV_PROC_EXIT:
		*kind = FTD_NOTICE_PROC_EXIT;
		break;
	default:
		return false;	/* RANKS_DEAD: told with the node's death */
	}
	*flags = ended ? FTD_NOTICE_F_VIEW : 0;
	return true;
}

#endif
