// SPDX-License-Identifier: GPL-2.0
/*
 * The rank table (kmod/proto/ranks.c): notices arrive in any order and more
 * than once; each registration's end is news exactly once.
 */
#include "harness.h"
#include <stdlib.h>
#include <string.h>
#include "proto/digest.h"
#include "proto/ranks.h"

/*
 * A zeroed table of room entries, as the module's kzalloc makes one: from
 * a static pool, which LeakSanitizer does not count as a leak.
 */
static struct ftd_rank_table *table(u32 room)
{
	static union {
		struct ftd_rank_table t;
		u8 bytes[FTD_RANKS_SIZE(FTD_RANKS_PER_NODE)];
	} pool[4];
	static unsigned int used;
	struct ftd_rank_table *t = &pool[used++ % 4].t;

	memset(t, 0, FTD_RANKS_SIZE(room));
	t->room = room;
	return t;
}

TEST(register_then_end_is_news_once)
{
	struct ftd_rank_table *t = table(FTD_RANKS_PER_NODE);

	EXPECT_TRUE(ftd_ranks_register(t, 1, 5, 100, 1000));
	EXPECT_FALSE(ftd_ranks_register(t, 1, 5, 100, 1000));	/* repeated */
	EXPECT_TRUE(ftd_ranks_end(t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_FALSE(ftd_ranks_end(t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_FALSE(ftd_ranks_register(t, 1, 5, 100, 1000));	/* late: stays ended */
}

TEST(end_overtaking_the_registration)
{
	struct ftd_rank_table *t = table(FTD_RANKS_PER_NODE);

	EXPECT_TRUE(ftd_ranks_end(t, 2, 9, 7, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_FALSE(ftd_ranks_register(t, 2, 9, 7, 1000));
	EXPECT_FALSE(ftd_ranks_end(t, 2, 9, 7, 1000, FTD_EV_PROC_DEAD, false));
}

TEST(node_death_ends_each_live_rank_once)
{
	struct ftd_rank_table *t = table(FTD_RANKS_PER_NODE);
	struct ftd_rank_entry out[2];
	u32 total = 0, n;

	ftd_ranks_register(t, 1, 0, 1, 1000);
	ftd_ranks_register(t, 1, 1, 2, 1000);
	ftd_ranks_register(t, 1, 2, 3, 1000);
	ftd_ranks_end(t, 1, 1, 2, 1000, FTD_EV_PROC_DEAD, false);
	while ((n = ftd_ranks_end_some(t, out, 2)))
		total += n;
	EXPECT_EQ(2, total);
	EXPECT_EQ(0, ftd_ranks_end_some(t, out, 2));
	EXPECT_FALSE(ftd_ranks_end(t, 1, 0, 1, 1000, FTD_EV_PROC_DEAD, false));	/* a PROC_DEAD after the node's death */
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
	struct ftd_rank_table *t = table(FTD_RANKS_PER_NODE);

	ASSERT_TRUE(fill_then_recycle(t));
	EXPECT_EQ(FTD_RANKS_PER_NODE, t->n);
	EXPECT_TRUE(ftd_ranks_end(t, 1, 999, 5000, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_TRUE(ftd_ranks_end(t, 1, 0, 1, 1000, FTD_EV_PROC_DEAD, false));		/* the live ones are all kept */
}

/*
 * A view carries ended registrations: one whose tombstone was recycled is
 * not news again (its end delivered twice), nor is its registration (a
 * rank that ended, live again).
 */
TEST(a_recycled_tombstone_stays_forgotten)
{
	struct ftd_rank_table *t = table(FTD_RANKS_PER_NODE);

	ASSERT_TRUE(fill_then_recycle(t));
	EXPECT_FALSE(ftd_ranks_end(t, 1, 10, 11, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_FALSE(ftd_ranks_register(t, 1, 10, 11, 1000));
	/* below the forgotten one but still held: news as ever */
	EXPECT_TRUE(ftd_ranks_end(t, 1, 3, 4, 1000, FTD_EV_PROC_EXIT, false));
	/* A new incarnation's: the module frees the table and starts anew. */
	t = table(FTD_RANKS_PER_NODE);
	EXPECT_TRUE(ftd_ranks_register(t, 1, 10, 11, 1000));
}

/*
 * A view's copy of an end (FTD_NOTICE_F_VIEW) ends a registration held
 * live, once, and is nothing for one never known: a node that joins late
 * is not told every rank that ever ended.
 */
TEST(a_copy_ends_only_what_is_held_live)
{
	struct ftd_rank_table *t = table(FTD_RANKS_PER_NODE);

	EXPECT_FALSE(ftd_ranks_end(t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, true));
	EXPECT_EQ(0, t->n);
	ASSERT_TRUE(ftd_ranks_register(t, 1, 5, 100, 1000));	/* it was unknown: still registers */
	EXPECT_TRUE(ftd_ranks_end(t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, true));
	EXPECT_FALSE(ftd_ranks_end(t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, true));
	EXPECT_FALSE(ftd_ranks_end(t, 1, 5, 100, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_EQ(0, t->live_sum);
}

TEST(an_ended_entry_remembers_how)
{
	struct ftd_rank_table *t = table(FTD_RANKS_PER_NODE);
	struct ftd_rank_entry out[4];

	ftd_ranks_register(t, 1, 0, 1, 1000);
	ftd_ranks_register(t, 1, 1, 2, 1000);
	ftd_ranks_register(t, 1, 2, 3, 1000);
	ftd_ranks_end(t, 1, 0, 1, 1000, FTD_EV_PROC_EXIT, false);
	ftd_ranks_end(t, 1, 1, 2, 1000, FTD_EV_PROC_DEAD, false);
	ftd_ranks_end(t, 1, 3, 4, 1000, FTD_EV_PROC_EXIT, false);		/* overtook its registration */
	ASSERT_EQ(1, ftd_ranks_end_some(t, out, 4));
	EXPECT_EQ(FTD_EV_RANKS_DEAD, out[0].ended);
	EXPECT_EQ(FTD_EV_PROC_EXIT, t->e[0].ended);
	EXPECT_EQ(FTD_EV_PROC_DEAD, t->e[1].ended);
	EXPECT_EQ(FTD_EV_RANKS_DEAD, t->e[2].ended);
	EXPECT_EQ(FTD_EV_PROC_EXIT, t->e[3].ended);
	/* A repeated end does not rewrite how it ended. */
	EXPECT_FALSE(ftd_ranks_end(t, 1, 0, 1, 1000, FTD_EV_PROC_DEAD, false));
	EXPECT_EQ(FTD_EV_PROC_EXIT, t->e[0].ended);
}

/* The owner travels with the entry, to the RANKS_DEAD records. */
TEST(owner_goes_with_the_entry)
{
	struct ftd_rank_table *t = table(FTD_RANKS_PER_NODE);
	struct ftd_rank_entry out[1];

	ASSERT_TRUE(ftd_ranks_register(t, 9, 0, 2, 1234));
	ASSERT_EQ(1, ftd_ranks_end_some(t, out, 1));
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
	struct ftd_rank_table *t = table(FTD_RANKS_PER_NODE);
	struct ftd_rank_entry out[8];
	u32 step, regid, wrong = 0, nonzero = 0;

	srandom(5);
	for (step = 0; step < 20000; step++) {
		regid = 1 + random() % 600;	/* more than the table holds */
		switch (random() % 8) {
		case 0:
			ftd_ranks_end_some(t, out, 1 + random() % 8);
			break;
		case 1:
		case 2:
			ftd_ranks_end(t, 1, regid, regid, 0,
				      random() % 2 ? FTD_EV_PROC_DEAD : FTD_EV_PROC_EXIT, false);
			break;
		default:
			ftd_ranks_register(t, 1, regid, regid, 0);
		}
		wrong += t->live_sum != live_sum_of(t);
		nonzero += t->live_sum != 0;
	}
	ASSERT_EQ(0, wrong);
	ASSERT_GT(nonzero, 0);
	/* More live ranks than the table holds: the oldest live ones go. */
	t = table(FTD_RANKS_PER_NODE);
	for (regid = 1; regid <= FTD_RANKS_PER_NODE + 40; regid++)
		ftd_ranks_register(t, 1, regid, regid, 0);
	ASSERT_EQ(FTD_RANKS_PER_NODE, t->n);
	ASSERT_EQ(live_sum_of(t), t->live_sum);
}

/* Room doubles from FTD_RANKS_FIRST while full, up to FTD_RANKS_PER_NODE, and no further. */
TEST(a_table_grows_by_doubling_to_the_most_it_holds)
{
	struct ftd_rank_table *t = table(FTD_RANKS_FIRST);
	u32 room = FTD_RANKS_FIRST, grown = 0, regid;

	for (regid = 1; regid <= FTD_RANKS_PER_NODE + 10; regid++) {
		u32 to = ftd_ranks_grow_to(t);

		if (to) {
			/* what the module's krealloc does: the entries stay, room grows */
			ASSERT_EQ(t->room, t->n);
			ASSERT_EQ(room * 2, to);
			t->room = room = to;
			grown++;
		}
		ASSERT_TRUE(ftd_ranks_register(t, 1, regid, regid, 0));
	}
	EXPECT_EQ(5u, grown);	/* 8 -> 16 -> 32 -> 64 -> 128 -> 256 */
	EXPECT_EQ((u32)FTD_RANKS_PER_NODE, t->room);
	EXPECT_EQ((u32)FTD_RANKS_PER_NODE, t->n);
	EXPECT_EQ(0u, ftd_ranks_grow_to(t));
	/* full at the most: the oldest were forgotten, the newest kept */
	EXPECT_FALSE(ftd_ranks_end(t, 1, 1, 1, 0, FTD_EV_PROC_DEAD, false));
	EXPECT_TRUE(ftd_ranks_end(t, 1, 266, 266, 0, FTD_EV_PROC_DEAD, false));
}

/*
 * A table that could not grow (no memory) forgets nothing below the most
 * it holds: a new registration, or an end that overtook one, is no news
 * yet (the views bring it again), and every entry it holds stays; once it
 * has grown, the same notice is news.
 */
TEST(a_table_that_cannot_grow_takes_nothing_new)
{
	struct ftd_rank_table *t = table(FTD_RANKS_FIRST);
	u32 regid;

	for (regid = 1; regid <= FTD_RANKS_FIRST; regid++)
		ASSERT_TRUE(ftd_ranks_register(t, 1, regid, regid, 0));
	ASSERT_TRUE(ftd_ranks_end(t, 1, 3, 3, 0, FTD_EV_PROC_EXIT, false));
	ASSERT_EQ((u32)2 * FTD_RANKS_FIRST, ftd_ranks_grow_to(t));
	EXPECT_FALSE(ftd_ranks_register(t, 1, 100, 100, 0));
	EXPECT_FALSE(ftd_ranks_end(t, 1, 101, 101, 0, FTD_EV_PROC_DEAD, false));
	EXPECT_EQ((u32)FTD_RANKS_FIRST, t->n);
	EXPECT_EQ(0u, t->forgot_upto);
	EXPECT_FALSE(ftd_ranks_end(t, 1, 3, 3, 0, FTD_EV_PROC_EXIT, false));	/* still held */
	for (regid = 1; regid <= FTD_RANKS_FIRST; regid++)
		if (regid != 3)
			EXPECT_TRUE(ftd_ranks_end(t, 1, regid, regid, 0, FTD_EV_PROC_DEAD, false));
	/* grown (the module's krealloc): the registration is news now */
	t->room = ftd_ranks_grow_to(t);
	EXPECT_TRUE(ftd_ranks_register(t, 1, 100, 100, 0));
	EXPECT_TRUE(ftd_ranks_end(t, 1, 101, 101, 0, FTD_EV_PROC_DEAD, false));
}

/* A table with no room at all (never sized) is to grow, and meanwhile takes nothing. */
TEST(a_table_without_room_takes_nothing)
{
	struct ftd_rank_table *t = table(0);

	EXPECT_EQ((u32)FTD_RANKS_FIRST, ftd_ranks_grow_to(t));
	EXPECT_FALSE(ftd_ranks_register(t, 1, 0, 1, 0));
	EXPECT_EQ(0u, t->n);
	EXPECT_EQ(0u, t->live_sum);
}

TEST_HARNESS_MAIN
