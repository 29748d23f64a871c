// SPDX-License-Identifier: GPL-2.0
/*
 * The partition rule (kmod/proto/partition.h): only a majority of the
 * membership from before a burst of deaths declares; of two equal halves,
 * the one with the lowest node id.
 */
#include "harness.h"
#include "proto/partition.h"

/* ftd_partition_judge() of a subject whose death no burst has counted yet */
static enum ftd_partition_verdict judge(struct ftd_partition *p, u32 subject, u32 live, u32 lowest,
					u32 from, u64 now_ns, u64 timeout_ns)
{
	u64 never = 0;

	return ftd_partition_judge(p, subject, &never, live, lowest, from, now_ns, timeout_ns);
}

#define MS 1000000ULL
#define T (100 * MS)
/* A count of live members begun now: see "A heal is judged on a count". */
#define FROM(p) ftd_partition_count_from(p)

/*
 * One side of a cut: nodes 1..n, of which `side` are ours (the lowest ids
 * when `low`, else the highest); we declare the others one by one, 1 ms
 * apart, starting at `at`. Returns the deaths applied before the first
 * verdict that was not APPLY (stored in *last), or all of them.
 */
static u32 declare_other_side(struct ftd_partition *p, u32 n, u32 side, bool low, u64 at,
			      enum ftd_partition_verdict *last)
{
	u32 live = n, lowest = 1, applied = 0, i, subject;

	*last = FTD_PARTITION_APPLY;
	for (i = 0; i < n - side; i++) {
		subject = low ? n - i : 1 + i;	/* the far ones first */
		*last = judge(p, subject, live, lowest, FROM(p), at + i * MS, T);
		if (*last != FTD_PARTITION_APPLY)
			break;
		applied++;
		live--;
		if (subject == lowest)
			lowest++;
	}
	return applied;
}

/* A death applied on another CPU after our clock read is in the burst. */
TEST(a_burst_begun_after_our_clock_read_is_on)
{
	struct ftd_partition p = { .last_ns = 1000 * MS + 1 };

	EXPECT_TRUE(ftd_partition_in_burst(&p, 1000 * MS, T));
	EXPECT_FALSE(ftd_partition_in_burst(&p, 1000 * MS + ftd_partition_window(T) + 1, T));
}

TEST(a_majority_declares_the_minority)
{
	struct ftd_partition p = {};
	enum ftd_partition_verdict v;

	/* 9 nodes, we are 6 of them: all 3 others declared. */
	EXPECT_EQ(3, declare_other_side(&p, 9, 6, true, 1000 * MS, &v));
	EXPECT_EQ(FTD_PARTITION_APPLY, v);
	EXPECT_EQ(0, p.minority_of);
}

TEST(a_minority_fences_when_it_would_cross_half)
{
	struct ftd_partition p = {};
	enum ftd_partition_verdict v;

	/* 9 nodes, we are 3: after 4 deaths 5 of 9 are left; the 5th would leave 4. */
	EXPECT_EQ(4, declare_other_side(&p, 9, 3, false, 1000 * MS, &v));
	EXPECT_EQ(FTD_PARTITION_FENCE, v);
	EXPECT_EQ(9, p.minority_of);
	/* From then on nothing is applied, however long it lasts. */
	EXPECT_EQ(FTD_PARTITION_HOLD, judge(&p, 8, 3, 7, FROM(&p), 2000 * MS, T));
	EXPECT_EQ(FTD_PARTITION_HOLD, judge(&p, 8, 4, 4, FROM(&p), 60000 * MS, T));
}

TEST(equal_halves_the_lowest_id_goes_on)
{
	struct ftd_partition a = {}, b = {};
	enum ftd_partition_verdict v;

	/* 8 nodes cut 4/4: the side with node 1 declares all four others ... */
	EXPECT_EQ(4, declare_other_side(&a, 8, 4, true, 1000 * MS, &v));
	EXPECT_EQ(FTD_PARTITION_APPLY, v);
	/* ... the other side three (down to half), and fences at the fourth. */
	EXPECT_EQ(3, declare_other_side(&b, 8, 4, false, 1000 * MS, &v));
	EXPECT_EQ(FTD_PARTITION_FENCE, v);
	/* Two nodes: node 1 declares node 2, node 2 fences. */
	EXPECT_EQ(FTD_PARTITION_APPLY,
		  judge(&(struct ftd_partition){}, 2, 2, 1, 0, 5 * MS, T));
	EXPECT_EQ(FTD_PARTITION_FENCE,
		  judge(&(struct ftd_partition){}, 1, 2, 1, 0, 5 * MS, T));
}

TEST(the_tie_break_holds_whatever_order_the_deaths_come_in)
{
	struct ftd_partition p = {};

	/* 4 nodes, we are 3 and 4: node 1 (the lowest) declared first, then 2. */
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 1, 4, 1, FROM(&p), 1000 * MS, T));
	EXPECT_EQ(FTD_PARTITION_FENCE, judge(&p, 2, 3, 2, FROM(&p), 1001 * MS, T));
}

TEST(deaths_far_apart_each_start_a_burst_of_their_own)
{
	struct ftd_partition p = {};
	u32 live;

	/* 8 nodes dying one by one, a second apart: down to the last one. */
	for (live = 8; live > 1; live--)
		EXPECT_EQ(FTD_PARTITION_APPLY,
			  judge(&p, live, live, 1, FROM(&p), (10 - live) * 1000 * MS, T));
	/* Within four timeouts of each other they add up. */
	p = (struct ftd_partition){};
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 8, 8, 1, FROM(&p), 1000 * MS, T));
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 7, 7, 1, FROM(&p), 1399 * MS, T));
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 6, 6, 1, FROM(&p), 1798 * MS, T));
	/* 4 of 8 is half, with node 1: still applied; 3 of 8 is not. */
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 5, 5, 1, FROM(&p), 2197 * MS, T));
	EXPECT_EQ(FTD_PARTITION_FENCE, judge(&p, 4, 4, 1, FROM(&p), 2596 * MS, T));
}

/*
 * After a partition healed, a node of 6 was declared three times in
 * 700 ms (it rejoined at a higher incarnation each time): counted as three
 * deaths, its fourth made all five others fence. It is one member.
 */
TEST(a_member_that_dies_again_in_a_burst_counts_once)
{
	struct ftd_partition p = {};
	u64 counted[7] = {};
	u32 i;

	for (i = 0; i < 10; i++)
		ASSERT_EQ(FTD_PARTITION_APPLY,
			  ftd_partition_judge(&p, 6, &counted[6], 6, 1, FROM(&p),
					      1000 * MS + i * 30 * MS, T));
	EXPECT_EQ(1, p.dead);
	EXPECT_EQ(1, p.burst);
	/* Its deaths again do not prolong the burst. */
	EXPECT_EQ(1000 * MS, p.last_ns);
	/* Counted once, the rule is unchanged: 5 and 4 apply (4 of 6 is half, with 1), 3 fences. */
	EXPECT_EQ(FTD_PARTITION_APPLY, ftd_partition_judge(&p, 5, &counted[5], 5, 1, FROM(&p),
							   1300 * MS, T));
	EXPECT_EQ(FTD_PARTITION_APPLY, ftd_partition_judge(&p, 4, &counted[4], 4, 1, FROM(&p),
							   1310 * MS, T));
	EXPECT_EQ(FTD_PARTITION_FENCE, ftd_partition_judge(&p, 3, &counted[3], 3, 1, FROM(&p),
							   1320 * MS, T));
	/* A burst of its own later: its death counts again there. */
	p = (struct ftd_partition){};
	EXPECT_EQ(FTD_PARTITION_APPLY, ftd_partition_judge(&p, 6, &counted[6], 6, 1, FROM(&p),
							   60000 * MS, T));
	EXPECT_EQ(1, p.dead);
	EXPECT_EQ(60000 * MS, counted[6]);
}

TEST(members_that_leave_cleanly_leave_the_membership)
{
	struct ftd_partition p = {};

	/*
	 * 8 nodes: node 8 dies, 5, 6 and 7 leave, then 4 and 3 die. Of the 5
	 * members that did not leave, nodes 1 and 2 are left: a minority,
	 * although 2 deaths among 8 would not be one.
	 */
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 8, 8, 1, FROM(&p), 1000 * MS, T));
	ftd_partition_left(&p, 0, 0, 1010 * MS, T);
	ftd_partition_left(&p, 0, 0, 1020 * MS, T);
	ftd_partition_left(&p, 500 * MS, 0, 1030 * MS, T);
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 4, 4, 1, FROM(&p), 1040 * MS, T));
	EXPECT_EQ(FTD_PARTITION_FENCE, judge(&p, 3, 3, 1, FROM(&p), 1050 * MS, T));
	/* Leaves outside a burst change nothing: the next burst counts who is live. */
	p = (struct ftd_partition){};
	ftd_partition_left(&p, 0, 0, 1000 * MS, T);
	EXPECT_EQ(0, p.base);
}

TEST(only_members_of_the_burst_leave_its_membership)
{
	struct ftd_partition p = {};
	u64 counted6 = 0;

	/*
	 * 7 nodes listed, node 7 not started: 6 live, we are 1. Node 6 dies;
	 * node 7 starts and leaves cleanly; nodes 5 and 4 die. Node 7 was
	 * never in the burst's membership of 6: 3 of 6 are left, half with
	 * the lowest id, and the death applies. Taken out of it (5), the same
	 * 3 were a minority and fenced.
	 */
	EXPECT_EQ(FTD_PARTITION_APPLY, ftd_partition_judge(&p, 6, &counted6, 6, 1, FROM(&p),
							   1000 * MS, T));
	ftd_partition_left(&p, 1100 * MS, 0, 1200 * MS, T);	/* live since after the first death */
	EXPECT_EQ(6, p.base);
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 5, 5, 1, FROM(&p), 1300 * MS, T));
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 4, 4, 1, FROM(&p), 1400 * MS, T));

	/*
	 * A member whose death the burst counted comes back and leaves
	 * cleanly: counted once, as a death, not again as a leave.
	 */
	p = (struct ftd_partition){};
	counted6 = 0;
	EXPECT_EQ(FTD_PARTITION_APPLY, ftd_partition_judge(&p, 6, &counted6, 6, 1, FROM(&p),
							   1000 * MS, T));
	ftd_partition_left(&p, 0, counted6, 1200 * MS, T);
	EXPECT_EQ(6, p.base);
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 5, 5, 1, FROM(&p), 1300 * MS, T));
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 4, 4, 1, FROM(&p), 1400 * MS, T));

	/* One live before the burst began leaves its membership. */
	p = (struct ftd_partition){};
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 6, 6, 1, FROM(&p), 1000 * MS, T));
	ftd_partition_left(&p, 999 * MS, 0, 1200 * MS, T);
	EXPECT_EQ(5, p.base);
}

TEST(a_minority_that_hears_a_majority_again_declares_again)
{
	struct ftd_partition p = {};

	EXPECT_EQ(FTD_PARTITION_FENCE, judge(&p, 1, 2, 1, FROM(&p), 1000 * MS, T));
	EXPECT_EQ(FTD_PARTITION_HOLD, judge(&p, 1, 1, 2, FROM(&p), 1200 * MS, T));
	ftd_partition_forgot(&p);	/* the fence forgot the view */
	/* Healed: node 1 heard again (2 of 2), then really dead: node 2 alone is half, without node 1. */
	EXPECT_EQ(FTD_PARTITION_FENCE, judge(&p, 1, 2, 1, FROM(&p), 9000 * MS, T));
	/* 5 nodes, in a minority of 5; 3 heard again: a majority, a death applies. */
	p = (struct ftd_partition){ .minority_of = 5 };
	EXPECT_EQ(FTD_PARTITION_HOLD, judge(&p, 4, 2, 3, FROM(&p), 1000 * MS, T));
	EXPECT_EQ(FTD_PARTITION_APPLY, judge(&p, 4, 4, 1, FROM(&p), 2000 * MS, T));
	EXPECT_EQ(0, p.minority_of);
}

/*
 * A count begun before the view was forgotten (on another CPU, while this
 * one entered the minority) still holds the other side live: no heal.
 */
TEST(a_count_from_before_the_view_was_forgotten_heals_nothing)
{
	struct ftd_partition p = {};
	u32 before = FROM(&p);

	/* 12 members, we declare the far side until we would be a minority. */
	EXPECT_TRUE(ftd_partition_lost(&p, 12));
	EXPECT_FALSE(ftd_partition_healed(&p, 9, before));
	EXPECT_EQ(FTD_PARTITION_HOLD, judge(&p, 5, 9, 1, before, 1000 * MS, T));
	/* Nor one begun after the minority but before the view was forgotten. */
	EXPECT_FALSE(ftd_partition_healed(&p, 9, FROM(&p)));
	EXPECT_EQ(12, p.minority_of);
	ftd_partition_forgot(&p);
	/* From then on: 2 heard again is no majority, 7 is. */
	EXPECT_FALSE(ftd_partition_healed(&p, 2, FROM(&p)));
	EXPECT_TRUE(ftd_partition_healed(&p, 7, FROM(&p)));
	EXPECT_EQ(0, p.minority_of);
}

TEST(the_tick_sees_the_heal_without_a_death)
{
	struct ftd_partition p = { .minority_of = 6 };

	EXPECT_FALSE(ftd_partition_healed(&p, 2, FROM(&p)));
	EXPECT_FALSE(ftd_partition_healed(&p, 3, FROM(&p)));	/* half is not more than half */
	EXPECT_EQ(6, p.minority_of);
	EXPECT_TRUE(ftd_partition_healed(&p, 4, FROM(&p)));
	EXPECT_EQ(0, p.minority_of);
	EXPECT_FALSE(ftd_partition_healed(&p, 6, FROM(&p)));	/* not in a minority: nothing to heal */
}

TEST(a_minority_learns_nothing_by_hearsay_of_members_it_forgot)
{
	struct ftd_partition p = {};

	EXPECT_TRUE(ftd_partition_takes_hearsay(&p));
	EXPECT_EQ(FTD_PARTITION_FENCE, judge(&p, 1, 2, 1, FROM(&p), 1000 * MS, T));
	EXPECT_FALSE(ftd_partition_takes_hearsay(&p));
	ftd_partition_forgot(&p);
	EXPECT_TRUE(ftd_partition_healed(&p, 2, FROM(&p)));
	EXPECT_TRUE(ftd_partition_takes_hearsay(&p));
}

TEST_HARNESS_MAIN
