// SPDX-License-Identifier: GPL-2.0
#include <linux/skbuff.h>
#include <linux/ktime.h>
#include "hb_tx.h"
#include "peer.h"
#include "socket.h"
#include "detect.h"
#include "proto/wire.h"

static void send_heartbeat(struct ftd_net *fn, const struct ftd_peer *self,
			   struct ftd_peer *peer, u8 rail_idx)
{
	struct ftd_rail *rail = &peer->rails[rail_idx];
	const union ftd_addr *src = NULL;
	struct ftd_frame f = {
		.type = FTD_FRAME_HEARTBEAT,
		.rail = rail_idx,
		.cluster = fn->cfg.cluster,
		.sender = fn->cfg.node,
		.incarnation = fn->incarnation,
	};
	struct sk_buff *skb;
	u8 *buf;

	skb = alloc_skb(FTD_TX_HEADROOM + FTD_WIRE_HDR_LEN, GFP_ATOMIC);
	if (unlikely(!skb))
		goto err;
	skb_reserve(skb, FTD_TX_HEADROOM);
	buf = skb_put(skb, FTD_WIRE_HDR_LEN);

	/* Only this timer writes tx_seq; the dump reads it racily. */
	f.seq = READ_ONCE(rail->tx_seq) + 1;
	WRITE_ONCE(rail->tx_seq, f.seq);
	f.tx_ns = ktime_get_clocktai_ns();
	ftd_wire_encode(buf, FTD_WIRE_HDR_LEN, &f, NULL, 0, fn->cfg.key);

	/* Rail i of a node pairs with rail i of its peers (parallel fabrics). */
	if (self && rail_idx < self->nrails)
		src = &self->rails[rail_idx].addr;
	if (ftd_socket_send(fn, skb, rail, src))
		goto err;
	WRITE_ONCE(peer->tx, peer->tx + 1);
	atomic64_inc(&fn->stats.tx);
	return;
err:
	atomic64_inc(&fn->stats.tx_err);
}

static void send_heartbeats(struct ftd_net *fn)
{
	struct ftd_peer *self, *peer;
	unsigned long id;
	u8 i;

	rcu_read_lock();
	self = ftd_peer_find(fn, fn->cfg.node);
	xa_for_each(&fn->peers, id, peer) {
		if (peer->self)
			continue;
		for (i = 0; i < peer->nrails; i++)
			send_heartbeat(fn, self, peer, i);
	}
	rcu_read_unlock();
}

/* How late this tick fired; counted, since a starved observer is a bad judge. */
static u64 tick_lateness(struct ftd_net *fn, struct hrtimer *timer, u64 now, u64 period)
{
	s64 late = now - ktime_to_ns(hrtimer_get_expires(timer));

	atomic64_inc(&fn->stats.ticks);
	if (late <= 0)
		return 0;
	if (late > period)
		atomic64_inc(&fn->stats.ticks_late);
	if (late > atomic64_read(&fn->stats.tick_late_max_ns))
		atomic64_set(&fn->stats.tick_late_max_ns, late);
	return late;
}

static enum hrtimer_restart hb_timer_fired(struct hrtimer *timer)
{
	struct ftd_net *fn = container_of(timer, struct ftd_net, timer);
	u64 period = READ_ONCE(fn->cfg.period_ns);
	u64 now = ktime_get_ns();
	u64 late;

	if (!READ_ONCE(fn->up))
		return HRTIMER_NORESTART;
	late = tick_lateness(fn, timer, now, period);
	send_heartbeats(fn);
	ftd_detect_tick(fn, now, late > period);
	/* Overruns (a late softirq) skip periods instead of bursting. */
	hrtimer_forward_now(timer, ns_to_ktime(period));
	return HRTIMER_RESTART;
}

void ftd_hb_timer_init(struct ftd_net *fn)
{
	hrtimer_init(&fn->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	fn->timer.function = hb_timer_fired;
}

void ftd_hb_timer_start(struct ftd_net *fn)
{
	lockdep_assert_held(&fn->lock);
	hrtimer_start(&fn->timer, 0, HRTIMER_MODE_REL_SOFT);
}

void ftd_hb_timer_stop(struct ftd_net *fn)
{
	lockdep_assert_held(&fn->lock);
	WARN_ON(READ_ONCE(fn->up));
	hrtimer_cancel(&fn->timer);
}
