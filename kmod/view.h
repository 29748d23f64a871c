/* SPDX-License-Identifier: GPL-2.0 */
/*
 * View exchange: a node tells another everything it knows (a notice per
 * node, ALIVE/DEAD/LEFT, and the ranks of the live ones), so that a node
 * that joined, restarted or was cut off catches up with the group. A view
 * is O(nodes + ranks) frames: it is never sent from the receive path, but
 * from a work item, at most once per timeout to one member; a request that
 * comes sooner is kept and served when due, so none is lost.
 */
#ifndef FTD_VIEW_H
#define FTD_VIEW_H

#include "net.h"
#include "peer.h"

/* Send our view to peer; with ask_back, ask for its own in return. Any context. */
void ftd_view_request(struct ftd_net *fn, struct ftd_peer *peer, bool ask_back);
/* Only ask peer for its view (a SYNC), sending none of ours. Any context. */
void ftd_view_ask(struct ftd_net *fn, struct ftd_peer *peer);

void ftd_view_init(struct ftd_net *fn);
/* The instance is down and its socket closed: returns with no view in flight. */
void ftd_view_stop(struct ftd_net *fn);

#endif
