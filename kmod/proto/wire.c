// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "wire.h"
#include "siphash.h"

/*
 * Where each field is: the layouts of <linux/ftdetect.h> (struct
 * ftd_wire_hdr, struct ftd_wire_notice) are the only statement of the wire
 * format; the fields are read and written at their offsets, in network
 * order, whatever the buffer's alignment.
 */
#define H(field) FTD_WIRE_HDR_OFF(field)
#define N(field) FTD_WIRE_NOTICE_OFF(field)

_Static_assert(sizeof(struct ftd_wire_hdr) == FTD_WIRE_HDR_LEN, "header layout");
/* The offset table of <linux/ftdetect.h>'s "Wire format", which people read. */
_Static_assert(H(magic) == 0 && H(version) == 4 && H(type) == 5 && H(rail) == 6 &&
	       H(flags) == 7 && H(length) == 8 && H(reserved) == 10 && H(cluster) == 12 &&
	       H(sender) == 16 && H(incarnation) == 20 && H(seq) == 24 && H(tx_ns) == 32 &&
	       H(rx_ns) == 40 && H(mac) == 48 && H(receiver) == 56 && H(span_end) == 60,
	       "the header's offset table");
_Static_assert(H(tx_ns) == FTD_WIRE_TX_OFF && H(rx_ns) == FTD_WIRE_RX_OFF &&
	       H(mac) == FTD_WIRE_MAC_OFF, "header offsets the eBPF programs use");
_Static_assert(sizeof(struct ftd_wire_notice) == FTD_WIRE_NOTICE_LEN, "notice layout");

/* Heartbeats carry nothing; notices one or more whole notices. */
static bool payload_len_ok(u8 type, u16 len)
{
	if (type == FTD_FRAME_HEARTBEAT)
		return len == 0;
	return len && len % FTD_WIRE_NOTICE_LEN == 0 &&
	       len / FTD_WIRE_NOTICE_LEN <= FTD_WIRE_NOTICES_MAX;
}

enum ftd_wire_status ftd_wire_decode(const u8 *buf, size_t len, struct ftd_frame *f)
{
	if (len < FTD_WIRE_HDR_LEN)
		return FTD_WIRE_SHORT;
	if (ftd_get_be32(buf + H(magic)) != FTD_WIRE_MAGIC)
		return FTD_WIRE_BAD_MAGIC;
	if (buf[H(version)] != FTD_WIRE_VERSION)
		return FTD_WIRE_BAD_VERSION;

	f->type = buf[H(type)];
	f->rail = buf[H(rail)];
	f->flags = buf[H(flags)];
	f->length = ftd_get_be16(buf + H(length));
	f->span_end = ftd_get_be32(buf + H(span_end));
	/* The reserved field, and span_end where it means nothing, must be zero. */
	if (f->length != len || len > FTD_MAX_FRAME || ftd_get_be16(buf + H(reserved)) ||
	    (f->span_end && !(f->flags & FTD_WIRE_F_SHARE)))
		return FTD_WIRE_BAD_LENGTH;
	if (f->flags & ~__FTD_WIRE_F_ALL)
		return FTD_WIRE_BAD_FLAGS;
	if (f->type == 0 || f->type >= __FTD_FRAME_MAX)
		return FTD_WIRE_BAD_TYPE;
	if ((f->flags & FTD_WIRE_F_SHARE) && f->type != FTD_FRAME_NOTICE)
		return FTD_WIRE_BAD_FLAGS;

	f->cluster = ftd_get_be32(buf + H(cluster));
	f->sender = ftd_get_be32(buf + H(sender));
	f->incarnation = ftd_get_be32(buf + H(incarnation));
	f->seq = ftd_get_be64(buf + H(seq));
	f->tx_ns = ftd_get_be64(buf + FTD_WIRE_TX_OFF);
	f->rx_ns = ftd_get_be64(buf + FTD_WIRE_RX_OFF);
	f->mac = ftd_get_be64(buf + FTD_WIRE_MAC_OFF);
	f->receiver = ftd_get_be32(buf + H(receiver));
	f->payload = buf + FTD_WIRE_HDR_LEN;
	f->payload_len = (u16)(len - FTD_WIRE_HDR_LEN);
	if (!payload_len_ok(f->type, f->payload_len))
		return FTD_WIRE_BAD_PAYLOAD;
	return FTD_WIRE_OK;
}

u64 ftd_wire_mac(const u8 *buf, size_t len, const u8 key[FTD_KEY_LEN])
{
	struct ftd_siphash s;

	ftd_siphash_init(&s, key);
	ftd_siphash_update(&s, buf, FTD_WIRE_TX_OFF);
	ftd_siphash_update(&s, buf + FTD_WIRE_MAC_OFF + 8, len - FTD_WIRE_MAC_OFF - 8);
	return ftd_siphash_final(&s);
}

size_t ftd_wire_encode(u8 *buf, size_t cap, const struct ftd_frame *f,
		       const u8 *payload, u16 payload_len, const u8 key[FTD_KEY_LEN])
{
	size_t len = FTD_WIRE_HDR_LEN + (size_t)payload_len;

	if (len > cap || len > FTD_MAX_FRAME)
		return 0;
	ftd_put_be32(buf + H(magic), FTD_WIRE_MAGIC);
	buf[H(version)] = FTD_WIRE_VERSION;
	buf[H(type)] = f->type;
	buf[H(rail)] = f->rail;
	buf[H(flags)] = f->flags;
	ftd_put_be16(buf + H(length), (u16)len);
	ftd_put_be16(buf + H(reserved), 0);
	ftd_put_be32(buf + H(cluster), f->cluster);
	ftd_put_be32(buf + H(sender), f->sender);
	ftd_put_be32(buf + H(incarnation), f->incarnation);
	ftd_put_be64(buf + H(seq), f->seq);
	ftd_put_be64(buf + FTD_WIRE_TX_OFF, f->tx_ns);
	ftd_put_be64(buf + FTD_WIRE_RX_OFF, 0);
	ftd_put_be32(buf + H(receiver), f->receiver);
	ftd_put_be32(buf + H(span_end), f->flags & FTD_WIRE_F_SHARE ? f->span_end : 0);
	if (payload_len)
		memcpy(buf + FTD_WIRE_HDR_LEN, payload, payload_len);
	ftd_put_be64(buf + FTD_WIRE_MAC_OFF, ftd_wire_mac(buf, len, key));
	return len;
}

void ftd_notice_encode(u8 *p, const struct ftd_notice *n)
{
	memset(p, 0, FTD_WIRE_NOTICE_LEN);
	p[N(kind)] = n->kind;
	p[N(flags)] = n->flags;
	ftd_put_be32(p + N(subject), n->subject);
	ftd_put_be32(p + N(subject_incarnation), n->subject_incarnation);
	ftd_put_be32(p + N(origin), n->origin);
	if (ftd_notice_is_iface(n->kind)) {
		ftd_put_be64(p + N(rail_seq), n->rail_seq);
	} else if (ftd_notice_has_word(n->kind)) {
		ftd_put_be64(p + N(nonce), n->nonce);
	} else {
		ftd_put_be32(p + N(job), n->job);
		ftd_put_be32(p + N(rank), n->rank);
	}
	if (n->kind == FTD_NOTICE_PROBE_ACK) {
		ftd_put_be64(p + N(hb_floor), n->hb_floor);
		return;
	}
	ftd_put_be32(p + N(regid), n->regid);
	if (ftd_notice_is_proc(n->kind))
		ftd_put_be32(p + N(uid), n->uid);
}

/* The flags a notice of kind may carry: any other is malformed. */
static u8 ftd_notice_flags_of(u8 kind)
{
	switch (kind) {
	case FTD_NOTICE_PROC_DEAD:
	case FTD_NOTICE_PROC_EXIT:
		return FTD_NOTICE_F_VIEW;
	case FTD_NOTICE_DIGEST:
		return FTD_NOTICE_F_CONTACT | FTD_NOTICE_F_ANSWER | FTD_NOTICE_F_CAUGHT_UP;
	default:
		return 0;
	}
}

bool ftd_notice_decode(const u8 *p, u16 len, struct ftd_notice *n)
{
	if (len != FTD_WIRE_NOTICE_LEN || p[N(reserved[0])] || p[N(reserved[1])])
		return false;
	n->kind = p[N(kind)];
	if (n->kind == 0 || n->kind >= __FTD_NOTICE_MAX)
		return false;
	n->flags = p[N(flags)];
	if (n->flags & ~ftd_notice_flags_of(n->kind))
		return false;
	if ((n->flags & (FTD_NOTICE_F_ANSWER | FTD_NOTICE_F_CAUGHT_UP)) &&
	    !(n->flags & FTD_NOTICE_F_CONTACT))
		return false;
	n->hb_floor = 0;
	if (n->kind == FTD_NOTICE_PROBE_ACK) {
		n->hb_floor = ftd_get_be64(p + N(hb_floor));
		n->uid = 0;
	} else {
		n->uid = ftd_get_be32(p + N(uid));
		if (n->uid && !ftd_notice_is_proc(n->kind))
			return false;
	}
	n->subject = ftd_get_be32(p + N(subject));
	n->subject_incarnation = ftd_get_be32(p + N(subject_incarnation));
	n->origin = ftd_get_be32(p + N(origin));
	n->rail_seq = 0;
	n->nonce = 0;
	if (ftd_notice_is_iface(n->kind)) {
		n->rail_seq = ftd_get_be64(p + N(rail_seq));
		n->job = 0;
		n->rank = 0;
	} else if (ftd_notice_has_word(n->kind)) {
		n->nonce = ftd_get_be64(p + N(nonce));
		n->job = 0;
		n->rank = 0;
	} else {
		n->job = ftd_get_be32(p + N(job));
		n->rank = ftd_get_be32(p + N(rank));
	}
	n->regid = n->kind == FTD_NOTICE_PROBE_ACK ? 0 : ftd_get_be32(p + N(regid));
	return true;
}

u16 ftd_notices_check(const u8 *payload, u16 len, bool share)
{
	struct ftd_notice n;
	u16 i, cnt = len / FTD_WIRE_NOTICE_LEN;

	if (!len || len % FTD_WIRE_NOTICE_LEN || cnt > FTD_WIRE_NOTICES_MAX)
		return 0;
	for (i = 0; i < cnt; i++)
		if (!ftd_notice_decode(payload + i * FTD_WIRE_NOTICE_LEN, FTD_WIRE_NOTICE_LEN,
				       &n) ||
		    ((cnt > 1 || share) && !ftd_notice_batchable(n.kind)))
			return 0;
	return cnt;
}
