// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the freshness rules of the protocol core
 * (kmod/proto/fresh.c on top of the replay window, kmod/proto/replay.c),
 * driven the way the module drives them (kmod/fresh.c): one member's
 * MAC-valid frames arrive at node SELF; PROBE notices go to
 * ftd_fresh_answer_probe(), everything else to ftd_fresh_check(); we PROBE
 * with ftd_fresh_ask_due() and ftd_fresh_ping_due(); the clock only moves
 * forward. Every frame is one the member really made (the MAC proves that
 * much) but may arrive any number of times, in any order: the input
 * chooses new frames and replays of earlier ones.
 *
 * Input: two header bytes (mode, `every`), then operations, one opcode
 * byte each (low 3 bits) followed by its arguments; missing bytes read as 0.
 *
 * After each operation an independent model, written from the rules in
 * fresh.h and replay.h (not from fresh.c), checks:
 *  (a) a frame whose receiver is not SELF is never OK/PROVEN, and changes
 *      nothing;
 *  (b) the same (incarnation, rail, notice seq) is never accepted twice,
 *      whether by ftd_fresh_check() (FTD_FRESH_OK) or by the notice window
 *      of ftd_fresh_answer_probe();
 *  (c) nothing is OK before a PROVEN: the member starts unproven;
 *  (d) after PROVEN with floors, no heartbeat seq <= hb_floor and no notice
 *      seq <= notice_floor of that incarnation is OK;
 *  (e) a frame of an incarnation lower than the proven one is never OK;
 * and, so that a check refusing everything cannot pass, the converse where
 * the rules say so: a PROBE_ACK echoing our outstanding nonce proves; once
 * proven, a heartbeat above the floor and a notice never seen, above the
 * floor and well inside its rail's window are OK; PROBEs and answers follow
 * their rate limits. An OUTDATED (outside honest mode) echoing our
 * outstanding nonce is OUTDATED and changes nothing, the nonce included;
 * any other is a replay.
 *
 * In "honest" mode (header bit 0) the receiver may also lose its state
 * (the peer is re-created: a node table change, a module reload) and the
 * member answers PROBEs as a real one does: at its newest incarnation,
 * with a notice seq above every one it sent and an hb_floor above every
 * heartbeat it sent us, echoing a nonce of ours, which are unique. Then
 * (b) and the heartbeat side of (d) must hold across the restarts too:
 * that is the point of the floors. In the other mode any field is fair
 * game, nonces may repeat, and each receiver lifetime is checked alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/fresh.h"

#define SELF		1u
#define OTHER		2u
#define NR_INC		16
#define HIST		32
#define NR_NONCES	8
#define SET_SLOTS	8192	/* accepted frames; an input stops at half full */

#define CHECK(cond) do {							\
	if (!(cond)) {								\
		fprintf(stderr, "fuzz_fresh: %s:%d: check failed: %s\n",	\
			__FILE__, __LINE__, #cond);				\
		abort();							\
	}									\
} while (0)

/*
 * The incarnations a member may use, ascending (so index order is value
 * order): small ones to meet often, and the edges of the u32.
 */
static const u32 incs[NR_INC] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 100, 101, 1000,
	0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
};

enum op {
	OP_HEARTBEAT,
	OP_NOTICE,
	OP_PROBE_ACK,
	OP_PROBE,
	OP_PROBE_DUE,
	OP_CLOCK,
	OP_RESET,	/* honest mode only; else a clock tick */
	OP_REPLAY,
};

struct gen {
	enum op op;	/* OP_HEARTBEAT .. OP_PROBE */
	struct ftd_frame f;
	struct ftd_notice n;
};

/* Accepted frames: (heartbeat?, incarnation, rail, seq) -> receiver lifetime. */
struct slot {
	u64 seq;
	u32 gen;	/* == set_gen: in use for this input */
	u32 lifetime;
	u8 hb, inc, rail;
};

/* FUZZ_FRESH_TRACE=1: print each step, to read what a crashing input does. */
static bool tracing;

#define trace(...) do {								\
	if (tracing)								\
		fprintf(stderr, __VA_ARGS__);					\
} while (0)

static const char *const verdicts[] = {
	[FTD_FRESH_OK] = "OK",
	[FTD_FRESH_PROVEN] = "PROVEN",
	[FTD_FRESH_ANSWERED] = "ANSWERED",
	[FTD_FRESH_STALE] = "STALE",
	[FTD_FRESH_REPLAY] = "REPLAY",
	[FTD_FRESH_UNPROVEN] = "UNPROVEN",
	[FTD_FRESH_OUTDATED] = "OUTDATED",
};

static const char *verdict_name(enum ftd_fresh_verdict v)
{
	return v <= FTD_FRESH_OUTDATED ? verdicts[v] : "?";
}

static struct slot set[SET_SLOTS];
static u32 set_gen, set_used;

struct reader {
	const u8 *p;
	size_t n;
};

/* The member (what it sent) and the receiver (what the rules imply). */
struct model {
	bool honest;
	u64 every;
	u64 now;
	u32 lifetime;		/* receiver state re-created this many times */

	/* The receiver, this lifetime. */
	u32 cur;		/* proven incarnation; 0: none */
	int cur_idx;		/* its index in incs[] */
	bool proven_seen;	/* a PROVEN this lifetime */
	u64 outstanding;	/* nonce of our outstanding PROBE; 0: none */
	u64 nonce_ns;		/* when that nonce was made */
	u64 probe_ns, ack_ns;	/* last PROBE sent, last answer; 0: never */
	u32 floor_inc;		/* the incarnation the floors belong to */
	u64 hb_floor, notice_floor;
	u64 top[FTD_MAX_RAILS];	/* highest notice seq accepted per rail at cur */

	/* The member, over the whole input (honest mode uses it). */
	int max_idx;		/* newest incarnation it sent; -1: none */
	u64 max_notice[NR_INC];	/* highest notice seq it sent, any receiver */
	u64 max_hb[NR_INC];	/* highest heartbeat seq it sent us */
	u64 nonce_ctr;
	u64 nonces[NR_NONCES];	/* our latest PROBE nonces */
	unsigned int nr_nonces;
	u64 cursor[2];		/* seq cursors: heartbeats, notices */

	struct gen hist[HIST];	/* frames it sent, for replays */
	unsigned int nr_hist;
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

static u32 hash(bool hb, int inc, u8 rail, u64 seq)
{
	u64 h = seq * 0x9e3779b97f4a7c15ULL ^ (u64)(hb << 16 | inc << 8 | rail) * 0xc2b2ae3d27d4eb4fULL;

	return (u32)(h >> 40) % SET_SLOTS;
}

static struct slot *lookup(bool hb, int inc, u8 rail, u64 seq)
{
	u32 i = hash(hb, inc, rail, seq);

	for (;; i = (i + 1) % SET_SLOTS) {
		struct slot *e = &set[i];

		if (e->gen != set_gen || (e->seq == seq && e->hb == hb && e->inc == inc &&
					  e->rail == rail))
			return e;
	}
}

/*
 * Was this frame accepted before, in a lifetime that counts: this one, or
 * any in honest mode (where the floors must cover earlier lifetimes)?
 */
static bool accepted(const struct model *m, bool hb, int inc, u8 rail, u64 seq)
{
	const struct slot *e = lookup(hb, inc, rail, seq);

	return e->gen == set_gen && (m->honest || e->lifetime == m->lifetime);
}

static void accept(struct model *m, bool hb, int inc, u8 rail, u64 seq)
{
	struct slot *e = lookup(hb, inc, rail, seq);

	if (e->gen != set_gen)
		set_used++;
	*e = (struct slot){ .seq = seq, .gen = set_gen, .lifetime = m->lifetime,
			    .hb = hb, .inc = (u8)inc, .rail = rail };
}

static int inc_index(u32 inc)
{
	for (int i = 0; i < NR_INC; i++)
		if (incs[i] == inc)
			return i;
	abort();
}

/* A seq, by one of four recipes the input picks (`mode`, 2 bits). */
static u64 pick_seq(struct model *m, struct reader *r, unsigned int mode, bool hb)
{
	switch (mode & 3) {
	case 0:		/* near the last one: reordering, duplicates */
		m->cursor[hb] += (u64)(s64)(signed char)get8(r);
		return m->cursor[hb];
	case 1:		/* small */
		return get8(r);
	case 2:		/* epoch:count, as heartbeats are numbered (proto/seq.h) */
		return (u64)get8(r) << 32 | get16(r);
	default:
		return get64(r);
	}
}

/* A new PROBE nonce of ours, as the module draws them: never the same. */
static u64 next_nonce(struct model *m, struct reader *r)
{
	if (!m->honest)
		return get64(r);	/* may be 0 (recorded as 1) or repeat */
	return 0x6e6f6e6365000000ULL + ++m->nonce_ctr;
}

static void forget_window(struct model *m)
{
	memset(m->top, 0, sizeof(m->top));
}

/* Checks that hold whatever path the model took. */
static void check_invariants(const struct model *m, const struct ftd_frame *f, bool hb,
			     enum ftd_fresh_verdict v, u32 cur_before)
{
	CHECK(v <= FTD_FRESH_OUTDATED);
	if (v != FTD_FRESH_OK && v != FTD_FRESH_PROVEN && v != FTD_FRESH_ANSWERED)
		return;
	CHECK(f->receiver == SELF);				/* (a) */
	if (v != FTD_FRESH_OK)
		return;
	CHECK(m->proven_seen && m->cur);			/* (c) */
	CHECK(!cur_before || f->incarnation >= cur_before);	/* (e) */
	if (f->incarnation == m->floor_inc) {			/* (d) */
		if (hb)
			CHECK(f->seq > m->hb_floor);
		else
			CHECK(f->seq > m->notice_floor);
	}
}

/*
 * A notice at the proven incarnation through the window: the verdict the
 * rules give, or -1 where they leave it open (a seq old enough that the
 * window may have forgotten it).
 */
static int window_expect(const struct model *m, const struct ftd_frame *f)
{
	int idx = inc_index(f->incarnation);

	if (f->rail >= FTD_MAX_RAILS || f->seq <= m->notice_floor)
		return FTD_FRESH_REPLAY;
	if (accepted(m, false, idx, f->rail, f->seq))
		return FTD_FRESH_REPLAY;				/* (b) */
	if (f->seq > m->top[f->rail] ||
	    m->top[f->rail] - f->seq < FTD_REPLAY_WINDOW - 64)
		return FTD_FRESH_OK;
	return -1;
}

static void window_accepted(struct model *m, const struct ftd_frame *f)
{
	accept(m, false, inc_index(f->incarnation), f->rail, f->seq);
	if (f->seq > m->top[f->rail])
		m->top[f->rail] = f->seq;
}

/* The incarnation rises above the proven one: proven by itself. */
static void model_restart(struct model *m, u32 inc)
{
	m->cur = inc;
	m->cur_idx = inc_index(inc);
	m->floor_inc = inc;
	m->hb_floor = m->notice_floor = 0;
	forget_window(m);
}

/* A heartbeat or a notice other than a PROBE: ftd_fresh_check(). */
static void deliver_check(struct model *m, struct ftd_fresh *s, const struct gen *g)
{
	const struct ftd_frame *f = &g->f;
	bool hb = g->op == OP_HEARTBEAT, ack = g->op == OP_PROBE_ACK;
	bool outdated = ack && g->n.kind == FTD_NOTICE_OUTDATED;
	struct ftd_fresh before = *s;
	u32 cur_before = m->cur;
	enum ftd_fresh_verdict v;
	int want;

	v = ftd_fresh_check(s, f, SELF, hb ? NULL : &g->n);
	trace("t=%llu %s to %u inc %u rail %u seq %llu nonce %#llx hb_floor %llu: %s\n",
	      (unsigned long long)m->now,
	      hb ? "heartbeat" : outdated ? "OUTDATED" : ack ? "PROBE_ACK" : "notice",
	      f->receiver, f->incarnation, f->rail, (unsigned long long)f->seq,
	      (unsigned long long)g->n.nonce, (unsigned long long)g->n.hb_floor,
	      verdict_name(v));
	check_invariants(m, f, hb, v, cur_before);

	/* Not for us, no incarnation at all (0), or an older one. */
	if (f->receiver != SELF || !f->incarnation || (m->cur && f->incarnation < m->cur)) {
		CHECK(v == (f->receiver != SELF ? FTD_FRESH_REPLAY : FTD_FRESH_STALE));
		CHECK(!memcmp(&before, s, sizeof(before)));
		return;
	}
	if (outdated) {
		/* Our PROBE refused: said so for our nonce, and nothing changes. */
		CHECK(v == (m->outstanding && g->n.nonce == m->outstanding ? FTD_FRESH_OUTDATED :
								       FTD_FRESH_REPLAY));
		CHECK(!memcmp(&before, s, sizeof(before)));
		return;
	}
	if (ack) {
		if (m->outstanding && g->n.nonce == m->outstanding && m->cur &&
		    f->incarnation == m->cur) {
			/* A ping answered: alive now, proof and windows unchanged. */
			CHECK(v == FTD_FRESH_ANSWERED);
			m->outstanding = 0;
			before.ask.nonce = 0;
			CHECK(!memcmp(&before, s, sizeof(before)));
		} else if (m->outstanding && g->n.nonce == m->outstanding) {
			CHECK(v == FTD_FRESH_PROVEN);
			m->outstanding = 0;
			m->proven_seen = true;
			if (f->incarnation != m->cur)
				model_restart(m, f->incarnation);
			m->hb_floor = g->n.hb_floor;
			m->notice_floor = f->seq;
		} else {
			/* An answer to no PROBE of ours: a replay, changes nothing. */
			CHECK(v == FTD_FRESH_REPLAY);
			CHECK(!memcmp(&before, s, sizeof(before)));
		}
		return;
	}
	if (!m->cur) {
		CHECK(v == FTD_FRESH_UNPROVEN);
		CHECK(!memcmp(&before, s, sizeof(before)));
		return;
	}
	if (f->incarnation > m->cur)
		model_restart(m, f->incarnation);
	if (hb) {
		/* Above the floor the detector judges it: fresh here. */
		CHECK(v == (f->seq > m->hb_floor ? FTD_FRESH_OK : FTD_FRESH_REPLAY));
		if (v == FTD_FRESH_OK) {
			/* (d) across restarts: the new floor covers it. */
			CHECK(!m->honest ||
			      !accepted(m, true, m->cur_idx, f->rail, f->seq) ||
			      lookup(true, m->cur_idx, f->rail, f->seq)->lifetime == m->lifetime);
			accept(m, true, m->cur_idx, f->rail, f->seq);
		}
		return;
	}
	want = window_expect(m, f);
	if (want >= 0)
		CHECK(v == (enum ftd_fresh_verdict)want);
	else
		CHECK(v == FTD_FRESH_OK || v == FTD_FRESH_REPLAY);
	if (v == FTD_FRESH_OK)
		window_accepted(m, f);
}

/* A PROBE: ftd_fresh_answer_probe(). */
static void deliver_probe(struct model *m, struct ftd_fresh *s, const struct gen *g)
{
	const struct ftd_frame *f = &g->f;
	struct ftd_fresh before = *s;
	enum ftd_fresh_verdict v = (enum ftd_fresh_verdict)-1;
	bool ret, due;
	int want = FTD_FRESH_OK;

	ret = ftd_fresh_answer_probe(s, f, SELF, m->now, m->every, &v);
	trace("t=%llu PROBE to %u inc %u rail %u seq %llu: %s, %s\n", (unsigned long long)m->now,
	      f->receiver, f->incarnation, f->rail, (unsigned long long)f->seq,
	      verdict_name(v), ret ? "answered" : "not answered");
	CHECK(v <= FTD_FRESH_UNPROVEN);
	CHECK(!ret || v == FTD_FRESH_OK);

	if (f->receiver != SELF) {					/* (a) */
		CHECK(!ret && v == FTD_FRESH_REPLAY);
		CHECK(!memcmp(&before, s, sizeof(before)));
		return;
	}
	if (m->cur && f->incarnation < m->cur) {			/* (e) */
		CHECK(!ret && v == FTD_FRESH_STALE);
		CHECK(!memcmp(&before, s, sizeof(before)));
		return;
	}
	if (m->cur && f->incarnation == m->cur) {
		/* Proven: a PROBE passes the notice window like any notice. */
		want = window_expect(m, f);
		if (want >= 0)
			CHECK(v == (enum ftd_fresh_verdict)want);
		else
			CHECK(v == FTD_FRESH_OK || v == FTD_FRESH_REPLAY);
		if (v != FTD_FRESH_OK) {
			CHECK(!ret);
			CHECK(!memcmp(&before, s, sizeof(before)));
			return;
		}
		CHECK(f->seq > m->notice_floor);			/* (d) */
		window_accepted(m, f);
	} else {
		/* Unproven, or a restart: answered, windows untouched. */
		CHECK(v == FTD_FRESH_OK);
	}
	due = !m->ack_ns || m->now - m->ack_ns >= m->every;
	CHECK(ret == due);
	if (ret)
		m->ack_ns = m->now;
	/* Answering proves nothing here. */
	CHECK(s->incarnation == before.incarnation && s->ask.nonce == before.ask.nonce &&
	      s->hb_floor == before.hb_floor && s->notice_floor == before.notice_floor);
}

static void deliver(struct model *m, struct ftd_fresh *s, const struct gen *g)
{
	if (g->op == OP_PROBE)
		deliver_probe(m, s, g);
	else
		deliver_check(m, s, g);
	/* The model and the state agree on what is proven and outstanding. */
	CHECK(s->incarnation == m->cur);
	CHECK(s->ask.nonce == m->outstanding);
}

/* Remember what the member sent: replays and honest answers need it. */
static void sent(struct model *m, const struct gen *g)
{
	int idx = inc_index(g->f.incarnation);

	if (idx > m->max_idx)
		m->max_idx = idx;
	if (g->op == OP_HEARTBEAT) {
		if (g->f.receiver == SELF && g->f.seq > m->max_hb[idx])
			m->max_hb[idx] = g->f.seq;
	} else if (g->f.seq > m->max_notice[idx]) {
		m->max_notice[idx] = g->f.seq;
	}
	m->hist[m->nr_hist++ % HIST] = *g;
}

/*
 * A new frame from the member. Returns false if the input asks for an
 * honest answer the member cannot give (its seq space is used up).
 */
static bool make_frame(struct model *m, struct reader *r, enum op op, u8 opbyte,
		       struct gen *g)
{
	static const u32 receivers[4] = { SELF, SELF, OTHER, 0 };
	u8 a = get8(r), c = get8(r);
	int idx = (a >> 2) & 15;
	struct ftd_frame *f = &g->f;
	struct ftd_notice *n = &g->n;

	memset(g, 0, sizeof(*g));
	g->op = op;
	f->type = op == OP_HEARTBEAT ? FTD_FRAME_HEARTBEAT : FTD_FRAME_NOTICE;
	f->sender = 7;
	f->receiver = receivers[a & 3];
	f->rail = a >> 6;
	if ((c & 0xc0) == 0xc0)
		f->rail |= c & 1 ? 0xf0 : 4;	/* no such rail */
	f->incarnation = incs[idx];
	f->seq = pick_seq(m, r, opbyte >> 3, op == OP_HEARTBEAT);
	if (op == OP_HEARTBEAT)
		return true;

	n->subject = n->origin = f->sender;
	n->subject_incarnation = f->incarnation;
	switch (op) {
	case OP_NOTICE:
		/* Any kind but the PROBEs, which the module routes elsewhere. */
		n->kind = FTD_NOTICE_DEAD + c % (FTD_NOTICE_SUSPECT - FTD_NOTICE_DEAD + 1);
		n->job = get8(r);
		break;
	case OP_PROBE:
		n->kind = FTD_NOTICE_PROBE;
		n->nonce = get64(r);
		break;
	case OP_PROBE_ACK:
		n->kind = FTD_NOTICE_PROBE_ACK;
		if (!m->honest) {
			if (opbyte & 0x20)
				n->nonce = m->outstanding;
			else if (opbyte & 0x40 && m->nr_nonces)
				n->nonce = m->nonces[(m->nr_nonces - 1) % NR_NONCES];
			else
				n->nonce = get64(r);
			n->hb_floor = pick_seq(m, r, c >> 2, true);
			/* One in eight: the other answer, the incarnation held in its place. */
			if ((c & 0x1c) == 0x1c) {
				n->kind = FTD_NOTICE_OUTDATED;
				n->regid = (u32)n->hb_floor;
				n->hb_floor = 0;
			}
			break;
		}
		/*
		 * A real member: it answers a nonce we sent, at its newest
		 * incarnation, numbered after everything it sent before, and
		 * its heartbeats to us go on above everything sent so far.
		 */
		if (m->max_idx >= 0)
			idx = m->max_idx;
		f->incarnation = n->subject_incarnation = incs[idx];
		if (m->max_notice[idx] > UINT64_MAX - 256 || m->max_hb[idx] > UINT64_MAX - 256)
			return false;
		f->seq = m->max_notice[idx] + 1 + get8(r);
		n->hb_floor = m->max_hb[idx] + get8(r);
		n->nonce = m->nr_nonces ? m->nonces[(m->nr_nonces - 1 - c % NR_NONCES) % NR_NONCES] : 0;
		break;
	default:
		abort();
	}
	return true;
}

static void reset_receiver(struct model *m, struct ftd_fresh *s)
{
	memset(s, 0, sizeof(*s));
	m->lifetime++;
	m->cur = 0;
	m->cur_idx = 0;
	m->proven_seen = false;
	m->outstanding = 0;
	m->nonce_ns = 0;
	m->probe_ns = m->ack_ns = 0;
	m->floor_inc = 0;
	m->hb_floor = m->notice_floor = 0;
	forget_window(m);
}

/*
 * A PROBE of ours, as the module asks: ping (ftd_fresh_ping_due(): a new
 * nonce whenever one goes), or ask (ftd_fresh_ask_due(), a suspect, an
 * unproven sender, a PROBE back: our unanswered nonce again while it is
 * younger than `wait`, which the input chooses, else a new one).
 */
static void probe_due(struct model *m, struct ftd_fresh *s, struct reader *r, bool ping)
{
	u64 nonce = next_nonce(m, r);
	u64 wait = ping ? 0 : (u64)get8(r) * 50;
	struct ftd_fresh before = *s;
	bool due, want, again;

	/* Either way, again once `every` has passed since the last one. */
	want = !m->probe_ns || m->now - m->probe_ns >= m->every;
	again = !ping && m->outstanding && m->now - m->nonce_ns < wait;
	due = ping ? ftd_fresh_ping_due(s, m->now, m->every, nonce) :
		     ftd_fresh_ask_due(s, m->now, m->every, wait, nonce);
	trace("t=%llu %s nonce %#llx wait %llu: %s\n", (unsigned long long)m->now,
	      ping ? "ping_due" : "ask_due", (unsigned long long)nonce,
	      (unsigned long long)wait, due ? (again ? "sent again" : "sent") : "not due");
	CHECK(due == want);
	if (!due) {
		CHECK(!memcmp(&before, s, sizeof(before)));
		return;
	}
	m->probe_ns = m->now;
	CHECK(s->incarnation == m->cur);
	if (again) {
		CHECK(s->ask.nonce == m->outstanding);
		return;
	}
	CHECK(s->ask.nonce == (nonce ? nonce : 1));
	m->outstanding = s->ask.nonce;
	m->nonce_ns = m->now;
	m->nonces[m->nr_nonces++ % NR_NONCES] = s->ask.nonce;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct model m;
	struct reader r = { data, size };
	struct ftd_fresh s;
	struct gen g;
	u8 mode = get8(&r);

	memset(&m, 0, sizeof(m));
	memset(&s, 0, sizeof(s));	/* a new peer: nothing known */
	tracing = getenv("FUZZ_FRESH_TRACE");
	if (!++set_gen) {
		memset(set, 0, sizeof(set));
		set_gen = 1;
	}
	set_used = 0;
	m.honest = mode & 1;
	m.every = (u64)get8(&r) * 50;
	/* The module's clock (ktime_get_ns) is never 0, which means "never". */
	m.now = 1 + (mode >> 1);
	m.max_idx = -1;

	/* An open-addressing table needs free slots: a longer input stops here. */
	while (r.n && set_used < SET_SLOTS / 2) {
		u8 b = get8(&r);

		switch ((enum op)(b & 7)) {
		case OP_HEARTBEAT:
		case OP_NOTICE:
		case OP_PROBE_ACK:
		case OP_PROBE:
			if (!make_frame(&m, &r, (enum op)(b & 7), b, &g))
				break;
			sent(&m, &g);
			deliver(&m, &s, &g);
			break;
		case OP_PROBE_DUE:
			probe_due(&m, &s, &r, b & 8);
			break;
		case OP_RESET:
			if (m.honest && b & 8) {
				trace("t=%llu receiver state lost\n", (unsigned long long)m.now);
				reset_receiver(&m, &s);
				break;
			}
			m.now += 1;
			break;
		case OP_CLOCK:
			m.now += b & 8 ? (u64)get32(&r) * 1000 : get8(&r);
			break;
		case OP_REPLAY:
			/* A captured frame again, byte for byte. */
			if (m.nr_hist) {
				unsigned int nr = m.nr_hist < HIST ? m.nr_hist : HIST;

				deliver(&m, &s, &m.hist[get8(&r) % nr]);
			}
			break;
		}
	}
	return 0;
}
