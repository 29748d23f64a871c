// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the frame codec of the protocol core (kmod/proto/wire.c).
 * Every datagram a node receives goes through ftd_wire_decode() and, for
 * notices, ftd_notice_decode() before anything authenticates it, so these
 * must be safe on any bytes at all. Checked on each input:
 *
 *  1. the input as a datagram: decode must not read past it; what decodes
 *     obeys the header rules (uapi <linux/ftdetect.h>), and re-encoding it
 *     gives the same bytes except the two slots the format lets change in
 *     flight (rx_ns, zero from a sender) and the MAC (recomputed). The MAC
 *     check is made on the exact-size buffer, so ASan sees any byte it reads
 *     beyond the datagram, and agrees with the MAC the encoder computes;
 *     the MAC covers every byte but the timestamp slots and itself;
 *  2. a decoded notice payload (and the input's last 32 bytes as one):
 *     the notice format has no slack, so what decodes re-encodes to exactly
 *     the same 32 bytes; a batch (several notices in one frame) is whole
 *     or nothing: ftd_notices_check() accepts it only if every notice
 *     decodes and none is a control kind beside others;
 *  3. the input as field values: encode, then decode, gives them back (the
 *     fields the kind carries), with a valid MAC.
 * A violation aborts, which libFuzzer reports as a crash with the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/wire.h"

/* The seeds in corpus/fuzz_wire/ are signed with this key (make-seeds.c). */
static const u8 key[FTD_KEY_LEN] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};

#define CHECK(cond) do {							\
	if (!(cond)) {								\
		fprintf(stderr, "fuzz_wire: %s:%d: check failed: %s\n",	\
			__FILE__, __LINE__, #cond);				\
		abort();							\
	}									\
} while (0)

/* Bytes consumed from the front of the input; zeros once it runs out. */
struct reader {
	const u8 *p;
	size_t n;
};

static u8 get8(struct reader *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

static u16 get16(struct reader *r)
{
	return (u16)(get8(r) << 8 | get8(r));
}

static u32 get32(struct reader *r)
{
	return (u32)get16(r) << 16 | get16(r);
}

static u64 get64(struct reader *r)
{
	return (u64)get32(r) << 32 | get32(r);
}

/* Field by field: struct padding must not decide the comparison. */
static bool notice_eq(const struct ftd_notice *a, const struct ftd_notice *b)
{
	return a->kind == b->kind && a->subject == b->subject &&
	       a->subject_incarnation == b->subject_incarnation && a->origin == b->origin &&
	       a->job == b->job && a->rank == b->rank && a->regid == b->regid &&
	       a->uid == b->uid && a->rail_seq == b->rail_seq && a->nonce == b->nonce &&
	       a->hb_floor == b->hb_floor;
}

/* The notice format has no slack: decode then encode is the identity. */
static void check_notice_bytes(const u8 *p, u16 len)
{
	struct ftd_notice n, again;
	u8 out[FTD_WIRE_NOTICE_LEN];
	bool ok;

	memset(&n, 0xa5, sizeof(n));	/* decode must set every field it reports */
	ok = ftd_notice_decode(p, len, &n);
	if (len != FTD_WIRE_NOTICE_LEN)
		CHECK(!ok);
	if (!ok)
		return;
	CHECK(n.kind > 0 && n.kind < __FTD_NOTICE_MAX);
	CHECK(!n.uid || ftd_notice_is_proc(n.kind));
	ftd_notice_encode(out, &n);
	CHECK(!memcmp(out, p, FTD_WIRE_NOTICE_LEN));
	memset(&again, 0x5a, sizeof(again));
	CHECK(ftd_notice_decode(out, sizeof(out), &again));
	CHECK(notice_eq(&n, &again));
}

/* A batch is accepted whole or not at all, by the rules of the uapi's "Batches". */
static void check_batch(const u8 *p, u16 len)
{
	u16 cnt = ftd_notices_check(p, len, false), i, n = len / FTD_WIRE_NOTICE_LEN;
	bool all_ok = len && len % FTD_WIRE_NOTICE_LEN == 0 && n <= FTD_WIRE_NOTICES_MAX;
	struct ftd_notice m;

	for (i = 0; all_ok && i < n; i++) {
		check_notice_bytes(p + i * FTD_WIRE_NOTICE_LEN, FTD_WIRE_NOTICE_LEN);
		all_ok = ftd_notice_decode(p + i * FTD_WIRE_NOTICE_LEN, FTD_WIRE_NOTICE_LEN, &m) &&
			 (n == 1 || ftd_notice_batchable(m.kind));
	}
	CHECK(cnt == (all_ok ? n : 0));
}

/*
 * The MAC covers every byte but the two timestamp slots, which the TC and
 * XDP programs rewrite in flight, and the MAC field itself.
 */
static void check_mac_coverage(const u8 *buf, size_t len)
{
	u64 mac = ftd_wire_mac(buf, len, key);
	size_t i;
	u8 *copy;

	copy = malloc(len);	/* exact size, for ASan */
	CHECK(copy);
	memcpy(copy, buf, len);
	for (i = FTD_WIRE_TX_OFF; i < FTD_WIRE_MAC_OFF + 8; i++)
		copy[i] ^= 0xff;
	CHECK(ftd_wire_mac(copy, len, key) == mac);
	memcpy(copy, buf, len);
	/* One covered byte, picked by the input: a different MAC. */
	i = (buf[len - 1] * 131u + buf[FTD_WIRE_TX_OFF]) % (len - 24);
	if (i >= FTD_WIRE_TX_OFF)
		i += 24;
	copy[i] ^= 1u << (buf[FTD_WIRE_RX_OFF] & 7);
	CHECK(ftd_wire_mac(copy, len, key) != mac);
	free(copy);
}

/* Part 1: the input as a received datagram, in its exact-size buffer. */
static void check_datagram(const u8 *buf, size_t len)
{
	struct ftd_frame f, g;
	enum ftd_wire_status st;
	u8 out[FTD_MAX_FRAME];
	size_t olen;
	bool mac_ok;

	/* Before anything else: a MAC check is the first thing a caller may do. */
	mac_ok = ftd_wire_mac_ok(buf, len, key);
	if (len < FTD_WIRE_HDR_LEN)
		CHECK(!mac_ok);
	else
		check_mac_coverage(buf, len);

	st = ftd_wire_decode(buf, len, &f);
	CHECK(st <= FTD_WIRE_BAD_PAYLOAD);
	if (st != FTD_WIRE_OK)
		return;

	CHECK(len >= FTD_WIRE_HDR_LEN && len <= FTD_MAX_FRAME);
	CHECK(f.length == len);
	CHECK(f.type > 0 && f.type < __FTD_FRAME_MAX);
	CHECK(!(f.flags & ~__FTD_WIRE_F_ALL));
	CHECK(f.payload == buf + FTD_WIRE_HDR_LEN);
	CHECK(f.payload_len == len - FTD_WIRE_HDR_LEN);
	if (f.type == FTD_FRAME_HEARTBEAT)
		CHECK(f.payload_len == 0);
	if (f.type == FTD_FRAME_NOTICE)
		CHECK(f.payload_len && f.payload_len % FTD_WIRE_NOTICE_LEN == 0 &&
		      f.payload_len / FTD_WIRE_NOTICE_LEN <= FTD_WIRE_NOTICES_MAX);

	olen = ftd_wire_encode(out, sizeof(out), &f, f.payload, f.payload_len, key);
	CHECK(olen == len);
	/* Covered by the MAC and so fixed in flight: identical. */
	CHECK(!memcmp(out, buf, FTD_WIRE_TX_OFF));
	CHECK(!memcmp(out + FTD_WIRE_MAC_OFF + 8, buf + FTD_WIRE_MAC_OFF + 8,
		      len - FTD_WIRE_MAC_OFF - 8));
	/* tx_ns goes out as given; rx_ns is zero from a sender. */
	CHECK(ftd_get_be64(out + FTD_WIRE_TX_OFF) == f.tx_ns);
	CHECK(ftd_get_be64(out + FTD_WIRE_RX_OFF) == 0);
	/* The timestamp slots are not covered: input and output share a MAC. */
	CHECK(ftd_get_be64(out + FTD_WIRE_MAC_OFF) == ftd_wire_mac(buf, len, key));
	CHECK(mac_ok == (ftd_get_be64(out + FTD_WIRE_MAC_OFF) == f.mac));
	CHECK(ftd_wire_mac_ok(out, olen, key));

	CHECK(ftd_wire_decode(out, olen, &g) == FTD_WIRE_OK);
	CHECK(g.type == f.type && g.rail == f.rail && g.flags == f.flags &&
	      g.length == f.length && g.cluster == f.cluster && g.sender == f.sender &&
	      g.incarnation == f.incarnation && g.seq == f.seq && g.tx_ns == f.tx_ns &&
	      g.rx_ns == 0 && g.receiver == f.receiver && g.payload_len == f.payload_len &&
	      g.span_end == f.span_end);

	if (f.type == FTD_FRAME_NOTICE)
		check_batch(f.payload, f.payload_len);
}

/* Only what the kind carries: the rest is zero on the wire and decoded so. */
static void canonical_notice(struct ftd_notice *n)
{
	if (ftd_notice_is_iface(n->kind)) {
		n->job = n->rank = 0;
		n->nonce = n->hb_floor = 0;
		n->uid = 0;
	} else if (ftd_notice_has_word(n->kind)) {
		n->job = n->rank = 0;
		n->rail_seq = 0;
		n->uid = 0;
		if (n->kind == FTD_NOTICE_PROBE_ACK)
			n->regid = 0;
		else
			n->hb_floor = 0;
	} else {
		n->rail_seq = n->nonce = n->hb_floor = 0;
		if (!ftd_notice_is_proc(n->kind))
			n->uid = 0;
	}
}

/* Part 3: the input as the fields of a frame to send. */
static void check_encode(const u8 *data, size_t size)
{
	struct reader r = { data, size };
	struct ftd_frame f = {}, g;
	struct ftd_notice n = {}, m;
	u8 payload[FTD_MAX_FRAME], out[FTD_MAX_FRAME + 64];
	enum ftd_wire_status st;
	u16 plen;
	size_t len, cap;
	u8 sel;

	sel = get8(&r);
	f.type = get8(&r);
	f.rail = get8(&r);
	f.flags = sel & 0x80 ? get8(&r) : 0;	/* mostly valid flags */
	f.cluster = get32(&r);
	f.sender = get32(&r);
	f.incarnation = get32(&r);
	f.seq = get64(&r);
	f.tx_ns = get64(&r);
	f.rx_ns = get64(&r);	/* must not reach the wire */
	f.receiver = get32(&r);
	f.span_end = get32(&r);	/* on the wire only for a share */
	/* Room to spare, or too little: a short buffer must be refused. */
	cap = sel & 0x40 ? get16(&r) % sizeof(out) : sizeof(out);

	if ((sel & 3) == 0 || f.type == FTD_FRAME_NOTICE) {
		/* A notice from the next bytes, made canonical for its kind. */
		n.kind = 1 + get8(&r) % (__FTD_NOTICE_MAX - 1);
		n.subject = get32(&r);
		n.subject_incarnation = get32(&r);
		n.origin = get32(&r);
		n.job = get32(&r);
		n.rank = get32(&r);
		n.regid = get32(&r);
		n.uid = get32(&r);
		n.rail_seq = get64(&r);
		n.nonce = get64(&r);
		n.hb_floor = get64(&r);
		canonical_notice(&n);
		ftd_notice_encode(payload, &n);
		CHECK(ftd_notice_decode(payload, FTD_WIRE_NOTICE_LEN, &m));
		CHECK(notice_eq(&n, &m));
		plen = FTD_WIRE_NOTICE_LEN;
	} else {
		/* Whatever is left, possibly more than a frame may carry. */
		u8 cut = (sel & 3) == 1 ? get8(&r) % 8 : 0;

		plen = (u16)(r.n < sizeof(payload) ? r.n : sizeof(payload));
		plen = (u16)(plen > cut ? plen - cut : 0);
		memcpy(payload, r.p, plen);
	}

	memset(out, 0xee, sizeof(out));
	len = ftd_wire_encode(out, cap, &f, payload, plen, key);
	if (FTD_WIRE_HDR_LEN + (size_t)plen > cap ||
	    FTD_WIRE_HDR_LEN + (size_t)plen > FTD_MAX_FRAME) {
		CHECK(len == 0);
		/* Refused: nothing written, not even past cap. */
		for (size_t i = 0; i < sizeof(out); i++)
			CHECK(out[i] == 0xee);
		return;
	}
	CHECK(len == FTD_WIRE_HDR_LEN + (size_t)plen);
	for (size_t i = len; i < sizeof(out); i++)
		CHECK(out[i] == 0xee);
	CHECK(ftd_wire_mac_ok(out, len, key));

	st = ftd_wire_decode(out, len, &g);
	if (f.flags & ~__FTD_WIRE_F_ALL) {
		CHECK(st == FTD_WIRE_BAD_FLAGS);
		return;
	}
	if (f.type == 0 || f.type >= __FTD_FRAME_MAX) {
		CHECK(st == FTD_WIRE_BAD_TYPE);
		return;
	}
	if ((f.flags & FTD_WIRE_F_SHARE) && f.type != FTD_FRAME_NOTICE) {
		CHECK(st == FTD_WIRE_BAD_FLAGS);
		return;
	}
	if ((f.type == FTD_FRAME_HEARTBEAT && plen != 0) ||
	    (f.type == FTD_FRAME_NOTICE && (!plen || plen % FTD_WIRE_NOTICE_LEN))) {
		CHECK(st == FTD_WIRE_BAD_PAYLOAD);
		return;
	}
	CHECK(st == FTD_WIRE_OK);
	CHECK(g.type == f.type && g.rail == f.rail && g.flags == f.flags &&
	      g.length == len && g.cluster == f.cluster && g.sender == f.sender &&
	      g.incarnation == f.incarnation && g.seq == f.seq && g.tx_ns == f.tx_ns &&
	      g.rx_ns == 0 && g.receiver == f.receiver && g.payload_len == plen &&
	      g.span_end == (f.flags & FTD_WIRE_F_SHARE ? f.span_end : 0) &&
	      g.mac == ftd_wire_mac(out, len, key));
	CHECK(!memcmp(g.payload, payload, plen));
	if (f.type == FTD_FRAME_NOTICE && plen == FTD_WIRE_NOTICE_LEN) {
		CHECK(ftd_notice_decode(g.payload, g.payload_len, &m));
		CHECK(notice_eq(&n, &m));
		CHECK(ftd_notices_check(g.payload, g.payload_len, false) == 1);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	check_datagram(data, size);
	/* The last 32 bytes, at the very end of the buffer, as a notice. */
	if (size >= FTD_WIRE_NOTICE_LEN)
		check_notice_bytes(data + size - FTD_WIRE_NOTICE_LEN, FTD_WIRE_NOTICE_LEN);
	check_notice_bytes(data, (u16)(size > 0xffff ? 0xffff : size));
	check_encode(data, size);
	return 0;
}
