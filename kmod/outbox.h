/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Notices to one peer, or for the shares of one arc (span.h), within one
 * pass (a tick, a received notice frame, a slice of a view), sent
 * together in one frame per rail: the uapi header's "Batches". The deaths
 * one tick declares, or what one share brought, go to each share in one
 * frame instead of one each.
 * Per CPU, with BHs off from ftd_outbox_begin() to ftd_outbox_end();
 * passes nest, the outermost one sends.
 */
#ifndef FTD_OUTBOX_H
#define FTD_OUTBOX_H

#include "net.h"
#include "peer.h"

int ftd_outbox_init(void);
void ftd_outbox_exit(void);

/* Open a pass: BHs off, under rcu_read_lock until the matching end. */
void ftd_outbox_begin(void);
/* Close it; the outermost end sends what the pass queued. */
void ftd_outbox_end(void);

/*
 * Queue the encoded notice (FTD_WIRE_NOTICE_LEN bytes, a kind that
 * ftd_notice_batchable() allows) for peer of fn. False when no pass is
 * open on this CPU: the caller sends it alone, at once.
 */
bool ftd_outbox_add(struct ftd_net *fn, struct ftd_peer *peer, const u8 *notice);

/*
 * Queue the encoded notice (a batchable kind) for our shares of the arc
 * that ends before end (span.h): what a pass spreads goes out as one
 * frame per share. False when no pass is open: the caller sends it.
 */
bool ftd_outbox_share(struct ftd_net *fn, u32 end, const u8 *notice);

/*
 * Send what this CPU's pass has queued, now: before a fence, whose new
 * incarnation the receivers have not proven (a frame signed with it would
 * be refused), and which must not overtake what was decided before it.
 */
void ftd_outbox_flush(void);

/* Send len bytes of notices to peer now, on every rail (counted). */
void ftd_outbox_send(struct ftd_net *fn, struct ftd_peer *peer, const u8 *notices, u16 len);

#endif
