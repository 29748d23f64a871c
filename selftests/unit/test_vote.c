// SPDX-License-Identifier: GPL-2.0
/*
 * Quorum (kmod/proto/vote.h): the votes needed never exceed the judges
 * there are, and only nodes held alive judge.
 */
#include "harness.h"
#include "proto/vote.h"

TEST(enough_judges_need_the_quorum)
{
	EXPECT_EQ(2, ftd_vote_needed(2, 3));
	EXPECT_EQ(3, ftd_vote_needed(3, 3));
	EXPECT_EQ(1, ftd_vote_needed(1, 8));
}

TEST(fewer_judges_than_the_quorum_never_block)
{
	/* q = k = 3, one observer dead with the node: the other two decide. */
	EXPECT_EQ(2, ftd_vote_needed(3, 2));
	/* Every other observer suspect: the voter alone. */
	EXPECT_EQ(1, ftd_vote_needed(3, 1));
	EXPECT_EQ(1, ftd_vote_needed(2, 0));
}

TEST(only_nodes_held_alive_judge)
{
	EXPECT_TRUE(ftd_vote_may_judge(FTD_NODE_ALIVE));
	EXPECT_TRUE(ftd_vote_may_judge(FTD_NODE_SELF));
	EXPECT_FALSE(ftd_vote_may_judge(FTD_NODE_SUSPECT));
	EXPECT_FALSE(ftd_vote_may_judge(FTD_NODE_DEAD));
	EXPECT_FALSE(ftd_vote_may_judge(FTD_NODE_LEFT));
	EXPECT_FALSE(ftd_vote_may_judge(FTD_NODE_UNKNOWN));
}

TEST_HARNESS_MAIN
