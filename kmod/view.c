// SPDX-License-Identifier: GPL-2.0
#include <linux/ktime.h>
#include <linux/workqueue.h>
#include "view.h"
#include "dissem.h"
#include "outbox.h"
#include "proto/view.h"
#include "proto/wire.h"
#include "proto/elapsed.h"

enum {
	VIEW_SEND = BIT(0),	/* send it our view */
	VIEW_ASK = BIT(1),	/* and ask for its own (SYNC) */
};

static void request(struct ftd_net *fn, struct ftd_peer *peer, u8 what)
{
	spin_lock_bh(&peer->lock);
	peer->view_pending |= what;
	spin_unlock_bh(&peer->lock);
	if (READ_ONCE(fn->up))
		mod_delayed_work(system_wq, &fn->view_work, 0);
}

void ftd_view_request(struct ftd_net *fn, struct ftd_peer *peer, bool ask_back)
{
	request(fn, peer, VIEW_SEND | (ask_back ? VIEW_ASK : 0));
}

void ftd_view_ask(struct ftd_net *fn, struct ftd_peer *peer)
{
	request(fn, peer, VIEW_ASK);
}

/*
 * The ranks registered on peer, as notices to `to`: PROC_REG for a live
 * one, and the end of one that ended (PROC_DEAD, PROC_EXIT: the digest
 * counts live ones only, so a lost end is repaired here). RCU held.
 * Returns how many it sent.
 */
static u32 send_ranks(struct ftd_net *fn, struct ftd_peer *to, struct ftd_peer *peer, u32 inc)
{
	struct ftd_notice n = {
		.subject = peer->id,
		.subject_incarnation = inc,
		.origin = fn->cfg.node,
	};
	const struct ftd_rank_entry *e;
	bool more, send;
	u32 i = 0, sent = 0;

	/*
	 * One at a time: the table may change while we send, and the peer may
	 * restart meanwhile (another CPU): its new ranks are not inc's.
	 */
	do {
		more = send = false;
		spin_lock_bh(&peer->lock);
		if (peer->incarnation == inc && peer->ranks && i < peer->ranks->n) {
			e = &peer->ranks->e[i++];
			more = true;
			send = ftd_view_rank(e->ended, &n.kind, &n.flags);
			n.job = e->job;
			n.rank = e->rank;
			n.regid = e->regid;
			n.uid = e->uid;
		}
		spin_unlock_bh(&peer->lock);
		if (send) {
			ftd_dissem_send_to(fn, to, &n);
			sent++;
		}
	} while (more);
	return sent;
}

/* What we know of subject, as a notice; false if nothing (never heard of). */
static bool notice_of(struct ftd_net *fn, struct ftd_peer *subject, struct ftd_notice *n)
{
	bool known;

	spin_lock_bh(&subject->lock);
	n->subject = subject->id;
	n->subject_incarnation = subject->state == FTD_NODE_SELF ? READ_ONCE(fn->incarnation) :
								   subject->incarnation;
	known = ftd_view_node(subject->state, &n->kind);
	spin_unlock_bh(&subject->lock);
	return known;
}

/*
 * What a view takes in one outbox pass (outbox.h), with BHs off: nodes
 * until their notices (a node's ranks included) fill four frames of
 * FTD_WIRE_NOTICES_MAX, or at most a frame's worth of nodes; the work
 * reschedules between slices. A node with every rank registered
 * (FTD_RANKS_PER_NODE) still goes in one pass, nine frames.
 */
#define VIEW_SLICE_NODES	FTD_WIRE_NOTICES_MAX
#define VIEW_SLICE_NOTICES	(4 * FTD_WIRE_NOTICES_MAX)

/*
 * Our view, to node to_id: a notice per node we know, ourselves included.
 * A slice of nodes at a time under RCU, rescheduling between them: both
 * nodes may be removed meanwhile, which ends the view.
 */
static void send_view(struct ftd_net *fn, u32 to_id)
{
	struct ftd_notice n = { .origin = fn->cfg.node };
	struct ftd_peer *to, *subject;
	unsigned long id = 0;
	bool more = true;
	u32 i, queued;

	while (more) {
		if (!READ_ONCE(fn->up))
			return;
		ftd_outbox_begin();
		queued = 0;
		for (i = 0; more && i < VIEW_SLICE_NODES && queued < VIEW_SLICE_NOTICES; i++) {
			to = xa_load(&fn->peers, to_id);
			subject = to ? xa_find(&fn->peers, &id, ULONG_MAX, XA_PRESENT) : NULL;
			if (!subject) {
				more = false;
				break;
			}
			if (subject != to && notice_of(fn, subject, &n)) {
				ftd_dissem_send_to(fn, to, &n);
				queued++;
				if (ftd_view_with_ranks(n.kind))
					queued += send_ranks(fn, to, subject,
							     n.subject_incarnation);
			}
			if (id == ULONG_MAX)
				more = false;
			id++;
		}
		ftd_outbox_end();
		cond_resched();
	}
}

/* A SYNC to node to_id: "send me your view". */
static void send_sync(struct ftd_net *fn, u32 to_id)
{
	struct ftd_peer *to;

	rcu_read_lock();
	to = xa_load(&fn->peers, to_id);
	if (to) {
		struct ftd_notice sync = {
			.kind = FTD_NOTICE_SYNC,
			.subject = fn->cfg.node,
			.subject_incarnation = READ_ONCE(fn->incarnation),
			.origin = fn->cfg.node,
		};

		ftd_dissem_send_to(fn, to, &sync);
	}
	rcu_read_unlock();
}

/* Serve the requests that are due; come back for those that are not yet. */
static void view_work(struct work_struct *work)
{
	struct ftd_net *fn = container_of(to_delayed_work(work), struct ftd_net, view_work);
	u64 every = READ_ONCE(fn->cfg.timeout_ns), now, since, wait = 0;
	struct ftd_peer *peer;
	unsigned long id = 0;
	u8 todo;

	while (READ_ONCE(fn->up)) {
		now = ktime_get_ns();
		rcu_read_lock();
		peer = xa_find(&fn->peers, &id, ULONG_MAX, XA_PRESENT);
		if (!peer) {
			rcu_read_unlock();
			break;
		}
		todo = 0;
		spin_lock_bh(&peer->lock);
		since = ftd_elapsed(now, peer->view_sent_ns);
		/* Only views are paced: a SYNC alone is one notice. */
		if ((peer->view_pending & VIEW_SEND) && peer->view_sent_ns && since < every) {
			wait = min_not_zero(wait, every - since);
		} else if (peer->view_pending) {
			todo = peer->view_pending;
			peer->view_pending = 0;
			if (todo & VIEW_SEND)
				peer->view_sent_ns = now;
		}
		spin_unlock_bh(&peer->lock);
		rcu_read_unlock();
		if (todo & VIEW_SEND)
			send_view(fn, id);
		if ((todo & VIEW_ASK) && READ_ONCE(fn->up))
			send_sync(fn, id);
		cond_resched();
		if (id == ULONG_MAX)
			break;
		id++;
	}
	if (wait && READ_ONCE(fn->up))
		mod_delayed_work(system_wq, &fn->view_work, nsecs_to_jiffies(wait) + 1);
}

void ftd_view_init(struct ftd_net *fn)
{
	INIT_DELAYED_WORK(&fn->view_work, view_work);
}

void ftd_view_stop(struct ftd_net *fn)
{
	WARN_ON(READ_ONCE(fn->up));
	cancel_delayed_work_sync(&fn->view_work);
}
