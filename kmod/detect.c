// SPDX-License-Identifier: GPL-2.0
#include <linux/random.h>
#include <linux/slab.h>
#include "detect.h"
#include "event.h"
#include "fresh.h"
#include "hb_tx.h"
#include "proto/detect.h"
#include "proto/elapsed.h"
#include "proto/hearing.h"
#include "proto/rail.h"
#include "members.h"
#include "dissem.h"
#include "stab.h"
#include "repair.h"
#include "majority.h"
#include "reach.h"
#include "relay.h"
#include "proto/relay.h"
#include "proto/verdict.h"
#include "lag.h"
#include "fence.h"

static void emit_node_event(struct ftd_net *fn, enum ftd_event_type type, u32 node,
			    u32 incarnation, u32 origin)
{
	struct ftd_event ev = ftd_event_new(type);

	ev.node = node;
	ev.incarnation = incarnation;
	ev.origin = origin;
	ftd_event_emit(fn, &ev);
}

/* What hearing a node at some incarnation brings: decided under peer->lock. */
struct hearing {
	enum ftd_event_type ev;
	enum ftd_node_state was;	/* before */
	bool announce, tell_dead, restarted, stale, changed;
	bool by_heartbeat;		/* not a PROBE's answer, nor a relay */
	u32 ended;			/* an incarnation held alive that ended unseen */
	struct ftd_rank_table *old_ranks;	/* the old incarnation's, detached */
};

/*
 * A frame of incarnation inc from peer: true if it may tell us the node is
 * there (not stale, not of an incarnation held dead or gone). A newer one
 * is a restart (or a fenced node rejoining): its streams begin again.
 */
static bool hear_incarnation(struct ftd_peer *peer, u32 inc, struct hearing *h)
{
	lockdep_assert_held(&peer->lock);
	h->was = peer->state;
	switch (ftd_hearing_of(peer->state, peer->incarnation, inc)) {
	case FTD_HEARING_STALE:
		h->stale = true;
		return false;
	case FTD_HEARING_DEAD:
		h->tell_dead = true;
		return false;
	case FTD_HEARING_LEFT:
		return false;
	case FTD_HEARING_RESTART:
		if (ftd_detect_restart_ends(peer->state)) {
			h->ended = peer->incarnation;
			h->ev = FTD_EV_NODE_RESTORED;
		}
		/* Out of the ring (dead, gone): heard below as a node we begin to hear. */
		if (!ftd_detect_in_ring(peer->state))
			peer->state = FTD_NODE_UNKNOWN;
		h->old_ranks = ftd_peer_new_incarnation(peer, inc);
		h->announce = true;
		h->restarted = true;
		return true;
	case FTD_HEARING_NODE:
		break;
	}
	return true;
}

void ftd_detect_heard_anyone(struct ftd_net *fn, u64 at_ns)
{
	s64 old = atomic64_read(&fn->heard_any_ns);

	while ((s64)at_ns > old && !atomic64_try_cmpxchg(&fn->heard_any_ns, &old, at_ns))
		;
}

/*
 * The node is there, heard at at_ns: its state, under peer->lock.
 * arrived_ns: when the frame that says so arrived (0: a relay, whose own
 * frame was counted as it arrived).
 */
static void hear_node(struct ftd_net *fn, struct ftd_peer *peer, u64 at_ns, u64 arrived_ns,
		      struct hearing *h)
{
	enum ftd_node_state old = peer->state;

	/* Only fresh news says that we hear anyone (the isolation rule). */
	WRITE_ONCE(fn->last_rx_ns, ktime_get_ns());
	if (arrived_ns)
		ftd_detect_heard_anyone(fn, arrived_ns);
	peer->last_heard_ns = max(peer->last_heard_ns, at_ns);
	peer->state = ftd_detect_on_heard(old);
	if (!h->ev)
		h->ev = ftd_detect_event(old, peer->state);
	/* A node we begin to hear: a first contact (heard_done says who tells the group). */
	if (old == FTD_NODE_UNKNOWN) {
		h->announce = true;
		ftd_peer_alive_again(peer);
	}
}

/*
 * Still under peer->lock: a plain change of state (no restart to tell
 * first) is told now, so that it cannot pass a change the tick makes on
 * another CPU (its SUSPECT after our ALIVE would leave a live node suspect
 * in the status table and in every reader's last word on it).
 */
static void tell_locked(struct ftd_net *fn, struct ftd_peer *peer, struct hearing *h)
{
	lockdep_assert_held(&peer->lock);
	if (h->ev && !h->ended) {
		emit_node_event(fn, h->ev, peer->id, peer->incarnation, FTD_NODE_NONE);
		h->ev = 0;
	}
}

/* After peer->lock: what the hearing changed, told to the ring and the group. */
static void heard_done(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation,
		       const struct hearing *h)
{
	if (h->tell_dead)
		ftd_dissem_tell_dead(fn, peer, incarnation);
	if (h->ended)
		ftd_dissem_restarted(fn, peer, h->ended, h->old_ranks);
	else
		kfree(h->old_ranks);
	if (h->changed)
		ftd_members_sync(fn, peer);
	if (h->ev)
		emit_node_event(fn, h->ev, peer->id, incarnation, FTD_NODE_NONE);
	if (h->announce) {
		/* What we sent it while it could not answer may hold the rest back. */
		ftd_tx_hurry_neighbours(fn, peer);
		if (ftd_detect_tells_arrival(h->by_heartbeat, h->ended != 0,
					     READ_ONCE(fn->caught_up)))
			ftd_dissem_announce_alive(fn, peer->id, incarnation);
		/* Our digests, not our views: each asks the other's if they differ. */
		ftd_repair_contact(fn, peer);
	}
}

void ftd_detect_heard(struct ftd_net *fn, struct ftd_peer *peer, const struct ftd_frame *f,
		      struct ftd_arrival at)
{
	struct ftd_rail *rail = &peer->rails[f->rail];
	struct hearing h = { .by_heartbeat = true };
	bool rail_back = false, replayed = false;
	u32 incarnation;

	spin_lock(&peer->lock);
	/* Replaced or deleted meanwhile by a changed node table: as a frame lost. */
	if (unlikely(peer->successor || peer->deleted)) {
		spin_unlock(&peer->lock);
		return;
	}
	if (!hear_incarnation(peer, f->incarnation, &h))
		goto out;
	if (!ftd_hearing_news(rail->rx_seq, f->seq)) {
		replayed = true;
		goto out;
	}
	if (ftd_seq_same_epoch(rail->rx_seq, f->seq))
		rail->lost += f->seq - rail->rx_seq - 1;
	/* Consecutive heartbeats: one tick apart at the sender. */
	if (rail->rx_seq && f->seq == rail->rx_seq + 1)
		ftd_health_note_gap(&peer->slow, rail->rx_tx_ns, f->tx_ns,
				    READ_ONCE(fn->cfg.period_ns), READ_ONCE(fn->cfg.timeout_ns),
				    at.ns);
	rail->rx_seq = f->seq;
	rail->rx_tx_ns = f->tx_ns;
	rail->rx++;
	rail->last_heard_ns = max(rail->last_heard_ns, at.ns);
	rail->stamp = at.source;
	if (unlikely(!rail->timing))	/* short of memory: the figures wait */
		rail->timing = kzalloc(sizeof(*rail->timing), GFP_ATOMIC | __GFP_NOWARN);
	if (rail->timing) {
		if (at.source == FTD_STAMP_XDP)
			ftd_delay_add(&rail->timing->driver_delay, at.driver_delay_ns);
		ftd_iat_update(&rail->timing->iat, at.ns);
	}
	/* Unless someone heard a later seq before the rail fell silent again. */
	if ((peer->rails_down & BIT(f->rail)) &&
	    ftd_rail_report_key(f->seq, false) > rail->report_key) {
		peer->rails_down &= ~BIT(f->rail);
		rail->report_key = ftd_rail_report_key(f->seq, false);
		WRITE_ONCE(rail->back, rail->back + 1);
		rail_back = true;
	}
	hear_node(fn, peer, at.ns, at.ns, &h);
out:
	incarnation = peer->incarnation;
	h.changed = peer->state != h.was;
	/* A restart of a node we hold alive changes no state: no event says so. */
	if (h.restarted && !h.ev)
		ftd_status_node(fn, peer, false);
	tell_locked(fn, peer, &h);
	if (h.stale)
		WRITE_ONCE(peer->rx_stale, peer->rx_stale + 1);
	if (replayed)
		WRITE_ONCE(peer->rx_replay, peer->rx_replay + 1);
	spin_unlock(&peer->lock);
	if (h.stale)
		atomic64_inc(&fn->stats.rx_stale);
	if (replayed)
		atomic64_inc(&fn->stats.rx_replay);
	heard_done(fn, peer, incarnation, &h);
	if (rail_back)
		ftd_dissem_iface(fn, peer, incarnation, f->rail, false, f->seq);
}

void ftd_detect_answered(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation, u64 now_ns,
			 u64 rtt_ns, u64 arrived_ns)
{
	struct hearing h = {};

	peer = ftd_peer_lock_current(peer);
	if (unlikely(peer->deleted)) {
		spin_unlock_bh(&peer->lock);
		return;
	}
	if (rtt_ns)
		WRITE_ONCE(fn->probe_rtt_ns, ftd_watch_rtt(READ_ONCE(fn->probe_rtt_ns), rtt_ns));
	if (hear_incarnation(peer, incarnation, &h))
		hear_node(fn, peer, now_ns, arrived_ns, &h);
	incarnation = peer->incarnation;
	h.changed = peer->state != h.was;
	if (h.restarted && !h.ev)
		ftd_status_node(fn, peer, false);
	tell_locked(fn, peer, &h);
	spin_unlock_bh(&peer->lock);
	heard_done(fn, peer, incarnation, &h);
}

/*
 * The rails of peer silent for the timeout, while at least one other rail
 * still carries heartbeats (all silent is the node's death, not a rail's).
 */
static u8 silent_rails(const struct ftd_peer *peer, u64 now, u64 timeout, u64 timing_since)
{
	u8 silent = 0, heard = 0;
	int i;

	lockdep_assert_held(&peer->lock);
	for (i = 0; i < peer->nrails; i++) {
		const struct ftd_rail *r = &peer->rails[i];
		u64 since = ftd_detect_silence_from(max(r->last_heard_ns, peer->baseline_ns),
						    timing_since);

		if (!r->last_heard_ns)
			continue;	/* never carried anything: nothing was lost */
		heard |= BIT(i);
		if (now > since && now - since >= timeout)
			silent |= BIT(i);
	}
	return silent == heard ? 0 : silent;
}

/*
 * Mark down, and return, the rails of peer newly silent for the timeout,
 * with the seq each was last heard at. A rail of ours that is down (our
 * link) silences every peer on that rail: that is our fault, not theirs.
 * A rail someone heard later than we did is left to that report.
 */
static u8 newly_silent_rails(struct ftd_peer *peer, u64 now, u64 timeout, u64 timing_since,
			     u8 own_rails_down, u64 *seq)
{
	u8 dead = silent_rails(peer, now, timeout, timing_since) & ~peer->rails_down &
		  ~own_rails_down;
	u64 key;
	int i;

	for (i = 0; i < peer->nrails; i++) {
		if (!(dead & BIT(i)))
			continue;
		seq[i] = peer->rails[i].rx_seq;
		key = ftd_rail_report_key(seq[i], true);
		if (key <= peer->rails[i].report_key) {
			dead &= ~BIT(i);
			continue;
		}
		peer->rails[i].report_key = key;
	}
	peer->rails_down |= dead;
	return dead;
}

/* Our own rails that cannot carry frames (link.c keeps them). */
static u8 local_rails_down(struct ftd_net *fn)
{
	return READ_ONCE(fn->rails_unusable);
}

int ftd_detect_start(struct ftd_net *fn)
{
	lockdep_assert_held(&fn->lock);
	if (!fn->watch) {
		fn->watch = kvzalloc(sizeof(*fn->watch), GFP_KERNEL_ACCOUNT);
		if (!fn->watch)
			return -ENOMEM;
	}
	if (!fn->rx_seen) {
		fn->rx_seen = alloc_percpu_gfp(struct ftd_rx_cpu, GFP_KERNEL_ACCOUNT);
		if (!fn->rx_seen)
			return -ENOMEM;
	}
	/* What it saw before we were down is no look of this run. */
	fn->rx_tick += 2;
	fn->rx_look = false;
	fn->stuck_last_held = false;
	/* The timer is stopped: it starts watching nobody. */
	fn->watch->n = 0;
	fn->watch->rule = (struct ftd_watch){};
	/* Drops from before we watched hold nothing. */
	ftd_overload_start(&fn->overload, ftd_rx_dropped());
	fn->rx_health = (struct ftd_slowness){};
	fn->overload_last_held = false;
	return 0;
}

void ftd_detect_free(struct ftd_net *fn)
{
	kvfree(fn->watch);
	fn->watch = NULL;
	free_percpu(fn->rx_seen);
	fn->rx_seen = NULL;
}

static void vouch(struct ftd_watchlist *w, u32 from, u32 n, u64 now, u64 timeout)
{
	u32 i;

	for (i = from; i < n; i++)
		w->vouched[i] = ftd_watch_vouched(READ_ONCE(w->peers[i]->last_heard_ns), now,
						  timeout);
}

/*
 * Past a silent run, watch further predecessors than the n nearest
 * (proto/watch.h): returns how many of w->peers to watch.
 */
static u32 watch_further(struct ftd_net *fn, struct ftd_watchlist *w, u32 n, u32 live, u32 k,
			 u64 now, u64 timeout, bool may_extend)
{
	bool near = true;
	u32 i, span;

	vouch(w, 0, n, now, timeout);
	for (i = 0; i < n; i++)
		near &= w->vouched[i];
	span = ftd_watch_span(&w->rule, k, near, may_extend, now, live);
	if (span <= n)
		return n;
	n = ftd_members_predecessors_far(fn, w->peers, w->pos, span, &live);
	vouch(w, 0, n, now, timeout);
	return ftd_watch_trim(&w->rule, w->vouched, n, k, now,
			      ftd_watch_grow_every(READ_ONCE(fn->cfg.period_ns),
						   READ_ONCE(fn->probe_rtt_ns)),
			      fn->reach.held_ns);
}

/*
 * Silence counts from the start of our watch: a node we just began to
 * watch (the ring changed, or we look past a silent run) had no reason to
 * send to us before. A node we stop watching while we suspect it: we no
 * longer hear it, so we have no evidence either way; its new observers
 * judge it. O(watched): each peer carries the tick that last watched it.
 */
static void note_observed(struct ftd_net *fn, struct ftd_watchlist *w, u32 n, u64 now)
{
	u32 was = w->gen, gen = ++w->gen ?: ++w->gen;
	struct ftd_peer *gone;
	bool unsuspect;
	u32 i, j;

	for (i = 0; i < n; i++) {
		/* Replaced meanwhile: its successor carried the old generation. */
		struct ftd_peer *peer = ftd_peer_current(w->peers[i]);

		if (peer->watch_gen != was) {
			spin_lock(&peer->lock);
			peer->baseline_ns = max(peer->baseline_ns, now);
			spin_unlock(&peer->lock);
		}
		peer->watch_gen = gen;
	}
	for (j = 0; j < w->n; j++) {
		gone = ftd_peer_find(fn, w->ids[j]);
		if (!gone || gone->watch_gen == gen)
			continue;
		spin_lock(&gone->lock);
		unsuspect = gone->state == FTD_NODE_SUSPECT;
		if (unsuspect) {
			gone->state = FTD_NODE_ALIVE;
			/* Under the lock, as tell_locked() says. */
			emit_node_event(fn, FTD_EV_NODE_ALIVE, gone->id, gone->incarnation,
					fn->cfg.node);
		}
		spin_unlock(&gone->lock);
	}
	for (i = 0; i < n; i++)
		w->ids[i] = w->peers[i]->id;
	w->n = n;
}

/* After a long isolation: proto/detect.h, FTD_ISOLATION_ENDS_LONG. */
static void end_isolation(struct ftd_peer **preds, u32 n, u64 now)
{
	u32 i;

	for (i = 0; i < n; i++) {
		spin_lock(&preds[i]->lock);
		preds[i]->baseline_ns = max(preds[i]->baseline_ns, now);
		spin_unlock(&preds[i]->lock);
	}
}

/*
 * Nothing heard from anyone for a while: is it us? Ask a few members other
 * than those we observe (which may all have died at once), k a tick, in
 * turn: any answer is fresh news (ftd_detect_answered), and then their
 * silence is theirs.
 */
static void check_own_reach(struct ftd_net *fn, u64 every)
{
	struct ftd_peer *some[FTD_MAX_OBSERVERS];
	u32 i, n;

	n = ftd_members_sweep(fn, some, READ_ONCE(fn->cfg.observers), &fn->reach_cursor);
	for (i = 0; i < n; i++)
		ftd_fresh_ping(fn, some[i], every);
}

/*
 * The i-th nearest predecessor we observe, the same node as at the last
 * tick, came back as a new incarnation while we hold it live: it fenced
 * itself, maybe cut off with us (proto/reach.h). peer->lock held.
 */
static bool near_restarted(struct ftd_watchlist *w, u32 i, const struct ftd_peer *peer)
{
	bool restarted = w->near_ids[i] == peer->id && peer->incarnation > w->near_incs[i] &&
			 ftd_detect_in_ring(peer->state);

	lockdep_assert_held(&peer->lock);
	w->near_ids[i] = peer->id;
	w->near_incs[i] = peer->incarnation;
	return restarted;
}

/* The machine dropped received frames within a timeout: proto/overload.h. */
static bool machine_dropping(struct ftd_net *fn, u64 now_ns, u64 timeout)
{
	bool held = ftd_overload_tick(&fn->overload, ftd_rx_dropped(), now_ns, timeout);

	if (held)
		atomic64_inc(&fn->stats.ticks_rx_dropped);
	if (held && !fn->overload_last_held)
		pr_info_ratelimited("node %u: this machine drops received frames (netdev_max_backlog): a silence shorter than %u deadlines declares nobody until a timeout passes without a drop\n",
				    fn->cfg.node, FTD_OVERLOAD_EXCUSED);
	fn->overload_last_held = held;
	return held;
}

/*
 * Received frames wait on a CPU that processes none (lag.h), looked at
 * only while a verdict may be near: the tick before suspected someone or
 * heard nobody (fn->rx_look).
 */
static bool machine_stuck(struct ftd_net *fn, u64 now_ns, u64 period)
{
	u64 min_wait = max_t(u64, period, NSEC_PER_MSEC);
	bool held;

	fn->rx_tick++;
	held = fn->rx_look && ftd_rx_stuck(fn->rx_seen, fn->rx_tick, now_ns, min_wait);
	if (held)
		atomic64_inc(&fn->stats.ticks_rx_stuck);
	if (held && !fn->stuck_last_held)
		pr_info_ratelimited("node %u: received frames wait on a CPU that processed none for %llu ms or more: a silence shorter than %u deadlines declares nobody, and the lease holds, while they wait\n",
				    fn->cfg.node, div_u64(min_wait, NSEC_PER_MSEC), FTD_OVERLOAD_EXCUSED);
	fn->stuck_last_held = held;
	return held;
}

/* The age of the last valid frame from anyone, for the kernel log (0: none yet). */
static u64 ms_since_any_rx(struct ftd_net *fn, u64 now_ns)
{
	u64 last = READ_ONCE(fn->last_rx_ns);

	return last ? div_u64(ftd_elapsed(now_ns, last), NSEC_PER_MSEC) : 0;
}

/*
 * A death we declare goes to the kernel log with its evidence: an admin
 * asking why a node was fenced, or a false death under load or loss, is
 * answered by the silence measured against its deadline and by the state
 * of our own machine at that tick.
 */
static void log_declaration(struct ftd_net *fn, u32 node, u32 incarnation, u64 now_ns, u64 since,
			    u64 deadline, u64 due_ns, bool excused)
{
	pr_info_ratelimited("node %u: declared node %u (incarnation %u) dead: silent %llu ms, deadline %llu ms; last valid frame from anyone %llu ms ago; this tick %llu ms late%s\n",
			    fn->cfg.node, node, incarnation,
			    div_u64(ftd_elapsed(now_ns, since), NSEC_PER_MSEC),
			    div_u64(deadline, NSEC_PER_MSEC), ms_since_any_rx(fn, now_ns),
			    div_u64(ftd_elapsed(now_ns, due_ns), NSEC_PER_MSEC),
			    excused ? "; past the overload excuse (this machine drops, leaves frames waiting, or its tick starves)" : "");
}

void ftd_detect_tick(struct ftd_net *fn, u64 now_ns, u64 due_ns, bool starved)
{
	u64 timeout = READ_ONCE(fn->cfg.timeout_ns);
	u64 ping_every = ftd_detect_ask_every(READ_ONCE(fn->cfg.period_ns), timeout);
	u32 k = READ_ONCE(fn->cfg.observers);
	struct ftd_watchlist *w = fn->watch;
	struct ftd_peer *edges[2 * FTD_MAX_OBSERVERS];	/* live, past a silent run */
	u32 edge_idx[ARRAY_SIZE(edges)], n_edges;
	struct ftd_tick tick;	/* what the tick knows of itself (proto/verdict.h) */
	u32 i, n, live, incarnation;
	u8 rails_dead, own_rails_down, r;
	u64 rails_seq[FTD_MAX_RAILS];
	bool isolated, fence, minority = false, restarted = false, judging;
	bool can_tell;	/* we observe several: hearing nobody is about us (proto/detect.h) */
	bool dropping;	/* the machine drops what it receives (proto/overload.h) */
	bool rx_stuck;	/* or leaves it waiting on a CPU that drains nothing (lag.h) */
	bool overloaded;	/* either */
	bool near_verdict;	/* someone suspect, or nobody heard: look at the backlogs */
	u32 straw = FTD_NODE_NONE, straw_inc = 0;
	bool stalled = now_ns - due_ns > READ_ONCE(fn->cfg.period_ns);
	u32 self_inc = READ_ONCE(fn->incarnation);	/* the one this tick judges */
	/* Silence from before the timing was shortened is none (proto/detect.h). */
	u64 timing_since = READ_ONCE(fn->timing_since_ns);
	u64 last_rx = ftd_detect_silence_from(READ_ONCE(fn->last_rx_ns), timing_since);

	ftd_majority_tick(fn);
	judging = !READ_ONCE(fn->partition.minority_of);
	dropping = machine_dropping(fn, now_ns, timeout);
	rx_stuck = machine_stuck(fn, now_ns, READ_ONCE(fn->cfg.period_ns));
	overloaded = dropping || rx_stuck;
	/* Silent judges wait longer too (proto/vote.h). */
	WRITE_ONCE(fn->judging_excused, starved || overloaded);
	rcu_read_lock();
	own_rails_down = local_rails_down(fn);
	n = ftd_members_predecessors_far(fn, w->peers, w->pos, k, &live);
	can_tell = n >= 2;
	isolated = ftd_detect_isolated(n, ftd_elapsed(now_ns, last_rx),
				       ftd_detect_suspect_after(timeout));
	switch (ftd_detect_isolation(&fn->isolated_since, isolated, now_ns, timeout)) {
	case FTD_ISOLATION_BEGINS:
		fn->reach_cursor = get_random_u32();
		break;
	case FTD_ISOLATION_ENDS_LONG:
		end_isolation(w->peers, n, now_ns);
		break;
	default:
		break;
	}
	near_verdict = isolated;
	if (isolated && !starved)
		check_own_reach(fn, ping_every);
	/*
	 * Our lease: a timeout of hearing nobody, stretched by our receive
	 * path's lag, and we fence ourselves; an overloaded machine holds it
	 * for a while (proto/lease.h).
	 */
	fence = ftd_lease_expired(&fn->lease, can_tell, starved, overloaded, &fn->rx_health,
				  last_rx, due_ns, now_ns,
				  READ_ONCE(fn->cfg.period_ns), timeout);
	n = watch_further(fn, w, n, live, k, now_ns, timeout, !starved && !isolated);
	note_observed(fn, w, n, now_ns);
	n_edges = ftd_watch_edges(w->vouched, n, k, edge_idx, ARRAY_SIZE(edges));
	for (i = 0; i < n_edges; i++)
		edges[i] = w->peers[edge_idx[i]];
	tick = (struct ftd_tick){
		.now_ns = now_ns,
		.due_ns = due_ns,
		.period_ns = READ_ONCE(fn->cfg.period_ns),
		.timeout_ns = timeout,
		.ask_every_ns = ping_every,
		.timing_since_ns = timing_since,
		.heard_any_ns = atomic64_read(&fn->heard_any_ns),
		.own_rx = &fn->rx_health,
		.walk = &w->rule,
		.quorum = READ_ONCE(fn->cfg.quorum),
		.stalled = stalled,
		.isolated = isolated,
		.can_tell = can_tell,
		.excused = starved || overloaded,
		.judging = judging,
	};
	for (i = 0; i < n; i++) {
		struct ftd_peer *peer = w->peers[i];
		bool near = i < k;	/* past them: the walk past a silent run */
		struct ftd_watched seen;
		struct ftd_verdict v;

		spin_lock(&peer->lock);
		/*
		 * Replaced or deleted meanwhile by a changed node table: the
		 * next tick times its successor, if any.
		 */
		if (unlikely(peer->successor || peer->deleted)) {
			spin_unlock(&peer->lock);
			continue;
		}
		seen = (struct ftd_watched){
			.state = peer->state,
			.last_heard_ns = peer->last_heard_ns,
			.baseline_ns = peer->baseline_ns,
			.slow = &peer->slow,
		};
		ftd_verdict_silence(&tick, near, &seen, &v);
		peer->baseline_ns = seen.baseline_ns;
		peer->state = v.state;
		/* Only a majority declares (proto/partition.h). */
		if (ftd_verdict_declares(&v)) {
			enum ftd_partition_verdict pv = ftd_majority_judge(fn, peer, now_ns);

			ftd_verdict_partition(&v, pv);
			if (pv == FTD_PARTITION_FENCE) {
				minority = true;
				straw = peer->id;
				straw_inc = peer->incarnation;
			}
		}
		ftd_verdict_finish(&tick, near, &seen, &v);
		peer->state = v.state;
		near_verdict |= v.state == FTD_NODE_SUSPECT;
		incarnation = peer->incarnation;
		if (near)
			restarted |= near_restarted(w, i, peer);
		rails_dead = 0;
		/* no rail is judged while the tick is starved or the machine overloaded */
		if (near && !starved && !overloaded && !isolated && judging &&
		    (v.state == FTD_NODE_ALIVE || v.state == FTD_NODE_SUSPECT))
			rails_dead = newly_silent_rails(peer, now_ns, timeout, timing_since,
							own_rails_down, rails_seq);
		/* Under the lock, as tell_locked() says; a death is told below. */
		if (v.event && v.event != FTD_EV_NODE_DEAD)
			emit_node_event(fn, v.event, peer->id, incarnation, fn->cfg.node);
		spin_unlock(&peer->lock);
		if (v.remind)
			ftd_tx_heartbeat(fn, peer);
		if (v.ask != FTD_WATCH_ASK_NONE) {
			u64 nonce = ftd_fresh_ping(fn, peer, v.ask_interval_ns);

			if (nonce && v.ask == FTD_WATCH_ASK_HELPERS)
				ftd_relay_ask(fn, peer, incarnation, nonce, v.helpers);
			if (nonce && v.tell_between)
				ftd_dissem_tell_between(fn, peer);
		}
		for (r = 0; r < FTD_MAX_RAILS; r++)
			if (rails_dead & BIT(r))
				ftd_dissem_iface(fn, peer, incarnation, r, true, rails_seq[r]);
		if (v.vote)
			ftd_dissem_vote(fn, peer, incarnation);
		if (v.event == FTD_EV_NODE_DEAD) {
			log_declaration(fn, peer->id, incarnation, now_ns, v.since_ns,
					v.deadline_ns, due_ns, overloaded || starved);
			ftd_dissem_declare_dead(fn, peer, incarnation, edges, n_edges);
		}
	}
	rcu_read_unlock();
	fn->rx_look = near_verdict;
	/*
	 * An island that cannot cross half by its deaths: proto/reach.h. A
	 * walk over its whole cap asks too, before its silence counts.
	 * Hearing nobody, we wait as if starved: the lease answers that.
	 */
	minority |= ftd_reach_tick(fn, now_ns, starved || isolated,
				   restarted || ftd_watch_wants_reach(&w->rule), overloaded);
	if (minority) {
		if (straw != FTD_NODE_NONE)
			ftd_dissem_last_straw(fn, straw, straw_inc);
		ftd_fence_minority(fn, self_inc);
	} else if (fence) {
		/* Why: the last news we processed, and our own timer's health then. */
		pr_info("node %u: last valid frame from anyone %llu ms ago (timeout %llu ms, our receive path's lag %llu ms), this tick %llu ms late, %lld ticks behind the receive path and %lld stuck so far%s\n",
			fn->cfg.node, ms_since_any_rx(fn, now_ns),
			div_u64(timeout, NSEC_PER_MSEC),
			div_u64(ftd_health_deadline(NULL, &fn->rx_health, timeout, now_ns) - timeout,
				NSEC_PER_MSEC),
			div_u64(ftd_elapsed(now_ns, due_ns), NSEC_PER_MSEC),
			(s64)atomic64_read(&fn->stats.ticks_rx_behind),
			(s64)atomic64_read(&fn->stats.ticks_rx_stuck),
			overloaded ? "; past the overload excuse (this machine drops or leaves frames waiting)" : "");
		ftd_fence(fn, fn->cfg.node, self_inc);
	}
}
