// SPDX-License-Identifier: GPL-2.0
#include <linux/ktime.h>
#include <linux/slab.h>
#include "dissem.h"
#include "members.h"
#include "event.h"
#include "hb_tx.h"
#include "stab.h"
#include "proto/apply.h"
#include "proto/hearing.h"
#include "proto/detect.h"
#include "proto/rail.h"
#include "proto/elapsed.h"
#include "proto/delay.h"
#include "proto/vote.h"
#include "proto/watch.h"
#include "view.h"
#include "repair.h"
#include "majority.h"
#include "relay.h"
#include "fresh.h"
#include "outbox.h"
#include "fence.h"
#include "span.h"

void ftd_dissem_send_to(struct ftd_net *fn, struct ftd_peer *peer, const struct ftd_notice *n)
{
	u8 payload[FTD_WIRE_NOTICE_LEN];

	ftd_notice_encode(payload, n);
	/* News waits for the pass to end, with the rest for peer (outbox.h). */
	if (ftd_notice_batchable(n->kind) && ftd_outbox_add(fn, peer, payload))
		return;
	ftd_outbox_send(fn, peer, payload, sizeof(payload));
}

/*
 * Spread what one frame brought or one pass decided, encoded, over our
 * shares of the arc that ends before end (span.h): in the pass with the
 * rest for that arc (outbox.h), else at once.
 */
static void share_out(struct ftd_net *fn, u32 end, const u8 *payload)
{
	rcu_read_lock();
	if (!ftd_outbox_share(fn, end, payload))
		ftd_span_send(fn, end, payload, FTD_WIRE_NOTICE_LEN);
	rcu_read_unlock();
}

/* Originate n: the whole ring is ours to hand out. */
static void broadcast(struct ftd_net *fn, const struct ftd_notice *n)
{
	u8 payload[FTD_WIRE_NOTICE_LEN];

	ftd_notice_encode(payload, n);
	/* Ours: a copy in another declarer's tree is not forwarded again. */
	ftd_span_forwarded(fn, payload);
	share_out(fn, fn->cfg.node, payload);
}

static void emit(struct ftd_net *fn, enum ftd_event_type type, u32 node, u32 incarnation,
		 u32 origin)
{
	struct ftd_event ev = ftd_event_new(type);

	ev.node = node;
	ev.incarnation = incarnation;
	ev.origin = origin;
	ftd_event_emit(fn, &ev);
}

static void emit_ranks_dead(struct ftd_net *fn, u32 node, u32 inc, u32 origin,
			    const struct ftd_rank_entry *lost, u32 n)
{
	struct ftd_event ev;
	u32 i;

	for (i = 0; i < n; i++) {
		ev = ftd_event_new(FTD_EV_RANKS_DEAD);
		ev.node = node;
		ev.incarnation = inc;
		ev.origin = origin;
		ev.job = lost[i].job;
		ev.rank = lost[i].rank;
		ev.uid = lost[i].uid;
		ftd_event_emit_rank(fn, &ev, lost[i].regid, false);
	}
}

/*
 * Deliver NODE_DEAD of peer at inc? Once per incarnation: a fenced node
 * forgets its verdicts and learns them again from the group, which must
 * not say the same death twice to its readers. When not, the status table
 * still learns the state (the event would have told it).
 */
static bool first_telling(struct ftd_net *fn, struct ftd_peer *peer, u32 inc)
{
	bool first;

	peer = ftd_peer_lock_current(peer);
	if (unlikely(peer->deleted)) {
		spin_unlock_bh(&peer->lock);
		return false;	/* no longer ours to tell */
	}
	first = peer->dead_told != inc;
	peer->dead_told = inc;
	if (!first)
		ftd_status_node(fn, peer, false);
	spin_unlock_bh(&peer->lock);
	return first;
}

/*
 * NODE_DEAD of peer at inc, from origin, if first told (first_telling()).
 * A detection (h: the deaths we declared, or those told us) also records
 * how long peer had been silent: its last frame is the one clock both
 * ends share, so the silence is detection (and, when told, dissemination)
 * as this node saw it. A node never heard gives no measure; a restart
 * (h NULL) is no detection: the node is alive again.
 */
static void tell_dead(struct ftd_net *fn, struct ftd_peer *peer, u32 inc, u32 origin,
		      struct ftd_latency_hist *h)
{
	u64 heard, silence;

	if (!first_telling(fn, peer, inc))
		return;
	if (h) {
		spin_lock_bh(&peer->lock);
		heard = peer->last_heard_ns;
		spin_unlock_bh(&peer->lock);
		if (heard) {
			silence = ftd_elapsed(ktime_get_ns(), heard);
			atomic64_inc(&h->hist[ftd_latency_bucket(silence)]);
			atomic64_add(silence, &h->sum_ns);
		}
	}
	emit(fn, FTD_EV_NODE_DEAD, peer->id, inc, origin);
}

/* peer died: each of its ranks still registered is lost with it. */
static void report_ranks_dead(struct ftd_net *fn, struct ftd_peer *peer, u32 inc, u32 origin)
{
	struct ftd_rank_entry lost[8];
	u32 n;

	do {
		peer = ftd_peer_lock_current(peer);
		/* Restarted meanwhile (another CPU): the rest is told from the old table. */
		n = peer->ranks && peer->incarnation == inc ?
		    ftd_ranks_end_some(peer->ranks, lost, ARRAY_SIZE(lost)) : 0;
		spin_unlock_bh(&peer->lock);
		emit_ranks_dead(fn, peer->id, inc, origin, lost, n);
	} while (n);
}

void ftd_dissem_restarted(struct ftd_net *fn, struct ftd_peer *peer, u32 old_inc,
			  struct ftd_rank_table *ranks)
{
	struct ftd_rank_entry lost[8];
	u32 n;

	tell_dead(fn, peer, old_inc, fn->cfg.node, NULL);
	do {
		n = ranks ? ftd_ranks_end_some(ranks, lost, ARRAY_SIZE(lost)) : 0;
		emit_ranks_dead(fn, peer->id, old_inc, fn->cfg.node, lost, n);
	} while (n);
	kfree(ranks);
}

/* A rank notice about peer: true if news. Only for the incarnation we know. */
static bool apply_proc(struct ftd_net *fn, struct ftd_peer *peer, const struct ftd_notice *n)
{
	struct ftd_stab_ref ref = { .regid = n->regid, .uid = n->uid };
	struct ftd_rank_table *t;
	bool news = false;

	peer = ftd_peer_lock_current(peer);
	if (peer->deleted ||
	    (n->subject_incarnation != peer->incarnation && peer->incarnation))
		goto out;
	/*
	 * A registration that comes after the death (a late copy, or another
	 * CPU declared it meanwhile) would make a rank of a dead node live for
	 * good: its death was told with the node's.
	 */
	if (n->kind == FTD_NOTICE_PROC_REG &&
	    (peer->state == FTD_NODE_DEAD || peer->state == FTD_NODE_LEFT))
		goto out;
	t = ftd_peer_ranks(peer);
	if (!t)
		goto out;
	if (n->kind == FTD_NOTICE_PROC_REG) {
		news = ftd_ranks_register(t, n->job, n->rank, n->regid, n->uid);
		/* No event says so: the table learns it here (its end is an event). */
		if (news)
			ftd_status_rank_reg(fn, peer->id, n->subject_incarnation, n->job, n->rank,
					    &ref);
	} else {
		news = ftd_ranks_end(t, n->job, n->rank, n->regid, n->uid,
				     n->kind == FTD_NOTICE_PROC_DEAD ? FTD_EV_PROC_DEAD :
								      FTD_EV_PROC_EXIT,
				     n->flags & FTD_NOTICE_F_VIEW);
	}
out:
	spin_unlock_bh(&peer->lock);
	return news;
}

void ftd_dissem_last_straw(struct ftd_net *fn, u32 subject, u32 incarnation)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_DEAD,
		.subject = subject,
		.subject_incarnation = incarnation,
		.origin = fn->cfg.node,
	};

	broadcast(fn, &n);
}

/*
 * The state changes a notice asks for, if it is news. Each returns true
 * when it changed something: only then is it delivered, which is the
 * whole of deduplication (forwarding follows the share, span.h).
 */
static bool apply_gone(struct ftd_net *fn, struct ftd_peer *peer, u32 inc,
		       enum ftd_node_state to)
{
	enum ftd_partition_verdict pv = FTD_PARTITION_APPLY;
	u32 self_inc = READ_ONCE(fn->incarnation);	/* the one a verdict is about */
	struct ftd_rank_table *old_ranks = NULL;
	u64 now = ktime_get_ns();
	enum ftd_apply how;
	bool news = false;
	u32 ended = 0;

	peer = ftd_peer_lock_current(peer);
	how = peer->deleted ? FTD_APPLY_OLD :
	      ftd_apply_gone(peer->state, peer->incarnation, inc);
	if (how != FTD_APPLY_OLD) {
		/*
		 * Only a majority declares (proto/apply.h): a minority applies
		 * nothing (a share still goes on to its arc, whose members judge).
		 */
		if (to == FTD_NODE_DEAD)
			pv = how == FTD_APPLY_LIVE ? ftd_majority_judge(fn, peer, now) :
			     ftd_majority_takes_hearsay(fn) ? FTD_PARTITION_APPLY :
							      FTD_PARTITION_HOLD;
		else if (how == FTD_APPLY_LIVE)
			ftd_majority_left(fn, peer, now);
		if (pv == FTD_PARTITION_APPLY) {
			/*
			 * A later incarnation's end is all we heard (we missed
			 * its start): the one we held ended first, with its
			 * ranks, as at a restart (apply_alive).
			 */
			if (inc > peer->incarnation && peer->incarnation &&
			    ftd_detect_restart_ends(peer->state)) {
				ended = peer->incarnation;
				old_ranks = ftd_peer_new_incarnation(peer, inc);
			}
			peer->incarnation = inc;
			peer->state = to;
			news = true;
		}
	}
	spin_unlock_bh(&peer->lock);
	if (ended)
		ftd_dissem_restarted(fn, peer, ended, old_ranks);
	if (news)
		ftd_members_sync(fn, peer);
	if (pv == FTD_PARTITION_FENCE) {
		ftd_dissem_last_straw(fn, peer->id, inc);
		ftd_fence_minority(fn, self_inc);
	}
	return news;
}

/* Returns the event to emit (RESTORED or ALIVE), or 0 when not news. */
static enum ftd_event_type apply_alive(struct ftd_net *fn, struct ftd_peer *peer, u32 inc,
				       u64 now)
{
	struct ftd_rank_table *old_ranks = NULL;
	enum ftd_event_type ev = 0;
	enum ftd_apply how;
	u32 ended = 0;

	peer = ftd_peer_lock_current(peer);
	/* Alive at a dead incarnation is an old report: fail-stop wins. */
	how = peer->deleted ? FTD_APPLY_OLD :
	      ftd_apply_alive(peer->state, peer->incarnation, inc);
	if (how == FTD_APPLY_LIVE ||
	    (how == FTD_APPLY_HEARSAY && ftd_majority_takes_hearsay(fn))) {
		ev = peer->state == FTD_NODE_DEAD ? FTD_EV_NODE_RESTORED : FTD_EV_NODE_ALIVE;
		if (inc > peer->incarnation) {
			/* The one we held ended too: proto/detect.h. */
			if (ftd_detect_restart_ends(peer->state)) {
				ended = peer->incarnation;
				ev = FTD_EV_NODE_RESTORED;
			}
			old_ranks = ftd_peer_new_incarnation(peer, inc);
		}
		peer->incarnation = inc;
		peer->state = FTD_NODE_ALIVE;
		peer->baseline_ns = now;
		ftd_peer_alive_again(peer);
	}
	spin_unlock_bh(&peer->lock);
	if (ended)
		ftd_dissem_restarted(fn, peer, ended, old_ranks);
	else
		kfree(old_ranks);
	if (ev)
		ftd_members_sync(fn, peer);
	return ev;
}

/*
 * The nodes that heartbeat to a node just declared dead learn it last by
 * the broadcast (the fingers point forward), yet their new observers time
 * them from the moment they learn it, one hop from us: k frames straight to
 * them, so that they turn to those observers before a timeout goes by
 * (ftdsim, 1,000 nodes at 1 ms / 10 ms with 3 ms a hop: ~1,450 false
 * deaths per real one without; none with).
 */
static void tell_senders(struct ftd_net *fn, struct ftd_peer *dead, const struct ftd_notice *n)
{
	struct ftd_peer *preds[FTD_MAX_OBSERVERS];
	u32 i, cnt;

	rcu_read_lock();
	cnt = ftd_members_predecessors_of(fn, dead->id, preds, READ_ONCE(fn->cfg.observers));
	for (i = 0; i < cnt; i++)
		if (preds[i]->id != fn->cfg.node)
			ftd_dissem_send_to(fn, preds[i], n);
	rcu_read_unlock();
}

void ftd_dissem_declare_dead(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation,
			     struct ftd_peer *const *edges, u32 n_edges)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_DEAD,
		.subject = peer->id,
		.subject_incarnation = incarnation,
		.origin = fn->cfg.node,
	};

	/* The caller already moved peer to DEAD under its lock. */
	ftd_members_sync(fn, peer);
	tell_dead(fn, peer, incarnation, n.origin, &fn->stats.declared);
	report_ranks_dead(fn, peer, incarnation, n.origin);
	broadcast(fn, &n);
	tell_senders(fn, peer, &n);
	/*
	 * A run of deaths is a hole in the overlay: the fingers of the nodes
	 * before it land in it, so the live nodes on both of its edges would
	 * hear of each death last, or only from the repair (ftdsim, 1,000
	 * nodes, a run of 64: the node after it declared one of them itself,
	 * 30 ms after the group knew). The declarer watches them: it tells them.
	 */
	while (n_edges--)
		if (edges[n_edges] != peer)
			ftd_dissem_send_to(fn, edges[n_edges], &n);
}

/*
 * Record voter's vote against peer at inc (own: ours) at now; true if ours
 * is to be sent (proto/vote.h). *fresh: the votes that count; *votes: all
 * of them, as they are now.
 */
static bool record_vote(struct ftd_net *fn, struct ftd_peer *peer, u32 inc, u32 voter, bool own,
			u64 now, u32 *fresh, struct ftd_votes *votes)
{
	u64 timeout = READ_ONCE(fn->cfg.timeout_ns);
	bool send = false;

	peer = ftd_peer_lock_current(peer);
	if (ftd_votes_take(peer->state, peer->incarnation, inc))
		send = ftd_votes_record(&peer->votes, voter, own, now, timeout);
	*fresh = ftd_votes_fresh(&peer->votes, now, timeout);
	*votes = peer->votes;
	spin_unlock_bh(&peer->lock);
	return send;
}

/* When we last heard peer (ftd_detect_heard, a PROBE's answer, a relay). */
static u64 last_heard(struct ftd_peer *peer)
{
	u64 heard;

	spin_lock_bh(&peer->lock);
	heard = peer->last_heard_ns;
	spin_unlock_bh(&peer->lock);
	return heard;
}

/*
 * peer's judges (proto/vote.h): its k nearest successors that we hold
 * alive, ourselves included. Caller holds rcu_read_lock.
 */
static u32 judges_of(struct ftd_net *fn, const struct ftd_peer *peer, struct ftd_peer **out)
{
	struct ftd_peer *succ[FTD_MAX_OBSERVERS];
	u32 n, i, cnt = 0;

	n = ftd_members_successors_of(fn, peer->id, succ, READ_ONCE(fn->cfg.observers));
	for (i = 0; i < n; i++)
		if (succ[i] != peer && ftd_vote_may_judge(READ_ONCE(succ[i]->state)))
			out[cnt++] = succ[i];
	return cnt;
}

/*
 * Of the n judges, those that count toward the votes needed, by the
 * votes we hold: one silent since our vote began may stop counting.
 */
static u32 judges_counted(struct ftd_net *fn, const struct ftd_votes *votes,
			  struct ftd_peer **judges, u32 n)
{
	u64 now = ktime_get_ns(), timeout = READ_ONCE(fn->cfg.timeout_ns);
	u32 i, cnt = 0;

	for (i = 0; i < n; i++)
		cnt += ftd_votes_judge_counts(votes, fn->cfg.node, judges[i]->id,
					      last_heard(judges[i]), now, timeout,
					      READ_ONCE(fn->judging_excused));
	return cnt;
}

/*
 * Our vote has stood a timeout short of the votes needed: PROBE the
 * judges that have neither voted nor been heard since it began
 * (proto/vote.h), each at most once an ask interval. An answer is heard
 * as any (peer->last_heard_ns).
 */
static void ask_judges(struct ftd_net *fn, const struct ftd_votes *votes,
		       struct ftd_peer **judges, u32 n)
{
	u64 now = ktime_get_ns(), timeout = READ_ONCE(fn->cfg.timeout_ns);
	u32 i;

	if (!ftd_votes_ask_judges(votes, fn->cfg.node, now, timeout))
		return;
	for (i = 0; i < n; i++)
		if (ftd_votes_judge_asked(votes, fn->cfg.node, judges[i]->id,
					  last_heard(judges[i]), now, timeout))
			ftd_fresh_ping(fn, judges[i],
				       ftd_detect_ask_every(READ_ONCE(fn->cfg.period_ns), timeout));
}

/* Enough votes: declare it, as if we had observed it ourselves. */
static void conclude(struct ftd_net *fn, struct ftd_peer *peer, u32 inc, u32 fresh, u32 judges)
{
	if (fresh < ftd_vote_needed(READ_ONCE(fn->cfg.quorum), judges))
		return;
	if (apply_gone(fn, peer, inc, FTD_NODE_DEAD))
		ftd_dissem_declare_dead(fn, peer, inc, NULL, 0);
}

void ftd_dissem_vote(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_SUSPECT,
		.subject = peer->id,
		.subject_incarnation = incarnation,
		.origin = fn->cfg.node,
	};
	struct ftd_peer *judges[FTD_MAX_OBSERVERS];
	struct ftd_votes votes;
	u32 fresh, cnt, i;
	bool send;

	rcu_read_lock();
	send = record_vote(fn, peer, incarnation, n.origin, true, ktime_get_ns(), &fresh,
			   &votes);
	/* To every judge, counted or not: one we cannot hear may still hear us. */
	cnt = judges_of(fn, peer, judges);
	for (i = 0; send && i < cnt; i++)
		if (judges[i]->id != n.origin)
			ftd_dissem_send_to(fn, judges[i], &n);
	ask_judges(fn, &votes, judges, cnt);
	conclude(fn, peer, incarnation, fresh, judges_counted(fn, &votes, judges, cnt));
	rcu_read_unlock();
}

void ftd_dissem_announce_alive(struct ftd_net *fn, u32 node, u32 incarnation)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_ALIVE,
		.subject = node,
		.subject_incarnation = incarnation,
		.origin = fn->cfg.node,
	};

	broadcast(fn, &n);
}

void ftd_dissem_announce_left(struct ftd_net *fn)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_LEFT,
		.subject = fn->cfg.node,
		.subject_incarnation = fn->incarnation,
		.origin = fn->cfg.node,
	};

	broadcast(fn, &n);
}

static void emit_iface(struct ftd_net *fn, enum ftd_event_type type, u32 node, u32 inc,
		       u32 rail, u32 origin)
{
	struct ftd_event ev = ftd_event_new(type);

	ev.node = node;
	ev.incarnation = inc;
	ev.rail = rail;
	ev.origin = origin;
	ftd_event_emit(fn, &ev);
}

void ftd_dissem_iface(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation, u8 rail,
		      bool dead, u64 rail_seq)
{
	struct ftd_notice n = {
		.kind = dead ? FTD_NOTICE_IFACE_DEAD : FTD_NOTICE_IFACE_RESTORED,
		.subject = peer->id,
		.subject_incarnation = incarnation,
		.origin = fn->cfg.node,
		.regid = rail,
		.rail_seq = rail_seq,
	};

	/* The caller already flipped peer->rails_down and raised report_key. */
	emit_iface(fn, dead ? FTD_EV_IFACE_DEAD : FTD_EV_IFACE_RESTORED, peer->id, incarnation,
		   rail, n.origin);
	broadcast(fn, &n);
}

/*
 * A rail report: news (forwarded) if newer than the newest we hold;
 * *flipped when it also changes the rail's state (delivered).
 */
static bool apply_iface(struct ftd_peer *peer, const struct ftd_notice *n, bool *flipped)
{
	bool dead = n->kind == FTD_NOTICE_IFACE_DEAD, news = false;
	u64 key = ftd_rail_report_key(n->rail_seq, dead);
	u8 bit = BIT(n->regid);
	struct ftd_rail *rail;

	*flipped = false;
	peer = ftd_peer_lock_current(peer);
	if (n->regid >= peer->nrails || peer->deleted)
		goto out;
	rail = &peer->rails[n->regid];
	if (n->subject_incarnation == peer->incarnation &&
	    (peer->state == FTD_NODE_ALIVE || peer->state == FTD_NODE_SUSPECT) &&
	    key > rail->report_key) {
		rail->report_key = key;
		news = true;
		if (!!(peer->rails_down & bit) != dead) {
			peer->rails_down ^= bit;
			*flipped = true;
			if (!dead)
				WRITE_ONCE(rail->back, rail->back + 1);
		}
	}
out:
	spin_unlock_bh(&peer->lock);
	return news;
}

void ftd_dissem_proc(struct ftd_net *fn, u8 kind, u32 job, u32 rank, u32 regid, u32 uid)
{
	struct ftd_notice n = {
		.kind = kind,
		.subject = fn->cfg.node,
		.subject_incarnation = fn->incarnation,
		.origin = fn->cfg.node,
		.job = job,
		.rank = rank,
		.regid = regid,
		.uid = uid,
	};

	if (READ_ONCE(fn->up))
		broadcast(fn, &n);
}

void ftd_dissem_tell_dead(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_DEAD,
		.subject = peer->id,
		.subject_incarnation = incarnation,
		.origin = fn->cfg.node,
	};
	u64 now = ktime_get_ns();
	bool send;

	spin_lock_bh(&peer->lock);
	send = !peer->fence_sent_ns ||
	       ftd_elapsed(now, peer->fence_sent_ns) >= READ_ONCE(fn->cfg.timeout_ns);
	if (send)
		peer->fence_sent_ns = now;
	spin_unlock_bh(&peer->lock);
	if (send)
		ftd_dissem_send_to(fn, peer, &n);
}

void ftd_dissem_tell_between(struct ftd_net *fn, struct ftd_peer *peer)
{
	struct ftd_notice n = { .kind = FTD_NOTICE_DEAD, .origin = fn->cfg.node };
	struct ftd_peer *dead[FTD_WATCH_TELL_MAX];
	u32 cnt, i;
	bool still;

	cnt = ftd_members_dead_between(fn, peer->id, dead);
	for (i = 0; i < cnt; i++) {
		spin_lock_bh(&dead[i]->lock);
		still = ftd_watch_tells_of(dead[i]->state);	/* it may have come back */
		n.subject = dead[i]->id;
		n.subject_incarnation = dead[i]->incarnation;
		spin_unlock_bh(&dead[i]->lock);
		if (still)
			ftd_dissem_send_to(fn, peer, &n);
	}
}

static bool held_dead(struct ftd_peer *peer, u32 incarnation)
{
	bool dead;

	spin_lock_bh(&peer->lock);
	dead = ftd_hearing_of(peer->state, peer->incarnation, incarnation) == FTD_HEARING_DEAD;
	spin_unlock_bh(&peer->lock);
	return dead;
}

static bool about_self(struct ftd_net *fn, const struct ftd_notice *n)
{
	if (n->subject != fn->cfg.node)
		return false;
	/* Declared dead at our current incarnation: we were cut off or stalled. */
	if (n->kind == FTD_NOTICE_DEAD && n->subject_incarnation == READ_ONCE(fn->incarnation))
		ftd_fence(fn, n->origin, n->subject_incarnation);
	return true;
}

/* One notice of a frame from sender, as if it had come alone. */
static void rx_notice(struct ftd_net *fn, struct ftd_peer *sender, const u8 *payload)
{
	enum ftd_event_type ev;
	struct ftd_peer *subject;
	struct ftd_notice n;
	bool news = false, flipped;

	/* ftd_notices_check() decoded it once already (hb_rx.c). */
	if (WARN_ON_ONCE(!ftd_notice_decode(payload, FTD_WIRE_NOTICE_LEN, &n)))
		return;
	if (n.kind == FTD_NOTICE_SYNC) {
		/* Fresh (proto/fresh.h) and from the asker itself: rate-limited there. */
		if (n.subject == sender->id)
			ftd_view_request(fn, sender, false);
		return;
	}
	if (n.kind == FTD_NOTICE_DIGEST) {
		if (n.subject == sender->id)
			ftd_repair_rx(fn, sender, &n);
		return;
	}
	if (ftd_notice_is_probe(n.kind))
		return;		/* consumed by ftd_fresh_accept() */
	if (n.kind == FTD_NOTICE_SHARE_ACK) {
		if (n.subject == sender->id)
			ftd_span_acked(fn, sender, n.nonce);
		return;
	}
	/* Indirect probes (proto/relay.h): about a suspect, never forwarded. */
	if (n.kind == FTD_NOTICE_PROBE_REQ) {
		ftd_relay_request(fn, sender, &n);
		return;
	}
	if (n.kind == FTD_NOTICE_PROBE_RELAY) {
		if (n.origin == sender->id)
			ftd_relay_heard(fn, &n);
		return;
	}
	if (about_self(fn, &n))
		return;
	subject = ftd_peer_find(fn, n.subject);
	if (!subject)
		return;

	switch (n.kind) {
	case FTD_NOTICE_DEAD:
		news = apply_gone(fn, subject, n.subject_incarnation, FTD_NODE_DEAD);
		if (news) {
			tell_dead(fn, subject, n.subject_incarnation, n.origin,
				  &fn->stats.told);
			report_ranks_dead(fn, subject, n.subject_incarnation, n.origin);
		}
		break;
	case FTD_NOTICE_LEFT:
		news = apply_gone(fn, subject, n.subject_incarnation, FTD_NODE_LEFT);
		if (news)
			emit(fn, FTD_EV_NODE_LEFT, n.subject, n.subject_incarnation, n.origin);
		break;
	case FTD_NOTICE_ALIVE:
		ev = apply_alive(fn, subject, n.subject_incarnation, ktime_get_ns());
		news = ev != 0;
		if (news)
			emit(fn, ev, n.subject, n.subject_incarnation, n.origin);
		break;
	case FTD_NOTICE_PROC_REG:
		news = apply_proc(fn, subject, &n);
		break;
	case FTD_NOTICE_SUSPECT: {
		struct ftd_peer *judges[FTD_MAX_OBSERVERS];
		struct ftd_votes votes;
		u32 fresh;

		/*
		 * Sent by the voter to each judge directly: nothing to forward,
		 * and a vote that names another voter than its sender is not
		 * one, so that no member casts votes for others.
		 */
		if (n.origin != sender->id)
			return;
		record_vote(fn, subject, n.subject_incarnation, n.origin, false, ktime_get_ns(),
			    &fresh, &votes);
		rcu_read_lock();
		conclude(fn, subject, n.subject_incarnation, fresh,
			 judges_counted(fn, &votes, judges, judges_of(fn, subject, judges)));
		rcu_read_unlock();
		return;
	}
	case FTD_NOTICE_IFACE_DEAD:
	case FTD_NOTICE_IFACE_RESTORED:
		news = apply_iface(subject, &n, &flipped);
		if (flipped)
			emit_iface(fn, n.kind == FTD_NOTICE_IFACE_DEAD ? FTD_EV_IFACE_DEAD :
				   FTD_EV_IFACE_RESTORED, n.subject, n.subject_incarnation,
				   n.regid, n.origin);
		break;
	case FTD_NOTICE_PROC_DEAD:
	case FTD_NOTICE_PROC_EXIT:
		news = apply_proc(fn, subject, &n);
		if (news) {
			struct ftd_event e = ftd_event_new(n.kind == FTD_NOTICE_PROC_DEAD ?
							   FTD_EV_PROC_DEAD : FTD_EV_PROC_EXIT);

			e.node = n.subject;
			e.incarnation = n.subject_incarnation;
			e.origin = n.origin;
			e.job = n.job;
			e.rank = n.rank;
			e.uid = n.uid;
			ftd_event_emit_rank(fn, &e, n.regid, false);
		}
		break;
	}
	/* A share goes on in ftd_dissem_rx; a frame sent to us alone stops here. */
	if (!news)
		atomic64_inc(&fn->stats.notices_dup);
}

void ftd_dissem_rx(struct ftd_net *fn, struct ftd_peer *sender, const struct ftd_frame *f,
		   u16 cnt)
{
	u16 i;

	atomic64_inc(&fn->stats.notices_rx);
	atomic64_add(cnt, &fn->stats.notice_items_rx);
	/*
	 * From an incarnation we hold dead: it was cut off or stalled, and
	 * what it concluded meanwhile (its neighbours silent: dead) is not
	 * to be believed, nor passed on. It learns its own death instead.
	 */
	if (held_dead(sender, f->incarnation)) {
		ftd_dissem_tell_dead(fn, sender, f->incarnation);
		return;
	}
	if (f->flags & FTD_WIRE_F_SHARE)
		ftd_span_ack(fn, sender, f);
	/* What the frame brings goes on together, a frame per share (outbox.h). */
	ftd_outbox_begin();
	for (i = 0; i < cnt; i++)
		rx_notice(fn, sender, f->payload + i * FTD_WIRE_NOTICE_LEN);
	/*
	 * A share goes on to our own shares of its arc, news to us or not (we
	 * may have been told directly; the members of our arc have this one
	 * copy only), unless we forwarded it in a share already (span.h).
	 */
	for (i = 0; (f->flags & FTD_WIRE_F_SHARE) && i < cnt; i++)
		if (!ftd_span_forwarded(fn, f->payload + i * FTD_WIRE_NOTICE_LEN))
			share_out(fn, f->span_end, f->payload + i * FTD_WIRE_NOTICE_LEN);
	ftd_outbox_end();
}
