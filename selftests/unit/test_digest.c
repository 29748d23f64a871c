// SPDX-License-Identifier: GPL-2.0
/*
 * The anti-entropy digest (kmod/proto/digest.c): equal views give equal
 * digests whatever the order, any one lost notice changes it, suspicion and
 * never-heard nodes do not, a missed end of a rank's registration does, and "settled" waits out a timeout of stillness.
 */
#include <stdlib.h>
#include "harness.h"
#include "proto/digest.h"

#define NODES 1000

struct view {
	u32 inc[NODES];
	u8 state[NODES];
};

static struct ftd_digest digest_of(const struct view *v, const u32 *order)
{
	struct ftd_digest d = {};
	u32 i;

	for (i = 0; i < NODES; i++)
		ftd_digest_add(&d, order[i] + 1, v->inc[order[i]], v->state[order[i]]);
	return d;
}

static void random_view(struct view *v)
{
	u32 i;

	for (i = 0; i < NODES; i++) {
		v->inc[i] = (u32)random();
		v->state[i] = random() % __FTD_NODE_STATE_MAX;
	}
}

TEST(the_walk_order_does_not_matter)
{
	static struct view v;
	u32 fwd[NODES], rev[NODES], i;
	struct ftd_digest a, b;

	srandom(1);
	random_view(&v);
	for (i = 0; i < NODES; i++) {
		fwd[i] = i;
		rev[i] = NODES - 1 - i;
	}
	a = digest_of(&v, fwd);
	b = digest_of(&v, rev);
	ASSERT_TRUE(ftd_digest_equal(&a, &b));
}

TEST(every_missed_death_leave_or_restart_shows)
{
	static struct view v, w;
	u32 order[NODES], i, trial, node, missed = 0;
	struct ftd_digest a, b;

	srandom(2);
	for (i = 0; i < NODES; i++)
		order[i] = i;
	for (trial = 0; trial < 3000; trial++) {
		random_view(&v);
		for (i = 0; i < NODES; i++)
			if (v.state[i] == FTD_NODE_UNKNOWN)
				v.state[i] = FTD_NODE_ALIVE;
		w = v;
		node = random() % NODES;
		switch (trial % 3) {
		case 0:	/* w missed its death */
			v.state[node] = FTD_NODE_DEAD;
			w.state[node] = FTD_NODE_ALIVE;
			break;
		case 1:	/* w missed its leave */
			v.state[node] = FTD_NODE_LEFT;
			w.state[node] = FTD_NODE_SUSPECT;
			break;
		case 2:	/* w missed its restart */
			v.state[node] = FTD_NODE_ALIVE;
			w.state[node] = FTD_NODE_ALIVE;
			v.inc[node] = w.inc[node] + 1;
			break;
		}
		a = digest_of(&v, order);
		b = digest_of(&w, order);
		missed += ftd_digest_equal(&a, &b);
	}
	ASSERT_EQ(0, missed);
}

TEST(suspicion_and_never_heard_nodes_do_not_count)
{
	struct ftd_digest a = {}, b = {};

	ftd_digest_add(&a, 7, 3, FTD_NODE_ALIVE);
	ftd_digest_add(&b, 7, 3, FTD_NODE_SUSPECT);
	ASSERT_TRUE(ftd_digest_equal(&a, &b));
	ftd_digest_add(&b, 9, 0, FTD_NODE_UNKNOWN);
	ASSERT_TRUE(ftd_digest_equal(&a, &b));
	ASSERT_EQ(1, b.nodes);
	/* ourselves, as the others hold us */
	ftd_digest_add(&a, 1, 5, FTD_NODE_SELF);
	ftd_digest_add(&b, 1, 5, FTD_NODE_ALIVE);
	ASSERT_TRUE(ftd_digest_equal(&a, &b));
}

/*
 * Ranks: one node that missed the end of a registration (or the
 * registration) differs; the same live set gives the same digest whatever
 * the order it was built in; the same regids on another node, or at
 * another incarnation, are other registrations.
 */
TEST(a_missed_rank_end_shows_and_order_does_not_matter)
{
	u64 all = 0, less = 0, rev = 0, w;
	struct ftd_digest a = {}, b = {}, c = {};
	u32 regid, missed = 0;

	for (regid = 1; regid <= 200; regid++) {
		all += ftd_digest_rank_word(regid);
		rev += ftd_digest_rank_word(201 - regid);
	}
	ftd_digest_add_ranks(&a, 4, 2, all);
	ftd_digest_add_ranks(&b, 4, 2, rev);
	ASSERT_TRUE(ftd_digest_equal(&a, &b));
	for (regid = 1; regid <= 200; regid++) {
		w = ftd_digest_rank_word(regid);
		less = all - w;
		b = (struct ftd_digest){};
		ftd_digest_add_ranks(&b, 4, 2, less);
		missed += ftd_digest_equal(&a, &b);
		/* linear: the ended one taken away from the full set (the simulator's way) */
		c = (struct ftd_digest){};
		ftd_digest_add_ranks(&c, 4, 2, all);
		ftd_digest_add_ranks(&c, 4, 2, 0 - w);
		ASSERT_TRUE(ftd_digest_equal(&b, &c));
	}
	ASSERT_EQ(0, missed);
	b = (struct ftd_digest){};
	ftd_digest_add_ranks(&b, 5, 2, all);
	ASSERT_FALSE(ftd_digest_equal(&a, &b));
	b = (struct ftd_digest){};
	ftd_digest_add_ranks(&b, 4, 3, all);
	ASSERT_FALSE(ftd_digest_equal(&a, &b));
	/* no registration adds nothing */
	b = (struct ftd_digest){};
	ftd_digest_add_ranks(&b, 4, 2, 0);
	ASSERT_EQ(0, b.sum);
}

TEST(settled_after_a_timeout_without_change)
{
	struct ftd_digest_track t = {};
	struct ftd_digest x = { .sum = 1, .nodes = 1 }, y = { .sum = 2, .nodes = 1 };
	const u64 ms = 1000000;

	ASSERT_FALSE(ftd_digest_settled(&t, 1000 * ms, 100 * ms));
	ftd_digest_track(&t, &x, 1000 * ms);
	ASSERT_FALSE(ftd_digest_settled(&t, 1099 * ms, 100 * ms));
	ftd_digest_track(&t, &x, 1099 * ms);
	ASSERT_TRUE(ftd_digest_settled(&t, 1100 * ms, 100 * ms));
	ftd_digest_track(&t, &y, 1150 * ms);	/* a notice arrived */
	ASSERT_FALSE(ftd_digest_settled(&t, 1200 * ms, 100 * ms));
	ASSERT_TRUE(ftd_digest_settled(&t, 1250 * ms, 100 * ms));
	/* a first digest at time 0 is still a digest (at 1 ns) */
	memset(&t, 0, sizeof(t));
	ftd_digest_track(&t, &x, 0);
	ASSERT_FALSE(ftd_digest_settled(&t, 0, 100 * ms));
	ASSERT_TRUE(ftd_digest_settled(&t, 100 * ms + 1, 100 * ms));
}

/*
 * At first contact a side asks the other's view if the digests differ and
 * the other has caught up since it came up (a joiner asks a member, no
 * member asks a joiner), and a burst of contacts costs one ask a timeout;
 * neither side need be settled now.
 */
TEST(at_first_contact_a_caught_up_differing_digest_is_asked_once_a_timeout)
{
	struct ftd_digest joiner = { .sum = 11, .nodes = 1 }, cluster = { .sum = 99, .nodes = 40 };
	struct ftd_digest missed = { .sum = 98, .nodes = 40 };
	const u64 ms = 1000000, t = 100 * ms;

	/* The joiner asks the member; the member does not ask the joiner. */
	EXPECT_TRUE(ftd_digest_ask_on_contact(&joiner, &cluster, true, 5 * ms, 0, t));
	EXPECT_FALSE(ftd_digest_ask_on_contact(&cluster, &joiner, false, 5 * ms, 0, t));
	/* Two caught-up nodes apart (a missed death, an island's news): either asks. */
	EXPECT_TRUE(ftd_digest_ask_on_contact(&missed, &cluster, true, 5 * ms, 0, t));
	EXPECT_TRUE(ftd_digest_ask_on_contact(&cluster, &missed, true, 5 * ms, 0, t));
	/* A node back from a minority knows fewer nodes, and is asked all the same. */
	EXPECT_TRUE(ftd_digest_ask_on_contact(&cluster, &joiner, true, 5 * ms, 0, t));
	/* Alike: no ask. */
	EXPECT_FALSE(ftd_digest_ask_on_contact(&cluster, &cluster, true, 5 * ms, 0, t));
	/* Once a timeout: asked at 1000 ms, not again before 1100 ms. */
	EXPECT_FALSE(ftd_digest_ask_on_contact(&joiner, &cluster, true, 1000 * ms, 1000 * ms, t));
	EXPECT_FALSE(ftd_digest_ask_on_contact(&joiner, &cluster, true, 1099 * ms, 1000 * ms, t));
	EXPECT_TRUE(ftd_digest_ask_on_contact(&joiner, &cluster, true, 1100 * ms, 1000 * ms, t));
}

/* A contact digest goes (or is answered) at most once a timeout per member. */
TEST(a_contact_digest_at_most_once_a_timeout)
{
	const u64 ms = 1000000, t = 100 * ms;

	EXPECT_TRUE(ftd_digest_contact_due(5 * ms, 0, t));
	EXPECT_FALSE(ftd_digest_contact_due(1050 * ms, 1000 * ms, t));
	EXPECT_TRUE(ftd_digest_contact_due(1100 * ms, 1000 * ms, t));
	EXPECT_FALSE(ftd_digest_contact_due(900 * ms, 1000 * ms, t));
}

TEST(sent_every_four_timeouts_at_least_a_second_spread_25_percent)
{
	const u64 s = 1000000000ULL;
	u32 r;

	ASSERT_EQ(750000000ULL, ftd_digest_every(10000000, 0));
	ASSERT_EQ(3 * s, ftd_digest_every(1 * s, 0));
	for (r = 0; r < 100000; r += 7) {
		u64 e = ftd_digest_every(2 * s, r * 0x9e37u);

		ASSERT_GE(e, 6 * s);
		ASSERT_LT(e, 10 * s);
	}
}

TEST_HARNESS_MAIN
