// SPDX-License-Identifier: GPL-2.0
/*
 * The ring (kmod/proto/ring.c) against a naive model: random membership and
 * liveness, every query compared with a linear walk.
 */
#include <stdlib.h>
#include "harness.h"
#include "proto/ring.h"

struct model {
	u32 n;
	u8 live[512];
};

static u32 naive_walk(const struct model *m, u32 pos, u32 d, int dir)
{
	u32 p = pos;

	while (d) {
		p = (p + m->n + dir) % m->n;
		if (m->live[p] && p != pos)
			d--;
	}
	return p;
}

static u32 naive_others(const struct model *m, u32 pos)
{
	u32 i, c = 0;

	for (i = 0; i < m->n; i++)
		c += m->live[i] && i != pos;
	return c;
}

TEST(small_ring_by_hand)
{
	u32 mem[64], out[8];
	struct ftd_ring r;

	ftd_ring_init(&r, 5, mem);
	ASSERT_EQ(5, r.live);
	ASSERT_EQ(2, ftd_ring_successors(&r, 4, 2, out));
	EXPECT_EQ(0, out[0]);
	EXPECT_EQ(1, out[1]);
	ASSERT_EQ(2, ftd_ring_predecessors(&r, 0, 2, out));
	EXPECT_EQ(4, out[0]);
	EXPECT_EQ(3, out[1]);

	ftd_ring_set_live(&r, 0, false);	/* the ring heals around 0 */
	ASSERT_EQ(2, ftd_ring_successors(&r, 4, 2, out));
	EXPECT_EQ(1, out[0]);
	EXPECT_EQ(2, out[1]);
	EXPECT_TRUE(ftd_ring_observes(&r, 1, 4, 2));
	EXPECT_FALSE(ftd_ring_observes(&r, 3, 4, 2));

	/* Fingers of 1 among live {1,2,3,4}: distances 1, 2 -> 2, 3 (4 > 3 others). */
	ASSERT_EQ(2, ftd_ring_fingers(&r, 1, out, 8));
	EXPECT_EQ(2, out[0]);
	EXPECT_EQ(3, out[1]);

	/* Two members: one successor, one predecessor, the same node. */
	ftd_ring_set_live(&r, 2, false);
	ftd_ring_set_live(&r, 3, false);
	ASSERT_EQ(1, ftd_ring_successors(&r, 1, 3, out));
	EXPECT_EQ(4, out[0]);
	ASSERT_EQ(1, ftd_ring_predecessors(&r, 1, 3, out));
	EXPECT_EQ(4, out[0]);
	/* Alone: nobody. */
	ftd_ring_set_live(&r, 4, false);
	EXPECT_EQ(0, ftd_ring_successors(&r, 1, 3, out));
	EXPECT_EQ(0, ftd_ring_fingers(&r, 1, out, 8));
}

TEST(random_rings_match_the_naive_model)
{
	static u32 mem[2048];
	struct model m;
	struct ftd_ring r;
	u32 out[FTD_MAX_FINGERS], i, round, pos, k, cnt, d;

	srand(42);
	for (round = 0; round < 300; round++) {
		m.n = 1 + rand() % 300;
		ftd_ring_init(&r, m.n, mem);
		for (i = 0; i < m.n; i++) {
			m.live[i] = rand() % 4 != 0;
			ftd_ring_set_live(&r, i, m.live[i]);
		}
		for (pos = 0; pos < m.n; pos++) {
			u32 others = naive_others(&m, pos);

			k = 1 + rand() % FTD_MAX_OBSERVERS;
			cnt = ftd_ring_successors(&r, pos, k, out);
			ASSERT_EQ(k < others ? k : others, cnt);
			for (i = 0; i < cnt; i++)
				ASSERT_EQ(naive_walk(&m, pos, i + 1, 1), out[i]);
			cnt = ftd_ring_predecessors(&r, pos, k, out);
			ASSERT_EQ(k < others ? k : others, cnt);
			for (i = 0; i < cnt; i++)
				ASSERT_EQ(naive_walk(&m, pos, i + 1, -1), out[i]);
			cnt = ftd_ring_fingers(&r, pos, out, FTD_MAX_FINGERS);
			for (i = 0, d = 1; i < cnt; i++, d <<= 1) {
				ASSERT_LE(d, others);
				ASSERT_EQ(naive_walk(&m, pos, d, 1), out[i]);
			}
			ASSERT_TRUE(d > others);
		}
		/* The j-th live member, for a uniform draw among the live. */
		for (i = 0, d = 0; i < m.n; i++) {
			if (!m.live[i])
				continue;
			ASSERT_EQ(i, ftd_ring_random_live(&r, d));
			d++;
		}
		ASSERT_EQ(d, r.live);
	}
}

TEST(a_sweep_asks_every_live_member_in_turn)
{
	u32 mem[64], out[8], seen[6] = { 0 }, cursor = 7, i, n;
	struct ftd_ring r;

	/* 6 members, 1 of them (us) and 4 alive: 2, 3, 5 dead. */
	ftd_ring_init(&r, 6, mem);
	ftd_ring_set_live(&r, 2, false);
	ftd_ring_set_live(&r, 3, false);
	ftd_ring_set_live(&r, 5, false);
	/* Live {0, 1, 4}: the others are 0 and 4; two rounds of 1 meet both. */
	for (i = 0; i < 2; i++) {
		n = ftd_ring_sweep_live(&r, 1, &cursor, 1, out);
		ASSERT_EQ(1, n);
		EXPECT_NE(1, out[0]);
		EXPECT_TRUE(ftd_ring_is_live(&r, out[0]));
		seen[out[0]]++;
	}
	EXPECT_EQ(1, seen[0]);
	EXPECT_EQ(1, seen[4]);
	/* A round of more than there are: each once, never us. */
	n = ftd_ring_sweep_live(&r, 1, &cursor, 8, out);
	ASSERT_EQ(2, n);
	EXPECT_NE(out[0], out[1]);
	EXPECT_NE(1, out[0]);
	EXPECT_NE(1, out[1]);
	/* Alone: nobody to ask. */
	ftd_ring_set_live(&r, 0, false);
	ftd_ring_set_live(&r, 4, false);
	EXPECT_EQ(0, ftd_ring_sweep_live(&r, 1, &cursor, 2, out));
}

/*
 * A node next to a run of silent members (a rack, or a third of the ring
 * cut off, not yet declared) that asks them in ring order hears nobody
 * for as many rounds as the run is long, and its lease runs out although
 * it is on the side that goes on (ftdsim: a node after a cut-off third
 * fenced itself). Successive asks land far apart: of any four, one lies
 * outside a run of a third of the ring, wherever the sweep starts.
 */
TEST(successive_sweeps_land_far_apart)
{
	static u32 mem[(1000 + 1) + 1000 / 4 + 1];
	u32 out[2], picks[4], cursor, start, i, in_run;
	struct ftd_ring r;

	ftd_ring_init(&r, 1000, mem);
	for (start = 0; start < 1000; start++) {
		cursor = start;
		in_run = 0;
		for (i = 0; i < 4; i++) {
			ASSERT_EQ(1, ftd_ring_sweep_live(&r, 999, &cursor, 1, out));
			picks[i] = out[0];
			in_run += picks[i] >= 100 && picks[i] < 433;
		}
		ASSERT_LT(in_run, 4) {
			TH_LOG("from cursor %u: %u %u %u %u, all in the run", start, picks[0],
			       picks[1], picks[2], picks[3]);
		}
	}
}

/*
 * A sample is distinct live members other than self, all of them when
 * there are fewer, and uniform: over many draws each live member is
 * picked about as often as any other.
 */
TEST(a_sample_is_distinct_live_others_and_uniform)
{
	u32 mem[256], rnd[16], out[16], hits[40] = { 0 }, i, j, n, draw;
	struct ftd_ring r;

	ftd_ring_init(&r, 40, mem);
	for (i = 0; i < 40; i += 3)
		ftd_ring_set_live(&r, i, false);	/* 14 dead, 26 live */
	srandom(11);
	for (draw = 0; draw < 5000; draw++) {
		for (i = 0; i < 16; i++)
			rnd[i] = (u32)random();
		n = ftd_ring_sample_live(&r, 1, rnd, 8, out);
		ASSERT_EQ(8, n);
		for (i = 0; i < n; i++) {
			ASSERT_TRUE(ftd_ring_is_live(&r, out[i]));
			ASSERT_NE(1, out[i]);
			for (j = 0; j < i; j++)
				ASSERT_NE(out[j], out[i]);
			hits[out[i]]++;
		}
	}
	/* 25 others, 8 a draw: 1600 each expected; 4 sigma is about 150. */
	for (i = 0; i < 40; i++) {
		if (!ftd_ring_is_live(&r, i) || i == 1)
			continue;
		EXPECT_GT(hits[i], 1450);
		EXPECT_LT(hits[i], 1750);
	}
	/* Fewer others than asked for: all of them, once each. */
	for (i = 0; i < 40; i++)
		ftd_ring_set_live(&r, i, i < 4);
	n = ftd_ring_sample_live(&r, 2, rnd, 16, out);
	ASSERT_EQ(3, n);
	EXPECT_EQ(0 + 1 + 3, out[0] + out[1] + out[2]);
	/* Alone: nobody. */
	for (i = 0; i < 40; i++)
		ftd_ring_set_live(&r, i, i == 2);
	EXPECT_EQ(0, ftd_ring_sample_live(&r, 2, rnd, 16, out));
}

TEST_HARNESS_MAIN
