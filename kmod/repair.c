// SPDX-License-Identifier: GPL-2.0
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/workqueue.h>
#include "repair.h"
#include "dissem.h"
#include "members.h"
#include "view.h"
#include "proto/detect.h"
#include "proto/elapsed.h"

/* Digests received and compared per walk: more wait for the next one. */
#define REPAIR_BATCH	8

struct received {
	u32 from;
	struct ftd_digest digest;
};

/*
 * Our digest, computed walking every node (one at a time under RCU, as the
 * view is sent), and the digests received meanwhile, taken from their peers.
 */
static void walk(struct ftd_net *fn, struct ftd_digest *mine, struct received *rx, u32 *nrx,
		 bool *more)
{
	struct ftd_peer *peer;
	unsigned long id = 0;
	u32 inc;

	*nrx = 0;
	*more = false;
	for (;;) {
		rcu_read_lock();
		peer = xa_find(&fn->peers, &id, ULONG_MAX, XA_PRESENT);
		if (!peer) {
			rcu_read_unlock();
			break;
		}
		spin_lock_bh(&peer->lock);
		inc = peer->state == FTD_NODE_SELF ? READ_ONCE(fn->incarnation) : peer->incarnation;
		ftd_digest_add(mine, peer->id, inc, peer->state);
		if (peer->ranks && ftd_detect_in_ring(peer->state))
			ftd_digest_add_ranks(mine, peer->id, inc, peer->ranks->live_sum);
		if (peer->digest_pending && *nrx < REPAIR_BATCH) {
			rx[*nrx].from = peer->id;
			rx[*nrx].digest = peer->digest;
			(*nrx)++;
			peer->digest_pending = false;
		} else if (peer->digest_pending) {
			*more = true;
		}
		spin_unlock_bh(&peer->lock);
		rcu_read_unlock();
		cond_resched();
		if (id == ULONG_MAX)
			break;
		id++;
	}
}

static struct ftd_notice digest_notice(struct ftd_net *fn, const struct ftd_digest *d, u8 flags)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_DIGEST,
		.flags = flags,
		.subject = fn->cfg.node,
		.subject_incarnation = READ_ONCE(fn->incarnation),
		.origin = fn->cfg.node,
		.nonce = d->sum,
		.regid = d->nodes,
	};

	return n;
}

static void send_digest(struct ftd_net *fn, const struct ftd_digest *d)
{
	struct ftd_notice n = digest_notice(fn, d, 0);
	struct ftd_peer *to;

	rcu_read_lock();
	if (ftd_members_random(fn, &to, 1) == 1)
		ftd_dissem_send_to(fn, to, &n);
	rcu_read_unlock();
}

/*
 * The last walk's digest: on the receive path a walk (O(nodes)) is out of
 * the question. A settled node walks about once per digest period (a
 * second or more), so it may be that stale: at worst a view asked in vain,
 * or a difference left to the settled digests. A fence, which changes our
 * view at once, publishes none ({0, 0}: apart from every node's) until the
 * walk it starts.
 */
static struct ftd_digest last_digest(struct ftd_net *fn)
{
	struct ftd_digest d;
	unsigned int seq;

	do {
		seq = read_seqbegin(&fn->digest_now_lock);
		d = fn->digest_now;
	} while (read_seqretry(&fn->digest_now_lock, seq));
	return d;
}

static void publish_digest(struct ftd_net *fn, const struct ftd_digest *d)
{
	write_seqlock_bh(&fn->digest_now_lock);
	fn->digest_now = *d;
	write_sequnlock_bh(&fn->digest_now_lock);
}

/* Our contact digest to peer (flags: 0 or FTD_NOTICE_F_ANSWER), if due. */
static void send_contact(struct ftd_net *fn, struct ftd_peer *peer, u8 flags, u64 now,
			 u64 timeout)
{
	struct ftd_digest d = last_digest(fn);
	struct ftd_notice n = digest_notice(fn, &d, FTD_NOTICE_F_CONTACT | flags |
					    (READ_ONCE(fn->caught_up) ? FTD_NOTICE_F_CAUGHT_UP : 0));
	bool due;

	rcu_read_lock();
	/* Replaced by a changed node table meanwhile: its successor's stamps. */
	peer = ftd_peer_lock_current(peer);
	if (peer->deleted) {
		due = false;
	} else if (flags & FTD_NOTICE_F_ANSWER) {
		due = ftd_digest_contact_due(now, peer->contact_answered_ns, timeout);
		if (due)
			peer->contact_answered_ns = now;
	} else {
		due = ftd_digest_contact_due(now, peer->contact_sent_ns, timeout);
	}
	if (due)
		peer->contact_sent_ns = now;
	spin_unlock_bh(&peer->lock);
	if (due)
		ftd_dissem_send_to(fn, peer, &n);
	rcu_read_unlock();
}

void ftd_repair_contact(struct ftd_net *fn, struct ftd_peer *peer)
{
	send_contact(fn, peer, 0, ktime_get_ns(), READ_ONCE(fn->cfg.timeout_ns));
}

/* A member's contact digest: answer it, and ask its view if we know less. */
static void contact_rx(struct ftd_net *fn, struct ftd_peer *sender, const struct ftd_notice *n)
{
	u64 timeout = READ_ONCE(fn->cfg.timeout_ns), now = ktime_get_ns();
	struct ftd_digest theirs = { .sum = n->nonce, .nodes = n->regid }, mine = last_digest(fn);
	s64 asked = atomic64_read(&fn->view_asked_ns);

	if (!(n->flags & FTD_NOTICE_F_ANSWER))
		send_contact(fn, sender, FTD_NOTICE_F_ANSWER, now, timeout);
	if (ftd_digest_ask_on_contact(&mine, &theirs, n->flags & FTD_NOTICE_F_CAUGHT_UP, now, asked,
				      timeout) &&
	    atomic64_try_cmpxchg(&fn->view_asked_ns, &asked, now)) {
		ftd_view_ask(fn, sender);
		atomic64_inc(&fn->stats.views_asked);
	}
}

static void repair_work(struct work_struct *work)
{
	struct ftd_net *fn = container_of(to_delayed_work(work), struct ftd_net, repair_work);
	u64 timeout = READ_ONCE(fn->cfg.timeout_ns), now;
	struct received rx[REPAIR_BATCH];
	struct ftd_digest mine = {};
	struct ftd_peer *peer;
	bool settled, more;
	u32 nrx, i;

	if (!READ_ONCE(fn->up))
		return;
	walk(fn, &mine, rx, &nrx, &more);
	now = ktime_get_ns();
	WRITE_ONCE(fn->digest_walk_ns, now);
	ftd_digest_track(&fn->digest, &mine, now);
	publish_digest(fn, &mine);
	/* Unsettled: a notice may be on its way to us, no loss yet. */
	settled = ftd_digest_settled(&fn->digest, now, timeout);
	if (settled && !fn->caught_up)
		WRITE_ONCE(fn->caught_up, true);
	for (i = 0; settled && i < nrx; i++) {
		if (!ftd_digest_exchange(&fn->digest, &mine, &rx[i].digest, now, timeout))
			continue;
		rcu_read_lock();
		peer = ftd_peer_find(fn, rx[i].from);
		if (peer) {
			/* Ours to it, and a SYNC for its own. */
			ftd_view_request(fn, peer, true);
			atomic64_inc(&fn->stats.repairs);
		}
		rcu_read_unlock();
	}
	if (ftd_digest_send_due(&fn->digest, now, fn->digest_next_ns, timeout)) {
		send_digest(fn, &mine);
		fn->digest_next_ns = now + ftd_digest_every(timeout, get_random_u32());
	}
	if (!READ_ONCE(fn->up))
		return;
	if (more)
		mod_delayed_work(system_wq, &fn->repair_work, nsecs_to_jiffies(timeout / 4) + 1);
	else if (!settled)	/* look again when it would be settled */
		mod_delayed_work(system_wq, &fn->repair_work, nsecs_to_jiffies(timeout) + 1);
	else
		mod_delayed_work(system_wq, &fn->repair_work,
				 nsecs_to_jiffies(fn->digest_next_ns - now) + 1);
}

void ftd_repair_rx(struct ftd_net *fn, struct ftd_peer *sender, const struct ftd_notice *n)
{
	u64 timeout = READ_ONCE(fn->cfg.timeout_ns), since, delay = 0;

	if (n->flags & FTD_NOTICE_F_CONTACT) {
		contact_rx(fn, sender, n);
		return;
	}
	spin_lock_bh(&sender->lock);
	sender->digest.sum = n->nonce;
	sender->digest.nodes = n->regid;
	sender->digest_pending = true;
	spin_unlock_bh(&sender->lock);
	/*
	 * A walk is O(nodes): at most one per quarter timeout however many
	 * digests come in; those that wait are kept on their peers.
	 */
	since = ftd_elapsed(ktime_get_ns(), READ_ONCE(fn->digest_walk_ns));
	if (since < timeout / 4)
		delay = timeout / 4 - since;
	if (READ_ONCE(fn->up))
		mod_delayed_work(system_wq, &fn->repair_work, nsecs_to_jiffies(delay));
}

void ftd_repair_init(struct ftd_net *fn)
{
	INIT_DELAYED_WORK(&fn->repair_work, repair_work);
	seqlock_init(&fn->digest_now_lock);
}

/* What a run of the instance learnt of its digest, forgotten before the next. */
static void forget_digest(struct ftd_net *fn)
{
	static const struct ftd_digest none;

	memset(&fn->digest, 0, sizeof(fn->digest));
	fn->digest_next_ns = 0;
	publish_digest(fn, &none);
	atomic64_set(&fn->view_asked_ns, 0);
	WRITE_ONCE(fn->caught_up, false);
}

void ftd_repair_start(struct ftd_net *fn)
{
	forget_digest(fn);
	mod_delayed_work(system_wq, &fn->repair_work, 0);
}

void ftd_repair_fenced(struct ftd_net *fn)
{
	static const struct ftd_digest none;

	publish_digest(fn, &none);
	if (READ_ONCE(fn->up))
		mod_delayed_work(system_wq, &fn->repair_work, 0);
}

void ftd_repair_stop(struct ftd_net *fn)
{
	WARN_ON(READ_ONCE(fn->up));
	cancel_delayed_work_sync(&fn->repair_work);
	/* The next start's probes may come before its ftd_repair_start. */
	forget_digest(fn);
}
