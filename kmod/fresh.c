// SPDX-License-Identifier: GPL-2.0
#include <linux/random.h>
#include <linux/workqueue.h>
#include "fresh.h"
#include "detect.h"
#include "dissem.h"
#include "fence.h"
#include "hb_tx.h"
#include "members.h"
#include "relay.h"
#include "repair.h"
#include "proto/fresh.h"

/*
 * A notice of ours about ourselves, alone in a frame, to peer on rail
 * (-1: every rail): a PROBE, its answer, or OUTDATED. n carries what
 * the kind needs; who and which incarnation are filled in here.
 */
static void send_own_notice(struct ftd_net *fn, struct ftd_peer *peer, int rail,
			    struct ftd_notice n)
{
	u8 payload[FTD_WIRE_NOTICE_LEN];
	u8 r;

	n.subject = fn->cfg.node;
	n.subject_incarnation = READ_ONCE(fn->incarnation);
	n.origin = fn->cfg.node;
	ftd_notice_encode(payload, &n);
	for (r = 0; r < peer->nrails; r++)
		if (rail < 0 || r == rail)
			ftd_tx_frame(fn, peer, r, FTD_FRAME_NOTICE, payload, sizeof(payload));
}

/* Our PROBE with nonce, on every rail: prove your incarnation. */
static void send_probe(struct ftd_net *fn, struct ftd_peer *peer, u64 nonce)
{
	send_own_notice(fn, peer, -1, (struct ftd_notice){ .kind = FTD_NOTICE_PROBE,
							    .nonce = nonce });
}

static void count(struct ftd_net *fn, struct ftd_peer *peer, enum ftd_fresh_verdict v)
{
	switch (v) {
	case FTD_FRESH_STALE:
		atomic64_inc(&fn->stats.rx_stale);
		WRITE_ONCE(peer->rx_stale, peer->rx_stale + 1);
		break;
	case FTD_FRESH_REPLAY:
		atomic64_inc(&fn->stats.rx_replay);
		WRITE_ONCE(peer->rx_replay, peer->rx_replay + 1);
		break;
	case FTD_FRESH_UNPROVEN:
		atomic64_inc(&fn->stats.rx_unproven);
		WRITE_ONCE(peer->rx_unproven, peer->rx_unproven + 1);
		break;
	default:
		break;
	}
}

/*
 * Should we ask it (PROBE) whether it is there, rather than wait to hear
 * it? Not proven yet, not heard since our instance came up (so it holds no
 * place in our ring and sends us nothing), or a newer incarnation than the
 * one proven is knocking. Under peer->lock.
 */
static bool wants_probe(const struct ftd_peer *peer, u32 incarnation)
{
	return !peer->fresh.incarnation || peer->state == FTD_NODE_UNKNOWN ||
	       incarnation > peer->fresh.incarnation;
}

/*
 * A PROBE: answer it on the rail it came in, at most once a period (the
 * answer proves our incarnation, it changes nothing here; a replayed PROBE
 * gets at most an answer of its own size, and none once the sender is
 * proven). If we would probe the sender ourselves, probe it back now, so
 * that one exchange makes each side hear the other (with the nonce of our
 * own PROBE to it if that one is young and unanswered: proto/fresh.h).
 */
static void answer_probe(struct ftd_net *fn, struct ftd_peer *peer, const struct ftd_frame *f,
			 u64 nonce, u64 now)
{
	u64 period = READ_ONCE(fn->cfg.period_ns), ours = 0;
	enum ftd_fresh_verdict v;
	bool ack, dead, outdated;
	u32 held;

	/* Replaced meanwhile: the floor we give must be that of its streams. */
	peer = ftd_peer_lock_current(peer);
	ack = ftd_fresh_answer_probe(&peer->fresh, f, READ_ONCE(fn->cfg.node), now, period, &v);
	outdated = v == FTD_FRESH_STALE && ftd_fresh_outdated_due(&peer->fresh, now, period);
	held = peer->fresh.incarnation;
	if (v == FTD_FRESH_OK && wants_probe(peer, f->incarnation) &&
	    ftd_fresh_ask_due(&peer->fresh, now, period, READ_ONCE(fn->cfg.timeout_ns),
			      get_random_u64()))
		ours = peer->fresh.ask.nonce;
	dead = v == FTD_FRESH_OK && peer->state == FTD_NODE_DEAD &&
	       f->incarnation == peer->incarnation;
	spin_unlock_bh(&peer->lock);
	count(fn, peer, v);
	/*
	 * Asked by an incarnation we hold dead (it was cut off and is back):
	 * it must learn that first, before our answer tells it that it hears
	 * us again (it would then judge its silent predecessors).
	 */
	if (dead)
		ftd_dissem_tell_dead(fn, peer, f->incarnation);
	/* It lost track of our heartbeats: they go on above a new floor. */
	if (ack)
		send_own_notice(fn, peer, f->rail, (struct ftd_notice){
			.kind = FTD_NOTICE_PROBE_ACK, .nonce = nonce,
			.hb_floor = ftd_peer_restart_streams(fn, peer) });
	if (ours)
		send_probe(fn, peer, ours);
	/* It came up below what we hold it at: tell it, or it is deaf for good. */
	if (outdated)
		send_own_notice(fn, peer, f->rail, (struct ftd_notice){
			.kind = FTD_NOTICE_OUTDATED, .nonce = nonce, .regid = held });
}

bool ftd_fresh_accept(struct ftd_net *fn, struct ftd_peer *peer, const struct ftd_frame *f,
		      u64 now, u64 arrived_ns)
{
	u64 period = READ_ONCE(fn->cfg.period_ns), probe = 0, rtt, nonce_ns;
	struct ftd_notice notice, *n = NULL;
	enum ftd_fresh_verdict v;

	if (f->type == FTD_FRAME_NOTICE) {
		/*
		 * The frame was checked whole (ftd_notices_check, hb_rx.c); a
		 * PROBE or its answer is alone in its frame: the first is all.
		 */
		if (WARN_ON_ONCE(!ftd_notice_decode(f->payload, FTD_WIRE_NOTICE_LEN, &notice)))
			return false;
		if (notice.kind == FTD_NOTICE_PROBE) {
			answer_probe(fn, peer, f, notice.nonce, now);
			return false;
		}
		n = &notice;
	}
	spin_lock(&peer->lock);
	v = ftd_fresh_check(&peer->fresh, f, READ_ONCE(fn->cfg.node), n);
	/* Under the lock that matched the nonce: no new one made meanwhile. */
	rtt = ftd_fresh_rtt(&peer->fresh, now);
	nonce_ns = peer->fresh.ask.nonce_ns;
	if (v == FTD_FRESH_UNPROVEN &&
	    ftd_fresh_ask_due(&peer->fresh, now, period, READ_ONCE(fn->cfg.timeout_ns),
			      get_random_u64()))
		probe = peer->fresh.ask.nonce;
	spin_unlock(&peer->lock);
	count(fn, peer, v);
	if (probe)
		send_probe(fn, peer, probe);
	/* Our PROBE was of an incarnation it holds us above: rejoin above it. */
	if (v == FTD_FRESH_OUTDATED) {
		ftd_fence_outdated(fn, peer->id, n->regid);
		return false;
	}
	/* An answer to our nonce: it is there now, at this incarnation. */
	if (v == FTD_FRESH_PROVEN || v == FTD_FRESH_ANSWERED) {
		ftd_detect_answered(fn, peer, f->incarnation, now, rtt, arrived_ns);
		/* and to whoever asked us to probe it (proto/relay.h) */
		ftd_relay_answered(fn, peer, f->incarnation, now, nonce_ns);
	}
	/*
	 * What it sent before we could believe it was dropped: our digests
	 * tell whether that was news, and each asks the other's view if so.
	 */
	if (v == FTD_FRESH_PROVEN)
		ftd_repair_contact(fn, peer);
	return v == FTD_FRESH_OK;
}

u64 ftd_fresh_ask(struct ftd_net *fn, struct ftd_peer *peer, u64 every, u64 wait)
{
	u64 nonce = 0;

	spin_lock_bh(&peer->lock);
	if (ftd_fresh_ask_due(&peer->fresh, ktime_get_ns(), every, wait, get_random_u64()))
		nonce = peer->fresh.ask.nonce;
	spin_unlock_bh(&peer->lock);
	if (nonce)
		send_probe(fn, peer, nonce);
	return nonce;
}

u64 ftd_fresh_ping(struct ftd_net *fn, struct ftd_peer *peer, u64 every)
{
	return ftd_fresh_ask(fn, peer, every, READ_ONCE(fn->cfg.timeout_ns));
}

/* Are we one of its k live successors (we would observe it were it live)? */
static bool observes(struct ftd_net *fn, u32 id)
{
	struct ftd_peer *succ[FTD_MAX_OBSERVERS];
	u32 n, i;

	n = ftd_members_successors_of(fn, id, succ,
				      min_t(u32, READ_ONCE(fn->cfg.observers), FTD_MAX_OBSERVERS));
	for (i = 0; i < n; i++)
		if (succ[i]->self)
			return true;
	return false;
}

/*
 * One sweep: PROBE whoever is due (unproven, or not heard since we came
 * up), its would-be observers every base, the others less and less often
 * while it stays silent (proto/fresh.h ftd_fresh_sweep_due); come back
 * while anyone is unheard. The base is a timeout or a second, whichever
 * is longer: the sweep is O(nodes).
 */
static void probe_work(struct work_struct *work)
{
	struct ftd_net *fn = container_of(to_delayed_work(work), struct ftd_net, probe_work);
	u64 every = max_t(u64, READ_ONCE(fn->cfg.timeout_ns), NSEC_PER_SEC), nonce;
	bool unheard = false, reset = atomic_xchg(&fn->sweep_reset, 0), wants, near;
	bool minority = READ_ONCE(fn->partition.minority_of);
	struct ftd_peer *peer;
	unsigned long id = 0;

	while (READ_ONCE(fn->up)) {
		rcu_read_lock();
		peer = xa_find(&fn->peers, &id, ULONG_MAX, XA_PRESENT);
		if (!peer) {
			rcu_read_unlock();
			break;
		}
		nonce = 0;
		if (!peer->self) {
			spin_lock_bh(&peer->lock);
			wants = wants_probe(peer, 0);
			if (!wants || reset)
				ftd_fresh_sweep_reset(&peer->fresh);
			spin_unlock_bh(&peer->lock);
			/* The ring's lock is not taken under a peer's. */
			near = wants && ftd_fresh_sweep_near(!minority && observes(fn, peer->id),
							     minority);
			spin_lock_bh(&peer->lock);
			if (wants && wants_probe(peer, 0)) {
				unheard = true;
				if (ftd_fresh_sweep_due(&peer->fresh, ktime_get_ns(), every, near,
							get_random_u64()))
					nonce = peer->fresh.ask.nonce;
			}
			spin_unlock_bh(&peer->lock);
		}
		if (nonce)
			send_probe(fn, peer, nonce);
		rcu_read_unlock();
		cond_resched();
		if (id == ULONG_MAX)
			break;
		id++;
	}
	/* A kick while we swept asked for a sweep now: not a base later. */
	if (atomic_read(&fn->sweep_reset) && READ_ONCE(fn->up))
		mod_delayed_work(system_wq, &fn->probe_work, 0);
	else if (unheard && READ_ONCE(fn->up))
		mod_delayed_work(system_wq, &fn->probe_work, nsecs_to_jiffies(every) + 1);
}

void ftd_fresh_probe_kick(struct ftd_net *fn)
{
	/* Our view changed: whoever we have not heard is asked at once again. */
	atomic_set(&fn->sweep_reset, 1);
	if (READ_ONCE(fn->up))
		mod_delayed_work(system_wq, &fn->probe_work, 0);
}

void ftd_fresh_init(struct ftd_net *fn)
{
	INIT_DELAYED_WORK(&fn->probe_work, probe_work);
}

void ftd_fresh_stop(struct ftd_net *fn)
{
	WARN_ON(READ_ONCE(fn->up));
	cancel_delayed_work_sync(&fn->probe_work);
}
