// SPDX-License-Identifier: GPL-2.0
/*
 * The replay window of the protocol core (kmod/proto/replay.c): every
 * sequence number passes at most once, reordering within the window is
 * accepted, anything older is refused; checked against a model that
 * remembers every number ever accepted.
 */
#include <stdlib.h>
#include "harness.h"
#include "proto/replay.h"

TEST(in_order_then_replayed)
{
	struct ftd_replay w = {};
	u64 s;

	for (s = 1; s <= 1000; s++)
		ASSERT_EQ(FTD_REPLAY_FRESH, ftd_replay_check(&w, s));
	EXPECT_EQ(FTD_REPLAY_SEEN, ftd_replay_check(&w, 1000));
	EXPECT_EQ(FTD_REPLAY_SEEN, ftd_replay_check(&w, 990));
	EXPECT_EQ(FTD_REPLAY_OLD, ftd_replay_check(&w, 1));
	EXPECT_EQ(FTD_REPLAY_ZERO, ftd_replay_check(&w, 0));
}

TEST(reordered_within_the_window_passes_once)
{
	struct ftd_replay w = {};

	EXPECT_EQ(FTD_REPLAY_FRESH, ftd_replay_check(&w, 100));
	EXPECT_EQ(FTD_REPLAY_FRESH, ftd_replay_check(&w, 60));	/* late, unseen */
	EXPECT_EQ(FTD_REPLAY_SEEN, ftd_replay_check(&w, 60));
	EXPECT_EQ(FTD_REPLAY_FRESH, ftd_replay_check(&w, 101));
	/* A jump far ahead forgets everything older than the window. */
	EXPECT_EQ(FTD_REPLAY_FRESH, ftd_replay_check(&w, 1u << 20));
	EXPECT_EQ(FTD_REPLAY_OLD, ftd_replay_check(&w, 100));
	EXPECT_EQ(FTD_REPLAY_OLD, ftd_replay_check(&w, (1u << 20) - FTD_REPLAY_WINDOW));
	EXPECT_EQ(FTD_REPLAY_FRESH, ftd_replay_check(&w, (1u << 20) - 100));
	ftd_replay_reset(&w);	/* a new incarnation */
	EXPECT_EQ(FTD_REPLAY_FRESH, ftd_replay_check(&w, 1));
}

/*
 * Random streams with reordering, duplicates and old numbers: a number is
 * accepted iff never accepted before and not older than the window allows;
 * the newest is always accepted once.
 */
TEST(random_streams_against_a_model)
{
	enum { N = 20000 };
	static unsigned char accepted[N + 1];
	struct ftd_replay w = {};
	u64 top = 0, seq;
	int i, v;

	srandom(7);
	for (i = 0; i < 200000; i++) {
		seq = top + 1 + random() % 8;			/* mostly ahead */
		if (random() % 3 == 0)
			seq = top > 300 ? top - random() % 300 : 1;	/* or behind */
		if (seq > N)
			break;
		v = ftd_replay_check(&w, seq);
		if (seq > top) {
			ASSERT_EQ(FTD_REPLAY_FRESH, v);
		} else if (accepted[seq]) {
			ASSERT_NE(FTD_REPLAY_FRESH, v);		/* never twice */
		} else if (top - seq < FTD_REPLAY_WINDOW - 64) {
			ASSERT_EQ(FTD_REPLAY_FRESH, v);		/* well inside: kept */
		}
		if (v == FTD_REPLAY_FRESH) {
			accepted[seq] = 1;
			if (seq > top)
				top = seq;
		}
	}
}

TEST_HARNESS_MAIN
