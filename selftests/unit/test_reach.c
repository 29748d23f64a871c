// SPDX-License-Identifier: GPL-2.0
/*
 * The reach check (kmod/proto/reach.h): a burst past k deaths asks a
 * sample of the cluster, and a node that hears fewer than a quarter of it
 * is in a minority (proto/partition.h ftd_partition_lost).
 */
#include "harness.h"
#include "proto/partition.h"
#include "proto/reach.h"

#define MS 1000000ULL
#define T (100 * MS)

TEST(a_check_starts_past_k_deaths_and_again_when_they_double)
{
	struct ftd_reach r = {};

	/* k = 2: one and two deaths are what one node's observers declare. */
	EXPECT_FALSE(ftd_reach_due(&r, 1, 0, 2, false));
	EXPECT_FALSE(ftd_reach_due(&r, 1, 1, 2, false));
	EXPECT_FALSE(ftd_reach_due(&r, 1, 2, 2, false));
	EXPECT_TRUE(ftd_reach_due(&r, 1, 3, 2, false));
	EXPECT_EQ(3, r.deaths);
	ftd_reach_start(&r, 16, 40, 1000 * MS);
	/* One check at a time. */
	EXPECT_FALSE(ftd_reach_due(&r, 1, 9, 2, false));
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 16, r.asked, 1100 * MS, T, false));
	/* The next one when the deaths doubled: 6. */
	EXPECT_FALSE(ftd_reach_due(&r, 1, 5, 2, false));
	EXPECT_TRUE(ftd_reach_due(&r, 1, 6, 2, false));
	ftd_reach_start(&r, 16, 40, 1200 * MS);
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 8, r.asked, 1300 * MS, T, false));
	EXPECT_FALSE(ftd_reach_due(&r, 1, 11, 2, false));
	/* A new burst starts over at k + 1. */
	EXPECT_FALSE(ftd_reach_due(&r, 2, 2, 2, false));
	EXPECT_TRUE(ftd_reach_due(&r, 2, 3, 2, false));
	/* No burst under way (0 deaths): nothing, whatever the number. */
	ftd_reach_start(&r, 16, 40, 2000 * MS);
	ftd_reach_judge(&r, 16, r.asked, 2100 * MS, T, false);
	EXPECT_FALSE(ftd_reach_due(&r, 3, 0, 1, false));
}

/*
 * A walk over its whole cap counts its silence only after a check begun
 * since held (proto/watch.h): the check remembers when it began, and
 * only a check that held does.
 */
TEST(a_check_that_held_remembers_when_it_began)
{
	struct ftd_reach r = {};

	EXPECT_EQ(0, r.held_ns);
	ftd_reach_start(&r, 16, 40, 1000 * MS);
	EXPECT_EQ(FTD_REACH_WAIT, ftd_reach_judge(&r, 16, r.asked, 1050 * MS, T, false));
	EXPECT_EQ(0, r.held_ns);
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 16, r.asked, 1100 * MS, T, false));
	EXPECT_EQ(1000 * MS, r.held_ns);
	/* A minority, even once: the time of the last check that held stays. */
	ftd_reach_start(&r, 16, 40, 2000 * MS);
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 2, r.asked, 2100 * MS, T, false));
	EXPECT_EQ(1000 * MS, r.held_ns);
}

TEST(a_predecessor_that_fenced_itself_starts_a_check)
{
	struct ftd_reach r = {};

	/* No burst at all: a restart alone starts one. */
	EXPECT_FALSE(ftd_reach_due(&r, 0, 0, 2, false));
	EXPECT_TRUE(ftd_reach_due(&r, 0, 0, 2, true));
	EXPECT_EQ(0, r.deaths);
	ftd_reach_start(&r, 12, 13, 1000 * MS);
	/* Not while one runs. */
	EXPECT_FALSE(ftd_reach_due(&r, 0, 0, 2, true));
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 2, r.asked, 1100 * MS, T, false));
	ftd_reach_start(&r, 12, r.members, 1100 * MS);
	EXPECT_EQ(FTD_REACH_FENCE, ftd_reach_judge(&r, 2, r.asked, 1200 * MS, T, false));
	EXPECT_EQ(13, r.members);
	/* Nor does it spend a burst's check: that still comes past k. */
	EXPECT_TRUE(ftd_reach_due(&r, 1, 0, 2, true));
	ftd_reach_start(&r, 12, 13, 1200 * MS);
	ftd_reach_judge(&r, 12, r.asked, 1300 * MS, T, false);
	EXPECT_TRUE(ftd_reach_due(&r, 1, 3, 2, false));
}

TEST(a_check_ends_after_a_timeout_on_time)
{
	struct ftd_reach r = {};

	ASSERT_TRUE(ftd_reach_due(&r, 1, 2, 1, false));
	ftd_reach_start(&r, 32, 40, 1000 * MS);
	EXPECT_EQ(FTD_REACH_WAIT, ftd_reach_judge(&r, 0, r.asked, 1000 * MS, T, false));
	EXPECT_EQ(FTD_REACH_WAIT, ftd_reach_judge(&r, 0, r.asked, 1099 * MS, T, false));
	/* Starved: the answers may be queued behind us; wait for a tick on time. */
	EXPECT_EQ(FTD_REACH_WAIT, ftd_reach_judge(&r, 0, r.asked, 1100 * MS, T, true));
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 0, r.asked, 1110 * MS, T, false));
	/* Over: no verdict twice. */
	EXPECT_EQ(FTD_REACH_WAIT, ftd_reach_judge(&r, 0, r.asked, 1200 * MS, T, false));
	/* Nobody to ask (alone in the ring): no check runs. */
	ftd_reach_start(&r, 0, 40, 2000 * MS);
	EXPECT_EQ(FTD_REACH_WAIT, ftd_reach_judge(&r, 0, r.asked, 3000 * MS, T, false));
}

TEST(fewer_than_a_quarter_heard_is_a_minority)
{
	struct ftd_reach r = {};
	u32 heard;

	for (heard = 0; heard <= 32; heard++) {
		r = (struct ftd_reach){};
		ASSERT_TRUE(ftd_reach_due(&r, 1, 3, 2, false));
		ftd_reach_start(&r, 32, 40, 1000 * MS);
		EXPECT_EQ(heard < 8 ? FTD_REACH_AGAIN : FTD_REACH_HELD,
			  ftd_reach_judge(&r, heard, r.asked, 1100 * MS, T, false));
		ftd_reach_start(&r, 32, r.members, 1100 * MS);
		EXPECT_EQ(heard < 8 ? FTD_REACH_FENCE : FTD_REACH_HELD,
			  ftd_reach_judge(&r, heard, r.asked, 1200 * MS, T, false));
	}
	/* A small ring: 3 asked, none heard (twice) fences, one heard holds. */
	ftd_reach_start(&r, 3, 40, 1000 * MS);
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 0, r.asked, 1100 * MS, T, false));
	ftd_reach_start(&r, 3, 40, 1100 * MS);
	EXPECT_EQ(FTD_REACH_FENCE, ftd_reach_judge(&r, 0, r.asked, 1200 * MS, T, false));
	ftd_reach_start(&r, 3, 40, 1000 * MS);
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 1, r.asked, 1100 * MS, T, false));
}

/*
 * Members of the sample we declared dead while the check ran are not
 * counted against us: they are the burst's own deaths, not the part of
 * the cluster we fail to reach. A node of the majority when 490 of 1,000
 * were cut off at random (ftdsim, 20 % loss) drew about half its sample
 * among them, heard 7 of 32 once in a few thousand checks and fenced
 * itself, its deaths then never delivered.
 */
TEST(members_declared_meanwhile_do_not_count)
{
	struct ftd_reach r = {};

	ASSERT_TRUE(ftd_reach_due(&r, 1, 3, 2, false));
	ftd_reach_start(&r, 32, 1000, 1000 * MS);
	/* 7 heard of 32: a minority; of the 16 still held live: not. */
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 7, 16, 1100 * MS, T, false));
	ftd_reach_start(&r, 32, 1000, 1200 * MS);
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 3, 16, 1300 * MS, T, false));
	ftd_reach_start(&r, 32, 1000, 1300 * MS);
	EXPECT_EQ(FTD_REACH_FENCE, ftd_reach_judge(&r, 3, 16, 1400 * MS, T, false));
	/* All of it declared: no evidence either way, the partition rule decides. */
	ftd_reach_start(&r, 32, 1000, 1400 * MS);
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 0, 0, 1500 * MS, T, false));
}

/*
 * One check's minority is asked again at once, with a fresh sample, and
 * only a second one fences: in an even split of 10,000 nodes, a node of
 * the winning half hears 7 or fewer of 32 with p ~ 0.001 per check while
 * the losing half is still held live, and one check as the verdict
 * fenced a dozen of them (ftdsim -n 10000 -s partition --cut 50%
 * --cut-mode island --first 1).
 */
TEST(a_minority_is_confirmed_by_a_fresh_sample)
{
	struct ftd_reach r = {};

	ASSERT_TRUE(ftd_reach_due(&r, 1, 3, 2, false));
	ftd_reach_start(&r, 32, 10000, 1000 * MS);
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 7, 32, 1100 * MS, T, false));
	/* The confirming check is no new check: nothing is due meanwhile. */
	ftd_reach_start(&r, 32, r.members, 1100 * MS);
	EXPECT_EQ(10000, r.members);
	EXPECT_FALSE(ftd_reach_due(&r, 1, 400, 2, false));
	/* It hears enough: held, and the next minority needs confirming again. */
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 20, 30, 1200 * MS, T, false));
	ASSERT_TRUE(ftd_reach_due(&r, 1, 6, 2, false));
	ftd_reach_start(&r, 32, 10000, 1200 * MS);
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 0, 32, 1300 * MS, T, false));
	/* A confirmation with nobody to ask lapses: the next check is a first one. */
	ftd_reach_start(&r, 0, r.members, 1300 * MS);
	ASSERT_TRUE(ftd_reach_due(&r, 1, 12, 2, false));
	ftd_reach_start(&r, 32, 10000, 1400 * MS);
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 0, 32, 1500 * MS, T, false));
	ftd_reach_start(&r, 32, r.members, 1500 * MS);
	EXPECT_EQ(FTD_REACH_FENCE, ftd_reach_judge(&r, 0, 32, 1600 * MS, T, false));
}

TEST(a_lost_reach_is_a_minority_of_the_burst)
{
	struct ftd_partition p = {};
	u64 counted[3] = {}, never = 0;
	u32 i;

	/* No burst: nothing to be a minority of. */
	EXPECT_FALSE(ftd_partition_lost(&p, 0));
	/* 1000 members; an island declares 3 of them, far from half. */
	for (i = 0; i < 3; i++)
		ASSERT_EQ(FTD_PARTITION_APPLY,
			  ftd_partition_judge(&p, 100 + i, &counted[i], 1000 - i, 1, 0,
					      1000 * MS + i * T, T));
	EXPECT_EQ(1, p.burst);
	EXPECT_TRUE(ftd_partition_lost(&p, 997));
	EXPECT_EQ(997, p.minority_of);
	EXPECT_FALSE(ftd_partition_lost(&p, 997));	/* once */
	/* In it, like any minority: nothing applied until over half are live. */
	EXPECT_EQ(FTD_PARTITION_HOLD, ftd_partition_judge(&p, 200, &never, 16, 1, p.forgot,
							  2000 * MS, T));
	ftd_partition_forgot(&p);	/* the fence forgot the view */
	EXPECT_FALSE(ftd_partition_healed(&p, 498, p.forgot));
	EXPECT_TRUE(ftd_partition_healed(&p, 499, p.forgot));
	/* A later burst is a new one. */
	ASSERT_EQ(FTD_PARTITION_APPLY, ftd_partition_judge(&p, 300, &never, 990, 1, p.forgot,
							   9000 * MS, T));
	EXPECT_EQ(2, p.burst);
}

TEST_HARNESS_MAIN
