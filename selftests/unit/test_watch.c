// SPDX-License-Identifier: GPL-2.0
/*
 * Watching past a silent run (kmod/proto/watch.c): how far the walk goes,
 * how it grows, where it stops, and when the nodes past the k nearest may
 * be declared.
 */
#include "harness.h"
#include "proto/watch.h"

#define MS 1000000ULL
#define BIG 100000	/* live members: the walk is bounded by FTD_WATCH_MAX */

TEST(vouched_means_heard_within_the_suspicion_delay)
{
	EXPECT_FALSE(ftd_watch_vouched(0, 100 * MS, 100 * MS));	/* never heard */
	EXPECT_TRUE(ftd_watch_vouched(60 * MS, 100 * MS, 100 * MS));
	EXPECT_FALSE(ftd_watch_vouched(50 * MS, 100 * MS, 100 * MS));
	/* Stamped by another CPU after our clock read: heard just now. */
	EXPECT_TRUE(ftd_watch_vouched(100 * MS + 1, 100 * MS, 100 * MS));
}

TEST(nearest_vouched_watch_only_k)
{
	struct ftd_watch w = {};

	EXPECT_EQ(2, ftd_watch_span(&w, 2, true, true, 10 * MS, BIG));
	EXPECT_EQ(0, w.span);
}

TEST(starved_or_alone_starts_no_walk)
{
	struct ftd_watch w = {};

	EXPECT_EQ(3, ftd_watch_span(&w, 3, false, false, 10 * MS, BIG));
	EXPECT_EQ(0, w.span);
}

TEST(a_starved_tick_keeps_the_walk_but_does_not_grow_it)
{
	bool none[FTD_WATCH_MAX] = {}, v[] = { false, false, false, true };
	struct ftd_watch w = {};

	ASSERT_EQ(2, ftd_watch_span(&w, 1, false, true, 100 * MS, BIG));	/* 2k */
	w.span = 4;
	EXPECT_EQ(4, ftd_watch_trim(&w, v, 4, 1, 100 * MS, 10 * MS, 0));
	EXPECT_TRUE(w.edge);
	/* A late tick: the same walk, its edge kept. */
	EXPECT_EQ(4, ftd_watch_span(&w, 1, false, false, 200 * MS, BIG));
	EXPECT_EQ(4, ftd_watch_trim(&w, v, 4, 1, 200 * MS, 10 * MS, 0));
	EXPECT_TRUE(w.edge);
	/* Nobody vouched on a late tick: no growth. */
	EXPECT_EQ(4, ftd_watch_trim(&w, none, 4, 1, 300 * MS, 10 * MS, 0));
	EXPECT_EQ(4, ftd_watch_span(&w, 1, false, false, 300 * MS, BIG));
}

TEST(span_grows_eightfold_each_period_while_short_of_k_vouched)
{
	/* k more at once; after each walk without k vouched, 8x the extension */
	static const u32 want[] = { 4, 18, 130, FTD_WATCH_MAX, FTD_WATCH_MAX };
	bool none[FTD_WATCH_MAX] = {};
	struct ftd_watch w = {};
	u64 now = 100 * MS;
	u32 i, span;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		span = ftd_watch_span(&w, 2, false, true, now, BIG);
		EXPECT_EQ(want[i], span);
		/* Nobody vouched: the whole walk is watched, no edge. */
		EXPECT_EQ(span, ftd_watch_trim(&w, none, span, 2, now, 10 * MS, 0));
		EXPECT_FALSE(w.edge);
		/* Over the whole cap: ask whether we reach the cluster. */
		EXPECT_EQ(span == FTD_WATCH_MAX, ftd_watch_wants_reach(&w));
		now += 10 * MS;
	}
	/* Back to k as soon as the nearest are vouched again. */
	EXPECT_EQ(2, ftd_watch_span(&w, 2, true, true, now, BIG));
	EXPECT_EQ(0, w.span);
}

TEST(grows_at_most_once_a_period)
{
	bool none[FTD_WATCH_MAX] = {};
	struct ftd_watch w = {};

	ASSERT_EQ(4, ftd_watch_span(&w, 2, false, true, 100 * MS, BIG));
	ftd_watch_trim(&w, none, 4, 2, 100 * MS, 10 * MS, 0);	/* the first at once */
	EXPECT_EQ(18, ftd_watch_span(&w, 2, false, true, 105 * MS, BIG));
	ftd_watch_trim(&w, none, 18, 2, 105 * MS, 10 * MS, 0);
	EXPECT_EQ(18, ftd_watch_span(&w, 2, false, true, 108 * MS, BIG));
	ftd_watch_trim(&w, none, 18, 2, 115 * MS, 10 * MS, 0);
	EXPECT_EQ(130, ftd_watch_span(&w, 2, false, true, 115 * MS, BIG));
}

TEST(never_past_half_of_the_live_ring)
{
	bool none[FTD_WATCH_MAX] = {};
	struct ftd_watch w = {};
	u64 now = 100 * MS;
	u32 i, span = 0;

	for (i = 0; i < 6; i++, now += 10 * MS) {
		span = ftd_watch_span(&w, 2, false, true, now, 41);
		ftd_watch_trim(&w, none, span, 2, now, 10 * MS, 0);
	}
	EXPECT_EQ(20, span);
	EXPECT_FALSE(w.edge);	/* the cap reached, no reach check yet: the next test */
	EXPECT_TRUE(ftd_watch_wants_reach(&w));
	/* Four live members: half of them is no more than k, no walk at all. */
	EXPECT_EQ(2, ftd_watch_span(&w, 2, false, true, now, 4));
	EXPECT_EQ(0, w.span);
}

/*
 * A silence longer than the cap (half of the live ring, or FTD_WATCH_MAX)
 * has no far edge to find: the other side of a partition, or a run longer
 * than one observer looks at. Its nodes were declared k a timeout apart:
 * an even split of 4,000 nodes settled after 29.4 s. Once the walk spans
 * the whole cap and a reach check begun since found that we reach the
 * cluster, they count as a run's do (a timeout from then); an island,
 * whose check fences it, never declares the majority wholesale.
 */
TEST(a_walk_over_the_whole_cap_counts_once_we_reach_the_cluster)
{
	bool none[FTD_WATCH_MAX] = {}, one[FTD_WATCH_MAX] = { [700] = true };
	struct ftd_watch w = { .span = FTD_WATCH_MAX };

	ASSERT_EQ(FTD_WATCH_MAX, ftd_watch_span(&w, 2, false, true, 100 * MS, BIG));
	EXPECT_EQ(FTD_WATCH_MAX, ftd_watch_trim(&w, none, FTD_WATCH_MAX, 2, 100 * MS, 10 * MS, 0));
	EXPECT_FALSE(w.edge);
	EXPECT_TRUE(ftd_watch_wants_reach(&w));
	/* A check that began before the walk spanned its cap says nothing of it. */
	ftd_watch_trim(&w, none, FTD_WATCH_MAX, 2, 110 * MS, 10 * MS, 90 * MS);
	EXPECT_FALSE(w.edge);
	/* One begun since that held: the silence counts, nothing more to ask. */
	EXPECT_EQ(FTD_WATCH_MAX, ftd_watch_trim(&w, none, FTD_WATCH_MAX, 2, 220 * MS, 10 * MS, 100 * MS));
	EXPECT_TRUE(w.edge);
	EXPECT_FALSE(ftd_watch_wants_reach(&w));
	/* Fewer than k vouched is still no far edge: the whole cap is watched. */
	EXPECT_EQ(FTD_WATCH_MAX, ftd_watch_trim(&w, one, FTD_WATCH_MAX, 2, 230 * MS, 10 * MS, 100 * MS));
	EXPECT_TRUE(w.edge);
	/* A ring that ends before the cap: the walk did not span it. */
	EXPECT_EQ(600, ftd_watch_trim(&w, none, 600, 2, 240 * MS, 10 * MS, 100 * MS));
	EXPECT_FALSE(w.edge);
	EXPECT_FALSE(ftd_watch_wants_reach(&w));
	/* Spanned again: the check must be newer than this span. */
	ftd_watch_trim(&w, none, FTD_WATCH_MAX, 2, 250 * MS, 10 * MS, 100 * MS);
	EXPECT_FALSE(w.edge);
	EXPECT_TRUE(ftd_watch_wants_reach(&w));
	/* Hearing nobody (or starved): the walk is frozen, the lease answers. */
	ftd_watch_span(&w, 2, false, false, 255 * MS, BIG);
	EXPECT_FALSE(ftd_watch_wants_reach(&w));
	ftd_watch_span(&w, 2, false, true, 256 * MS, BIG);
	EXPECT_TRUE(ftd_watch_wants_reach(&w));
	/* The nearest vouched again: the walk and its cap are forgotten. */
	ftd_watch_span(&w, 2, true, true, 260 * MS, BIG);
	EXPECT_FALSE(ftd_watch_wants_reach(&w));
	/* Still growing toward the cap: nothing counts, nothing to ask. */
	w = (struct ftd_watch){};
	ASSERT_EQ(4, ftd_watch_span(&w, 2, false, true, 100 * MS, BIG));
	EXPECT_EQ(4, ftd_watch_trim(&w, none, 4, 2, 100 * MS, 10 * MS, 100 * MS));
	EXPECT_FALSE(w.edge);
	EXPECT_FALSE(ftd_watch_wants_reach(&w));
}

TEST(trim_stops_at_the_kth_vouched_and_finds_the_edge)
{
	/* dead, alive, dead, alive, alive: with k = 2, watch the first 4 */
	bool v[] = { false, true, false, true, true };
	struct ftd_watch w = {};

	ASSERT_EQ(4, ftd_watch_span(&w, 2, false, true, 100 * MS, BIG));
	EXPECT_EQ(4, ftd_watch_trim(&w, v, 4, 2, 100 * MS, 10 * MS, 0));
	EXPECT_TRUE(w.edge);
	EXPECT_EQ(4, ftd_watch_span(&w, 2, false, true, 200 * MS, BIG));	/* no growth */
}

TEST(trim_keeps_the_k_nearest)
{
	bool v[] = { true, true, true, true };
	struct ftd_watch w = {};

	EXPECT_EQ(3, ftd_watch_trim(&w, v, 4, 3, 100 * MS, 10 * MS, 0));
	EXPECT_EQ(2, ftd_watch_trim(&w, v, 2, 3, 100 * MS, 10 * MS, 0));	/* small ring */
}

TEST(a_walk_shorter_than_the_span_does_not_grow)
{
	bool none[4] = {};
	struct ftd_watch w = {};

	ASSERT_EQ(4, ftd_watch_span(&w, 2, false, true, 100 * MS, BIG));
	/* a ring of 3 others: the walk found 3, fewer than the span */
	EXPECT_EQ(3, ftd_watch_trim(&w, none, 3, 2, 200 * MS, 10 * MS, 0));
	EXPECT_EQ(4, ftd_watch_span(&w, 2, false, true, 300 * MS, BIG));
}

TEST(asked_once_a_timeout_until_the_edge_is_found)
{
	struct ftd_watch w = {};

	EXPECT_EQ(100 * MS, ftd_watch_ask_every(&w, 25 * MS, 100 * MS));
	w.edge = true;
	EXPECT_EQ(25 * MS, ftd_watch_ask_every(&w, 25 * MS, 100 * MS));
}

TEST(edges_are_the_vouched_once_past_the_k_nearest)
{
	bool v[] = { false, true, false, false, true, true };
	u32 idx[4];

	ASSERT_EQ(3, ftd_watch_edges(v, 6, 2, idx, 4));
	EXPECT_EQ(1, idx[0]);
	EXPECT_EQ(4, idx[1]);
	EXPECT_EQ(5, idx[2]);
	EXPECT_EQ(2, ftd_watch_edges(v, 6, 2, idx, 2));	/* bounded */
	EXPECT_EQ(0, ftd_watch_edges(v, 2, 2, idx, 4));	/* no walk: nobody */
}

TEST(only_the_dead_are_told_between)
{
	EXPECT_TRUE(ftd_watch_tells_of(FTD_NODE_DEAD));
	/* A run of nodes that left must not use up FTD_WATCH_TELL_MAX. */
	EXPECT_FALSE(ftd_watch_tells_of(FTD_NODE_LEFT));
	EXPECT_FALSE(ftd_watch_tells_of(FTD_NODE_ALIVE));
	EXPECT_FALSE(ftd_watch_tells_of(FTD_NODE_SUSPECT));
	EXPECT_FALSE(ftd_watch_tells_of(FTD_NODE_UNKNOWN));
	EXPECT_TRUE(ftd_watch_tells_between(FTD_WATCH_ASK_HELPERS));
	EXPECT_FALSE(ftd_watch_tells_between(FTD_WATCH_ASK_DIRECT));
}

/* The walk between a suspect and us (proto/watch.h ftd_watch_between_*). */
static u32 walk_between(u32 n, u32 self, u32 from, const bool *dead, u32 *told, u32 *last)
{
	struct ftd_watch_between b;
	u32 cnt = 0, steps = 0;

	for (ftd_watch_between_start(&b, n, self, from); ftd_watch_between_more(&b, cnt);
	     ftd_watch_between_next(&b)) {
		steps++;
		*last = b.pos;
		if (ftd_watch_tells_of(dead[b.pos] ? FTD_NODE_DEAD : FTD_NODE_ALIVE))
			told[cnt++] = b.pos;
	}
	return steps * 1000 + cnt;
}

TEST(the_deaths_told_lie_between_the_suspect_and_us_nearest_it_first)
{
	static bool dead[5000];
	u32 told[FTD_WATCH_TELL_MAX + 1], last = 0, r;

	/* Ring of 10, we are 2, the suspect 5: 6 7 8 9 0 1, wrapping, not 2. */
	dead[7] = dead[0] = dead[3] = true;
	r = walk_between(10, 2, 5, dead, told, &last);
	EXPECT_EQ(6 * 1000 + 2, r);
	EXPECT_EQ(7, told[0]);
	EXPECT_EQ(0, told[1]);
	EXPECT_EQ(1, last);
	/* Right before us: nothing between. */
	EXPECT_EQ(0, walk_between(10, 2, 1, dead, told, &last));
	/* At most FTD_WATCH_TELL_MAX told: the walk stops at the last one. */
	memset(dead, 0, sizeof(dead));
	for (u32 i = 100; i < 200; i++)
		dead[i] = true;
	r = walk_between(5000, 0, 99, dead, told, &last);
	EXPECT_EQ(FTD_WATCH_TELL_MAX, r % 1000);
	EXPECT_EQ(99 + FTD_WATCH_TELL_MAX, last);
	/* At most FTD_WATCH_TELL_SCAN looked at. */
	memset(dead, 0, sizeof(dead));
	dead[10 + FTD_WATCH_TELL_SCAN] = true;
	r = walk_between(5000, 4999, 9, dead, told, &last);
	EXPECT_EQ(FTD_WATCH_TELL_SCAN * 1000u, r);
}

TEST_HARNESS_MAIN
