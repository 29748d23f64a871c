// SPDX-License-Identifier: GPL-2.0
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include "span.h"
#include "hb_tx.h"
#include "members.h"
#include "proto/span.h"
#include "proto/detect.h"

/* A share we sent, waiting for its holder's acknowledgement. */
struct ftd_share {
	struct list_head list;
	u64 first_ns, sent_ns;
	u64 seq[FTD_MAX_RAILS];		/* the copies last sent, one a rail; 0: none */
	u32 to, end;			/* the arc [to, end), node ids */
	u32 sends;
	u16 len;
	bool scoped;			/* a scoped rank's end: nothing repairs it */
	u8 notices[];
};

static siphash_key_t seen_key;

static u64 resend_after(struct ftd_net *fn)
{
	return ftd_span_resend_after(READ_ONCE(fn->cfg.period_ns), READ_ONCE(fn->probe_rtt_ns));
}

/* Send s to its holder on every rail: one surviving fabric is enough. */
static void share_tx(struct ftd_net *fn, struct ftd_peer *peer, struct ftd_share *s, u64 now)
{
	u8 rail;

	for (rail = 0; rail < peer->nrails && rail < FTD_MAX_RAILS; rail++) {
		s->seq[rail] = 0;
		if (ftd_tx_share(fn, peer, rail, s->notices, s->len, s->end, &s->seq[rail]))
			continue;
		atomic64_inc(&fn->stats.notices_tx);
		atomic64_add(s->len / FTD_WIRE_NOTICE_LEN, &fn->stats.notice_items_tx);
	}
	s->sent_ns = now;
	s->sends++;
}

static void drop_locked(struct ftd_net *fn, struct ftd_share *old)
{
	list_del(&old->list);
	fn->n_shares--;
	atomic64_inc(&fn->stats.shares_dropped);
	kfree(old);
}

/*
 * Too many wait: the oldest share the digests repair goes (a broadcast's).
 * False when every one waiting is a scoped end's, which nothing repairs.
 */
static bool drop_repairable_locked(struct ftd_net *fn)
{
	struct ftd_share *old;

	list_for_each_entry(old, &fn->shares, list) {
		if (!old->scoped) {
			drop_locked(fn, old);
			return true;
		}
	}
	return false;
}

/*
 * A new share [peer, end) of the len bytes of notices, sent now and kept
 * waiting. The caller arms the timer (none from its own callback).
 */
static void share_new(struct ftd_net *fn, struct ftd_peer *peer, u32 end, const u8 *notices,
		      u16 len, u64 now, bool scoped)
{
	struct ftd_share *s = kmalloc(struct_size(s, notices, len), GFP_ATOMIC | __GFP_NOWARN);

	if (!s) {
		atomic64_inc(&fn->stats.shares_dropped);
		return;
	}
	s->to = peer->id;
	s->end = end;
	s->len = len;
	s->sends = 0;
	s->scoped = scoped;
	s->first_ns = now;
	memcpy(s->notices, notices, len);
	share_tx(fn, peer, s, now);
	spin_lock_bh(&fn->shares_lock);
	if (fn->n_shares >= FTD_SHARES_WAITING_MAX && !drop_repairable_locked(fn)) {
		if (!scoped) {
			/* Sent once, not kept: it is the digests' to repair. */
			atomic64_inc(&fn->stats.shares_dropped);
			spin_unlock_bh(&fn->shares_lock);
			kfree(s);
			return;
		}
		drop_locked(fn, list_first_entry(&fn->shares, struct ftd_share, list));
	}
	list_add_tail(&s->list, &fn->shares);
	fn->n_shares++;
	spin_unlock_bh(&fn->shares_lock);
}

/* The timer fires when a new share is due, unless it fires sooner already. */
static void arm(struct ftd_net *fn)
{
	u64 after = resend_after(fn);

	if (READ_ONCE(fn->up) &&
	    (!hrtimer_is_queued(&fn->share_timer) ||
	     ktime_to_ns(hrtimer_get_remaining(&fn->share_timer)) > (s64)after))
		hrtimer_start(&fn->share_timer, ns_to_ktime(after), HRTIMER_MODE_REL_SOFT);
}

/* The shares of the arc (from, end) of the len bytes of notices; from left out. */
static u32 split(struct ftd_net *fn, u32 from, u32 end, const u8 *notices, u16 len, u64 now)
{
	struct ftd_peer *to[FTD_MAX_FINGERS];
	u32 ends[FTD_MAX_FINGERS], n, i;

	n = ftd_members_shares(fn, from, end, to, ends, FTD_MAX_FINGERS);
	for (i = 0; i < n; i++)
		share_new(fn, to[i], ends[i], notices, len, now, false);
	return n;
}

void ftd_span_send(struct ftd_net *fn, u32 end, const u8 *notices, u16 len)
{
	if (split(fn, fn->cfg.node, end, notices, len, ktime_get_ns()))
		arm(fn);
}

void ftd_span_send_alone(struct ftd_net *fn, struct ftd_peer *peer, const u8 *notices, u16 len)
{
	share_new(fn, peer, ftd_span_alone_end(peer->id), notices, len, ktime_get_ns(), true);
	arm(fn);
}

void ftd_span_ack(struct ftd_net *fn, struct ftd_peer *sender, const struct ftd_frame *f)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_SHARE_ACK,
		.subject = fn->cfg.node,
		.subject_incarnation = READ_ONCE(fn->incarnation),
		.origin = fn->cfg.node,
		.nonce = f->seq,
	};
	u8 payload[FTD_WIRE_NOTICE_LEN];

	ftd_notice_encode(payload, &n);
	if (!ftd_tx_frame(fn, sender, f->rail, FTD_FRAME_NOTICE, payload, sizeof(payload))) {
		atomic64_inc(&fn->stats.notices_tx);
		atomic64_inc(&fn->stats.notice_items_tx);
	}
}

void ftd_span_acked(struct ftd_net *fn, struct ftd_peer *sender, u64 seq)
{
	struct ftd_share *s, *found = NULL;
	u32 r;

	if (!seq)
		return;
	spin_lock_bh(&fn->shares_lock);
	list_for_each_entry(s, &fn->shares, list) {
		if (s->to != sender->id)
			continue;
		for (r = 0; r < FTD_MAX_RAILS; r++)
			if (s->seq[r] == seq)
				found = s;
		if (found)
			break;
	}
	if (found) {
		list_del(&found->list);
		fn->n_shares--;
	}
	spin_unlock_bh(&fn->shares_lock);
	/* Acknowledged already (a copy on another rail), or handed over: nothing waits. */
	kfree(found);
}

static bool held_dead(struct ftd_peer *peer)
{
	return !peer || !ftd_detect_in_ring(READ_ONCE(peer->state));
}

/* One share due: sent again, handed over, or given up (false: freed). */
static bool share_due(struct ftd_net *fn, struct ftd_share *s, u64 now)
{
	struct ftd_peer *to[FTD_MAX_FINGERS], *holder = ftd_peer_find(fn, s->to);
	u32 ends[FTD_MAX_FINGERS], n, i;
	bool dead = held_dead(holder);

	n = ftd_members_shares(fn, s->to, s->end, to, ends, FTD_MAX_FINGERS);
	switch (ftd_span_step(now, s->first_ns, s->sends, READ_ONCE(fn->cfg.timeout_ns), dead,
			      !n)) {
	case FTD_SPAN_RESEND:
		if (holder)
			share_tx(fn, holder, s, now);
		atomic64_inc(&fn->stats.shares_resent);
		return true;
	case FTD_SPAN_HAND_OVER:
		atomic64_inc(&fn->stats.shares_handed_over);
		for (i = 0; i < n; i++)
			share_new(fn, to[i], ends[i], s->notices, s->len, now, false);
		/* The holder keeps itself alone, unless it is dead. */
		s->end = to[0]->id;
		s->sent_ns = now;
		return !dead;
	case FTD_SPAN_DROP:
		atomic64_inc(&fn->stats.shares_dropped);
		break;
	}
	return false;
}

static enum hrtimer_restart share_timer_fired(struct hrtimer *timer)
{
	struct ftd_net *fn = container_of(timer, struct ftd_net, share_timer);
	u64 now = ktime_get_ns(), after = resend_after(fn), next = 0, at;
	u64 timeout = READ_ONCE(fn->cfg.timeout_ns);
	struct ftd_share *s, *tmp;
	LIST_HEAD(due);

	if (!READ_ONCE(fn->up))
		return HRTIMER_NORESTART;
	/* The due ones are taken off the list: what they hand over goes on it meanwhile. */
	spin_lock(&fn->shares_lock);
	list_for_each_entry_safe(s, tmp, &fn->shares, list) {
		if (ftd_span_due(now, s->sent_ns, s->sends, after, timeout)) {
			list_move_tail(&s->list, &due);
			fn->n_shares--;
		}
	}
	spin_unlock(&fn->shares_lock);
	rcu_read_lock();
	list_for_each_entry_safe(s, tmp, &due, list) {
		if (!share_due(fn, s, now)) {
			list_del(&s->list);
			kfree(s);
		}
	}
	rcu_read_unlock();
	spin_lock(&fn->shares_lock);
	list_for_each_entry(s, &due, list)
		fn->n_shares++;
	list_splice_tail(&due, &fn->shares);
	while (fn->n_shares > FTD_SHARES_WAITING_MAX)
		if (!drop_repairable_locked(fn))
			drop_locked(fn, list_first_entry(&fn->shares, struct ftd_share, list));
	list_for_each_entry(s, &fn->shares, list) {
		at = ftd_span_due_at(s->sent_ns, s->sends, after, timeout);
		if (!next || at < next)
			next = at;
	}
	spin_unlock(&fn->shares_lock);
	if (!next)
		return HRTIMER_NORESTART;
	/* Armed meanwhile by a new share (another CPU): that expiry stands. */
	if (hrtimer_is_queued(timer))
		return HRTIMER_NORESTART;
	hrtimer_set_expires(timer, ns_to_ktime(next > now ? next : now + 1));
	return HRTIMER_RESTART;
}

bool ftd_span_forwarded(struct ftd_net *fn, const u8 *notice)
{
	struct ftd_wire_notice w;
	u64 h, *slot;

	memcpy(&w, notice, sizeof(w));
	w.origin = 0;
	h = siphash(&w, sizeof(w), &seen_key) | 1;	/* 0: an empty slot */
	slot = &fn->shares_seen[h % FTD_SHARES_SEEN];
	if (READ_ONCE(*slot) == h)
		return true;
	WRITE_ONCE(*slot, h);
	return false;
}

void ftd_span_reset(struct ftd_net *fn)
{
	struct ftd_share *s, *tmp;
	LIST_HEAD(gone);

	spin_lock_bh(&fn->shares_lock);
	list_splice_init(&fn->shares, &gone);
	fn->n_shares = 0;
	memset(fn->shares_seen, 0, FTD_SHARES_SEEN * sizeof(*fn->shares_seen));
	spin_unlock_bh(&fn->shares_lock);
	list_for_each_entry_safe(s, tmp, &gone, list)
		kfree(s);
}

int ftd_span_init(struct ftd_net *fn)
{
	get_random_once(&seen_key, sizeof(seen_key));
	spin_lock_init(&fn->shares_lock);
	INIT_LIST_HEAD(&fn->shares);
	hrtimer_init(&fn->share_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	fn->share_timer.function = share_timer_fired;
	fn->shares_seen = kcalloc(FTD_SHARES_SEEN, sizeof(*fn->shares_seen), GFP_KERNEL_ACCOUNT);
	return fn->shares_seen ? 0 : -ENOMEM;
}

void ftd_span_stop(struct ftd_net *fn)
{
	hrtimer_cancel(&fn->share_timer);
	ftd_span_reset(fn);
}

void ftd_span_free(struct ftd_net *fn)
{
	ftd_span_stop(fn);
	kfree(fn->shares_seen);
	fn->shares_seen = NULL;
}
