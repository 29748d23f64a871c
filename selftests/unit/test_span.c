// SPDX-License-Identifier: GPL-2.0
/*
 * The spanning broadcast's shares (kmod/proto/span.c): over random rings
 * and liveness, the tree they make reaches every live member exactly once,
 * within ceil(log2 live) hops, and a share handed over from a dead holder
 * still reaches every live member of it.
 */
#include <stdlib.h>
#include "harness.h"
#include "proto/span.h"

#define RING_MAX 700

struct walk {
	u32 got[RING_MAX];
	u32 depth_max;
};

/* Deliver to every holder of the arc (from, end), recursively, as the tree would. */
static void spread(const struct ftd_ring *r, u32 from, u32 end, u32 depth, struct walk *w)
{
	struct ftd_span_share sh[FTD_MAX_FINGERS];
	u32 n = ftd_span_split(r, from, end, sh, FTD_MAX_FINGERS), i;

	for (i = 0; i < n; i++) {
		w->got[sh[i].to]++;
		if (depth + 1 > w->depth_max)
			w->depth_max = depth + 1;
		spread(r, sh[i].to, sh[i].end, depth + 1, w);
	}
}

static u32 log2_ceil(u32 x)
{
	u32 l = 0;

	while ((1ULL << l) < x)
		l++;
	return l;
}

static void random_ring(struct ftd_ring *r, u32 *mem, u32 n, u32 dead_pct, unsigned int *seed)
{
	u32 i;

	ftd_ring_init(r, n, mem);
	for (i = 0; i < n; i++)
		if ((u32)rand_r(seed) % 100 < dead_pct)
			ftd_ring_set_live(r, i, false);
}

/*
 * A random ring of at least min members and one share of a broadcast from
 * a live member of it: false if that draw gave none (the caller draws
 * again).
 */
static bool random_share(struct ftd_ring *r, u32 *mem, u32 min, unsigned int *seed, u32 *n,
			 u32 *holder, u32 *end)
{
	struct ftd_span_share top[FTD_MAX_FINGERS];
	u32 root, cnt, pick;

	*n = min + (u32)rand_r(seed) % (RING_MAX - min + 1);
	random_ring(r, mem, *n, (u32)rand_r(seed) % 40, seed);
	root = (u32)rand_r(seed) % *n;
	if (!r->is_live[root])
		return false;
	cnt = ftd_span_split(r, root, root, top, FTD_MAX_FINGERS);
	if (!cnt)
		return false;
	pick = (u32)rand_r(seed) % cnt;
	*holder = top[pick].to;
	*end = top[pick].end;
	return true;
}

TEST(by_hand_eight_members)
{
	u32 mem[64];
	struct ftd_ring r;
	struct ftd_span_share sh[8];

	ftd_ring_init(&r, 8, mem);
	/* Root 0, whole ring: fingers 1, 2, 4 with shares [1,2) [2,4) [4,0). */
	ASSERT_EQ(3, ftd_span_split(&r, 0, 0, sh, 8));
	EXPECT_EQ(1, sh[0].to);
	EXPECT_EQ(2, sh[0].end);
	EXPECT_EQ(2, sh[1].to);
	EXPECT_EQ(4, sh[1].end);
	EXPECT_EQ(4, sh[2].to);
	EXPECT_EQ(0, sh[2].end);
	/* 4's share [4, 0): 5, 6 with [5,6) [6,0); 6's: 7 up to 0. */
	ASSERT_EQ(2, ftd_span_split(&r, 4, 0, sh, 8));
	EXPECT_EQ(5, sh[0].to);
	EXPECT_EQ(6, sh[0].end);
	EXPECT_EQ(6, sh[1].to);
	EXPECT_EQ(0, sh[1].end);
	ASSERT_EQ(1, ftd_span_split(&r, 6, 0, sh, 8));
	EXPECT_EQ(7, sh[0].to);
	EXPECT_EQ(0, sh[0].end);
	/* A share of one member: nothing to hand on. */
	EXPECT_EQ(0, ftd_span_split(&r, 1, 2, sh, 8));
	/* 4 is dead: its share handed over from its position reaches 5, 6, 7. */
	ftd_ring_set_live(&r, 4, false);
	ASSERT_EQ(2, ftd_span_split(&r, 4, 0, sh, 8));
	EXPECT_EQ(5, sh[0].to);
	EXPECT_EQ(6, sh[1].to);
	/* Wrapping: the arc (6, 3) holds 7, 0, 1, 2. */
	ASSERT_EQ(3, ftd_span_split(&r, 6, 3, sh, 8));
	EXPECT_EQ(7, sh[0].to);
	EXPECT_EQ(0, sh[1].to);
	EXPECT_EQ(2, sh[2].to);
	EXPECT_EQ(3, sh[2].end);
}

TEST(every_live_member_once_within_log2_hops)
{
	static u32 mem[RING_MAX + RING_MAX / 4 + 8];
	static struct walk w;
	unsigned int seed = 7;
	struct ftd_ring r;
	u32 trial, i, n, root, dead_pct;

	for (trial = 0; trial < 300; trial++) {
		n = 1 + (u32)rand_r(&seed) % RING_MAX;
		dead_pct = (u32)rand_r(&seed) % 60;
		random_ring(&r, mem, n, dead_pct, &seed);
		root = (u32)rand_r(&seed) % n;
		if (!r.is_live[root])
			continue;
		memset(&w, 0, sizeof(w));
		spread(&r, root, root, 0, &w);
		for (i = 0; i < n; i++)
			ASSERT_EQ(i != root && r.is_live[i] ? 1u : 0u, w.got[i]) {
				TH_LOG("n %u root %u member %u", n, root, i);
			}
		ASSERT_LE(w.depth_max, log2_ceil(r.live));
	}
}

TEST(a_share_handed_over_reaches_its_live_members)
{
	static u32 mem[RING_MAX + RING_MAX / 4 + 8];
	static struct walk w;
	unsigned int seed = 11;
	struct ftd_ring r;
	u32 trial, i, n, holder, end, d;

	for (trial = 0; trial < 300; trial++) {
		if (!random_share(&r, mem, 2, &seed, &n, &holder, &end))
			continue;
		/* The holder dies with the share unacknowledged (a rack: its next ones too). */
		for (i = 0, d = 0; i < 1 + (u32)rand_r(&seed) % 8 && d < ftd_span_dist(n, holder, end);
		     i++, d++)
			ftd_ring_set_live(&r, (holder + d) % n, false);
		memset(&w, 0, sizeof(w));
		spread(&r, holder, end, 0, &w);
		for (d = 1; d < ftd_span_dist(n, holder, end); d++) {
			i = (holder + d) % n;
			ASSERT_EQ(r.is_live[i] ? 1u : 0u, w.got[i]) {
				TH_LOG("n %u holder %u end %u member %u", n, holder, end, i);
			}
		}
		EXPECT_EQ(0, w.got[holder]);
	}
}

/*
 * The holder of a share is deleted from the node table before it forwards
 * it: in the ring without it, split from its place (ftd_span_from_gone),
 * the share still reaches every live member of its arc once, and nobody
 * outside it.
 */
TEST(a_share_whose_holder_was_deleted_reaches_its_live_members)
{
	static u32 mem[RING_MAX + RING_MAX / 4 + 8], mem2[RING_MAX + RING_MAX / 4 + 8];
	static struct walk w;
	unsigned int seed = 23;
	struct ftd_ring r, r2;
	u32 trial, j, n, holder, end, at, end2, tried = 0;

	for (trial = 0; trial < 400; trial++) {
		if (!random_share(&r, mem, 3, &seed, &n, &holder, &end))
			continue;
		/* The ring without the holder: the members past it move down one. */
		ftd_ring_init(&r2, n - 1, mem2);
		for (j = 0; j < n; j++)
			if (j != holder)
				ftd_ring_set_live(&r2, j < holder ? j : j - 1, r.is_live[j]);
		at = holder % (n - 1);
		end2 = (end > holder ? end - 1 : end) % (n - 1);
		memset(&w, 0, sizeof(w));
		spread(&r2, ftd_span_from_gone(n - 1, at), end2, 0, &w);
		for (j = 0; j < n; j++) {
			bool in_arc = j != holder && ftd_span_dist(n, holder, j) < ftd_span_dist(n, holder, end);
			u32 k = j < holder ? j : j - 1;

			if (j == holder)
				continue;
			ASSERT_EQ(in_arc && r.is_live[j] ? 1u : 0u, w.got[k]) {
				TH_LOG("n %u holder %u end %u member %u", n, holder, end, j);
			}
		}
		tried++;
	}
	ASSERT_GT(tried, 100u);
}

TEST(resend_then_hand_over_then_drop)
{
	u64 t0 = 1000000000ULL, after = ftd_span_resend_after(10000000, 0), timeout = 50000000;
	u64 alone_for = FTD_SPAN_ALONE_TIMEOUTS * timeout, t;
	u32 sends;

	/* Four round trips, between a sixteenth and half of a period. */
	EXPECT_EQ(625000, after);
	EXPECT_EQ(625000, ftd_span_resend_after(10000000, 40000));
	EXPECT_EQ(4000000, ftd_span_resend_after(10000000, 1000000));
	EXPECT_EQ(6000000, ftd_span_resend_after(10000000, 3000000));
	/* Never before two round trips could bring the acknowledgement back. */
	EXPECT_EQ(12000000, ftd_span_resend_after(1000000, 6000000));
	EXPECT_FALSE(ftd_span_due(t0 + after - 1, t0, 1, after, timeout));
	EXPECT_TRUE(ftd_span_due(t0 + after, t0, 1, after, timeout));
	/* Twice as long after each further send. */
	EXPECT_FALSE(ftd_span_due(t0 + 2 * after - 1, t0, 2, after, timeout));
	EXPECT_TRUE(ftd_span_due(t0 + 2 * after, t0, 2, after, timeout));
	EXPECT_TRUE(ftd_span_due(t0 + 4 * after, t0, 3, after, timeout));
	EXPECT_EQ(t0 + 128 * after, ftd_span_due_at(t0, 20, after, 1000000000));
	/* ... up to a quarter timeout, or resend_after if that is longer. */
	EXPECT_EQ(t0 + timeout / 4, ftd_span_due_at(t0, 20, after, timeout));
	EXPECT_EQ(t0 + 8 * after, ftd_span_due_at(t0, 4, after, timeout));
	EXPECT_EQ(t0 + after, ftd_span_due_at(t0, 20, after, 2 * after));
	/* A stamp from after now (another CPU) is no time ago: not due. */
	EXPECT_FALSE(ftd_span_due(t0, t0 + 5, 1, after, timeout));

	EXPECT_EQ(FTD_SPAN_RESEND, ftd_span_step(t0 + after, t0, 1, timeout, false, false));
	EXPECT_EQ(FTD_SPAN_RESEND,
		  ftd_span_step(t0 + after, t0, FTD_SPAN_SENDS - 1, timeout, false, false));
	EXPECT_EQ(FTD_SPAN_HAND_OVER,
		  ftd_span_step(t0 + after, t0, FTD_SPAN_SENDS, timeout, false, false));
	/* A holder held dead gets no more sends: its share at once to the others. */
	EXPECT_EQ(FTD_SPAN_HAND_OVER, ftd_span_step(t0, t0, 1, timeout, true, false));
	EXPECT_EQ(FTD_SPAN_DROP, ftd_span_step(t0, t0, 1, timeout, true, true));
	/* Alone in its share, a holder is sent to for FTD_SPAN_ALONE_TIMEOUTS. */
	EXPECT_EQ(FTD_SPAN_RESEND, ftd_span_step(t0 + timeout, t0, 9, timeout, false, true));
	EXPECT_EQ(FTD_SPAN_RESEND, ftd_span_step(t0 + alone_for - 1, t0, 9, timeout, false, true));
	EXPECT_EQ(FTD_SPAN_DROP, ftd_span_step(t0 + alone_for, t0, 9, timeout, false, true));
	/*
	 * Every due time followed, a holder alone is asked a few times each
	 * timeout to the end: at 20 % loss each way (0.64 a round trip) all
	 * of them fail with a probability below 1e-7 (16 sends).
	 */
	for (t = t0, sends = 1; ; sends++) {
		t = ftd_span_due_at(t, sends, after, timeout);
		if (ftd_span_step(t, t0, sends, timeout, false, true) == FTD_SPAN_DROP)
			break;
	}
	TH_LOG("a holder alone: %u sends in %llu ms", sends,
	       (unsigned long long)(alone_for / 1000000));
	EXPECT_GE(sends, 16);
	EXPECT_GE(ftd_span_due_at(t0, sends, after, timeout) - t0, timeout / 4);
}

TEST_HARNESS_MAIN
