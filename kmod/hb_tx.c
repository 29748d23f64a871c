// SPDX-License-Identifier: GPL-2.0
#include <linux/skbuff.h>
#include <linux/ktime.h>
#include "hb_tx.h"
#include "peer.h"
#include "socket.h"
#include "proto/wire.h"
#include "keys.h"
#include "rdma_ud.h"
#include "routes.h"

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

/* tick: sent by the timer, every tick or nearly (routes.h). */
static int tx_frame(struct ftd_net *fn, struct ftd_peer *peer, u8 rail_idx, u8 type, u8 flags,
		    u32 span_end, const u8 *payload, u16 payload_len, u64 *seq, bool tick)
{
	struct ftd_rail *rail = &peer->rails[rail_idx];
	const union ftd_addr *src;
	struct ftd_frame f = {
		.type = type,
		.rail = rail_idx,
		.flags = flags,
		.cluster = fn->cfg.cluster,
		.sender = fn->cfg.node,
		.incarnation = READ_ONCE(fn->incarnation),
		.receiver = peer->id,
		.span_end = span_end,
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
	if (ftd_socket_send(fn, skb, rail, tick ? ftd_routes_get(fn, rail, rail_idx) : NULL, src)) {
		rcu_read_unlock();
		goto err;
	}
	rcu_read_unlock();
	WRITE_ONCE(peer->tx, peer->tx + 1);
	atomic64_inc(&fn->stats.tx);
	if (seq)
		*seq = f.seq;
	return 0;
err:
	atomic64_inc(&fn->stats.tx_err);
	return -ENOBUFS;
}

int ftd_tx_frame(struct ftd_net *fn, struct ftd_peer *peer, u8 rail_idx, u8 type,
		 const u8 *payload, u16 payload_len)
{
	return tx_frame(fn, peer, rail_idx, type, 0, 0, payload, payload_len, NULL, false);
}

int ftd_tx_share(struct ftd_net *fn, struct ftd_peer *peer, u8 rail_idx, const u8 *notices,
		 u16 len, u32 span_end, u64 *seq)
{
	return tx_frame(fn, peer, rail_idx, FTD_FRAME_NOTICE, FTD_WIRE_F_SHARE, span_end, notices,
			len, seq, false);
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
		tx_frame(fn, peer, r, FTD_FRAME_HEARTBEAT, 0, 0, NULL, 0, NULL, true);
}
