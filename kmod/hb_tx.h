/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emission: every frame the node sends is built and sent here (the
 * heartbeats of the tick, timer.h; notices, outbox.h; probes, fresh.h).
 */
#ifndef FTD_HB_TX_H
#define FTD_HB_TX_H

#include "net.h"
#include "peer.h"

/*
 * Build a frame of type with payload and send it to peer's rail, from our
 * own address on that rail. 0, or -ENOBUFS (counted in tx_err). Callable
 * from the timer, the receive path and process context.
 */
int ftd_tx_frame(struct ftd_net *fn, struct ftd_peer *peer, u8 rail_idx, u8 type,
		 const u8 *payload, u16 payload_len);

/*
 * A share of a spanning broadcast (span.h): notices in a frame flagged
 * FTD_WIRE_F_SHARE whose arc ends before span_end. *seq: the frame's.
 */
int ftd_tx_share(struct ftd_net *fn, struct ftd_peer *peer, u8 rail_idx, const u8 *notices,
		 u16 len, u32 span_end, u64 *seq);

/* We hear peer again after a silence: socket.h, ftd_socket_hurry_neighbour(). */
void ftd_tx_hurry_neighbours(struct ftd_net *fn, struct ftd_peer *peer);

/*
 * One heartbeat on each of peer's rails (an observer's reminder too); from
 * the tick only (timer.h).
 */
void ftd_tx_heartbeat(struct ftd_net *fn, struct ftd_peer *peer);

#endif
