// SPDX-License-Identifier: GPL-2.0
/*
 * Quorum (kmod/proto/vote.h): the votes needed never exceed the judges
 * there are, only nodes held alive judge, and a judge silent since our
 * vote began stops counting once the vote has stood two timeouts with
 * another judge's beside it.
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

#define MS	1000000ull
#define SELF	1
#define JUDGE	2
#define OTHER	3

/* Our vote cast every 10 ms tick from t0 (a 50 ms timeout). */
static void cast_until(struct ftd_votes *v, u64 t0, u64 until)
{
	u64 t;

	for (t = t0; t <= until; t += 10 * MS)
		ftd_votes_record(v, SELF, true, t, 50 * MS);
}

TEST(a_young_vote_counts_every_judge)
{
	struct ftd_votes v = {};

	cast_until(&v, 1000 * MS, 1040 * MS);
	EXPECT_FALSE(ftd_votes_ask_judges(&v, SELF, 1040 * MS, 50 * MS));
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 1040 * MS, 50 * MS, false));
	cast_until(&v, 1050 * MS, 1090 * MS);
	/* Stood a timeout: ask, but the judge counts until two. */
	EXPECT_TRUE(ftd_votes_ask_judges(&v, SELF, 1090 * MS, 50 * MS));
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 1090 * MS, 50 * MS, false));
}

TEST(a_judge_silent_since_the_vote_began_counts_no_more)
{
	struct ftd_votes v = {};

	cast_until(&v, 1000 * MS, 1100 * MS);
	ftd_votes_record(&v, OTHER, false, 1095 * MS, 50 * MS);
	/* Heard before our vote began: no word since. */
	EXPECT_FALSE(ftd_votes_judge_counts(&v, SELF, JUDGE, 990 * MS, 1100 * MS, 50 * MS, false));
	EXPECT_FALSE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 1100 * MS, 50 * MS, false));
	/* It answered our ask: alive, and its silence about the node holds. */
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, JUDGE, 1060 * MS, 1100 * MS, 50 * MS, false));
	/* We always judge; a judge with a fresh vote counts. */
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, SELF, 0, 1100 * MS, 50 * MS, false));
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, OTHER, 0, 1100 * MS, 50 * MS, false));
}

/*
 * Our vote alone, every ask unanswered: our own links may be what fails
 * (quorum.sh: peers refuse the voter's notices). The judges still count:
 * a voter never makes itself the quorum by counting the others out.
 */
TEST(a_voter_alone_counts_nobody_out)
{
	struct ftd_votes v = {};

	cast_until(&v, 1000 * MS, 1200 * MS);
	EXPECT_TRUE(ftd_votes_ask_judges(&v, SELF, 1200 * MS, 50 * MS));
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 1200 * MS, 50 * MS, false));
	/* Another judge's vote beside ours: the silent one is counted out. */
	ftd_votes_record(&v, OTHER, false, 1190 * MS, 50 * MS);
	EXPECT_FALSE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 1200 * MS, 50 * MS, false));
	/* and again once that vote is older than a timeout */
	cast_until(&v, 1210 * MS, 1250 * MS);
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 1250 * MS, 50 * MS, false));
}

/* Our tick starved or the machine dropping: silence counts from 4 timeouts. */
TEST(an_overloaded_voter_waits_longer)
{
	struct ftd_votes v = {};

	cast_until(&v, 1000 * MS, 1190 * MS);
	ftd_votes_record(&v, OTHER, false, 1185 * MS, 50 * MS);
	EXPECT_FALSE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 1190 * MS, 50 * MS, false));
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 1190 * MS, 50 * MS, true));
	cast_until(&v, 1200 * MS, 1200 * MS);
	ftd_votes_record(&v, OTHER, false, 1200 * MS, 50 * MS);
	EXPECT_FALSE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 1200 * MS, 50 * MS, true));
}

TEST(a_vote_that_lapsed_begins_again)
{
	struct ftd_votes v = {};

	cast_until(&v, 1000 * MS, 1100 * MS);
	/* We stopped suspecting (it answered); suspected again much later. */
	cast_until(&v, 2000 * MS, 2040 * MS);
	EXPECT_FALSE(ftd_votes_ask_judges(&v, SELF, 2040 * MS, 50 * MS));
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 2040 * MS, 50 * MS, false));
	/* Not casting: no vote of ours stands, nobody is counted out. */
	EXPECT_FALSE(ftd_votes_ask_judges(&v, SELF, 2200 * MS, 50 * MS));
	EXPECT_TRUE(ftd_votes_judge_counts(&v, SELF, JUDGE, 0, 2200 * MS, 50 * MS, false));
}

TEST_HARNESS_MAIN
