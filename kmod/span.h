/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The spanning broadcast (proto/span.h, the uapi header's "Notices"): the
 * shares this node sends, each kept until its holder acknowledges it, and
 * sent again or handed over by a timer of their own (not the tick: a loss
 * at each hop would cost a period).
 */
#ifndef FTD_SPAN_H
#define FTD_SPAN_H

#include "net.h"
#include "peer.h"
#include "proto/wire.h"

/* Notices forwarded lately, remembered so that a copy is not forwarded again. */
#define FTD_SHARES_SEEN	1024

int ftd_span_init(struct ftd_net *fn);
void ftd_span_free(struct ftd_net *fn);
/* Going down: the timer stops, every share and what was forwarded is forgotten. */
void ftd_span_stop(struct ftd_net *fn);
/* Fenced: every share and what was forwarded is forgotten. */
void ftd_span_reset(struct ftd_net *fn);

/*
 * The len bytes of notices (batchable kinds) from us as the shares of
 * the arc (us, end) of our ring; end == our id: the whole ring. Softirq
 * or process context, under rcu_read_lock.
 */
void ftd_span_send(struct ftd_net *fn, u32 end, const u8 *notices, u16 len);
/*
 * The len bytes of notices (batchable kinds) to peer alone, as a share
 * that its receiver acknowledges and never forwards, sent again until it
 * is acknowledged, peer is held dead or FTD_SPAN_ALONE_TIMEOUTS went by;
 * a scoped rank's end, which nothing repairs: kept before any broadcast
 * share when too many wait. Under rcu_read_lock.
 */
void ftd_span_send_alone(struct ftd_net *fn, struct ftd_peer *peer, const u8 *notices, u16 len);

/* f, a share from sender, came: acknowledge it on its rail. */
void ftd_span_ack(struct ftd_net *fn, struct ftd_peer *sender, const struct ftd_frame *f);
/* sender acknowledged the frame of seq: its share waits no more. */
void ftd_span_acked(struct ftd_net *fn, struct ftd_peer *sender, u64 seq);

/*
 * Did we forward the encoded notice in a share already? If not, we now
 * have (remembered by its content, its origin left out: another
 * declarer's tree of the same news is a copy too). A copy is acknowledged
 * and not forwarded again: sent again after a lost acknowledgement, on
 * another rail, or by another declarer.
 */
bool ftd_span_forwarded(struct ftd_net *fn, const u8 *notice);

#endif
