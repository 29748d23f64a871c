// SPDX-License-Identifier: GPL-2.0
/*
 * The reach check (kmod/proto/reach.h): a burst past k deaths asks a
 * sample of the cluster; a node that hears fewer than a quarter of it,
 * twice running, is in a minority (proto/partition.h ftd_partition_lost),
 * and one that hears half or more, twice running, reaches the cluster.
 */
#include "harness.h"
#include "proto/partition.h"
#include "proto/reach.h"

#define MS 1000000ULL
#define T (100 * MS)

/*
 * Two checks running (the run's second one begun at its first's verdict,
 * a timeout later) hear heard1 and heard2 of asked, all held live: the
 * second's verdict.
 */
static enum ftd_reach_verdict two_checks(struct ftd_reach *r, u32 asked, u32 heard1, u32 heard2,
					 u64 at)
{
	enum ftd_reach_verdict v;

	ftd_reach_start(r, asked, r->members, at);
	v = ftd_reach_judge(r, heard1, asked, at + T, T, false);
	if (v != FTD_REACH_AGAIN)
		return v;
	ftd_reach_start(r, asked, r->members, at + T);
	return ftd_reach_judge(r, heard2, asked, at + 2 * T, T, false);
}

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
	/* One check at a time, its confirmation included. */
	EXPECT_FALSE(ftd_reach_due(&r, 1, 9, 2, false));
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 16, r.asked, 1100 * MS, T, false));
	ftd_reach_start(&r, 16, r.members, 1100 * MS);
	EXPECT_FALSE(ftd_reach_due(&r, 1, 9, 2, false));
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 16, r.asked, 1200 * MS, T, false));
	/* The next one when the deaths doubled: 6. */
	EXPECT_FALSE(ftd_reach_due(&r, 1, 5, 2, false));
	EXPECT_TRUE(ftd_reach_due(&r, 1, 6, 2, false));
	EXPECT_EQ(FTD_REACH_HELD, two_checks(&r, 16, 8, 9, 1200 * MS));
	EXPECT_FALSE(ftd_reach_due(&r, 1, 11, 2, false));
	/* A new burst starts over at k + 1. */
	EXPECT_FALSE(ftd_reach_due(&r, 2, 2, 2, false));
	EXPECT_TRUE(ftd_reach_due(&r, 2, 3, 2, false));
	/* No burst under way (0 deaths): nothing, whatever the number. */
	EXPECT_EQ(FTD_REACH_HELD, two_checks(&r, 16, 16, 16, 2000 * MS));
	EXPECT_FALSE(ftd_reach_due(&r, 3, 0, 1, false));
}

/*
 * A walk over its whole cap counts its silence only after a check begun
 * since held (proto/watch.h): the check remembers when it began, and
 * only a check that found no minority does (a quarter heard or more; the
 * verdict that we reach the cluster may need more checks, the walk does
 * not wait for them).
 */
TEST(a_check_that_held_remembers_when_it_began)
{
	struct ftd_reach r = {};

	EXPECT_EQ(0, r.held_ns);
	ftd_reach_start(&r, 16, 40, 1000 * MS);
	EXPECT_EQ(FTD_REACH_WAIT, ftd_reach_judge(&r, 16, r.asked, 1050 * MS, T, false));
	EXPECT_EQ(0, r.held_ns);
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 4, r.asked, 1100 * MS, T, false));
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
	r.members = 13;
	EXPECT_EQ(FTD_REACH_HELD, two_checks(&r, 12, 12, 12, 1200 * MS));
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
	/* Over: no verdict twice (the caller starts the next one). */
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
		r.members = 40;
		EXPECT_EQ(heard < 8 ? FTD_REACH_FENCE : heard < 16 ? FTD_REACH_AGAIN :
			  FTD_REACH_HELD, two_checks(&r, 32, heard, heard, 1000 * MS));
	}
	/* A small ring: 3 asked, none heard (twice) fences, two heard (twice) hold. */
	EXPECT_EQ(FTD_REACH_FENCE, two_checks(&r, 3, 0, 0, 2000 * MS));
	EXPECT_EQ(FTD_REACH_HELD, two_checks(&r, 3, 2, 2, 3000 * MS));
	EXPECT_EQ(FTD_REACH_AGAIN, two_checks(&r, 3, 1, 1, 4000 * MS));
}

/*
 * Between a quarter and half heard, or half heard once, is no verdict: the
 * check is made again at once with a fresh sample, until two running hear
 * half or more, or two running a minority. An island of 10-25 % of the
 * cluster hears 10-25 % of its sample: with one check as the verdict
 * either way, those of its nodes that heard a quarter by chance once
 * never checked again (its edges fenced, no more deaths came) and ran on:
 * 31 of an island of 150 in 1,000 nodes, 394 of 800 in 4,000 (ftdsim
 * --cut-mode island); asked again while under half, a node of an island
 * of a quarter that heard half once by chance (p ~ 0.002) did the same:
 * 2 of 250.
 */
TEST(a_check_between_a_quarter_and_half_asks_again)
{
	struct ftd_reach r = {};

	ASSERT_TRUE(ftd_reach_due(&r, 1, 3, 2, false));
	r.members = 1000;
	/* 8-15 of 32, as often as it comes: no verdict, each a fresh sample. */
	EXPECT_EQ(FTD_REACH_AGAIN, two_checks(&r, 32, 8, 15, 1000 * MS));
	EXPECT_EQ(FTD_REACH_AGAIN, two_checks(&r, 32, 12, 9, 2000 * MS));
	/* Half heard once, then a quarter: still nothing either way. */
	EXPECT_EQ(FTD_REACH_AGAIN, two_checks(&r, 32, 16, 8, 3000 * MS));
	/* A minority once, then between: the minority needs two running again. */
	EXPECT_EQ(FTD_REACH_AGAIN, two_checks(&r, 32, 7, 10, 4000 * MS));
	EXPECT_EQ(FTD_REACH_FENCE, two_checks(&r, 32, 7, 7, 5000 * MS));
	/* Half heard once, then a minority: a minority once. */
	ASSERT_TRUE(ftd_reach_due(&r, 2, 3, 2, false));
	EXPECT_EQ(FTD_REACH_AGAIN, two_checks(&r, 32, 16, 7, 6000 * MS));
	ftd_reach_start(&r, 32, r.members, 6200 * MS);
	EXPECT_EQ(FTD_REACH_FENCE, ftd_reach_judge(&r, 7, 32, 6300 * MS, T, false));
	/* Half heard twice running: held, and a new check starts from nothing. */
	ASSERT_TRUE(ftd_reach_due(&r, 3, 3, 2, false));
	EXPECT_EQ(FTD_REACH_HELD, two_checks(&r, 32, 16, 30, 7000 * MS));
	ASSERT_TRUE(ftd_reach_due(&r, 3, 6, 2, false));
	EXPECT_EQ(FTD_REACH_AGAIN, two_checks(&r, 32, 7, 16, 8000 * MS));
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
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 7, 16, 1100 * MS, T, false));
	EXPECT_FALSE(r.confirming);
	ftd_reach_start(&r, 32, 1000, 1200 * MS);
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 3, 16, 1300 * MS, T, false));
	ftd_reach_start(&r, 32, 1000, 1300 * MS);
	EXPECT_EQ(FTD_REACH_FENCE, ftd_reach_judge(&r, 3, 16, 1400 * MS, T, false));
	/* All of it declared: no evidence either way, the partition rule decides. */
	ftd_reach_start(&r, 32, 1000, 1400 * MS);
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 0, 0, 1500 * MS, T, false));
	ftd_reach_start(&r, 32, 1000, 1500 * MS);
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 0, 0, 1600 * MS, T, false));
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
	/* It hears enough, twice: held, and the next minority needs confirming again. */
	EXPECT_EQ(FTD_REACH_AGAIN, ftd_reach_judge(&r, 20, 30, 1200 * MS, T, false));
	ftd_reach_start(&r, 32, r.members, 1200 * MS);
	EXPECT_EQ(FTD_REACH_HELD, ftd_reach_judge(&r, 20, 30, 1300 * MS, T, false));
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
