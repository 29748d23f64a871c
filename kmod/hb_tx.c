// SPDX-License-Identifier: GPL-2.0
#include <linux/skbuff.h>
#include <linux/ktime.h>
#include "hb_tx.h"
#include "peer.h"
#include "socket.h"
#include "detect.h"
#include "lag.h"
#include "members.h"
#include "proto/wire.h"
#include "keys.h"
#include "rdma_ud.h"
#include "outbox.h"

void ftd_tx_hurry_neighbours(struct ftd_net *fn, struct ftd_peer *peer)
{
	u8 r;

	rcu_read_lock();
	for (r = 0; r < peer->nrails; r++)
		ftd_socket_hurry_neighbour(fn, &peer->rails[r], ftd_peer_own_addr(fn, r));
	rcu_read_unlock();
}

/*
 * A heartbeat on a rail of the config's RDMA rails (rdma_ud.h): over RDMA
 * only. None goes until the path to the peer is ready, and its sequence
 * number is drawn only then: resolving a path is no loss.
 */
static int tx_rdma(struct ftd_net *fn, struct ftd_peer *peer, struct ftd_frame *f)
{
	struct ftd_rail *rail = &peer->rails[f->rail];
	u8 buf[FTD_WIRE_HDR_LEN];
	struct ftd_ud_tx tx;
	int ret;

	rcu_read_lock();
	ret = ftd_ud_ready(fn, peer, f->rail, &tx);
	if (!ret) {
		f->seq = atomic64_inc_return(&rail->tx_seq);
		f->tx_ns = ktime_get_clocktai_ns();
		ftd_wire_encode(buf, sizeof(buf), f, NULL, 0, ftd_keys_get(fn)->key[0]);
		ret = ftd_ud_send(&tx, buf, sizeof(buf));
	}
	rcu_read_unlock();
	if (ret == -EAGAIN)
		return ret;	/* a path is being found: not an error */
	if (ret) {
		atomic64_inc(&fn->stats.tx_err);
		return ret;
	}
	WRITE_ONCE(peer->tx, peer->tx + 1);
	atomic64_inc(&fn->stats.tx);
	return 0;
}

int ftd_tx_frame(struct ftd_net *fn, struct ftd_peer *peer, u8 rail_idx, u8 type,
		 const u8 *payload, u16 payload_len)
{
	struct ftd_rail *rail = &peer->rails[rail_idx];
	const union ftd_addr *src;
	struct ftd_frame f = {
		.type = type,
		.rail = rail_idx,
		.cluster = fn->cfg.cluster,
		.sender = fn->cfg.node,
		.incarnation = READ_ONCE(fn->incarnation),
		.receiver = peer->id,
	};
	size_t len = FTD_WIRE_HDR_LEN + payload_len;
	struct sk_buff *skb;
	u8 *buf;

	/*
	 * Not on a rail of ours that is down: its link may still carry IP
	 * while its RDMA port is down (rdma.h), and a frame on it would tell
	 * the others the rail is back.
	 */
	if (READ_ONCE(fn->rails_unusable) & BIT(rail_idx))
		return -ENETDOWN;
	if (type == FTD_FRAME_HEARTBEAT && (fn->cfg.rdma_rails & BIT(rail_idx)) && !payload_len)
		return tx_rdma(fn, peer, &f);
	skb = alloc_skb(FTD_TX_HEADROOM + len, GFP_ATOMIC);
	if (unlikely(!skb))
		goto err;
	skb_reserve(skb, FTD_TX_HEADROOM);
	buf = skb_put(skb, len);

	/*
	 * Heartbeats number one stream per rail; an answered PROBE may move
	 * it to a new epoch meanwhile (ftd_peer_restart_streams()).
	 */
	if (type == FTD_FRAME_HEARTBEAT) {
		f.seq = atomic64_inc_return(&rail->tx_seq);
	} else {
		/* Notices: one stream per sender, checked against a window. */
		f.seq = atomic64_inc_return(&fn->notice_seq);
	}
	f.tx_ns = ktime_get_clocktai_ns();
	/* Rail i of a node pairs with rail i of its peers (parallel fabrics). */
	rcu_read_lock();
	ftd_wire_encode(buf, len, &f, payload, payload_len, ftd_keys_get(fn)->key[0]);
	src = ftd_peer_own_addr(fn, rail_idx);
	if (ftd_socket_send(fn, skb, rail, src)) {
		rcu_read_unlock();
		goto err;
	}
	rcu_read_unlock();
	WRITE_ONCE(peer->tx, peer->tx + 1);
	atomic64_inc(&fn->stats.tx);
	return 0;
err:
	atomic64_inc(&fn->stats.tx_err);
	return -ENOBUFS;
}

void ftd_tx_heartbeat(struct ftd_net *fn, struct ftd_peer *peer)
{
	u64 tick = atomic64_read(&fn->stats.ticks);
	u8 r;

	/* Only the timer sends heartbeats: hb_tick needs no lock. */
	if (ftd_seq_resumes(peer->hb_tick, tick))
		ftd_peer_restart_streams(fn, peer);
	peer->hb_tick = tick;
	for (r = 0; r < peer->nrails; r++)
		ftd_tx_frame(fn, peer, r, FTD_FRAME_HEARTBEAT, NULL, 0);
}

/* One heartbeat on every rail to each of our k live successors. */
static void send_heartbeats(struct ftd_net *fn)
{
	struct ftd_peer *succ[FTD_MAX_OBSERVERS];
	u32 i, n;

	rcu_read_lock();
	n = ftd_members_successors(fn, succ, READ_ONCE(fn->cfg.observers));
	for (i = 0; i < n; i++)
		ftd_tx_heartbeat(fn, succ[i]);
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
	ftd_lag_count(fn, period);	/* measured only: see lag.h */
	send_heartbeats(fn);
	/*
	 * The tick after a late one is starved too: it comes right after the
	 * catch-up, before the receive path has drained what queued meanwhile.
	 */
	/* What the tick decides goes out together, a frame per peer (outbox.h). */
	ftd_outbox_begin();
	ftd_detect_tick(fn, now, now - late, late > period || fn->tick_was_late);
	ftd_outbox_end();
	fn->tick_was_late = late > period;
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
