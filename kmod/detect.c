// SPDX-License-Identifier: GPL-2.0
#include "detect.h"
#include "event.h"
#include "proto/detect.h"

static void emit_node_event(struct ftd_net *fn, enum ftd_event_type type, u32 node,
			    u32 incarnation, u32 origin)
{
	struct ftd_event ev = ftd_event_new(type);

	ev.node = node;
	ev.incarnation = incarnation;
	ev.origin = origin;
	ftd_event_emit(fn, &ev);
}

/* A higher incarnation is a restart: its streams begin again. */
static void peer_new_incarnation(struct ftd_peer *peer, u32 incarnation)
{
	int i;

	lockdep_assert_held(&peer->lock);
	peer->incarnation = incarnation;
	for (i = 0; i < peer->nrails; i++)
		peer->rails[i].rx_seq = 0;
}

void ftd_detect_heard(struct ftd_net *fn, struct ftd_peer *peer, const struct ftd_frame *f,
		      struct ftd_arrival at)
{
	struct ftd_rail *rail = &peer->rails[f->rail];
	enum ftd_event_type ev = 0;
	enum ftd_node_state old;
	u32 incarnation;

	spin_lock(&peer->lock);
	if (f->incarnation < peer->incarnation)
		goto out;	/* a stale frame from before a restart */
	if (f->incarnation > peer->incarnation) {
		if (peer->state == FTD_NODE_DEAD) {
			peer->state = FTD_NODE_ALIVE;
			ev = FTD_EV_NODE_RESTORED;
		}
		peer_new_incarnation(peer, f->incarnation);
	}
	if (peer->state == FTD_NODE_DEAD)
		goto out;	/* fail-stop: this incarnation stays dead */
	if (f->seq <= rail->rx_seq)
		goto out;	/* duplicate or reordered: carries no news */
	if (rail->rx_seq)
		rail->lost += f->seq - rail->rx_seq - 1;
	rail->rx_seq = f->seq;
	rail->rx++;
	rail->last_heard_ns = max(rail->last_heard_ns, at.ns);
	rail->stamp = at.source;
	if (at.source == FTD_STAMP_XDP)
		ftd_delay_add(&rail->driver_delay, at.driver_delay_ns);
	ftd_iat_update(&rail->iat, at.ns);
	peer->last_heard_ns = max(peer->last_heard_ns, at.ns);

	old = peer->state;
	peer->state = ftd_detect_on_heard(old);
	if (!ev)
		ev = ftd_detect_event(old, peer->state);
out:
	incarnation = peer->incarnation;
	spin_unlock(&peer->lock);
	if (ev)
		emit_node_event(fn, ev, peer->id, incarnation, FTD_NODE_NONE);
}

void ftd_detect_tick(struct ftd_net *fn, u64 now_ns, bool starved)
{
	u64 timeout = READ_ONCE(fn->cfg.timeout_ns);
	struct ftd_peer *peer;
	enum ftd_node_state old;
	enum ftd_event_type ev;
	unsigned long id;
	u32 incarnation;

	rcu_read_lock();
	xa_for_each(&fn->peers, id, peer) {
		spin_lock(&peer->lock);
		old = peer->state;
		if (peer->last_heard_ns && now_ns > peer->last_heard_ns)
			peer->state = ftd_detect_on_silence(old, now_ns - peer->last_heard_ns,
							    timeout, starved);
		ev = ftd_detect_event(old, peer->state);
		incarnation = peer->incarnation;
		spin_unlock(&peer->lock);
		if (ev)
			emit_node_event(fn, ev, peer->id, incarnation, fn->cfg.node);
	}
	rcu_read_unlock();
}
