// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: a fuzzer of the module's two user interfaces, the generic
 * netlink family "ftdetect" and /dev/ftdetect, checking that bad input gets
 * a clean, documented error, and that nothing it must refuse succeeds:
 *
 *   ftd-nlfuzz [-n ITERATIONS] [-s SEED] [-t SECONDS] [-a] [-m nl|dev|all]
 *              [-i CASE] [-T REPLY_TIMEOUT] [-v]
 *   ftd-nlfuzz -R
 *
 * It runs ITERATIONS cases (default 5000; unlimited with -t alone), or
 * until SECONDS have passed; -m limits it to one interface.
 * Every case is generated from its own PRNG state, derived from SEED and
 * the case number, so that "-s SEED -i CASE" replays exactly one case (with
 * -v: printed in full). The seed is printed first.
 *
 * netlink: raw messages to the family (its id from genl_ctrl_resolve):
 * random command numbers (unknown ones included), flags (NLM_F_DUMP or not,
 * reserved bits, no NLM_F_REQUEST), genl header fields, and attribute
 * streams generated from the family's attribute tree with mutations:
 * out-of-range and zero types, wrong sizes for fixed-size attributes,
 * garbage nests, NLA_F_NESTED where it is not due (or missing), truncated,
 * zero, oversized and huge nla_len, deep nesting, duplicates, huge
 * attributes, truncated messages, two messages in one datagram. Every
 * reply must be well formed (attribute sizes per the uapi header, the
 * command echoed, NLM_F_MULTI for dumps only, extack TLVs inside the
 * request) and end in an ACK, an NLMSG_ERROR with a negative errno or an
 * NLMSG_DONE within REPLY_TIMEOUT seconds (default 5); where the errno is
 * fixed by the genetlink core or the header (no REQUEST flag: ACK; short
 * header, reserved bits: EINVAL; unknown command or missing dump: EOPNOTSUPP;
 * no CAP_NET_ADMIN for a state-changing command: EPERM; both, for a dump of
 * one: EPERM up to 6.1, EOPNOTSUPP since 6.2) it must be that one.
 *
 * Without -a, nothing it sends may change the instance: a state-changing
 * command (SET_CONFIG, DOWN, ADD_NODE, DEL_NODE) sent with CAP_NET_ADMIN
 * starts with a poison attribute that strict validation must refuse
 * (success is a violation), and without CAP_NET_ADMIN it is sent as
 * generated and must get EPERM. With -a (for a namespace of its own only)
 * such commands are sent as generated, with mostly valid values (periods
 * of at least 10 ms, so that a running instance stays cheap), and
 * FTD_IOC_REGISTER may succeed; then a request that fails (or is not
 * processed) must leave GET_CONFIG and the node table (ids, addresses) as
 * they were, and now and then a node dump of several parts runs while a
 * second socket adds and removes nodes (the ids must still increase).
 *
 * /dev/ftdetect: ioctl with random numbers (the family's magic and others,
 * random _IOC directions and sizes; the VFS's own generic ioctls are left
 * out), the real numbers with wrong sizes, and NULL, (void *)1, unmapped,
 * half-mapped, read-only, kernel and non-canonical pointers; read() with
 * short buffers and bad pointers, and a blocking read interrupted by a
 * signal; write(), pread/pwrite, lseek (which must all fail); mmap with
 * offsets, lengths, protections and flags (PROT_WRITE must fail, and so
 * must a later mprotect to write or an mremap that grows); poll. Each call
 * must return the errno its case defines (ENOTTY for unknown ioctls, EINVAL
 * for wrong sizes, EFAULT for bad pointers, ...). Records read must be
 * valid and, per file, in sequence (none lost silently, none repeated, as a
 * failed copy to user space puts a record back).
 *
 * -R runs fixed cases instead, each a state (an instance up with nodes 1
 * and 2) and a SET_CONFIG that must fail and change nothing, in the current
 * namespace (so: one of its own), and reports them as TAP lines.
 *
 * Output: TAP 13: "# " lines (the seed, each violation with its case
 * number and the message in hex, the errno histograms), then one "ok" or
 * "not ok" line. Exit status 0, 1 on any violation, 2 on a usage or setup
 * error, 3 when a case hangs (a watchdog prints it after 20 s).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include <linux/ftdetect.h>

#define DEV "/dev/ftdetect"
#define MAXMSG 65536		/* largest request generated */
#define EV_SIZE sizeof(struct ftd_event)

/* ------------------------------------------------------------------ options, state */

static uint64_t opt_seed;
static unsigned long opt_iterations = 5000;
static double opt_seconds;
static bool opt_admin;
static bool opt_verbose;
static bool opt_repro;
static long opt_case = -1;
static int opt_reply_timeout = 5;
static bool do_nl = true, do_dev = true;

static bool privileged;		/* CAP_NET_ADMIN */
static unsigned long cur_case;
static const char *cur_what = "";
static volatile unsigned long progress;
static unsigned long violations;

static void usage(void)
{
	fprintf(stderr, "usage: ftd-nlfuzz [-n ITERATIONS] [-s SEED] [-t SECONDS] [-a] [-m nl|dev|all]\n"
			"                  [-i CASE] [-T REPLY_TIMEOUT] [-v]\n"
			"       ftd-nlfuzz -R    (known cases; changes the instance)\n");
	exit(2);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void hexdump(const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i, max = len > 256 ? 256 : len;

	for (i = 0; i < max; i++) {
		if (i % 32 == 0)
			printf("%s#     %04zx:", i ? "\n" : "", i);
		printf(" %02x", b[i]);
	}
	if (max)
		printf("%s\n", len > max ? " ..." : "");
}

__attribute__((format(printf, 1, 2)))
static void violation(const char *fmt, ...)
{
	va_list ap;

	violations++;
	if (violations > 50)
		return;
	printf("# VIOLATION case %lu (-s %" PRIu64 " -i %lu%s): ", cur_case, opt_seed, cur_case,
	       opt_admin ? " -a" : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

__attribute__((format(printf, 1, 2)))
static void verbose(const char *fmt, ...)
{
	va_list ap;

	if (!opt_verbose)
		return;
	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ------------------------------------------------------------------ PRNG */

static uint64_t rs;

static uint64_t rnd64(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

static bool chance(unsigned int pct)
{
	return rnd(100) < pct;
}

static void rnd_bytes(void *p, size_t n)
{
	uint8_t *b = p;

	while (n--)
		*b++ = (uint8_t)rnd64();
}

static void seed_case(unsigned long c)
{
	rs = opt_seed ^ ((uint64_t)c * 0xd1b54a32d192ed03ULL);
	rnd64();
}

/* ------------------------------------------------------------------ histograms */

#define MAXERR 4096
struct hist {
	const char *name;
	unsigned long ok;
	unsigned long err[MAXERR];
	unsigned long calls;
};

static void hist_add(struct hist *h, int err)
{
	h->calls++;
	if (!err)
		h->ok++;
	else if (err > 0 && err < MAXERR)
		h->err[err]++;
}

static void hist_print(const struct hist *h)
{
	int e;

	if (!h->calls)
		return;
	printf("# %-8s %6lu calls: ok %lu", h->name, h->calls, h->ok);
	for (e = 1; e < MAXERR; e++)
		if (h->err[e])
			printf(", %s %lu", strerrorname_np(e) ? strerrorname_np(e) : "?", h->err[e]);
	printf("\n");
}

static const char *ename(int e)
{
	static char buf[16];
	const char *n = e > 0 ? strerrorname_np(e) : NULL;

	if (!e)
		return "success";
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/*
 * ------------------------------------------------------------------ the family's attribute tree
 *
 * Each level's table has an entry for every attribute up to its MAX, so
 * that def_of() never reads past one (an attribute left out is K_UNKNOWN:
 * any length).
 */

enum kind { K_UNKNOWN, K_PAD, K_U8, K_U16, K_U32, K_BE32, K_U64, K_IN6, K_KEY, K_HIST, K_NEST };
/* By the type names of the uapi's attribute lists (FTDETECT_NODE_SCALARS). */
#define KIND_u8		K_U8
#define KIND_u32	K_U32
#define KIND_u64	K_U64
enum level { L_TOP, L_NODE, L_ADDRS, L_ADDR, L_DELAY, L_STATS, L_EVENT, L_COUNT };

struct adef {
	uint8_t kind;
	uint8_t nest;		/* K_NEST: the level inside */
	uint8_t value;		/* a hint for interesting values, see V_* */
};

enum { V_ANY, V_NODE, V_PORT, V_PERIOD, V_TIMEOUT, V_UP, V_OBS };

static const struct adef top_defs[FTDETECT_A_MAX + 1] = {
	[FTDETECT_A_PAD] = { K_PAD },
	[FTDETECT_A_CLUSTER_ID] = { K_U32 },
	[FTDETECT_A_LOCAL_NODE] = { K_U32, 0, V_NODE },
	[FTDETECT_A_PORT] = { K_U16, 0, V_PORT },
	[FTDETECT_A_PERIOD_NS] = { K_U64, 0, V_PERIOD },
	[FTDETECT_A_TIMEOUT_NS] = { K_U64, 0, V_TIMEOUT },
	[FTDETECT_A_KEY] = { K_KEY },
	[FTDETECT_A_UP] = { K_U8, 0, V_UP },
	[FTDETECT_A_INCARNATION] = { K_U32 },
	[FTDETECT_A_NODE] = { K_NEST, L_NODE },
	[FTDETECT_A_STATS] = { K_NEST, L_STATS },
	[FTDETECT_A_EVENT] = { K_NEST, L_EVENT },
	[FTDETECT_A_OBSERVERS] = { K_U8, 0, V_OBS },
	[FTDETECT_A_QUORUM] = { K_U8, 0, V_OBS },
};

static const struct adef node_defs[FTDETECT_A_NODE_MAX + 1] = {
	[FTDETECT_A_NODE_PAD] = { K_PAD },
	[FTDETECT_A_NODE_ID] = { K_U32, 0, V_NODE },
	[FTDETECT_A_NODE_ADDRS] = { K_NEST, L_ADDRS },
#define NODE_DEF(attr, name, type)	[FTDETECT_A_NODE_##attr] = { KIND_##type },
	FTDETECT_NODE_SCALARS(NODE_DEF)
#undef NODE_DEF
};

static const struct adef addrs_defs[FTDETECT_A_ADDRS_MAX + 1] = {
	[FTDETECT_A_ADDR] = { K_NEST, L_ADDR },
};

static const struct adef addr_defs[FTDETECT_A_ADDR_MAX + 1] = {
	[FTDETECT_A_ADDR_PAD] = { K_PAD },
	[FTDETECT_A_ADDR_INET] = { K_BE32 },
	[FTDETECT_A_ADDR_INET6] = { K_IN6 },
#define ADDR_DEF(attr, name, type)	[FTDETECT_A_ADDR_##attr] = { KIND_##type },
	FTDETECT_ADDR_SCALARS(ADDR_DEF)
#undef ADDR_DEF
	[FTDETECT_A_ADDR_DELAY] = { K_NEST, L_DELAY },
};

static const struct adef delay_defs[FTDETECT_A_DELAY_MAX + 1] = {
	[FTDETECT_A_DELAY_PAD] = { K_PAD },
	[FTDETECT_A_DELAY_SAMPLES] = { K_U64 },
	[FTDETECT_A_DELAY_MIN_NS] = { K_U64 },
	[FTDETECT_A_DELAY_MEAN_NS] = { K_U64 },
	[FTDETECT_A_DELAY_MAX_NS] = { K_U64 },
	[FTDETECT_A_DELAY_HIST] = { K_HIST },
};

static const struct adef stats_defs[FTDETECT_A_STATS_MAX + 1] = {
	[FTDETECT_A_STATS_PAD] = { K_PAD },
#define STATS_DEF(attr, name, kind)	[FTDETECT_A_STATS_##attr] = { K_U64 },
	FTDETECT_STATS_U64(STATS_DEF)
#undef STATS_DEF
	/* EVENTS_BY_TYPE, DECLARED_HIST, TOLD_HIST: arrays, K_UNKNOWN (any length) */
	[FTDETECT_A_STATS_DECLARED_SUM_NS] = { K_U64 },
	[FTDETECT_A_STATS_TOLD_SUM_NS] = { K_U64 },
};

static const struct adef event_defs[FTDETECT_A_EVENT_MAX + 1] = {
	[FTDETECT_A_EVENT_PAD] = { K_PAD },
	[FTDETECT_A_EVENT_TYPE] = { K_U16 },
	[FTDETECT_A_EVENT_SEQ] = { K_U64 },
	[FTDETECT_A_EVENT_TIME_NS] = { K_U64 },
	[FTDETECT_A_EVENT_MONO_NS] = { K_U64 },
	[FTDETECT_A_EVENT_NODE ... FTDETECT_A_EVENT_UID] = { K_U32 },
};

static const struct {
	const char *name;
	const struct adef *defs;
	uint16_t max;
} levels[L_COUNT] = {
	[L_TOP] = { "top", top_defs, FTDETECT_A_MAX },
	[L_NODE] = { "node", node_defs, FTDETECT_A_NODE_MAX },
	[L_ADDRS] = { "addrs", addrs_defs, FTDETECT_A_ADDRS_MAX },
	[L_ADDR] = { "addr", addr_defs, FTDETECT_A_ADDR_MAX },
	[L_DELAY] = { "delay", delay_defs, FTDETECT_A_DELAY_MAX },
	[L_STATS] = { "stats", stats_defs, FTDETECT_A_STATS_MAX },
	[L_EVENT] = { "event", event_defs, FTDETECT_A_EVENT_MAX },
};

static struct adef def_of(int level, uint16_t type)
{
	struct adef none = { K_UNKNOWN, 0, 0 };

	if (type == 0 || type > levels[level].max)
		return none;
	return levels[level].defs[type];
}

static int kind_len(int kind)
{
	switch (kind) {
	case K_U8: return 1;
	case K_U16: return 2;
	case K_U32: case K_BE32: return 4;
	case K_U64: return 8;
	case K_IN6: case K_KEY: return 16;
	case K_HIST: return 8 * FTD_DELAY_BUCKETS;
	}
	return -1;
}

/* ------------------------------------------------------------------ message building */

struct buf {
	uint8_t p[MAXMSG + 4096];
	size_t len;
};

static bool room(const struct buf *b, size_t n)
{
	return b->len + n + 8 <= MAXMSG;
}

static void put(struct buf *b, const void *p, size_t n)
{
	if (!room(b, n))
		return;
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void pad4(struct buf *b)
{
	while (b->len % 4)
		b->p[b->len++] = 0;
}

static size_t attr_begin(struct buf *b, uint16_t type)
{
	struct nlattr nla = { .nla_len = NLA_HDRLEN, .nla_type = type };
	size_t off = b->len;

	put(b, &nla, sizeof(nla));
	return off;
}

/* The attribute at off ends here; pads to 4 (nla_len stays unpadded). */
static void attr_end(struct buf *b, size_t off)
{
	struct nlattr *nla = (struct nlattr *)(b->p + off);
	size_t len = b->len - off;

	nla->nla_len = len > 0xffff ? 0xffff : (uint16_t)len;
	pad4(b);
}

static void attr_put(struct buf *b, uint16_t type, const void *p, size_t n)
{
	size_t off;

	if (!room(b, NLA_HDRLEN + n))
		return;
	off = attr_begin(b, type);
	put(b, p, n);
	attr_end(b, off);
}

static uint64_t pick(const uint64_t *v, size_t n)
{
	return v[rnd((uint32_t)n)];
}
#define PICK(...) ({ const uint64_t v_[] = { __VA_ARGS__ }; pick(v_, sizeof(v_) / sizeof(v_[0])); })

static uint64_t value(int kind, int hint)
{
	if (chance(15))
		return rnd64();
	switch (hint) {
	case V_NODE:
		return PICK(0, 1, 2, 3, 9, 1000, FTD_NODE_NONE, FTD_NODE_NONE - 1);
	case V_PORT:
		return PICK(0, 1, 7061, 7062, 40000, 65535);
	case V_PERIOD:
		/* The instance of -a may run: no valid period below 10 ms. */
		if (opt_admin)
			return PICK(0, 1, FTD_MIN_PERIOD_NS - 1, 10000000, 20000000, 100000000,
				    FTD_MAX_PERIOD_NS, FTD_MAX_PERIOD_NS + 1, UINT64_MAX,
				    10000000 + rnd64() % (FTD_MAX_PERIOD_NS - 10000000));
		return PICK(0, 1, FTD_MIN_PERIOD_NS - 1, FTD_MIN_PERIOD_NS, 10000000,
			    FTD_MAX_PERIOD_NS, FTD_MAX_PERIOD_NS + 1, UINT64_MAX);
	case V_TIMEOUT:
		if (opt_admin)
			return PICK(0, 1, 2 * FTD_MIN_PERIOD_NS - 1, 50000000, 100000000,
				    1000000000, FTD_MAX_TIMEOUT_NS, FTD_MAX_TIMEOUT_NS + 1, UINT64_MAX);
		return PICK(0, 2 * FTD_MIN_PERIOD_NS - 1, 2 * FTD_MIN_PERIOD_NS, 50000000,
			    FTD_MAX_TIMEOUT_NS, FTD_MAX_TIMEOUT_NS + 1, UINT64_MAX);
	case V_UP:
		return PICK(0, 1, 1, 2, 255);
	case V_OBS:
		return PICK(0, 1, 2, 3, FTD_MAX_OBSERVERS, FTD_MAX_OBSERVERS + 1, 255);
	}
	switch (kind) {
	case K_U8: return PICK(0, 1, 2, 0x7f, 0x80, 0xff);
	case K_U16: return PICK(0, 1, 2, 0x7fff, 0x8000, 0xffff);
	case K_U32: return PICK(0, 1, 2, 42, 0x7fffffff, 0x80000000, 0xffffffff);
	case K_BE32: /* already in network order */
		return PICK(0x00000000, 0xffffffff, 0x010000e0 /* 224.0.0.1 */,
			    0x0100007f /* 127.0.0.1 */, 0x010200c0 /* 192.0.2.1 */,
			    0x0302000a /* 10.0.2.3 */, 0x0a0b0c0d /* 13.12.11.10 */);
	}
	return PICK(0, 1, 0x7fffffffffffffffULL, 0x8000000000000000ULL, UINT64_MAX);
}

static void gen_in6(uint8_t *a)
{
	static const uint8_t tpl[][16] = {
		{ 0 },							/* :: */
		{ [15] = 1 },						/* ::1 */
		{ 0xff, 0x02, [15] = 1 },				/* ff02::1 */
		{ [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 },		/* ::ffff:192.0.2.1 */
		{ 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },			/* 2001:db8::1 */
		{ 0x20, 0x01, 0x0d, 0xb8, 0, 9, [15] = 7 },		/* 2001:db8:9::7 */
		{ 0xfe, 0x80, [15] = 2 },				/* fe80::2 */
	};

	if (chance(20))
		rnd_bytes(a, 16);
	else
		memcpy(a, tpl[rnd(sizeof(tpl) / sizeof(tpl[0]))], 16);
}

static void gen_payload(struct buf *b, int kind, int hint)
{
	uint8_t tmp[8 * FTD_DELAY_BUCKETS];
	int len = kind_len(kind);
	uint64_t v;

	if (kind == K_PAD || kind == K_UNKNOWN || len < 0 || chance(12)) {
		/* wrong or random size */
		size_t n = chance(70) ? PICK(0, 1, 2, 3, 5, 6, 7, 9, 12, 15, 17, 24) : rnd(300);

		if (!room(b, n))
			return;
		if (n <= sizeof(tmp)) {
			rnd_bytes(tmp, n);
			put(b, tmp, n);
		} else {
			rnd_bytes(b->p + b->len, n);
			b->len += n;
		}
		return;
	}
	switch (kind) {
	case K_IN6:
		gen_in6(tmp);
		break;
	case K_KEY:
	case K_HIST:
		rnd_bytes(tmp, (size_t)len);
		break;
	default:
		v = value(kind, hint);
		memcpy(tmp, &v, sizeof(v));	/* little endian: the low bytes first */
		if (kind == K_BE32) {
			uint32_t v32 = (uint32_t)v;

			memcpy(tmp, &v32, 4);
		}
	}
	put(b, tmp, (size_t)len);
}

static void gen_attrs(struct buf *b, int level, int depth);

/* One attribute at level, mostly of a type that level knows. */
static void gen_attr(struct buf *b, int level, int depth)
{
	uint16_t type, flags = 0, max = levels[level].max;
	struct adef d;
	size_t off, len, n;
	struct nlattr *nla;
	unsigned int r = rnd(100);

	if (!room(b, 64))
		return;
	if (r < 75)
		type = (uint16_t)(1 + rnd(max));
	else if (r < 82)
		type = 0;
	else if (r < 93)
		type = (uint16_t)(max + 1 + rnd(8));
	else
		type = (uint16_t)rnd(NLA_TYPE_MASK + 1);
	d = def_of(level, type);
	if (d.kind == K_NEST)
		flags = chance(88) ? NLA_F_NESTED : 0;
	else if (chance(5))
		flags = NLA_F_NESTED;
	if (chance(3))
		flags |= NLA_F_NET_BYTEORDER;

	off = attr_begin(b, type | flags);
	if (d.kind == K_NEST && depth < 12 && chance(85))
		gen_attrs(b, d.nest, depth + 1);
	else if ((flags & NLA_F_NESTED) && depth < 12 && chance(60))
		gen_attrs(b, (int)rnd(L_COUNT), depth + 1);	/* a nest where none is due */
	else
		gen_payload(b, d.kind, d.value);
	attr_end(b, off);

	/* Mutations of its header. */
	nla = (struct nlattr *)(b->p + off);
	len = b->len - off;
	r = rnd(100);
	if (r < 3)
		nla->nla_len = (uint16_t)rnd(NLA_HDRLEN);		/* shorter than a header */
	else if (r < 5)
		nla->nla_len = 0xffff;					/* huge */
	else if (r < 8 && nla->nla_len > NLA_HDRLEN)
		nla->nla_len -= (uint16_t)(1 + rnd(nla->nla_len - NLA_HDRLEN));	/* truncated */
	else if (r < 10)
		nla->nla_len += (uint16_t)(1 + rnd(32));		/* beyond its payload */
	else if (r < 12)
		nla->nla_len = NLA_HDRLEN;				/* zero-length payload */

	/* Duplicates. */
	if (chance(6))
		for (n = 1 + rnd(3); n-- && room(b, len);)
			put(b, b->p + off, len);
}

static void gen_attrs(struct buf *b, int level, int depth)
{
	unsigned int n = rnd(6);

	while (n--)
		gen_attr(b, level, depth);
}

/* A chain of nests, depth deep, following the tree's nests first. */
static void gen_deep(struct buf *b)
{
	static const uint16_t path[] = { FTDETECT_A_NODE, FTDETECT_A_NODE_ADDRS, FTDETECT_A_ADDR,
					 FTDETECT_A_ADDR_DELAY };
	size_t offs[512];
	unsigned int depth = 4 + rnd(chance(50) ? 16 : 500), i;
	bool follow = chance(60);
	uint8_t junk[16];

	for (i = 0; i < depth && room(b, 16); i++) {
		uint16_t type = follow && i < 4 ? path[i] : (uint16_t)(1 + rnd(20));

		offs[i] = attr_begin(b, type | (chance(95) ? NLA_F_NESTED : 0));
	}
	depth = i;
	rnd_bytes(junk, sizeof(junk));
	put(b, junk, rnd(sizeof(junk) + 1));
	while (i--)
		attr_end(b, offs[i]);
	(void)depth;
}

static void put_u32_attr(struct buf *b, uint16_t type, uint32_t v)
{
	attr_put(b, type, &v, 4);
}

/* A node nest that is mostly right: what reaches the handlers. */
static void gen_node(struct buf *b, bool addrs)
{
	size_t node, list, a;
	unsigned int i, n;

	node = attr_begin(b, FTDETECT_A_NODE | NLA_F_NESTED);
	if (chance(90))
		put_u32_attr(b, FTDETECT_A_NODE_ID, (uint32_t)value(K_U32, V_NODE));
	if (addrs || chance(10)) {
		list = attr_begin(b, FTDETECT_A_NODE_ADDRS | NLA_F_NESTED);
		n = chance(90) ? 1 + rnd(3) : rnd(7);
		for (i = 0; i < n; i++) {
			a = attr_begin(b, (chance(95) ? FTDETECT_A_ADDR : (uint16_t)rnd(4)) | NLA_F_NESTED);
			if (chance(60)) {
				uint32_t v4 = (uint32_t)value(K_BE32, V_ANY);

				put_u32_attr(b, FTDETECT_A_ADDR_INET, v4);
			} else {
				uint8_t v6[16];

				gen_in6(v6);
				attr_put(b, FTDETECT_A_ADDR_INET6, v6, 16);
			}
			if (chance(10))
				gen_attrs(b, L_ADDR, 3);
			attr_end(b, a);
		}
		attr_end(b, list);
	}
	if (chance(10))
		gen_attrs(b, L_NODE, 2);
	attr_end(b, node);
}

static void gen_config(struct buf *b)
{
	static const uint16_t types[] = { FTDETECT_A_CLUSTER_ID, FTDETECT_A_LOCAL_NODE,
		FTDETECT_A_PORT, FTDETECT_A_PERIOD_NS, FTDETECT_A_TIMEOUT_NS, FTDETECT_A_KEY,
		FTDETECT_A_UP, FTDETECT_A_OBSERVERS, FTDETECT_A_QUORUM };
	unsigned int i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct adef d = def_of(L_TOP, types[i]);
		size_t off;

		if (!chance(45))
			continue;
		off = attr_begin(b, types[i]);
		gen_payload(b, d.kind, d.value);
		attr_end(b, off);
	}
}

/* ------------------------------------------------------------------ netlink: one case */

static bool admin_cmd(uint8_t cmd)
{
	return cmd == FTDETECT_CMD_SET_CONFIG || cmd == FTDETECT_CMD_DOWN ||
	       cmd == FTDETECT_CMD_ADD_NODE || cmd == FTDETECT_CMD_DEL_NODE;
}

static bool known_cmd(uint8_t cmd)
{
	return cmd >= FTDETECT_CMD_GET_CONFIG && cmd <= FTDETECT_CMD_GET_STATS;
}

static bool is_dump(uint16_t flags)
{
	return (flags & NLM_F_DUMP) == NLM_F_DUMP;
}

/* What the kernel must answer, as far as the core and the header fix it. */
enum expect_kind {
	E_ANY,		/* an error, or success with the data a GET returns */
	E_ACK,		/* exactly an ACK (no processing) */
	E_ERRNO,	/* exactly this errno (or err2, where kernels differ) */
	E_FAIL,		/* any error, never success */
	E_FAIL_OR_ACK,	/* any error or a bare ACK (-a: a state change) */
};

struct req {
	uint8_t *msg;		/* within the datagram */
	uint32_t len;		/* nlmsg_len */
	uint32_t seq;
	uint8_t cmd;
	uint16_t flags;
	enum expect_kind expect;
	int err;		/* E_ERRNO */
	int err2;		/* E_ERRNO: another kernel's answer, 0: none */
	/* reply state */
	bool done, data, poisoned, have_id;
	int got;
	uint32_t last_id;	/* dumps: the last node id */
};

static int family;
static int nlfd;
static uint32_t nl_portid;
static uint32_t next_seq = 1;
static struct hist nl_hist = { .name = "netlink" };
static unsigned long nl_msgs, nl_data_msgs, nl_dumps_done, nl_datagrams, nl_multipart;
static unsigned long cmd_sent[FTDETECT_CMD_MAX + 2], cmd_ok[FTDETECT_CMD_MAX + 2];

static void classify(struct req *q)
{
	const struct genlmsghdr *g = (const void *)(q->msg + NLMSG_HDRLEN);
	uint16_t fl = q->flags & ~(is_dump(q->flags) ? NLM_F_DUMP : 0);

	q->expect = E_ANY;
	if (!(q->flags & NLM_F_REQUEST)) {
		q->expect = E_ACK;
	} else if (q->len < NLMSG_HDRLEN + GENL_HDRLEN) {
		q->expect = E_ERRNO, q->err = EINVAL;
	} else if (q->cmd >= 1 && (g->reserved || (fl & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO)))) {
		q->expect = E_ERRNO, q->err = EINVAL;
	} else if (!known_cmd(q->cmd)) {
		q->expect = E_ERRNO, q->err = EOPNOTSUPP;
	} else if (admin_cmd(q->cmd) && !privileged) {
		q->expect = E_ERRNO, q->err = EPERM;
		/*
		 * A dump of a command that has none: since 6.2 the genetlink
		 * core looks up the op by do/dump before it checks the
		 * permission (6.1 the other way round). Refused either way.
		 */
		if (is_dump(q->flags))
			q->err2 = EOPNOTSUPP;
	} else if (is_dump(q->flags) && q->cmd != FTDETECT_CMD_GET_NODE) {
		q->expect = E_ERRNO, q->err = EOPNOTSUPP;
	} else if (admin_cmd(q->cmd)) {
		q->expect = q->poisoned ? E_FAIL : E_FAIL_OR_ACK;
	}
}

/* Builds one request at the end of d, described in q; false if it did not fit. */
static bool gen_request(struct buf *d, struct req *q, bool batched)
{
	static struct buf body;
	struct nlmsghdr nlh = { 0 };
	struct genlmsghdr g = { 0 };
	unsigned int r;
	size_t start = d->len, min_len, poison_len = 0;
	uint8_t poison[8];
	bool protect;

	memset(q, 0, sizeof(*q));
	r = rnd(100);
	if (r < 72)
		g.cmd = (uint8_t)(1 + rnd(FTDETECT_CMD_MAX - 1));	/* the ones users send */
	else if (r < 78)
		g.cmd = FTDETECT_CMD_EVENT;
	else if (r < 84)
		g.cmd = FTDETECT_CMD_UNSPEC;
	else
		g.cmd = (uint8_t)rnd(256);
	g.version = chance(85) ? FTDETECT_GENL_VERSION : (uint8_t)rnd(256);
	g.reserved = chance(92) ? 0 : (uint16_t)rnd(0x10000);

	nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	if (chance(g.cmd == FTDETECT_CMD_GET_NODE ? 50 : 15))
		nlh.nlmsg_flags |= NLM_F_DUMP;
	if (chance(8))
		nlh.nlmsg_flags |= NLM_F_ECHO;
	if (chance(6))
		nlh.nlmsg_flags |= (uint16_t)(1u << rnd(16));	/* ROOT, MATCH, ATOMIC, ... */
	if (chance(3))
		nlh.nlmsg_flags &= (uint16_t)~NLM_F_REQUEST;
	nlh.nlmsg_type = (uint16_t)family;
	nlh.nlmsg_seq = next_seq++;
	nlh.nlmsg_pid = chance(95) ? 0 : (uint32_t)rnd64();

	/* Without -a, a state-changing command must not be able to change the
	 * instance: with CAP_NET_ADMIN, a poison attribute strict validation
	 * refuses comes first; without, the permission check must refuse it. */
	protect = !opt_admin && privileged && admin_cmd(g.cmd);

	body.len = 0;
	if (protect) {
		struct nlattr *p = (struct nlattr *)poison;

		p->nla_len = chance(50) ? 4 : 8;
		p->nla_type = PICK(0, FTDETECT_A_MAX + 1, FTDETECT_A_MAX + 7, NLA_TYPE_MASK);
		memset(poison + 4, 0xa5, 4);
		poison_len = p->nla_len;
		put(&body, poison, poison_len);
		q->poisoned = true;
	}
	r = rnd(100);
	if (r < 8) {
		/* no attributes */
	} else if (r < 30) {
		switch (g.cmd) {
		case FTDETECT_CMD_SET_CONFIG: gen_config(&body); break;
		case FTDETECT_CMD_ADD_NODE: gen_node(&body, true); break;
		case FTDETECT_CMD_DEL_NODE:
		case FTDETECT_CMD_GET_NODE: gen_node(&body, false); break;
		default: gen_attrs(&body, L_TOP, 0);
		}
	} else if (r < 75) {
		gen_attrs(&body, L_TOP, 0);
	} else if (r < 83) {
		size_t n = rnd(chance(80) ? 64 : 2000);

		rnd_bytes(body.p + body.len, n);
		body.len += n;
	} else if (r < 91) {
		gen_deep(&body);
	} else if (r < 95) {
		/* many small attributes, or one huge one */
		if (chance(50)) {
			unsigned int n = 50 + rnd(3000);
			struct adef dd;
			uint16_t t = (uint16_t)(1 + rnd(FTDETECT_A_MAX));
			size_t off;

			dd = def_of(L_TOP, t);
			while (n-- && room(&body, 32)) {
				off = attr_begin(&body, t);
				gen_payload(&body, dd.kind, dd.value);
				attr_end(&body, off);
			}
		} else {
			size_t off = attr_begin(&body, (uint16_t)(1 + rnd(FTDETECT_A_MAX + 2)) |
						(chance(50) ? NLA_F_NESTED : 0));
			size_t n = 1000 + rnd(batched ? 20000 : 60000);

			if (room(&body, n)) {
				rnd_bytes(body.p + body.len, n);
				body.len += n;
			}
			attr_end(&body, off);
		}
	} else {
		/* a valid-looking stream with random bytes flipped */
		size_t i, from = poison_len;

		gen_attrs(&body, L_TOP, 0);
		for (i = 0; i < 1 + rnd(4) && body.len > from; i++)
			body.p[from + rnd((uint32_t)(body.len - from))] ^= (uint8_t)(1 + rnd(255));
	}

	/* what is left of a datagram; two requests share one when batched */
	if (body.len > (batched ? 24000u : MAXMSG - 64u))
		body.len = batched ? 24000u : MAXMSG - 64u;
	nlh.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + GENL_HDRLEN + body.len);
	/* Truncations: the datagram ends where nlmsg_len says. */
	min_len = NLMSG_HDRLEN + GENL_HDRLEN + poison_len;
	r = rnd(100);
	if (r < 3 && !batched)
		nlh.nlmsg_len = NLMSG_HDRLEN + rnd(GENL_HDRLEN);	/* no room for the genl header */
	else if (r < 8 && nlh.nlmsg_len > min_len)
		nlh.nlmsg_len = (uint32_t)(min_len + rnd((uint32_t)(nlh.nlmsg_len - min_len)));
	if (q->poisoned && nlh.nlmsg_len < min_len && nlh.nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN)
		nlh.nlmsg_len = (uint32_t)min_len;

	put(d, &nlh, NLMSG_HDRLEN);
	if (nlh.nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN) {
		put(d, &g, GENL_HDRLEN);
		put(d, body.p, nlh.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN);
	} else {
		put(d, &g, nlh.nlmsg_len - NLMSG_HDRLEN);
	}
	q->msg = d->p + start;
	q->len = nlh.nlmsg_len;
	q->seq = nlh.nlmsg_seq;
	q->cmd = g.cmd;
	q->flags = nlh.nlmsg_flags;
	if (d->len - start != q->len) {
		d->len = start;		/* put() ran out of room */
		return false;
	}
	classify(q);
	return true;
}

/* ------------------------------------------------------------------ netlink: checking replies */

/* A well-formed attribute stream whose known attributes have their sizes. */
static bool check_attrs(const uint8_t *p, size_t len, int level, int depth, const char **why)
{
	size_t off = 0;

	if (depth > 8) {
		*why = "nests too deep";
		return false;
	}
	while (off < len) {
		const struct nlattr *nla = (const void *)(p + off);
		uint16_t type;
		struct adef d;
		int want;

		if (len - off < NLA_HDRLEN || nla->nla_len < NLA_HDRLEN || nla->nla_len > len - off) {
			*why = "attribute length out of bounds";
			return false;
		}
		type = nla->nla_type & NLA_TYPE_MASK;
		d = def_of(level, type);
		want = kind_len(d.kind);
		if (d.kind == K_NEST) {
			if (!check_attrs(p + off + NLA_HDRLEN, nla->nla_len - NLA_HDRLEN, d.nest,
					 depth + 1, why))
				return false;
		} else if (want >= 0 && nla->nla_len - NLA_HDRLEN != want) {
			static char msg[96];

			snprintf(msg, sizeof(msg), "%s attribute %u has %u bytes, not %d",
				 levels[level].name, type, nla->nla_len - NLA_HDRLEN, want);
			*why = msg;
			return false;
		}
		off += NLA_ALIGN(nla->nla_len);
	}
	if (off != NLA_ALIGN(len)) {
		*why = "trailing bytes";
		return false;
	}
	return true;
}

static const struct nlattr *find_attr(const uint8_t *p, size_t len, uint16_t type)
{
	size_t off = 0;

	while (off + NLA_HDRLEN <= len) {
		const struct nlattr *nla = (const void *)(p + off);

		if (nla->nla_len < NLA_HDRLEN || nla->nla_len > len - off)
			return NULL;
		if ((nla->nla_type & NLA_TYPE_MASK) == type)
			return nla;
		off += NLA_ALIGN(nla->nla_len);
	}
	return NULL;
}

/* Called with every data reply, if set (the snapshots of -a). */
static void (*data_hook)(const struct nlmsghdr *h);

static void check_data(struct req *q, const struct nlmsghdr *h)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	const uint8_t *a = (const uint8_t *)g + GENL_HDRLEN;
	size_t alen;
	const char *why = NULL;

	nl_data_msgs++;
	if (q->done) {
		violation("data after the end of the reply to seq %u", q->seq);
		return;
	}
	q->data = true;
	if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		violation("reply of %u bytes has no genl header", h->nlmsg_len);
		return;
	}
	alen = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	if (!known_cmd(q->cmd) || admin_cmd(q->cmd) || (q->flags & NLM_F_REQUEST) == 0 ||
	    q->expect == E_ERRNO) {
		violation("data reply (cmd %u) to a request (cmd %u, flags 0x%x) that must fail",
			  g->cmd, q->cmd, q->flags);
		return;
	}
	if (g->cmd != q->cmd)
		violation("reply cmd %u to request cmd %u", g->cmd, q->cmd);
	if (is_dump(q->flags) != !!(h->nlmsg_flags & NLM_F_MULTI))
		violation("NLM_F_MULTI %s on the reply to a %s", h->nlmsg_flags & NLM_F_MULTI ?
			  "set" : "missing", is_dump(q->flags) ? "dump" : "do");
	if (!check_attrs(a, alen, L_TOP, 0, &why)) {
		violation("malformed reply to cmd %u: %s", q->cmd, why);
		hexdump(h, h->nlmsg_len);
		return;
	}
	if (data_hook)
		data_hook(h);
	switch (q->cmd) {
	case FTDETECT_CMD_GET_CONFIG: {
		static const uint16_t need[] = { FTDETECT_A_CLUSTER_ID, FTDETECT_A_LOCAL_NODE,
			FTDETECT_A_PORT, FTDETECT_A_PERIOD_NS, FTDETECT_A_TIMEOUT_NS, FTDETECT_A_UP,
			FTDETECT_A_INCARNATION };
		const struct nlattr *up = find_attr(a, alen, FTDETECT_A_UP);
		unsigned int i;

		for (i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (!find_attr(a, alen, need[i]))
				violation("GET_CONFIG reply without attribute %u", need[i]);
		if (up && *((const uint8_t *)up + NLA_HDRLEN) > 1)
			violation("GET_CONFIG: up = %u", *((const uint8_t *)up + NLA_HDRLEN));
		if (find_attr(a, alen, FTDETECT_A_KEY))
			violation("GET_CONFIG reveals the key");
		break;
	}
	case FTDETECT_CMD_GET_NODE: {
		const struct nlattr *n = find_attr(a, alen, FTDETECT_A_NODE);

		const struct nlattr *id = n ? find_attr((const uint8_t *)n + NLA_HDRLEN,
							n->nla_len - NLA_HDRLEN, FTDETECT_A_NODE_ID) : NULL;
		uint32_t v;

		if (!id) {
			violation("GET_NODE reply without a node id");
			break;
		}
		memcpy(&v, (const uint8_t *)id + NLA_HDRLEN, 4);
		if (q->have_id && v <= q->last_id)
			violation("GET_NODE dump: node %u after node %u", v, q->last_id);
		if (q->have_id && !is_dump(q->flags))
			violation("two nodes in the reply to a GET_NODE do");
		q->have_id = true;
		q->last_id = v;
		break;
	}
	case FTDETECT_CMD_GET_STATS:
		if (!find_attr(a, alen, FTDETECT_A_STATS))
			violation("GET_STATS reply without the stats nest");
		break;
	}
}

static void check_error(struct req *q, const struct nlmsghdr *h)
{
	const struct nlmsgerr *e = NLMSG_DATA(h);
	size_t plen = h->nlmsg_len - NLMSG_HDRLEN, off;
	int err;

	if (plen < sizeof(*e)) {
		violation("NLMSG_ERROR of %u bytes", h->nlmsg_len);
		return;
	}
	if (q->done) {
		violation("a second terminal message for seq %u", q->seq);
		return;
	}
	q->done = true;
	err = -e->error;
	q->got = err;
	if (e->error > 0 || err >= MAXERR) {
		violation("NLMSG_ERROR with error %d", e->error);
		return;
	}
	hist_add(&nl_hist, err);
	if (e->msg.nlmsg_seq != q->seq || e->msg.nlmsg_len != q->len || e->msg.nlmsg_type != family)
		violation("the error echoes another request (seq %u len %u type %u)",
			  e->msg.nlmsg_seq, e->msg.nlmsg_len, e->msg.nlmsg_type);
	off = sizeof(*e);
	if (!(h->nlmsg_flags & NLM_F_CAPPED)) {
		size_t echo = q->len > NLMSG_HDRLEN ? q->len - NLMSG_HDRLEN : 0;

		if (plen < off + echo)
			violation("the error's echo of the request is short");
		else if (memcmp((const uint8_t *)&e->msg + NLMSG_HDRLEN, q->msg + NLMSG_HDRLEN, echo))
			violation("the error's echo differs from the request");
		off += echo;
	}
	off = NLMSG_ALIGN(off);
	if ((h->nlmsg_flags & NLM_F_ACK_TLVS) && off < plen) {
		const uint8_t *t = (const uint8_t *)e + off;
		size_t tlen = plen - off, o = 0;

		while (o < tlen) {
			const struct nlattr *nla = (const void *)(t + o);
			const uint8_t *v = (const uint8_t *)nla + NLA_HDRLEN;
			size_t vlen;

			if (tlen - o < NLA_HDRLEN || nla->nla_len < NLA_HDRLEN ||
			    nla->nla_len > tlen - o) {
				violation("malformed extack TLVs");
				hexdump(h, h->nlmsg_len);
				break;
			}
			vlen = nla->nla_len - NLA_HDRLEN;
			switch (nla->nla_type & NLA_TYPE_MASK) {
			case NLMSGERR_ATTR_MSG:
				if (!vlen || memchr(v, 0, vlen) == NULL)
					violation("extack message not NUL-terminated");
				else if (opt_verbose)
					verbose("extack: %s", (const char *)v);
				break;
			case NLMSGERR_ATTR_OFFS:
			case NLMSGERR_ATTR_MISS_NEST: {
				uint32_t at;

				if (vlen != 4) {
					violation("extack offset of %zu bytes", vlen);
					break;
				}
				memcpy(&at, v, 4);
				if (at < NLMSG_HDRLEN || at >= q->len)
					violation("extack offset %u outside the request (%u bytes)", at,
						  q->len);
				break;
			}
			}
			o += NLA_ALIGN(nla->nla_len);
		}
	}

	switch (q->expect) {
	case E_ACK:
		if (err)
			violation("a request without NLM_F_REQUEST got %s, not a bare ACK", ename(err));
		break;
	case E_ERRNO:
		if (err != q->err && (!q->err2 || err != q->err2))
			violation("cmd %u flags 0x%x: %s, expected %s%s%s", q->cmd, q->flags,
				  ename(err), ename(q->err), q->err2 ? " or " : "",
				  q->err2 ? ename(q->err2) : "");
		break;
	case E_FAIL:
		if (!err)
			violation("cmd %u (state-changing, poisoned) succeeded", q->cmd);
		break;
	case E_FAIL_OR_ACK:
		break;
	case E_ANY:
		if (!err && !q->data && known_cmd(q->cmd) && !admin_cmd(q->cmd) &&
		    !is_dump(q->flags))
			violation("cmd %u succeeded without data", q->cmd);
		break;
	}
	if (err && q->data && !is_dump(q->flags))
		violation("cmd %u: data, then %s", q->cmd, ename(err));
}

static void check_done(struct req *q, const struct nlmsghdr *h)
{
	int v;

	if (!is_dump(q->flags) || q->expect == E_ERRNO || q->expect == E_ACK) {
		violation("NLMSG_DONE answers a request (cmd %u flags 0x%x) that is no dump",
			  q->cmd, q->flags);
		q->done = true;
		return;
	}
	if (q->done) {
		violation("a second terminal message for seq %u", q->seq);
		return;
	}
	q->done = true;
	if (h->nlmsg_len < NLMSG_HDRLEN + sizeof(int)) {
		violation("NLMSG_DONE of %u bytes", h->nlmsg_len);
		return;
	}
	memcpy(&v, NLMSG_DATA(h), sizeof(v));
	if (v > 0 || -v >= MAXERR) {
		violation("NLMSG_DONE with status %d", v);
		return;
	}
	q->got = -v;
	nl_dumps_done++;
	hist_add(&nl_hist, -v);
}

static uint8_t rbuf[1 << 20];

/*
 * Reads one datagram of replies on fd (port portid) for the requests qs,
 * waiting until deadline: 1 if one was read, 0 on a timeout (a violation
 * for each request still open), -1 on an error.
 */
static int recv_one(int fd, uint32_t portid, struct req *qs, int nq, double deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct sockaddr_nl from;
	socklen_t fl = sizeof(from);
	const struct nlmsghdr *h;
	int i, left, rest;
	ssize_t n;

	for (;;) {
		left = (int)((deadline - now_s()) * 1000);
		if (left <= 0 || poll(&pfd, 1, left) <= 0) {
			for (i = 0; i < nq; i++) {
				if (qs[i].done)
					continue;
				violation("no reply to seq %u (cmd %u flags 0x%x, %u bytes) within %d s",
					  qs[i].seq, qs[i].cmd, qs[i].flags, qs[i].len,
					  opt_reply_timeout);
				hexdump(qs[i].msg, qs[i].len);
			}
			return 0;
		}
		n = recvfrom(fd, rbuf, sizeof(rbuf), MSG_TRUNC, (struct sockaddr *)&from, &fl);
		if (n >= 0)
			break;
		if (errno != EINTR && errno != EAGAIN) {
			violation("recv: %s", strerror(errno));
			return -1;
		}
	}
	if ((size_t)n > sizeof(rbuf)) {
		violation("a reply of %zd bytes", n);
		return 1;
	}
	if (from.nl_pid != 0)
		violation("a reply from port %u, not the kernel", from.nl_pid);
	rest = (int)n;
	for (h = (const void *)rbuf; NLMSG_OK(h, rest); h = NLMSG_NEXT(h, rest)) {
		struct req *q = NULL;

		for (i = 0; i < nq; i++)
			if (qs[i].seq == h->nlmsg_seq)
				q = &qs[i];
		if (!q) {
			violation("a reply (type %u) with unknown seq %u", h->nlmsg_type,
				  h->nlmsg_seq);
			continue;
		}
		if (h->nlmsg_pid != portid)
			violation("reply addressed to port %u, we are %u", h->nlmsg_pid, portid);
		if (h->nlmsg_type == NLMSG_ERROR)
			check_error(q, h);
		else if (h->nlmsg_type == NLMSG_DONE)
			check_done(q, h);
		else if (h->nlmsg_type == family)
			check_data(q, h);
		else
			violation("reply of type %u", h->nlmsg_type);
	}
	if (rest != 0)
		violation("%d bytes after the last whole message of a datagram", rest);
	return 1;
}

static bool all_done(const struct req *qs, int nq)
{
	int i;

	for (i = 0; i < nq; i++)
		if (!qs[i].done)
			return false;
	return true;
}

/* Reads replies until every request has ended; false on a timeout. */
static bool collect_on(int fd, uint32_t portid, struct req *qs, int nq)
{
	double deadline = now_s() + opt_reply_timeout;

	while (!all_done(qs, nq))
		if (recv_one(fd, portid, qs, nq, deadline) <= 0)
			return false;
	return true;
}

static bool collect(struct req *qs, int nq)
{
	return collect_on(nlfd, nl_portid, qs, nq);
}

static void count_cmds(const struct req *qs, int nq)
{
	int i;

	for (i = 0; i < nq; i++) {
		unsigned int c = qs[i].cmd <= FTDETECT_CMD_MAX ? qs[i].cmd : FTDETECT_CMD_MAX + 1;

		if (!(qs[i].flags & NLM_F_REQUEST))
			continue;	/* not processed: a bare ACK */
		cmd_sent[c]++;
		cmd_ok[c] += qs[i].done && !qs[i].got;
		verbose("  -> %s%s", ename(qs[i].got), qs[i].data ? " with data" : "");
	}
}

static bool send_dgram(int fd, const struct buf *d, int nq)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	nl_datagrams++;
	if (sendto(fd, d->p, d->len, 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		/* Only the socket layer may refuse a datagram (too big for it). */
		if (errno != EMSGSIZE && errno != ENOBUFS)
			violation("send: %s", strerror(errno));
		return false;
	}
	nl_msgs += (unsigned long)nq;
	return true;
}

/* A well-formed request: cmd, flags, then the attributes in body. */
static void simple_request(struct buf *d, struct req *q, uint8_t cmd, uint16_t flags,
			   const struct buf *body)
{
	struct nlmsghdr nlh = { .nlmsg_type = (uint16_t)family, .nlmsg_flags = flags };
	struct genlmsghdr g = { .cmd = cmd, .version = FTDETECT_GENL_VERSION };

	memset(q, 0, sizeof(*q));
	d->len = 0;
	nlh.nlmsg_seq = next_seq++;
	nlh.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + GENL_HDRLEN + body->len);
	put(d, &nlh, NLMSG_HDRLEN);
	put(d, &g, GENL_HDRLEN);
	put(d, body->p, body->len);
	q->msg = d->p;
	q->len = nlh.nlmsg_len;
	q->seq = nlh.nlmsg_seq;
	q->cmd = cmd;
	q->flags = flags;
	classify(q);
}

/* ADD_NODE (del: DEL_NODE) of node id at 10.(id>>8).(id&255).1 on fd. */
static int node_change(int fd, uint32_t portid, uint32_t id, bool del)
{
	static struct buf body, d;
	struct req q;
	size_t node, list, a;
	uint32_t v4 = htonl(0x0a000001U | (id & 0xffff) << 8);

	body.len = 0;
	node = attr_begin(&body, FTDETECT_A_NODE | NLA_F_NESTED);
	put_u32_attr(&body, FTDETECT_A_NODE_ID, id);
	if (!del) {
		list = attr_begin(&body, FTDETECT_A_NODE_ADDRS | NLA_F_NESTED);
		a = attr_begin(&body, FTDETECT_A_ADDR | NLA_F_NESTED);
		put_u32_attr(&body, FTDETECT_A_ADDR_INET, v4);
		attr_end(&body, a);
		attr_end(&body, list);
	}
	attr_end(&body, node);
	simple_request(&d, &q, del ? FTDETECT_CMD_DEL_NODE : FTDETECT_CMD_ADD_NODE,
		       NLM_F_REQUEST | NLM_F_ACK, &body);
	if (!send_dgram(fd, &d, 1))
		return -1;
	collect_on(fd, portid, &q, 1);
	count_cmds(&q, 1);
	return q.got;
}

static int nlfd2 = -1;
static uint32_t nl_portid2;

/*
 * With -a: a node dump that spans several messages while another socket
 * adds and removes nodes between its parts. Every part must be well formed
 * and the ids strictly increasing (a dump resumes after the last id sent).
 */
static void nl_dump_race(void)
{
	static struct buf body, d;
	struct req q;
	unsigned int i, n = 100 + rnd(300), parts = 0;
	uint32_t base = 1000 + rnd(50000);
	double deadline;

	cur_what = "dump race";
	for (i = 0; i < n; i++)
		if (node_change(nlfd, nl_portid, base + i, false) < 0)
			return;
	body.len = 0;
	simple_request(&d, &q, FTDETECT_CMD_GET_NODE, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, &body);
	verbose("dump of %u+ nodes, racing changes", n);
	if (!send_dgram(nlfd, &d, 1))
		return;
	deadline = now_s() + opt_reply_timeout;
	while (!q.done) {
		if (recv_one(nlfd, nl_portid, &q, 1, deadline) <= 0)
			break;
		parts++;
		for (i = rnd(8); i--;)
			node_change(nlfd2, nl_portid2, base + rnd(n + 20), chance(60));
		deadline = now_s() + opt_reply_timeout;
	}
	count_cmds(&q, 1);
	nl_multipart += parts > 1;
	verbose("  %u parts", parts);
	/* leave no more than a few nodes behind */
	for (i = 0; i < n + 20; i++)
		node_change(nlfd2, nl_portid2, base + i, true);
}

/*
 * With -a, a request that fails must change nothing: what GET_CONFIG and
 * the node table (ids and addresses) show is compared before and after.
 */
struct snap {
	uint8_t cfg[256];
	size_t cfg_len;
	unsigned int nodes;
	uint64_t node_hash;
};

static struct snap *cur_snap;
static unsigned long atomic_checks;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

static void snap_hook(const struct nlmsghdr *h)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	const uint8_t *a = (const uint8_t *)g + GENL_HDRLEN;
	size_t alen = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, off, o2;
	const struct nlattr *node, *id, *addrs, *x;

	if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return;
	if (g->cmd == FTDETECT_CMD_GET_CONFIG) {
		cur_snap->cfg_len = alen < sizeof(cur_snap->cfg) ? alen : sizeof(cur_snap->cfg);
		memcpy(cur_snap->cfg, a, cur_snap->cfg_len);
		return;
	}
	node = find_attr(a, alen, FTDETECT_A_NODE);
	if (g->cmd != FTDETECT_CMD_GET_NODE || !node)
		return;
	cur_snap->nodes++;
	a = (const uint8_t *)node + NLA_HDRLEN;
	alen = node->nla_len - NLA_HDRLEN;
	id = find_attr(a, alen, FTDETECT_A_NODE_ID);
	if (id)
		cur_snap->node_hash = fnv(cur_snap->node_hash, id, id->nla_len);
	addrs = find_attr(a, alen, FTDETECT_A_NODE_ADDRS);
	if (!addrs)
		return;
	/* each rail's address, not its counters */
	for (off = 0; off + NLA_HDRLEN <= (size_t)(addrs->nla_len - NLA_HDRLEN);) {
		const struct nlattr *r = (const void *)((const uint8_t *)addrs + NLA_HDRLEN + off);

		if (r->nla_len < NLA_HDRLEN)
			break;
		for (o2 = 0; o2 < 2; o2++) {
			x = find_attr((const uint8_t *)r + NLA_HDRLEN, r->nla_len - NLA_HDRLEN,
				      o2 ? FTDETECT_A_ADDR_INET6 : FTDETECT_A_ADDR_INET);
			if (x)
				cur_snap->node_hash = fnv(cur_snap->node_hash, x, x->nla_len);
		}
		off += NLA_ALIGN(r->nla_len);
	}
}

static bool take_snap(struct snap *sn)
{
	static struct buf body, d;
	struct req q;
	bool ok;

	memset(sn, 0, sizeof(*sn));
	sn->node_hash = 0xcbf29ce484222325ULL;
	cur_snap = sn;
	data_hook = snap_hook;
	body.len = 0;
	simple_request(&d, &q, FTDETECT_CMD_GET_CONFIG, NLM_F_REQUEST | NLM_F_ACK, &body);
	ok = send_dgram(nlfd2, &d, 1) && collect_on(nlfd2, nl_portid2, &q, 1) && !q.got;
	simple_request(&d, &q, FTDETECT_CMD_GET_NODE, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, &body);
	ok = ok && send_dgram(nlfd2, &d, 1) && collect_on(nlfd2, nl_portid2, &q, 1) && !q.got;
	data_hook = NULL;
	return ok;
}

static void describe(const struct snap *sn, char *buf, size_t len)
{
	static const uint16_t show[] = { FTDETECT_A_CLUSTER_ID, FTDETECT_A_LOCAL_NODE,
		FTDETECT_A_PORT, FTDETECT_A_PERIOD_NS, FTDETECT_A_TIMEOUT_NS, FTDETECT_A_UP,
		FTDETECT_A_OBSERVERS, FTDETECT_A_QUORUM, FTDETECT_A_INCARNATION };
	static const char *const names[] = { "cluster", "node", "port", "period", "timeout",
		"up", "observers", "quorum", "incarnation" };
	size_t o = 0;
	unsigned int i;

	for (i = 0; i < sizeof(show) / sizeof(show[0]) && o < len; i++) {
		const struct nlattr *a = find_attr(sn->cfg, sn->cfg_len, show[i]);
		uint64_t v = 0;

		if (!a)
			continue;
		memcpy(&v, (const uint8_t *)a + NLA_HDRLEN, a->nla_len - NLA_HDRLEN > 8 ? 8 :
		       a->nla_len - NLA_HDRLEN);
		o += (size_t)snprintf(buf + o, len - o, "%s %" PRIu64 ", ", names[i], v);
	}
	if (o < len)
		snprintf(buf + o, len - o, "%u nodes (hash %016" PRIx64 ")", sn->nodes,
			 sn->node_hash);
}

static void nl_case(void)
{
	static struct buf dgram;
	struct req qs[2];
	int nq = chance(5) ? 2 : 1, i;
	struct snap before, after;
	bool snapped = false, changed = false;

	if (opt_admin && chance(1)) {
		nl_dump_race();
		return;
	}
	dgram.len = 0;
	for (i = 0; i < nq; i++) {
		if (!gen_request(&dgram, &qs[i], nq > 1)) {
			violation("generator: a request of more than %d bytes", MAXMSG);
			return;
		}
		if (i + 1 < nq)
			pad4(&dgram);
	}

	for (i = 0; i < nq; i++) {
		verbose("netlink: seq %u cmd %u flags 0x%x len %u%s, expect %d/%s", qs[i].seq,
			qs[i].cmd, qs[i].flags, qs[i].len, qs[i].poisoned ? " (poisoned)" : "",
			qs[i].expect, qs[i].expect == E_ERRNO ? ename(qs[i].err) : "-");
		if (opt_verbose)
			hexdump(qs[i].msg, qs[i].len);
	}
	if (opt_admin)
		for (i = 0; i < nq; i++)
			if (admin_cmd(qs[i].cmd) || !(qs[i].flags & NLM_F_REQUEST))
				snapped = true;
	if (snapped)
		snapped = take_snap(&before);
	if (!send_dgram(nlfd, &dgram, nq))
		return;
	collect(qs, nq);
	count_cmds(qs, nq);
	if (!snapped)
		return;
	/* only when no request of the datagram may have changed anything */
	for (i = 0; i < nq; i++)
		if (!qs[i].done || (!qs[i].got && (qs[i].flags & NLM_F_REQUEST) && admin_cmd(qs[i].cmd)))
			return;
	if (!take_snap(&after))
		return;
	atomic_checks++;
	changed = before.cfg_len != after.cfg_len || memcmp(before.cfg, after.cfg, before.cfg_len) ||
		  before.nodes != after.nodes || before.node_hash != after.node_hash;
	if (changed) {
		char b[512], a[512];

		describe(&before, b, sizeof(b));
		describe(&after, a, sizeof(a));
		for (i = 0; i < nq; i++) {
			if (!(qs[i].flags & NLM_F_REQUEST))
				violation("cmd %u flags 0x%x (not a request: not processed) changed the instance",
					  qs[i].cmd, qs[i].flags);
			else if (qs[i].got)
				violation("cmd %u flags 0x%x failed (%s) but changed the instance",
					  qs[i].cmd, qs[i].flags, ename(qs[i].got));
			else
				continue;
			hexdump(qs[i].msg, qs[i].len);
		}
		printf("#   before: %s\n#   after:  %s\n", b, a);
	}
}

static int nl_socket(uint32_t *portid)
{
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	socklen_t ml = sizeof(me);
	int fd, one = 1, big = 4 << 20;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me)) ||
	    getsockname(fd, (struct sockaddr *)&me, &ml)) {
		perror("ftd-nlfuzz: netlink socket");
		exit(2);
	}
	*portid = me.nl_pid;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
	return fd;
}

static void nl_open(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk || genl_connect(sk)) {
		fprintf(stderr, "ftd-nlfuzz: cannot open a generic netlink socket\n");
		exit(2);
	}
	family = genl_ctrl_resolve(sk, FTDETECT_GENL_NAME);
	nl_socket_free(sk);
	if (family < 0) {
		fprintf(stderr, "ftd-nlfuzz: family %s not found (module not loaded?)\n",
			FTDETECT_GENL_NAME);
		exit(2);
	}
	nlfd = nl_socket(&nl_portid);
	nlfd2 = nl_socket(&nl_portid2);
}

/* ------------------------------------------------------------------ /dev/ftdetect */

enum { FD_RO, FD_RW, FD_WO, FD_N };
static int fds[FD_N];
static bool registered[FD_N];
static uint64_t last_seq[FD_N + 1];	/* the last event read on each file, blkfd last */
static unsigned long events_read;
static int blkfd = -1;
static uint8_t *good;			/* 128 KiB, read-write */
static uint8_t *ro_page;		/* a read-only page of 0xff */
static uint8_t *hole;			/* an unmapped page */
static uint8_t *edge;			/* the last 8 bytes before an unmapped page */
static uint32_t table_size;
static struct hist h_ioctl = { .name = "ioctl" }, h_read = { .name = "read" },
	h_write = { .name = "write" }, h_mmap = { .name = "mmap" }, h_poll = { .name = "poll" },
	h_other = { .name = "other" };

#define GOOD_SIZE (128 * 1024)

enum ptr { P_GOOD, P_NULL, P_ONE, P_HOLE, P_EDGE, P_RO, P_KERNEL, P_NONCANON, P_N };
static const char *const ptr_names[] = { "good", "NULL", "(void *)1", "unmapped", "straddling",
	"read-only", "kernel", "non-canonical" };

static void *ptr_of(enum ptr p)
{
	switch (p) {
	case P_GOOD: return good;
	case P_NULL: return NULL;
	case P_ONE: return (void *)1;
	case P_HOLE: return hole;
	case P_EDGE: return edge;
	case P_RO: return ro_page;
	case P_KERNEL: return (void *)0xffffffff81000000UL;
	case P_NONCANON: return (void *)0x8000000000000000UL;
	default: return good;
	}
}

/* Can the kernel copy n bytes to (write) or from (!write) p? */
static bool ptr_ok(enum ptr p, size_t n, bool write)
{
	switch (p) {
	case P_GOOD: return n <= GOOD_SIZE;
	case P_EDGE: return n <= 8;
	case P_RO: return !write && n <= 4096;
	case P_KERNEL: case P_NONCANON: return false;	/* access_ok() fails even for 0 bytes */
	default: return n == 0;
	}
}

static void dev_reopen(int i)
{
	static const int modes[FD_N] = { O_RDONLY, O_RDWR, O_WRONLY };

	if (fds[i] >= 0)
		close(fds[i]);
	registered[i] = false;
	last_seq[i] = 0;
	fds[i] = open(DEV, modes[i] | O_NONBLOCK | O_CLOEXEC);
	if (fds[i] < 0) {
		fprintf(stderr, "ftd-nlfuzz: open %s: %s\n", DEV, strerror(errno));
		exit(2);
	}
}

static void dev_open(void)
{
	struct ftd_status_hdr *hdr;
	int i;

	for (i = 0; i < FD_N; i++) {
		fds[i] = -1;
		dev_reopen(i);
	}
	blkfd = open(DEV, O_RDONLY | O_CLOEXEC);
	good = mmap(NULL, GOOD_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hole = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (blkfd < 0 || good == MAP_FAILED || ro_page == MAP_FAILED || hole == MAP_FAILED) {
		perror("ftd-nlfuzz: setup");
		exit(2);
	}
	memset(ro_page, 0xff, 4096);	/* as a struct ftd_rank_reg: unknown flags */
	mprotect(ro_page, 4096, PROT_READ);
	munmap(hole + 4096, 4096);
	edge = hole + 4096 - 8;
	hole += 4096;

	hdr = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fds[FD_RO], 0);
	if (hdr == MAP_FAILED) {
		fprintf(stderr, "ftd-nlfuzz: cannot map the status table: %s\n", strerror(errno));
		exit(2);
	}
	if (hdr->magic != FTD_STATUS_MAGIC || hdr->size < 4096 || hdr->size % 4096) {
		fprintf(stderr, "ftd-nlfuzz: bad status table header (magic 0x%x size %u)\n",
			hdr->magic, hdr->size);
		exit(2);
	}
	table_size = hdr->size;
	munmap(hdr, 4096);
}

/* The VFS's own ioctls (fs/ioctl.c) never reach the driver: left out. */
static bool vfs_ioctl_type(unsigned int type, unsigned int nr)
{
	return type == 'T' || type == 'X' || type == 'f' || type == 0x94 || type == 0x15 ||
	       (type == 0 && nr <= 2);
}

/* Where a generated scope's node ids are: in good, past what a request carries. */
#define SCOPE_IDS_AT	4096

/*
 * FTD_IOC_SCOPE, in the kernel's order: the request itself (flags,
 * reserved, count, the ids' address, each id), then the file's state.
 */
static int scope_expect(unsigned int cmd, enum ptr p, int fdi, bool *maybe_ok, int *alt)
{
	struct ftd_scope sc;
	uint32_t i, id;

	if (cmd != FTD_IOC_SCOPE)
		return EINVAL;
	if (!ptr_ok(p, sizeof(sc), false))
		return EFAULT;
	memcpy(&sc, ptr_of(p), sizeof(sc));
	if (sc.flags || sc.reserved)
		return EINVAL;
	if (sc.count > FTD_SCOPE_MAX)
		return E2BIG;
	if (sc.count) {
		/* Only the ids dev_ioctl() put in good are known to be there. */
		if (sc.nodes != (uintptr_t)(good + SCOPE_IDS_AT))
			return EFAULT;
		for (i = 0; i < sc.count; i++) {
			memcpy(&id, good + SCOPE_IDS_AT + 4 * i, sizeof(id));
			if (id == FTD_NODE_NONE)
				return EINVAL;
		}
	}
	if (!registered[fdi])
		return ENOENT;
	/* Scoped (success), unscoped (EINVAL), or another uid's (EPERM). */
	*maybe_ok = true;
	*alt = EPERM;
	return EINVAL;
}

static int ioctl_expect(unsigned int cmd, enum ptr p, int fdi, const struct ftd_rank_reg *reg,
			bool *maybe_ok, int *alt)
{
	*maybe_ok = false;
	*alt = 0;
	if (_IOC_TYPE(cmd) != FTD_IOC_MAGIC)
		return ENOTTY;
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(FTD_IOC_REGISTER):
		if (cmd != FTD_IOC_REGISTER)
			return EINVAL;
		if (!ptr_ok(p, sizeof(*reg), false))
			return EFAULT;
		if (reg->flags & ~__FTD_REG_F_ALL)
			return EINVAL;
		if (!(reg->flags & FTD_REG_F_OWNER) && reg->owner)
			return EINVAL;
		if ((reg->flags & FTD_REG_F_OWNER) && reg->owner == 0xffffffffU)
			return EINVAL;
		/*
		 * The kernel judges the owner before the file's state: a uid
		 * the namespace does not map is EINVAL even on a registered file.
		 */
		if (registered[fdi]) {
			if (reg->flags & FTD_REG_F_OWNER)
				*alt = EINVAL;
			return EBUSY;
		}
		*maybe_ok = true;
		if (reg->flags & FTD_REG_F_OWNER)
			*alt = EINVAL;	/* a uid the namespace does not map */
		return EPERM;		/* or success */
	case _IOC_NR(FTD_IOC_DEREGISTER):
		if (cmd != FTD_IOC_DEREGISTER)
			return EINVAL;
		if (registered[fdi]) {
			*maybe_ok = true;
			return EPERM;
		}
		return ENOENT;
	case _IOC_NR(FTD_IOC_INFO):
		if (cmd != FTD_IOC_INFO)
			return EINVAL;
		if (!ptr_ok(p, sizeof(struct ftd_info), true))
			return EFAULT;
		*maybe_ok = true;
		return 0;
	case _IOC_NR(FTD_IOC_SCOPE):
		return scope_expect(cmd, p, fdi, maybe_ok, alt);
	}
	return ENOTTY;
}

/* A scope in good, mostly well formed, its ids at SCOPE_IDS_AT. */
static void good_scope(void)
{
	struct ftd_scope sc = {
		.count = (uint32_t)PICK(0, 1, 3, FTD_SCOPE_MAX, FTD_SCOPE_MAX + 1),
		.flags = chance(90) ? 0 : (uint32_t)rnd64(),
		.nodes = chance(80) ? (uintptr_t)(good + SCOPE_IDS_AT) : (uint64_t)rnd64(),
		.reserved = chance(90) ? 0 : rnd64(),
	};
	uint32_t i, id;

	for (i = 0; i < FTD_SCOPE_MAX; i++) {
		id = chance(99) ? (uint32_t)rnd(64) : FTD_NODE_NONE;
		memcpy(good + SCOPE_IDS_AT + 4 * i, &id, sizeof(id));
	}
	memcpy(good, &sc, sizeof(sc));
}

static void dev_ioctl(void)
{
	unsigned int r = rnd(100), dir, type, nr, size, cmd;
	int fdi = (int)rnd(FD_N), ret, err, expect;
	enum ptr p = chance(50) ? P_GOOD : (enum ptr)rnd(P_N);
	struct ftd_rank_reg reg;
	unsigned long arg;
	bool maybe_ok;
	int alt;

	static const unsigned int real[] = { FTD_IOC_REGISTER, FTD_IOC_DEREGISTER, FTD_IOC_INFO,
					     FTD_IOC_SCOPE };

	dir = rnd(4);
	size = chance(60) ? (unsigned int)PICK(0, 1, 4, 8, 12, 16, 20, 24, 32, 64, 4096)
			  : rnd(_IOC_SIZEMASK + 1);
	if (r < 30) {
		cmd = real[rnd(4)];
	} else if (r < 55) {
		cmd = _IOC(dir, FTD_IOC_MAGIC, 1 + rnd(4), size);
	} else if (r < 75) {
		cmd = _IOC(dir, FTD_IOC_MAGIC, rnd(256), size);
	} else {
		do {
			cmd = chance(50) ? (uint32_t)rnd64()
					 : _IOC(dir, rnd(256), chance(50) ? 1 + rnd(3) : rnd(256), size);
			type = _IOC_TYPE(cmd);
			nr = _IOC_NR(cmd);
		} while (vfs_ioctl_type(type, nr));
	}

	/* What a REGISTER would carry; without -a it never registers. */
	memset(&reg, 0, sizeof(reg));
	if (p == P_RO) {
		memset(&reg, 0xff, sizeof(reg));
	} else if (p == P_GOOD) {
		reg.job = 1 + rnd(4);
		reg.rank = rnd(4);
		reg.flags = chance(70) ? 0 : chance(50) ? FTD_REG_F_OWNER :
			    chance(50) ? FTD_REG_F_SCOPED : (uint32_t)rnd64();
		reg.owner = reg.flags & FTD_REG_F_OWNER ? (uint32_t)PICK(0, 65534, 0xffffffff, 1000)
							 : chance(85) ? 0 : (uint32_t)rnd64();
		if (!opt_admin)
			reg.flags |= 0x80000000U;
		memcpy(good, &reg, sizeof(reg));
		if (_IOC_NR(cmd) == _IOC_NR(FTD_IOC_SCOPE))
			good_scope();
	} else if (p == P_EDGE) {
		memset(edge, 0, 8);
	}
	arg = (unsigned long)ptr_of(p);
	if (p == P_ONE && chance(50))
		arg = 2 + rnd(4094);	/* a small integer: as bad as (void *)1 */
	expect = ioctl_expect(cmd, p, fdi, &reg, &maybe_ok, &alt);
	/* Without -a nothing may register, so nothing may be registered. */
	if (!opt_admin && cmd == FTD_IOC_REGISTER && maybe_ok) {
		violation("generated a valid registration outside -a");
		return;
	}

	verbose("ioctl(fd %d, 0x%08x, %s)", fdi, cmd, ptr_names[p]);
	ret = ioctl(fds[fdi], cmd, arg);
	err = ret < 0 ? errno : 0;
	if (ret > 0)
		violation("ioctl 0x%08x returned %d", cmd, ret);
	hist_add(&h_ioctl, err);
	verbose("  -> %s (expected %s%s)", ename(err), ename(expect), maybe_ok ? " or success" : "");
	if (err == expect || (maybe_ok && !err) || (alt && err == alt)) {
		if (!err && cmd == FTD_IOC_REGISTER)
			registered[fdi] = true;
		if (!err && cmd == FTD_IOC_DEREGISTER)
			registered[fdi] = false;
		if (!err && cmd == FTD_IOC_INFO) {
			struct ftd_info info;

			memcpy(&info, ptr_of(p), sizeof(info));
			if (info.version != FTD_EVENT_VERSION || info.event_size != EV_SIZE ||
			    info.up > 1)
				violation("FTD_IOC_INFO: version %u event_size %u up %u", info.version,
					  info.event_size, info.up);
		}
		return;
	}
	violation("ioctl(%s fd, 0x%08x [dir %u type 0x%02x nr %u size %u], %s): %s, expected %s%s",
		  fdi == FD_RO ? "O_RDONLY" : fdi == FD_RW ? "O_RDWR" : "O_WRONLY", cmd,
		  _IOC_DIR(cmd), _IOC_TYPE(cmd), _IOC_NR(cmd), _IOC_SIZE(cmd), ptr_names[p],
		  ename(err), ename(expect), maybe_ok ? " or success" : "");
	/* a registration we did not expect: note it */
	if (!err && cmd == FTD_IOC_REGISTER)
		registered[fdi] = true;
}

/* Whole, valid records, none lost: a reader sees every event, in order. */
static void check_events(const uint8_t *p, size_t n, int fdi)
{
	size_t off;

	for (off = 0; off + EV_SIZE <= n; off += EV_SIZE) {
		struct ftd_event ev;

		memcpy(&ev, p + off, sizeof(ev));
		events_read++;
		/* an OVERFLOW record stands for count events from its seq on */
		if (last_seq[fdi] && ev.seq != last_seq[fdi] + 1)
			violation("event seq %" PRIu64 " after %" PRIu64 " on one file (%s)",
				  (uint64_t)ev.seq, last_seq[fdi], ev.seq > last_seq[fdi] + 1 ?
				  "events lost silently" : "an event repeated");
		last_seq[fdi] = ev.type == FTD_EV_OVERFLOW && ev.count ? ev.seq + ev.count - 1 : ev.seq;
		if (ev.version != FTD_EVENT_VERSION || ev.size != EV_SIZE || !ev.type ||
		    ev.type > FTD_EV_MAX || ev.flags)
			violation("a malformed event record (version %u size %u type %u flags %u)",
				  ev.version, ev.size, ev.type, ev.flags);
		if (!opt_admin)
			printf("# note: event %u about node %u while fuzzing\n", ev.type, ev.node);
	}
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void dev_read(void)
{
	int fdi = (int)rnd(FD_N), err;
	enum ptr p = chance(50) ? P_GOOD : (enum ptr)rnd(P_N);
	size_t count = (size_t)PICK(0, 1, EV_SIZE - 1, EV_SIZE, EV_SIZE + 1, 2 * EV_SIZE, 1000,
				    4096, GOOD_SIZE, 1ULL << 62);
	ssize_t n;
	bool blocking = chance(3);

	if (chance(10))
		count = rnd(2 * EV_SIZE);
	if (blocking) {
		/* a blocking read must wake for a signal: no hang */
		struct sigaction sa = { .sa_handler = on_alarm };
		struct itimerval it = { .it_value = { 0, 30000 } };

		fdi = FD_RO;
		p = P_GOOD;
		count = EV_SIZE * (1 + rnd(4));
		sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART */
		setitimer(ITIMER_REAL, &it, NULL);
		verbose("blocking read(%zu) until SIGALRM", count);
		n = read(blkfd, good, count);
		err = n < 0 ? errno : 0;
		memset(&it, 0, sizeof(it));
		setitimer(ITIMER_REAL, &it, NULL);
		hist_add(&h_read, err);
		if (n < 0 && err != EINTR)
			violation("a blocking read interrupted by a signal: %s, not EINTR", ename(err));
		else if (n >= 0 && (n == 0 || n % (ssize_t)EV_SIZE))
			violation("blocking read returned %zd", n);
		else if (n > 0)
			check_events(good, (size_t)n, FD_N);
		return;
	}
	verbose("read(fd %d, %s, %zu)", fdi, ptr_names[p], count);
	n = read(fds[fdi], ptr_of(p), count);
	err = n < 0 ? errno : 0;
	hist_add(&h_read, err);
	verbose("  -> %zd %s", n, ename(err));
	if (fdi == FD_WO) {
		if (err != EBADF)
			violation("read on an O_WRONLY file: %s, not EBADF", ename(err));
		return;
	}
	if (n >= 0) {
		/* Whole records only, into memory that can take them. */
		if (p != P_GOOD || count > GOOD_SIZE || count < EV_SIZE)
			violation("read(%s, %zu) succeeded (%zd)", ptr_names[p], count, n);
		else if (n == 0 || n % (ssize_t)EV_SIZE || (size_t)n > count)
			violation("read(%zu) returned %zd", count, n);
		else
			check_events(good, (size_t)n, fdi);
		return;
	}
	if (err == EINVAL && count < EV_SIZE)
		return;
	/* the VFS checks the range first; the driver when it copies a record */
	if (err == EFAULT && (p != P_GOOD || count > GOOD_SIZE) &&
	    (count >= EV_SIZE || p == P_KERNEL || p == P_NONCANON))
		return;
	if (err == EAGAIN && count >= EV_SIZE)
		return;
	violation("read(%s fd, %s, %zu): %s", fdi == FD_RO ? "O_RDONLY" : "O_RDWR", ptr_names[p],
		  count, ename(err));
}

static void dev_write(void)
{
	int fdi = (int)rnd(FD_N), err, expect;
	enum ptr p = (enum ptr)rnd(P_N);
	size_t count = (size_t)PICK(0, 1, EV_SIZE, 4096, 1ULL << 62);
	unsigned int how = rnd(4);
	ssize_t n;
	struct iovec iov;
	const char *name[] = { "write", "writev", "pwrite", "pread" };

	if (count > 4096 && p == P_GOOD)
		count = 4096;
	iov.iov_base = ptr_of(p);
	iov.iov_len = count;
	switch (how) {
	case 0: n = write(fds[fdi], ptr_of(p), count); break;
	case 1: n = writev(fds[fdi], &iov, 1); break;
	case 2: n = pwrite(fds[fdi], ptr_of(p), count, (off_t)rnd(4096)); break;
	default: n = pread(fds[fdi], ptr_of(p), count, (off_t)rnd(4096)); break;
	}
	err = n < 0 ? errno : 0;
	hist_add(&h_write, err);
	if (how >= 2)
		expect = ESPIPE;
	else
		expect = fdi == FD_RO ? EBADF : EINVAL;
	verbose("%s(fd %d, %s, %zu) -> %zd %s", name[how], fdi, ptr_names[p], count, n, ename(err));
	if (n >= 0)
		violation("%s(%s, %zu) on /dev/ftdetect succeeded (%zd)", name[how], ptr_names[p],
			  count, n);
	else if (how == 1 && err == EFAULT && !ptr_ok(p, count, false))
		;	/* writev checks its vector before the file */
	else if (err != expect)
		violation("%s on fd %d: %s, expected %s", name[how], fdi, ename(err), ename(expect));
}

static void dev_lseek(void)
{
	int fdi = (int)rnd(FD_N), err;
	off_t n = lseek(fds[fdi], (off_t)rnd(100), (int)rnd(3));

	err = n < 0 ? errno : 0;
	hist_add(&h_other, err);
	if (err != ESPIPE)
		violation("lseek: %s (%jd), not ESPIPE", ename(err), (intmax_t)n);
}

static sigjmp_buf segv_jmp;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(segv_jmp, 1);
}

static void dev_mmap(void)
{
	int fdi = (int)rnd(FD_N), prot, flags, err, expect = 0;
	size_t len;
	off_t off;
	void *m;
	unsigned int r;
	bool huge;

	r = rnd(100);
	len = r < 40 ? 4096 : r < 60 ? table_size : r < 70 ? table_size + 4096 :
	      r < 78 ? 0 : r < 85 ? 1 + rnd(table_size) : r < 92 ? rnd64() >> rnd(64) : 1 + rnd(100);
	r = rnd(100);
	off = r < 60 ? 0 : r < 75 ? 4096 * (off_t)(1 + rnd(16)) : r < 85 ? (off_t)rnd(4096) :
	      r < 92 ? (off_t)table_size : (off_t)(rnd64() & ~4095ULL & INT64_MAX);
	prot = (int)PICK(PROT_READ, PROT_READ, PROT_READ, PROT_NONE, PROT_WRITE,
			 PROT_READ | PROT_WRITE, PROT_READ | PROT_EXEC, PROT_READ | PROT_WRITE | PROT_EXEC);
	flags = (int)PICK(MAP_SHARED, MAP_SHARED, MAP_PRIVATE, MAP_SHARED_VALIDATE);
	if (chance(20))
		flags |= (int)PICK(MAP_POPULATE, MAP_NORESERVE, MAP_LOCKED);

	/* What the VFS, then the driver, must say (mm/mmap.c do_mmap order);
	 * huge lengths and offsets may fail earlier in the VFS. */
	huge = len > (64ULL << 20) || (uint64_t)off > (1ULL << 32);	/* VM accounting, limits */
	if (!len)
		expect = EINVAL;
	else if (off % 4096)
		expect = EINVAL;
	else if (fdi == FD_WO)
		expect = EACCES;
	else if ((flags & MAP_TYPE) != MAP_PRIVATE && (prot & PROT_WRITE) && fdi == FD_RO)
		expect = EACCES;
	else if (prot & PROT_WRITE)
		expect = EPERM;
	else if (off)
		expect = EINVAL;
	else if (len > table_size)
		expect = EINVAL;

	verbose("mmap(%zu, prot %d, flags 0x%x, fd %d, off %jd)", len, prot, flags, fdi,
		(intmax_t)off);
	m = mmap(NULL, len, prot, flags, fds[fdi], off);
	err = m == MAP_FAILED ? errno : 0;
	hist_add(&h_mmap, err);
	verbose("  -> %s", ename(err));
	if (err) {
		if (err == expect)
			return;
		if (huge && (err == ENOMEM || err == EOVERFLOW || err == EINVAL))
			return;
		/* PROT_EXEC on a noexec /dev */
		if (err == EPERM && (prot & PROT_EXEC) && expect != EINVAL)
			return;
		/* MAP_LOCKED: RLIMIT_MEMLOCK */
		if ((err == EAGAIN || err == ENOMEM || err == EPERM) && (flags & MAP_LOCKED))
			return;
		violation("mmap(len %zu, prot %d, flags 0x%x, %s, off %jd): %s, expected %s", len,
			  prot, flags, fdi == FD_RO ? "O_RDONLY" : fdi == FD_RW ? "O_RDWR" : "O_WRONLY",
			  (intmax_t)off, ename(err), ename(expect));
		return;
	}
	if (expect) {
		violation("mmap(len %zu, prot %d, flags 0x%x, fd %d, off %jd) succeeded, expected %s",
			  len, prot, flags, fdi, (intmax_t)off, ename(expect));
		munmap(m, len);
		return;
	}
	if (prot & PROT_READ) {
		const struct ftd_status_hdr *h = m;

		if (h->magic != FTD_STATUS_MAGIC || h->size != table_size)
			violation("mapped status table: magic 0x%x size %u", h->magic, h->size);
		/* the last page is there too */
		(void)*(volatile const uint8_t *)((uint8_t *)m + ((len - 1) & ~4095UL));
	}
	/* It stays read-only: mprotect to write, and a write, must fail. */
	if (mprotect(m, len, PROT_READ | PROT_WRITE) == 0) {
		hist_add(&h_other, 0);
		violation("mprotect(PROT_WRITE) of the status table succeeded");
	} else {
		err = errno;
		hist_add(&h_other, err);
		if (err != EACCES)
			violation("mprotect(PROT_WRITE): %s, not EACCES", ename(err));
	}
	if ((prot & PROT_READ) && chance(20)) {
		struct sigaction sa = { .sa_handler = on_segv }, old;

		sigaction(SIGSEGV, &sa, &old);
		if (!sigsetjmp(segv_jmp, 1)) {
			*(volatile uint8_t *)((uint8_t *)m + 64) = 0x5a;
			violation("a write to the status table mapping did not fault");
		}
		sigaction(SIGSEGV, &old, NULL);
	}
	if (chance(20)) {
		void *g = mremap(m, len, len + 4096, MREMAP_MAYMOVE);

		hist_add(&h_other, g == MAP_FAILED ? errno : 0);
		if (g != MAP_FAILED) {
			violation("mremap grew the status table mapping");
			m = g;
			len += 4096;
		}
	}
	munmap(m, len);
}

static void dev_poll(void)
{
	struct pollfd pfd[FD_N + 1];
	int i, n = 1 + (int)rnd(FD_N), ret, err;
	bool bad = chance(10);

	for (i = 0; i < n; i++) {
		pfd[i].fd = fds[rnd(FD_N)];
		pfd[i].events = (short)(chance(50) ? POLLIN : rnd(0x10000));
		pfd[i].revents = (short)rnd(0x10000);
	}
	static const enum ptr badp[] = { P_NULL, P_ONE, P_HOLE, P_RO, P_KERNEL, P_NONCANON };

	ret = poll(bad ? (struct pollfd *)ptr_of(badp[rnd(6)]) : pfd,
		   (nfds_t)n, chance(80) ? 0 : 10);
	err = ret < 0 ? errno : 0;
	hist_add(&h_poll, err);
	if (bad) {
		if (ret >= 0 || err != EFAULT)
			violation("poll on a bad pointer: %d %s, not EFAULT", ret, ename(err));
		return;
	}
	if (ret < 0) {
		violation("poll: %s", ename(err));
		return;
	}
	for (i = 0; i < n; i++)
		if (pfd[i].revents & ~(POLLIN | POLLRDNORM))
			violation("poll revents 0x%x (asked 0x%x)", pfd[i].revents & 0xffff,
				  pfd[i].events & 0xffff);
}

static void dev_case(void)
{
	unsigned int r = rnd(100);

	if (r < 45) {
		cur_what = "ioctl";
		dev_ioctl();
	} else if (r < 63) {
		cur_what = "read";
		dev_read();
	} else if (r < 73) {
		cur_what = "write";
		dev_write();
	} else if (r < 75) {
		cur_what = "lseek";
		dev_lseek();
	} else if (r < 90) {
		cur_what = "mmap";
		dev_mmap();
	} else if (r < 98) {
		cur_what = "poll";
		dev_poll();
	} else {
		cur_what = "reopen";
		dev_reopen((int)rnd(FD_N));	/* with -a: a registered file closing */
	}
}

/* ------------------------------------------------------------------ -R: known cases */

/* One well-formed request on nlfd: its errno, 0 on success. */
static int nl_do(uint8_t cmd, const struct buf *body)
{
	static struct buf d;
	struct req q;

	simple_request(&d, &q, cmd, NLM_F_REQUEST | NLM_F_ACK, body);
	if (!send_dgram(nlfd, &d, 1) || !collect(&q, 1))
		return -1;
	return q.got;
}

static void put_u8_attr(struct buf *b, uint16_t type, uint8_t v)
{
	attr_put(b, type, &v, 1);
}

static void put_u64_attr(struct buf *b, uint16_t type, uint64_t v)
{
	attr_put(b, type, &v, 8);
}

/* Takes the instance down, then configures node 1 of cluster 1 (peer 2) and brings it up. */
static int repro_up(void)
{
	static struct buf b;
	int ret;

	b.len = 0;
	if ((ret = nl_do(FTDETECT_CMD_DOWN, &b)))
		return ret;
	put_u32_attr(&b, FTDETECT_A_CLUSTER_ID, 1);
	put_u32_attr(&b, FTDETECT_A_LOCAL_NODE, 1);
	attr_put(&b, FTDETECT_A_PORT, &(uint16_t){ 7161 }, 2);
	put_u64_attr(&b, FTDETECT_A_PERIOD_NS, 10000000);
	put_u64_attr(&b, FTDETECT_A_TIMEOUT_NS, 50000000);
	put_u8_attr(&b, FTDETECT_A_OBSERVERS, 2);
	put_u8_attr(&b, FTDETECT_A_QUORUM, 1);
	if ((ret = nl_do(FTDETECT_CMD_SET_CONFIG, &b)))
		return ret;
	if ((ret = node_change(nlfd, nl_portid, 1, false)) ||
	    (ret = node_change(nlfd, nl_portid, 2, false)))
		return ret;
	b.len = 0;
	put_u8_attr(&b, FTDETECT_A_UP, 1);
	return nl_do(FTDETECT_CMD_SET_CONFIG, &b);
}

/*
 * Each case: a state, then a request that must fail, and must leave the
 * configuration and node table as they were.
 */
static int run_repro(void)
{
	static struct buf b;
	struct snap before, after;
	char db[512], da[512];
	unsigned int i, failed = 0;
	int ret;
	static const char *const names[] = {
		"SET_CONFIG {LOCAL_NODE 7, UP 1}, node 7 not in the table: fails, changes nothing",
		"SET_CONFIG {UP 0, TIMEOUT_NS 1 period} while up: fails, changes nothing",
		"SET_CONFIG {UP 0, QUORUM 3 > OBSERVERS 2} while up: fails, changes nothing",
		"SET_CONFIG {UP 1, TIMEOUT_NS 1 period} while down: fails, changes nothing",
	};

	printf("1..%zu\n", sizeof(names) / sizeof(names[0]));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		cur_case = i;
		ret = repro_up();
		if (ret) {
			printf("not ok %u %s # setup failed: %s\n", i + 1, names[i], ename(ret));
			failed++;
			continue;
		}
		b.len = 0;
		switch (i) {
		case 0:
			b.len = 0;
			nl_do(FTDETECT_CMD_DOWN, &b);
			put_u32_attr(&b, FTDETECT_A_LOCAL_NODE, 7);
			put_u8_attr(&b, FTDETECT_A_UP, 1);
			break;
		case 1:
			put_u8_attr(&b, FTDETECT_A_UP, 0);
			put_u64_attr(&b, FTDETECT_A_TIMEOUT_NS, 10000000);
			break;
		case 2:
			put_u8_attr(&b, FTDETECT_A_UP, 0);
			put_u8_attr(&b, FTDETECT_A_QUORUM, 3);
			break;
		case 3:
			nl_do(FTDETECT_CMD_DOWN, &b);
			put_u8_attr(&b, FTDETECT_A_UP, 1);
			put_u64_attr(&b, FTDETECT_A_TIMEOUT_NS, 10000000);
			break;
		}
		if (!take_snap(&before)) {
			printf("not ok %u %s # no snapshot\n", i + 1, names[i]);
			failed++;
			continue;
		}
		ret = nl_do(FTDETECT_CMD_SET_CONFIG, &b);
		take_snap(&after);
		describe(&before, db, sizeof(db));
		describe(&after, da, sizeof(da));
		if (!ret) {
			printf("not ok %u %s # it succeeded\n", i + 1, names[i]);
			failed++;
		} else if (before.cfg_len != after.cfg_len ||
			   memcmp(before.cfg, after.cfg, before.cfg_len) ||
			   before.nodes != after.nodes || before.node_hash != after.node_hash) {
			printf("not ok %u %s # %s, but it changed the instance\n", i + 1, names[i],
			       ename(ret));
			printf("#   before: %s\n#   after:  %s\n", db, da);
			failed++;
		} else {
			printf("ok %u %s # %s\n", i + 1, names[i], ename(ret));
		}
	}
	b.len = 0;
	nl_do(FTDETECT_CMD_DOWN, &b);
	return failed ? 1 : 0;
}

/* ------------------------------------------------------------------ main */

static bool has_net_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return geteuid() == 0;
	return d[CAP_NET_ADMIN / 32].effective & (1U << (CAP_NET_ADMIN % 32));
}

static void *watchdog(void *arg)
{
	unsigned long last = progress;
	int still = 0;

	(void)arg;
	for (;;) {
		sleep(1);
		if (progress != last) {
			last = progress;
			still = 0;
			continue;
		}
		if (++still >= 20) {
			printf("# HANG: case %lu (-s %" PRIu64 " -i %lu%s, %s) made no progress in 20 s\n",
			       cur_case, opt_seed, cur_case, opt_admin ? " -a" : "", cur_what);
			printf("not ok 1 hang\n");
			fflush(stdout);
			_exit(3);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	bool seeded = false, counted = false;
	double start, end;
	unsigned long c, first = 0, last, cases = 0;
	pthread_t wd;
	sigset_t all, old;
	int opt, i;
	static const char *const cmd_names[] = { "UNSPEC", "GET_CONFIG", "SET_CONFIG", "DOWN",
		"ADD_NODE", "DEL_NODE", "GET_NODE", "GET_STATS", "EVENT" };

	while ((opt = getopt(argc, argv, "n:s:t:am:i:T:vR")) != -1) {
		switch (opt) {
		case 'n': opt_iterations = strtoul(optarg, NULL, 0); counted = true; break;
		case 's': opt_seed = strtoull(optarg, NULL, 0); seeded = true; break;
		case 't': opt_seconds = atof(optarg); break;
		case 'a': opt_admin = true; break;
		case 'm':
			do_nl = !strcmp(optarg, "nl") || !strcmp(optarg, "all");
			do_dev = !strcmp(optarg, "dev") || !strcmp(optarg, "all");
			if (!do_nl && !do_dev)
				usage();
			break;
		case 'i': opt_case = strtol(optarg, NULL, 0); break;
		case 'T': opt_reply_timeout = atoi(optarg); break;
		case 'v': opt_verbose = true; break;
		case 'R': opt_repro = true; break;
		default: usage();
		}
	}
	if (optind != argc || opt_reply_timeout < 1)
		usage();
	if (opt_seconds > 0 && !counted)
		opt_iterations = ULONG_MAX;	/* -t alone: as many as fit */
	if (!seeded && getrandom(&opt_seed, sizeof(opt_seed), 0) != sizeof(opt_seed))
		opt_seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	opt_seed &= 0xffffffffffffULL;	/* short enough to type */
	setvbuf(stdout, NULL, _IOLBF, 0);
	privileged = has_net_admin();

	printf("TAP version 13\n");
	if (!opt_repro)
		printf("# ftd-nlfuzz: seed %" PRIu64 " (-s %" PRIu64 "%s), %s, %s%s\n", opt_seed, opt_seed,
	       opt_admin ? " -a" : "", privileged ? "with CAP_NET_ADMIN" : "without CAP_NET_ADMIN",
	       opt_admin ? "state changes allowed" : "no state change allowed",
	       do_nl && do_dev ? "" : do_nl ? ", netlink only" : ", /dev/ftdetect only");
	if (do_nl || opt_repro)
		nl_open();
	if (opt_repro) {
		printf("# ftd-nlfuzz -R: requests that must fail without changing the instance\n");
		return run_repro();
	}
	if (do_dev)
		dev_open();

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_create(&wd, NULL, watchdog, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	last = opt_iterations;
	if (opt_case >= 0) {
		first = (unsigned long)opt_case;
		last = first + 1;
	}
	start = now_s();
	end = opt_seconds > 0 ? start + opt_seconds : 0;
	for (c = first; c < last; c++) {
		if (end && now_s() > end)
			break;
		cur_case = c;
		seed_case(c);
		progress++;
		if (do_nl && (!do_dev || chance(65))) {
			cur_what = "netlink";
			nl_case();
		} else {
			dev_case();
		}
		cases++;
	}
	progress++;

	printf("# %lu cases in %.1f s (seed %" PRIu64 ")\n", cases, now_s() - start, opt_seed);
	if (do_nl) {
		printf("# netlink: %lu messages in %lu datagrams, %lu data replies, %lu dumps done"
		       " (%lu of several parts)\n", nl_msgs, nl_datagrams, nl_data_msgs, nl_dumps_done,
		       nl_multipart);
		if (opt_admin)
			printf("# netlink: %lu failed or unprocessed requests shown to change nothing\n",
			       atomic_checks);
		hist_print(&nl_hist);
		printf("# netlink  by command (succeeded/sent):");
		for (i = 0; i <= FTDETECT_CMD_MAX + 1; i++)
			if (cmd_sent[i])
				printf(" %s %lu/%lu", i < (int)(sizeof(cmd_names) / sizeof(cmd_names[0])) &&
				       i <= FTDETECT_CMD_MAX ? cmd_names[i] : "other", cmd_ok[i],
				       cmd_sent[i]);
		printf("\n");
	}
	if (do_dev) {
		if (events_read)
			printf("# /dev/ftdetect: %lu event records read\n", events_read);
		hist_print(&h_ioctl);
		hist_print(&h_read);
		hist_print(&h_write);
		hist_print(&h_mmap);
		hist_print(&h_poll);
		hist_print(&h_other);
	}
	printf("1..1\n");
	if (violations) {
		printf("not ok 1 ftd-nlfuzz: %lu violation(s); reproduce one with -s %" PRIu64
		       " -i CASE -v%s\n", violations, opt_seed, opt_admin ? " -a" : "");
		return 1;
	}
	printf("ok 1 ftd-nlfuzz: %lu cases, no violation\n", cases);
	return 0;
}
