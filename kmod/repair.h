/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Anti-entropy (the rule and the digest: proto/digest.h). Notices are sent
 * once and never acknowledged; one that every path to a node lost would
 * leave that node without a death for good. So every node, from a work
 * item, sends the digest of its view to a random live member now and then,
 * and a member whose view differs exchanges views with it (view.h): the
 * lost notice arrives, delivered once per incarnation like any other.
 */
#ifndef FTD_REPAIR_H
#define FTD_REPAIR_H

#include "net.h"
#include "peer.h"
#include "proto/wire.h"

/*
 * A DIGEST notice from sender (fresh, its own): a settled one is compared
 * off the receive path; a first contact's (FTD_NOTICE_F_CONTACT) is
 * answered, and may make us ask for the sender's view, at once.
 */
void ftd_repair_rx(struct ftd_net *fn, struct ftd_peer *sender, const struct ftd_notice *n);

/*
 * First contact with peer (we begin to hear it, hear it at a new
 * incarnation, or just proved its incarnation): our last digest to it,
 * instead of our view (proto/digest.h). Softirq or process context,
 * without peer->lock.
 */
void ftd_repair_contact(struct ftd_net *fn, struct ftd_peer *peer);

/*
 * We fenced (fence.c): our view changed at once. Contacts carry no digest
 * of ours ({0, 0}) until a walk, started now, gives the new one: the
 * first members we hear again must not find it equal to theirs.
 */
void ftd_repair_fenced(struct ftd_net *fn);

void ftd_repair_init(struct ftd_net *fn);
/* The instance came up: the first digest goes out once the view settled. */
void ftd_repair_start(struct ftd_net *fn);
/* The instance is down: returns with the work stopped. */
void ftd_repair_stop(struct ftd_net *fn);

#endif
