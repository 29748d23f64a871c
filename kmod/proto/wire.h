/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Frame codec: the byte layout documented in include/uapi/linux/ftdetect.h,
 * decoded into host order. Decoding checks structure only; whether the sender
 * belongs to the cluster is the caller's business, and the MAC is checked with
 * ftd_wire_mac_ok() once the caller knows which key applies.
 */
#ifndef FTD_PROTO_WIRE_H
#define FTD_PROTO_WIRE_H

#include "compat.h"
#include <linux/ftdetect.h>

struct ftd_frame {
	u8 type;
	u8 rail;
	u8 flags;
	u16 length;
	u32 cluster;
	u32 sender;
	u32 incarnation;
	u64 seq;
	u64 tx_ns;
	u64 rx_ns;
	u64 mac;
	u32 receiver;	/* the node it is for */
	u32 span_end;	/* FTD_WIRE_F_SHARE: where its arc ends (proto/span.h) */
	const u8 *payload;
	u16 payload_len;
};

enum ftd_wire_status {
	FTD_WIRE_OK = 0,
	FTD_WIRE_SHORT,		/* fewer bytes than a header */
	FTD_WIRE_BAD_MAGIC,
	FTD_WIRE_BAD_VERSION,
	FTD_WIRE_BAD_LENGTH,	/* length field disagrees with the datagram */
	FTD_WIRE_BAD_FLAGS,
	FTD_WIRE_BAD_TYPE,
	FTD_WIRE_BAD_PAYLOAD,	/* payload size wrong for the type */
};

/* Structural decode of len bytes at buf; f->payload points into buf. */
enum ftd_wire_status ftd_wire_decode(const u8 *buf, size_t len, struct ftd_frame *f);

/*
 * Encode f (its length field is computed) followed by payload into buf, and
 * sign it with key. Returns the frame length, or 0 if cap is too small.
 */
size_t ftd_wire_encode(u8 *buf, size_t cap, const struct ftd_frame *f,
		       const u8 *payload, u16 payload_len, const u8 key[FTD_KEY_LEN]);

/* The MAC a frame of len bytes at buf should carry under key. */
u64 ftd_wire_mac(const u8 *buf, size_t len, const u8 key[FTD_KEY_LEN]);

static inline bool ftd_wire_mac_ok(const u8 *buf, size_t len, const u8 key[FTD_KEY_LEN])
{
	return len >= FTD_WIRE_HDR_LEN &&
	       ftd_wire_mac(buf, len, key) == ftd_get_be64(buf + FTD_WIRE_MAC_OFF);
}

/* The payload of a FTD_FRAME_NOTICE, in host order. */
struct ftd_notice {
	u8 kind;
	u8 flags;	/* FTD_NOTICE_F_* */
	u32 subject;
	u32 subject_incarnation;
	u32 origin;
	u32 job;
	u32 rank;
	u32 regid;
	u32 uid;	/* PROC_* only: the rank's owner */
	u64 rail_seq;	/* IFACE_* only */
	u64 nonce;	/* PROBE*: the nonce; DIGEST: the digest */
	u64 hb_floor;	/* PROBE_ACK only */
};

/* A PROBE and its answers: the freshness check's (proto/fresh.h). */
static inline bool ftd_notice_is_probe(u8 kind)
{
	return kind == FTD_NOTICE_PROBE || kind == FTD_NOTICE_PROBE_ACK ||
	       kind == FTD_NOTICE_OUTDATED;
}

/* The kinds whose bytes 16..23 are one 64-bit word (nonce). */
static inline bool ftd_notice_has_word(u8 kind)
{
	return ftd_notice_is_probe(kind) || kind == FTD_NOTICE_DIGEST ||
	       kind == FTD_NOTICE_PROBE_REQ || kind == FTD_NOTICE_PROBE_RELAY ||
	       kind == FTD_NOTICE_SHARE_ACK;
}

static inline bool ftd_notice_is_proc(u8 kind)
{
	return kind == FTD_NOTICE_PROC_REG || kind == FTD_NOTICE_PROC_DEAD ||
	       kind == FTD_NOTICE_PROC_EXIT;
}

static inline bool ftd_notice_is_iface(u8 kind)
{
	return kind == FTD_NOTICE_IFACE_DEAD || kind == FTD_NOTICE_IFACE_RESTORED;
}

/*
 * The kinds that are news to apply and forward, which may share a frame
 * (FTD_WIRE_NOTICES_MAX, the uapi header's "Batches"); every other kind
 * is alone in its frame.
 */
static inline bool ftd_notice_batchable(u8 kind)
{
	return kind == FTD_NOTICE_DEAD || kind == FTD_NOTICE_LEFT || kind == FTD_NOTICE_ALIVE ||
	       ftd_notice_is_proc(kind) || ftd_notice_is_iface(kind);
}

/* Writes FTD_WIRE_NOTICE_LEN bytes. */
void ftd_notice_encode(u8 *payload, const struct ftd_notice *n);
/* Unknown kinds and non-zero reserved bytes are malformed: false. */
bool ftd_notice_decode(const u8 *payload, u16 len, struct ftd_notice *n);
/*
 * A notice frame's payload of len bytes: how many notices it holds, or 0
 * if it is malformed as a whole (any notice malformed, a control kind
 * beside others, or in a share). Notice i is then at payload + i *
 * FTD_WIRE_NOTICE_LEN.
 */
u16 ftd_notices_check(const u8 *payload, u16 len, bool share);

#endif
