// SPDX-License-Identifier: GPL-2.0
/*
 * The rank table (kmod/proto/ranks.c): notices arrive in any order and more
 * than once; each registration's end is news exactly once.
 */
#include "harness.h"
#include "proto/ranks.h"

TEST(register_then_end_is_news_once)
{
	static struct ftd_rank_table t;

	EXPECT_TRUE(ftd_ranks_register(&t, 1, 5, 100));
	EXPECT_FALSE(ftd_ranks_register(&t, 1, 5, 100));	/* repeated */
	EXPECT_TRUE(ftd_ranks_end(&t, 1, 5, 100));
	EXPECT_FALSE(ftd_ranks_end(&t, 1, 5, 100));
	EXPECT_FALSE(ftd_ranks_register(&t, 1, 5, 100));	/* late: stays ended */
}

TEST(end_overtaking_the_registration)
{
	static struct ftd_rank_table t;

	EXPECT_TRUE(ftd_ranks_end(&t, 2, 9, 7));
	EXPECT_FALSE(ftd_ranks_register(&t, 2, 9, 7));
	EXPECT_FALSE(ftd_ranks_end(&t, 2, 9, 7));
}

TEST(node_death_ends_each_live_rank_once)
{
	static struct ftd_rank_table t;
	struct ftd_rank_entry out[2];
	u32 total = 0, n;

	ftd_ranks_register(&t, 1, 0, 1);
	ftd_ranks_register(&t, 1, 1, 2);
	ftd_ranks_register(&t, 1, 2, 3);
	ftd_ranks_end(&t, 1, 1, 2);
	while ((n = ftd_ranks_end_some(&t, out, 2)))
		total += n;
	EXPECT_EQ(2, total);
	EXPECT_EQ(0, ftd_ranks_end_some(&t, out, 2));
	EXPECT_FALSE(ftd_ranks_end(&t, 1, 0, 1));	/* a PROC_DEAD after the node's death */
}

TEST(a_full_table_recycles_tombstones_first)
{
	static struct ftd_rank_table t;
	u32 i;

	for (i = 0; i < FTD_RANKS_PER_NODE; i++)
		ASSERT_TRUE(ftd_ranks_register(&t, 1, i, i + 1));
	ASSERT_TRUE(ftd_ranks_end(&t, 1, 10, 11));
	ASSERT_TRUE(ftd_ranks_register(&t, 1, 999, 5000));	/* takes rank 10's tombstone */
	EXPECT_EQ(FTD_RANKS_PER_NODE, t.n);
	EXPECT_TRUE(ftd_ranks_end(&t, 1, 999, 5000));
	EXPECT_TRUE(ftd_ranks_end(&t, 1, 0, 1));		/* the live ones are all kept */
}

TEST_HARNESS_MAIN
