// SPDX-License-Identifier: GPL-2.0
/*
 * The rank table (kmod/proto/ranks.c): notices arrive in any order and more
 * than once; each registration's end is news exactly once.
 */
#include "harness.h"
#include <stdlib.h>
#include "proto/digest.h"
#include "proto/ranks.h"

TEST(register_then_end_is_news_once)
{
	static struct ftd_rank_table t;

	EXPECT_TRUE(ftd_ranks_register(&t, 1, 5, 100, 1000));
	EXPECT_FALSE(ftd_ranks_register(&t, 1, 5, 100, 1000));	/* repeated */
	EXPECT_TRUE(ftd_ranks_end(&t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_FALSE(ftd_ranks_end(&t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_FALSE(ftd_ranks_register(&t, 1, 5, 100, 1000));	/* late: stays ended */
}

TEST(end_overtaking_the_registration)
{
	static struct ftd_rank_table t;

	EXPECT_TRUE(ftd_ranks_end(&t, 2, 9, 7, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_FALSE(ftd_ranks_register(&t, 2, 9, 7, 1000));
	EXPECT_FALSE(ftd_ranks_end(&t, 2, 9, 7, 1000, FTD_EV_PROC_DEAD, false));
}

TEST(node_death_ends_each_live_rank_once)
{
	static struct ftd_rank_table t;
	struct ftd_rank_entry out[2];
	u32 total = 0, n;

	ftd_ranks_register(&t, 1, 0, 1, 1000);
	ftd_ranks_register(&t, 1, 1, 2, 1000);
	ftd_ranks_register(&t, 1, 2, 3, 1000);
	ftd_ranks_end(&t, 1, 1, 2, 1000, FTD_EV_PROC_DEAD, false);
	while ((n = ftd_ranks_end_some(&t, out, 2)))
		total += n;
	EXPECT_EQ(2, total);
	EXPECT_EQ(0, ftd_ranks_end_some(&t, out, 2));
	EXPECT_FALSE(ftd_ranks_end(&t, 1, 0, 1, 1000, FTD_EV_PROC_DEAD, false));	/* a PROC_DEAD after the node's death */
}

/*
 * A full table of live ranks 0..255 (regids 1..256); rank 10 ends, and a
 * new registration (regid 5000) takes its tombstone. False if any step
 * was not news.
 */
static bool fill_then_recycle(struct ftd_rank_table *t)
{
	u32 i;

	for (i = 0; i < FTD_RANKS_PER_NODE; i++)
		if (!ftd_ranks_register(t, 1, i, i + 1, 1000))
			return false;
	return ftd_ranks_end(t, 1, 10, 11, 1000, FTD_EV_PROC_DEAD, false) &&
	       ftd_ranks_register(t, 1, 999, 5000, 1000);
}

TEST(a_full_table_recycles_tombstones_first)
{
	static struct ftd_rank_table t;

	ASSERT_TRUE(fill_then_recycle(&t));
	EXPECT_EQ(FTD_RANKS_PER_NODE, t.n);
	EXPECT_TRUE(ftd_ranks_end(&t, 1, 999, 5000, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_TRUE(ftd_ranks_end(&t, 1, 0, 1, 1000, FTD_EV_PROC_DEAD, false));		/* the live ones are all kept */
}

/*
 * A view carries ended registrations: one whose tombstone was recycled is
 * not news again (its end delivered twice), nor is its registration (a
 * rank that ended, live again).
 */
TEST(a_recycled_tombstone_stays_forgotten)
{
	static struct ftd_rank_table t;

	ASSERT_TRUE(fill_then_recycle(&t));
	EXPECT_FALSE(ftd_ranks_end(&t, 1, 10, 11, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_FALSE(ftd_ranks_register(&t, 1, 10, 11, 1000));
	/* below the forgotten one but still held: news as ever */
	EXPECT_TRUE(ftd_ranks_end(&t, 1, 3, 4, 1000, FTD_EV_PROC_EXIT, false));
	ftd_ranks_clear(&t);
	EXPECT_TRUE(ftd_ranks_register(&t, 1, 10, 11, 1000));	/* a new incarnation's */
}

/*
 * A view's copy of an end (FTD_NOTICE_F_VIEW) ends a registration held
 * live, once, and is nothing for one never known: a node that joins late
 * is not told every rank that ever ended.
 */
TEST(a_copy_ends_only_what_is_held_live)
{
	static struct ftd_rank_table t;

	EXPECT_FALSE(ftd_ranks_end(&t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, true));
	EXPECT_EQ(0, t.n);
	ASSERT_TRUE(ftd_ranks_register(&t, 1, 5, 100, 1000));	/* it was unknown: still registers */
	EXPECT_TRUE(ftd_ranks_end(&t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, true));
	EXPECT_FALSE(ftd_ranks_end(&t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, true));
	EXPECT_FALSE(ftd_ranks_end(&t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_EQ(0, t.live_sum);
}

TEST(an_ended_entry_remembers_how)
{
	static struct ftd_rank_table t;
	struct ftd_rank_entry out[4];

	ftd_ranks_register(&t, 1, 0, 1, 1000);
	ftd_ranks_register(&t, 1, 1, 2, 1000);
	ftd_ranks_register(&t, 1, 2, 3, 1000);
	ftd_ranks_end(&t, 1, 0, 1, 1000, FTD_EV_PROC_EXIT, false);
	ftd_ranks_end(&t, 1, 1, 2, 1000, FTD_EV_PROC_DEAD, false);
	ftd_ranks_end(&t, 1, 3, 4, 1000, FTD_EV_PROC_EXIT, false);		/* overtook its registration */
	ASSERT_EQ(1, ftd_ranks_end_some(&t, out, 4));
	EXPECT_EQ(FTD_EV_RANKS_DEAD, out[0].ended);
	EXPECT_EQ(FTD_EV_PROC_EXIT, t.e[0].ended);
	EXPECT_EQ(FTD_EV_PROC_DEAD, t.e[1].ended);
	EXPECT_EQ(FTD_EV_RANKS_DEAD, t.e[2].ended);
	EXPECT_EQ(FTD_EV_PROC_EXIT, t.e[3].ended);
	/* A repeated end does not rewrite how it ended. */
	EXPECT_FALSE(ftd_ranks_end(&t, 1, 0, 1, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_EQ(FTD_EV_PROC_EXIT, t.e[0].ended);
}

/* The owner travels with the entry, to the RANKS_DEAD records. */
TEST(owner_goes_with_the_entry)
{
	static struct ftd_rank_table t;
	struct ftd_rank_entry out[1];

	ASSERT_TRUE(ftd_ranks_register(&t, 9, 0, 2, 1234));
	ASSERT_EQ(1, ftd_ranks_end_some(&t, out, 1));
	EXPECT_EQ(1234, out[0].uid);
}

/*
 * The table's sum of live registrations (what the digest says of them)
 * stays exact through registrations, ends, overtaking ends, a node's death
 * and a full table recycling entries, live ones included.
 */
static u64 live_sum_of(const struct ftd_rank_table *t)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < t->n; i++)
		if (!t->e[i].ended)
			sum += ftd_digest_rank_word(t->e[i].regid);
	return sum;
}

TEST(the_live_sum_follows_every_change)
{
	static struct ftd_rank_table t;
	struct ftd_rank_entry out[8];
	u32 step, regid, wrong = 0, nonzero = 0;

	srandom(5);
	for (step = 0; step < 20000; step++) {
		regid = 1 + random() % 600;	/* more than the table holds */
		switch (random() % 8) {
		case 0:
			ftd_ranks_end_some(&t, out, 1 + random() % 8);
			break;
		case 1:
		case 2:
			ftd_ranks_end(&t, 1, regid, regid, 0,
				      random() % 2 ? FTD_EV_PROC_DEAD : FTD_EV_PROC_EXIT, false);
			break;
		default:
			ftd_ranks_register(&t, 1, regid, regid, 0);
		}
		wrong += t.live_sum != live_sum_of(&t);
		nonzero += t.live_sum != 0;
	}
	ASSERT_EQ(0, wrong);
	ASSERT_GT(nonzero, 0);
	/* More live ranks than the table holds: the oldest live ones go. */
	ftd_ranks_clear(&t);
	for (regid = 1; regid <= FTD_RANKS_PER_NODE + 40; regid++)
		ftd_ranks_register(&t, 1, regid, regid, 0);
	ASSERT_EQ(live_sum_of(&t), t.live_sum);
	ftd_ranks_clear(&t);
	ASSERT_EQ(0, t.n);
	ASSERT_EQ(0, t.live_sum);
}

TEST_HARNESS_MAIN
