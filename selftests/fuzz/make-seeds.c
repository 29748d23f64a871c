// SPDX-License-Identifier: GPL-2.0
/*
 * make-seeds DIR: write the seed corpus of the fuzz targets into
 * DIR/fuzz_wire/, DIR/fuzz_fresh/ and DIR/fuzz_config/ (`make fuzz-seeds`
 * rewrites selftests/fuzz/corpus/). Seeds give libFuzzer a start inside the
 * formats: valid frames made by the real encoder (a random start would spend
 * its first minutes discovering the magic and the length rules), operation
 * streams that reach a proof, and config files that parse.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "proto/wire.h"

/* fuzz_wire.c checks MACs with the same key. */
static const u8 key[FTD_KEY_LEN] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};

static const char *top;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "make-seeds: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void write_seed(const char *target, const char *name, const void *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, target);
	if (mkdir(path, 0755) && errno != EEXIST)
		die("mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/%s/%s", top, target, name);
	f = fopen(path, "w");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die("write %s: %s", path, strerror(errno));
}

/* ---------------------------------------------------------------- fuzz_wire */

/*
 * A frame of type carrying the cnt notices n[] (none: a heartbeat); a
 * share of a spanning broadcast ending before span_end if that is not 0.
 */
static void frame_seed_span(const char *name, u8 type, const struct ftd_notice *n, u16 cnt,
			    u64 rx_ns, u32 span_end)
{
	struct ftd_frame f = {
		.type = type, .rail = 1, .cluster = 42, .sender = 3, .incarnation = 1700000000,
		.seq = type == FTD_FRAME_HEARTBEAT ? (5ULL << 32) + 17 : 9,
		.tx_ns = 1234567890123ULL, .receiver = 1,
		.flags = span_end ? FTD_WIRE_F_SHARE : 0, .span_end = span_end,
	};
	u8 payload[FTD_WIRE_NOTICES_MAX * FTD_WIRE_NOTICE_LEN], buf[FTD_MAX_FRAME];
	size_t len;
	u16 i;

	for (i = 0; i < cnt; i++)
		ftd_notice_encode(payload + i * FTD_WIRE_NOTICE_LEN, &n[i]);
	len = ftd_wire_encode(buf, sizeof(buf), &f, payload, cnt * FTD_WIRE_NOTICE_LEN, key);
	if (!len)
		die("encode %s", name);
	/* As the receiver's XDP program leaves it: outside the MAC. */
	ftd_put_be64(buf + FTD_WIRE_RX_OFF, rx_ns);
	write_seed("fuzz_wire", name, buf, len);
}

static void frame_seed_of(const char *name, u8 type, const struct ftd_notice *n, u16 cnt,
			  u64 rx_ns)
{
	frame_seed_span(name, type, n, cnt, rx_ns, 0);
}

static void frame_seed(const char *name, u8 type, const struct ftd_notice *n, u64 rx_ns)
{
	frame_seed_of(name, type, n, n ? 1 : 0, rx_ns);
}

static void wire_seeds(void)
{
	struct ftd_notice n = { .subject = 5, .subject_incarnation = 1700000001, .origin = 3 };

	frame_seed("heartbeat", FTD_FRAME_HEARTBEAT, NULL, 0);
	frame_seed("heartbeat-rx-stamped", FTD_FRAME_HEARTBEAT, NULL, 987654321);
	n.kind = FTD_NOTICE_DEAD;
	frame_seed("notice-dead", FTD_FRAME_NOTICE, &n, 0);
	n.kind = FTD_NOTICE_PROC_REG;
	n.job = 77;
	n.rank = 12;
	n.regid = 4;
	n.uid = 1000;
	frame_seed("notice-proc-reg", FTD_FRAME_NOTICE, &n, 0);
	n.kind = FTD_NOTICE_PROC_DEAD;
	n.flags = FTD_NOTICE_F_VIEW;	/* a view's copy of an end */
	frame_seed("notice-proc-dead-view", FTD_FRAME_NOTICE, &n, 0);
	n = (struct ftd_notice){ .kind = FTD_NOTICE_IFACE_DEAD, .subject = 5, .origin = 3,
				 .rail_seq = (2ULL << 32) + 40, .regid = 1 };
	frame_seed("notice-iface-dead", FTD_FRAME_NOTICE, &n, 0);
	n = (struct ftd_notice){ .kind = FTD_NOTICE_PROBE, .subject = 3, .origin = 3,
				 .nonce = 0x0123456789abcdefULL };
	frame_seed("notice-probe", FTD_FRAME_NOTICE, &n, 0);
	n.kind = FTD_NOTICE_PROBE_ACK;
	n.hb_floor = 6ULL << 32;
	frame_seed("notice-probe-ack", FTD_FRAME_NOTICE, &n, 0);
	/* The other answer: the prober's incarnation as held, in regid. */
	n = (struct ftd_notice){ .kind = FTD_NOTICE_OUTDATED, .subject = 3, .origin = 3,
				 .nonce = 0x0123456789abcdefULL, .regid = 1700000100 };
	frame_seed("notice-outdated", FTD_FRAME_NOTICE, &n, 0);
	n = (struct ftd_notice){ .kind = FTD_NOTICE_DIGEST, .subject = 3, .origin = 3,
				 .nonce = 0xfedcba9876543210ULL, .regid = 16 };
	frame_seed("notice-digest", FTD_FRAME_NOTICE, &n, 0);
	n.flags = FTD_NOTICE_F_CONTACT;	/* a first contact's */
	frame_seed("notice-digest-contact", FTD_FRAME_NOTICE, &n, 0);
	n.flags = FTD_NOTICE_F_CONTACT | FTD_NOTICE_F_ANSWER |	/* and its answer, */
		  FTD_NOTICE_F_CAUGHT_UP;			/* from a caught-up node */
	frame_seed("notice-digest-contact-answer", FTD_FRAME_NOTICE, &n, 0);
	/* A batch: a rack's deaths, then a rank of one of them, in one frame. */
	{
		struct ftd_notice run[4];
		u16 i;

		for (i = 0; i < 3; i++)
			run[i] = (struct ftd_notice){ .kind = FTD_NOTICE_DEAD, .subject = 5 + i,
						      .subject_incarnation = 1700000001,
						      .origin = 3 };
		run[3] = (struct ftd_notice){ .kind = FTD_NOTICE_PROC_DEAD, .subject = 9,
					      .subject_incarnation = 1700000001, .origin = 9,
					      .job = 77, .rank = 3, .regid = 2, .uid = 1000 };
		frame_seed_of("notice-batch", FTD_FRAME_NOTICE, run, 4, 0);
		/* The same as a share of a spanning broadcast, and its acknowledgement. */
		frame_seed_span("notice-share", FTD_FRAME_NOTICE, run, 4, 0, 12);
		n = (struct ftd_notice){ .kind = FTD_NOTICE_SHARE_ACK, .subject = 3, .origin = 3,
					 .subject_incarnation = 1700000000, .nonce = 9 };
		frame_seed("notice-share-ack", FTD_FRAME_NOTICE, &n, 0);
	}
}

/* --------------------------------------------------------------- fuzz_fresh */

/* The operation encoding of fuzz_fresh.c. */
enum { HB, NOTICE, ACK, PROBE, PROBE_DUE, CLOCK, RESET, REPLAY };
#define SEQ_SMALL	(1 << 3)	/* seq: one byte */
#define SEQ_EPOCH	(2 << 3)	/* seq: epoch byte, count u16 */
#define ACK_ECHO	0x20		/* PROBE_ACK: echo the outstanding nonce */
#define HB_FLOOR_SMALL	(1 << 2)	/* PROBE_ACK's second byte: hb_floor, one byte */
#define LONG_CLOCK	8		/* clock: u32 * 1000 ns; reset: do it */
#define TO_SELF		0
#define TO_OTHER	2
#define INC(i)		((i) << 2)	/* fuzz_fresh.c's incs[i] */
#define RAIL(r)		((r) << 6)
#define PING		8		/* PROBE_DUE: ping_due (else ask_due, and a wait byte) */
#define ASK_WAIT	4		/* ask_due's wait: 4 * 50 ns */

struct ops {
	u8 b[512];
	size_t n;
};

static void put(struct ops *o, int nr, ...)
{
	va_list ap;

	va_start(ap, nr);
	while (nr--) {
		if (o->n == sizeof(o->b))
			die("ops overflow");
		o->b[o->n++] = (u8)va_arg(ap, int);
	}
	va_end(ap);
}

static void fresh_seeds(void)
{
	struct ops o;

	/*
	 * Unproven: everything refused; PROBE, the answer proves incarnation
	 * 5 with floors; heartbeats and notices above them pass; replays not.
	 */
	o = (struct ops){};
	put(&o, 2, 0, 2);				/* any nonces, every = 100 */
	put(&o, 4, HB | SEQ_SMALL, TO_SELF | INC(5), 0, 3);
	put(&o, 10, PROBE_DUE, 0, 0, 0, 0, 0, 0, 0, 0x2a, ASK_WAIT);
	put(&o, 5, ACK | SEQ_SMALL | ACK_ECHO, TO_SELF | INC(5), HB_FLOOR_SMALL, 10, 20);
	put(&o, 4, HB | SEQ_SMALL, TO_SELF | INC(5) | RAIL(1), 0, 21);
	put(&o, 5, NOTICE | SEQ_SMALL, TO_SELF | INC(5), 2, 11, 0);
	put(&o, 5, NOTICE | SEQ_SMALL, TO_SELF | INC(5) | RAIL(2), 2, 9, 0);
	put(&o, 2, REPLAY, 3);
	put(&o, 2, REPLAY, 4);
	put(&o, 4, HB | SEQ_SMALL, TO_OTHER | INC(5), 0, 30);
	put(&o, 4, HB | SEQ_SMALL, TO_SELF | INC(4), 0, 30);
	put(&o, 4, HB | SEQ_SMALL, TO_SELF | INC(6), 0, 1);
	write_seed("fuzz_fresh", "prove-then-replay", o.b, o.n);

	/*
	 * Honest member, receiver restarts twice: the floors of each new
	 * proof cover everything accepted before.
	 */
	o = (struct ops){};
	put(&o, 2, 1, 1);				/* honest, every = 50 */
	put(&o, 2, PROBE_DUE, ASK_WAIT);
	put(&o, 6, ACK | SEQ_SMALL, TO_SELF | INC(9), 0, 1, 0, 0);
	put(&o, 5, NOTICE | SEQ_SMALL, TO_SELF | INC(9), 1, 2, 0);
	put(&o, 5, NOTICE | SEQ_SMALL, TO_SELF | INC(9) | RAIL(1), 1, 3, 0);
	put(&o, 6, HB | SEQ_EPOCH, TO_SELF | INC(9), 0, 1, 0, 1);
	put(&o, 1, RESET | LONG_CLOCK);
	put(&o, 2, REPLAY, 1);
	put(&o, 2, CLOCK, 200);
	put(&o, 2, PROBE_DUE, ASK_WAIT);
	put(&o, 6, ACK | SEQ_SMALL, TO_SELF | INC(9), 0, 1, 1, 1);
	put(&o, 2, REPLAY, 1);
	put(&o, 2, REPLAY, 2);
	put(&o, 2, REPLAY, 3);
	put(&o, 5, NOTICE | SEQ_SMALL, TO_SELF | INC(9), 1, 9, 0);
	put(&o, 1, RESET | LONG_CLOCK);
	put(&o, 2, PROBE_DUE, ASK_WAIT);
	put(&o, 6, ACK | SEQ_SMALL, TO_SELF | INC(10), 0, 1, 0, 0);
	put(&o, 2, REPLAY, 6);
	write_seed("fuzz_fresh", "honest-restarts", o.b, o.n);

	/* PROBEs: answered while unproven, rate-limited, then windowed. */
	o = (struct ops){};
	put(&o, 2, 0, 4);				/* every = 200 */
	put(&o, 12, PROBE | SEQ_SMALL, TO_SELF | INC(3), 0, 1, 0, 0, 0, 0, 0, 0, 0, 7);
	put(&o, 12, PROBE | SEQ_SMALL, TO_SELF | INC(3), 0, 2, 0, 0, 0, 0, 0, 0, 0, 8);
	put(&o, 5, CLOCK | LONG_CLOCK, 0, 0, 0, 1);
	put(&o, 2, REPLAY, 0);
	put(&o, 10, PROBE_DUE, 0, 0, 0, 0, 0, 0, 0, 5, ASK_WAIT);
	put(&o, 5, ACK | SEQ_SMALL | ACK_ECHO, TO_SELF | INC(3), 0, 3, 0);
	put(&o, 12, PROBE | SEQ_SMALL, TO_SELF | INC(3), 0, 4, 0, 0, 0, 0, 0, 0, 0, 9);
	put(&o, 2, REPLAY, 4);
	put(&o, 12, PROBE | SEQ_SMALL, TO_SELF | INC(2), 0, 5, 0, 0, 0, 0, 0, 0, 0, 9);
	put(&o, 12, PROBE | SEQ_SMALL, TO_OTHER | INC(3), 0, 6, 0, 0, 0, 0, 0, 0, 0, 9);
	write_seed("fuzz_fresh", "probes", o.b, o.n);

	/* A notice window sliding over a few thousand seqs, on two rails. */
	o = (struct ops){};
	put(&o, 2, 0, 0);
	put(&o, 10, PROBE_DUE, 0, 0, 0, 0, 0, 0, 0, 1, ASK_WAIT);
	put(&o, 5, ACK | SEQ_SMALL | ACK_ECHO, TO_SELF | INC(1), 0, 1, 0);
	for (int i = 0; i < 40; i++)
		put(&o, 5, NOTICE, TO_SELF | INC(1) | RAIL(i >> 1 & 1), i, i % 4 == 3 ? -30 : 100, 0);
	put(&o, 2, REPLAY, 5);
	put(&o, 2, REPLAY, 30);
	write_seed("fuzz_fresh", "window", o.b, o.n);

	/*
	 * Asked again before the answer came: the same nonce, and the answer
	 * to either copy proves; answered, the next ask draws a new nonce;
	 * a ping always does.
	 */
	o = (struct ops){};
	put(&o, 2, 0, 1);				/* every = 50 */
	put(&o, 10, PROBE_DUE, 0, 0, 0, 0, 0, 0, 0, 0x2a, 10);	/* wait 500 */
	put(&o, 2, CLOCK, 60);
	put(&o, 10, PROBE_DUE, 0, 0, 0, 0, 0, 0, 0, 0x2b, 10);
	put(&o, 5, ACK | SEQ_SMALL | ACK_ECHO, TO_SELF | INC(4), 0, 1, 0);
	put(&o, 2, CLOCK, 60);
	put(&o, 10, PROBE_DUE, 0, 0, 0, 0, 0, 0, 0, 0x2c, 10);
	put(&o, 2, CLOCK, 60);
	put(&o, 9, PROBE_DUE | PING, 0, 0, 0, 0, 0, 0, 0, 0x2d);
	put(&o, 5, ACK | SEQ_SMALL | ACK_ECHO, TO_SELF | INC(4), 0, 2, 0);
	write_seed("fuzz_fresh", "ask-again", o.b, o.n);
}

/* -------------------------------------------------------------- fuzz_config */

static void text_seed(const char *name, const char *text)
{
	write_seed("fuzz_config", name, text, strlen(text));
}

static void config_seeds(void)
{
	text_seed("minimal", "[cluster]\nid = 1\n[nodes]\n1 192.0.2.1\n2 192.0.2.2\n");
	text_seed("full",
		  "# a cluster\n"
		  "[cluster]\n"
		  "id = 42\n"
		  "port = 7062          # not the default\n"
		  "period = 1.5ms\n"
		  "timeout = 10ms\n"
		  "key = 00112233445566778899AABBCCDDEEFF\n"
		  "node = 2\n"
		  "observers = 3\n"
		  "quorum = 2\n"
		  "xdp = auto\n"
		  "tc = on\n"
		  "\n"
		  "[nodes]\n"
		  "# id  address [address...]\n"
		  "1 192.0.2.1 198.51.100.1\n"
		  "2 192.0.2.2 198.51.100.2\n"
		  "3 192.0.2.3 198.51.100.3\n"
		  "4 192.0.2.4 198.51.100.4 203.0.113.4 2001:db8::4\n");
	text_seed("whitespace-crlf",
		  "   # leading comment\r\n"
		  "\r\n"
		  "\t[ cluster ]   # section with blanks\r\n"
		  "id=7\r\n"
		  "  period\t=\t200us  \r\n"
		  "timeout =400us#no space before the comment\r\n"
		  "[nodes]\r\n"
		  "\t10\t192.0.2.10 \t 198.51.100.10\t\r\n"
		  "11   192.0.2.11   # trailing comment");
	text_seed("ipv6-limits",
		  "[cluster]\nid = 4294967295\nport = 65535\nperiod = 100us\ntimeout = 200us\n"
		  "node = 4294967294\nxdp = generic\ntc = off\n"
		  "[nodes]\n0 2001:db8::1 fd00::1\n4294967294 2001:db8::2 fd00::2\n");
	text_seed("sections-reopened",
		  "[nodes]\n1 192.0.2.1\n[cluster]\nid = 3\nperiod = 10s\ntimeout = 600s\n"
		  "[nodes]\n2 192.0.2.2\n");
	/* Errors found late: after the whole file has been read. */
	text_seed("duplicate-address",
		  "[cluster]\nid = 1\n[nodes]\n1 192.0.2.1\n2 192.0.2.2 198.51.100.9\n"
		  "3 192.0.2.3\n4 192.0.2.4 198.51.100.9\n");
	text_seed("rail-families",
		  "[cluster]\nid = 1\n[nodes]\n1 192.0.2.1 2001:db8::1\n2 192.0.2.2 198.51.100.2\n");
	text_seed("duplicate-id-quorum",
		  "[cluster]\nid = 1\nobservers = 2\nquorum = 3\n[nodes]\n5 192.0.2.1\n5 192.0.2.2\n");
	/* IPv6 forms the parser refuses: a start the mutator rarely finds. */
	text_seed("v4-mapped",
		  "[cluster]\nid = 1\n[nodes]\n1 2001:db8::1\n2 ::ffff:192.0.2.2\n");
	text_seed("link-local",
		  "[cluster]\nid = 1\ntimeout = 999999ns\n[nodes]\n1 fd00::1\n2 fe80::2\n");
}

/*
 * fuzz_sim: eight header bytes (nodes - 3, k - 1, quorum - 1, scenario |
 * cut mode << 2 | layout << 3, length or cut, first node, seed), then a
 * fate byte per frame: < 32 lost, else that many x 50 us late (+ 32).
 */
static void sim_seed(const char *name, const u8 *h, size_t fates, u8 fate)
{
	u8 buf[8 + 512];

	memcpy(buf, h, 8);
	memset(buf + 8, fate, fates);
	write_seed("fuzz_sim", name, buf, 8 + fates);
}

static void sim_seeds(void)
{
	static const u8 single[8] = { 13, 1, 0, 0, 0, 4, 1, 0 };
	static const u8 rack[8] = { 29, 1, 0, 1, 4, 20, 1, 0 };
	static const u8 island[8] = { 31, 1, 1, 2 | 1 << 2, 5, 8, 2, 0 };
	static const u8 scattered[8] = { 21, 2, 0, 2 | 1 << 3, 6, 255, 3, 0 };
	static const u8 rank[8] = { 5, 1, 0, 3, 0, 2, 1, 0 };
	static const u8 quorum[8] = { 9, 3, 3, 1, 3, 6, 4, 0 };
	static const u8 lossy[8] = { 17, 1, 0, 0, 0, 9, 5, 0 };
	size_t i;
	u8 buf[8 + 400];

	sim_seed("single", single, 0, 0);
	sim_seed("rack-of-five", rack, 0, 0);
	sim_seed("island", island, 0, 0);
	sim_seed("scattered-cut", scattered, 0, 0);
	sim_seed("rank-crash", rank, 0, 0);
	sim_seed("quorum-of-k", quorum, 0, 0);
	sim_seed("late-frames", single, 300, 250);
	/* Every fifth frame lost for a while: the repair's case. */
	memcpy(buf, lossy, 8);
	for (i = 0; i < 400; i++)
		buf[8 + i] = i % 5 ? 40 : 0;
	write_seed("fuzz_sim", "every-fifth-lost", buf, sizeof(buf));
}

int main(int argc, char **argv)
{
	if (argc != 2)
		die("usage: make-seeds DIR");
	top = argv[1];
	if (mkdir(top, 0755) && errno != EEXIST)
		die("mkdir %s: %s", top, strerror(errno));
	wire_seeds();
	fresh_seeds();
	config_seeds();
	sim_seeds();
	return 0;
}
