// SPDX-License-Identifier: GPL-2.0
#include <linux/ktime.h>
#include "fence.h"
#include "peer.h"
#include "event.h"
#include "members.h"
#include "stab.h"
#include "dissem.h"
#include "fresh.h"
#include "proto/fresh.h"
#include "majority.h"
#include "outbox.h"
#include "span.h"
#include "scope.h"
#include "repair.h"

/*
 * What a fenced node concluded while it was cut off is not to be trusted:
 * it may hold live nodes dead, and would tell them so after the heal.
 * It forgets its deaths: out of the ring until heard again (the sweep asks
 * them), and the first member it hears again that has caught up sends it
 * a contact digest that differs from ours (repair.c publishes none until
 * the walk after the fence), so it asks that member's view: the group's. Its suspicions are taken back, not forgotten: the group
 * holds those nodes alive, and they keep their places in our ring. Taken
 * out, our predecessors would be nodes that do not send to us, and we
 * would declare them a timeout later (the cluster16 test saw it: a node
 * fenced after a cut declared the two nodes before its predecessors).
 */
static void forget_own_verdicts(struct ftd_net *fn)
{
	u64 now = ktime_get_ns();
	struct ftd_peer *peer;
	bool forget, unsuspect;
	unsigned long id;

	xa_for_each(&fn->peers, id, peer) {
		peer = ftd_peer_lock_current(peer);
		forget = peer->state == FTD_NODE_DEAD;
		unsuspect = peer->state == FTD_NODE_SUSPECT;
		if (forget) {
			peer->state = FTD_NODE_UNKNOWN;
			ftd_status_node(fn, peer, false);
		}
		if (unsuspect) {
			struct ftd_event ev = ftd_event_new(FTD_EV_NODE_ALIVE);

			/* A timeout from now to hear it, as a node we begin to observe. */
			peer->state = FTD_NODE_ALIVE;
			peer->baseline_ns = max(peer->baseline_ns, now);
			/* Told under the lock: no other CPU's change can pass it. */
			ev.node = id;
			ev.incarnation = peer->incarnation;
			ev.origin = fn->cfg.node;
			ftd_event_emit(fn, &ev);
		}
		spin_unlock_bh(&peer->lock);
		if (forget)
			ftd_members_sync(fn, peer);
	}
	ftd_fresh_probe_kick(fn);
}

/*
 * In a minority (proto/partition.h) a node forgets its whole view: the
 * members it no longer hears must neither count as live (it would never
 * see that it lost the majority again) nor be declared once more a
 * timeout later. Each is unknown until heard again: the members on its
 * side of the cut answer the probes at once (ftd_fresh_probe_kick), the
 * others when the cut heals.
 */
static void forget_view(struct ftd_net *fn)
{
	struct ftd_peer *peer;
	unsigned long id;
	bool forget;

	xa_for_each(&fn->peers, id, peer) {
		if (peer->self)
			continue;
		peer = ftd_peer_lock_current(peer);
		forget = peer->state == FTD_NODE_ALIVE || peer->state == FTD_NODE_SUSPECT ||
			 peer->state == FTD_NODE_DEAD;
		if (forget) {
			peer->state = FTD_NODE_UNKNOWN;
			ftd_status_node(fn, peer, false);
		}
		spin_unlock_bh(&peer->lock);
		if (forget)
			ftd_members_sync(fn, peer);
	}
	ftd_majority_forgot(fn);
	ftd_fresh_probe_kick(fn);
}

/*
 * origin: who declared us dead; minority: we fence because of the partition
 * rule; old: the incarnation that verdict was about; above: an incarnation
 * the new one must pass (0: none).
 */
static void fence(struct ftd_net *fn, u32 origin, bool minority, u32 old, u32 above)
{
	u32 new = max(ftd_net_next_incarnation(old), above + 1);
	struct ftd_event ev = ftd_event_new(FTD_EV_FENCED);
	struct ftd_peer *self;

	/* What we decided before goes out first, under the old incarnation. */
	ftd_outbox_flush();
	/* Two copies of one verdict may race here, on two CPUs: fence once. */
	if (cmpxchg(&fn->incarnation, old, new) != old) {
		/*
		 * Fenced already, by another verdict; a minority still forgets
		 * its view, or it would never count itself healed.
		 */
		if (minority) {
			rcu_read_lock();
			forget_view(fn);
			rcu_read_unlock();
		}
		return;
	}
	atomic64_inc(&fn->stats.fenced);
	ev.node = fn->cfg.node;
	ev.incarnation = old;
	ev.origin = origin;
	ftd_event_emit(fn, &ev);

	rcu_read_lock();
	self = ftd_peer_find(fn, fn->cfg.node);
	if (self) {
		self = ftd_peer_lock_current(self);
		self->incarnation = new;
		/*
		 * Our ranks were the old incarnation's: told dead with it
		 * (proc.c). The table starts over small (proto/ranks.h).
		 */
		kfree(self->ranks);
		self->ranks = NULL;
		ftd_status_node(fn, self, false);
		spin_unlock_bh(&self->lock);
	}
	if (minority)
		forget_view(fn);
	else
		forget_own_verdicts(fn);
	rcu_read_unlock();
	ftd_repair_fenced(fn);
	/*
	 * Our shares went out under the old incarnation, and what we forwarded
	 * then is to be learnt (and forwarded) again.
	 */
	ftd_span_reset(fn);
	ftd_scope_reset(fn);
	ftd_dissem_announce_alive(fn, fn->cfg.node, new);
	if (above)
		pr_info("node %u: node %u holds it at incarnation %u, above its own %u (its clock was behind when it came up?): fenced itself, rejoining as incarnation %u\n",
			fn->cfg.node, origin, above, old, new);
	else if (minority)
		pr_info("node %u lost the majority of %u members: fenced itself, declaring nobody until it hears more than half of them, as incarnation %u\n",
			fn->cfg.node, ftd_majority_minority_of(fn), new);
	else if (origin == fn->cfg.node)
		pr_info("node %u heard nobody for its lease (a timeout, stretched by its receive path's lag): fenced itself, rejoining as incarnation %u\n",
			fn->cfg.node, new);
	else
		pr_info("node %u was declared dead by node %u: fenced, rejoining as incarnation %u\n",
			fn->cfg.node, origin, new);
}

void ftd_fence(struct ftd_net *fn, u32 origin, u32 judged)
{
	fence(fn, origin, false, judged, 0);
}

void ftd_fence_minority(struct ftd_net *fn, u32 judged)
{
	fence(fn, fn->cfg.node, true, judged, 0);
}

void ftd_fence_outdated(struct ftd_net *fn, u32 origin, u32 held)
{
	u32 own = READ_ONCE(fn->incarnation);
	u32 above = ftd_fresh_outdated_floor(held, own);

	if (above)
		fence(fn, origin, false, own, above);
}
