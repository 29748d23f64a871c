// SPDX-License-Identifier: GPL-2.0
/*
 * Indirect probes (kmod/proto/relay.h): a helper keeps a few requests per
 * suspect and answers only those the suspect's answer is fresh enough for;
 * a requester believes a relay only for its outstanding nonce.
 */
#include "harness.h"
#include "proto/relay.h"

#define MS 1000000ULL

TEST(a_request_is_answered_once)
{
	struct ftd_relay r = {};
	struct ftd_relay_req out[FTD_RELAY_SLOTS];

	ftd_relay_record(&r, 4, 0xabc, 100 * MS);
	/* Our PROBE, made just after the request, answered 1 ms later. */
	ASSERT_EQ(1, ftd_relay_take(&r, 101 * MS, 100 * MS, 25 * MS, out));
	EXPECT_EQ(4, out[0].requester);
	EXPECT_EQ(0xabc, out[0].nonce);
	EXPECT_EQ(0, ftd_relay_take(&r, 102 * MS, 100 * MS, 25 * MS, out));
}

TEST(a_zero_nonce_is_no_request)
{
	struct ftd_relay r = {};
	struct ftd_relay_req out[FTD_RELAY_SLOTS];

	ftd_relay_record(&r, 4, 0, 100 * MS);
	EXPECT_EQ(0, ftd_relay_take(&r, 101 * MS, 100 * MS, 25 * MS, out));
}

TEST(an_old_request_is_dropped_unanswered)
{
	struct ftd_relay r = {};
	struct ftd_relay_req out[FTD_RELAY_SLOTS];

	ftd_relay_record(&r, 4, 0xabc, 100 * MS);
	/* The suspect answered only a wait later: the requester asked again by then. */
	EXPECT_EQ(0, ftd_relay_take(&r, 125 * MS, 124 * MS, 25 * MS, out));
	EXPECT_EQ(0, r.req[0].nonce);
}

TEST(an_answer_to_an_old_nonce_does_not_answer_a_new_request)
{
	struct ftd_relay r = {};
	struct ftd_relay_req out[FTD_RELAY_SLOTS];

	/* Our nonce is 30 ms older than the request: older evidence than the silence. */
	ftd_relay_record(&r, 4, 0xabc, 130 * MS);
	EXPECT_EQ(0, ftd_relay_take(&r, 131 * MS, 100 * MS, 25 * MS, out));
	/* Kept for the answer to our next PROBE. */
	ASSERT_EQ(1, ftd_relay_take(&r, 140 * MS, 131 * MS, 25 * MS, out));
	EXPECT_EQ(0xabc, out[0].nonce);
	/* A nonce made up to a wait before the request is fresh enough. */
	ftd_relay_record(&r, 4, 0xabd, 200 * MS);
	EXPECT_EQ(1, ftd_relay_take(&r, 201 * MS, 175 * MS, 25 * MS, out));
}

TEST(a_requester_holds_one_slot_and_a_full_table_drops_the_oldest)
{
	struct ftd_relay r = {};
	struct ftd_relay_req out[FTD_RELAY_SLOTS];
	u32 n, i;
	bool got5 = false, got6 = false, got4 = false;

	ftd_relay_record(&r, 4, 0x1, 100 * MS);
	ftd_relay_record(&r, 4, 0x2, 101 * MS);	/* the same requester: replaced */
	ftd_relay_record(&r, 5, 0x3, 102 * MS);
	ftd_relay_record(&r, 6, 0x4, 103 * MS);	/* full: 4's request goes */
	n = ftd_relay_take(&r, 104 * MS, 103 * MS, 25 * MS, out);
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++) {
		got4 |= out[i].requester == 4;
		got5 |= out[i].requester == 5 && out[i].nonce == 0x3;
		got6 |= out[i].requester == 6 && out[i].nonce == 0x4;
	}
	EXPECT_FALSE(got4);
	EXPECT_TRUE(got5);
	EXPECT_TRUE(got6);
}

TEST(a_relay_vouches_only_for_the_outstanding_nonce_and_incarnation)
{
	EXPECT_TRUE(ftd_relay_vouches(0x77, 12, 0x77, 12));
	EXPECT_FALSE(ftd_relay_vouches(0x76, 12, 0x77, 12));	/* an old nonce: replayed */
	EXPECT_FALSE(ftd_relay_vouches(0x77, 11, 0x77, 12));	/* another incarnation */
	EXPECT_FALSE(ftd_relay_vouches(0x77, 13, 0x77, 12));
	EXPECT_FALSE(ftd_relay_vouches(0, 12, 0, 12));		/* nothing outstanding */
}

TEST(a_request_waits_as_long_as_the_interval_between_asks)
{
	EXPECT_EQ(ftd_detect_ask_every(10 * MS, 50 * MS), ftd_relay_wait(10 * MS, 50 * MS));
	EXPECT_EQ(ftd_detect_ask_every(1 * MS, 100 * MS), ftd_relay_wait(1 * MS, 100 * MS));
	EXPECT_EQ(ftd_detect_ask_every(10 * MS, 20 * MS), ftd_relay_wait(10 * MS, 20 * MS));
}

/*
 * The first ask of a suspect (from half the timeout) goes to the usual
 * helpers; one an ask interval later, when the first brought no answer,
 * to twice as many, unless the observer is overloaded. 10 ms / 50 ms:
 * suspected at 25 ms, asked every 7.5 ms (on the ticks), so from 32.5 ms
 * of silence on.
 */
TEST(a_suspect_still_silent_after_its_first_ask_gets_more_helpers)
{
	EXPECT_EQ(FTD_RELAY_HELPERS, ftd_relay_helpers(25 * MS, 10 * MS, 50 * MS, false));
	EXPECT_EQ(FTD_RELAY_HELPERS, ftd_relay_helpers(32 * MS, 10 * MS, 50 * MS, false));
	EXPECT_EQ(FTD_RELAY_HELPERS_MAX, ftd_relay_helpers(32500000ULL, 10 * MS, 50 * MS, false));
	EXPECT_EQ(FTD_RELAY_HELPERS_MAX, ftd_relay_helpers(49 * MS, 10 * MS, 50 * MS, false));
	/* 1 ms / 10 ms: asked every 1.75 ms from 5 ms */
	EXPECT_EQ(FTD_RELAY_HELPERS, ftd_relay_helpers(6 * MS, 1 * MS, 10 * MS, false));
	EXPECT_EQ(FTD_RELAY_HELPERS_MAX, ftd_relay_helpers(6750000ULL, 1 * MS, 10 * MS, false));
	/* never heard: the silence is since boot */
	EXPECT_EQ(FTD_RELAY_HELPERS_MAX, ftd_relay_helpers(~0ULL, 10 * MS, 50 * MS, false));
	/* an overloaded observer does not add to its load */
	EXPECT_EQ(FTD_RELAY_HELPERS, ftd_relay_helpers(49 * MS, 10 * MS, 50 * MS, true));
	EXPECT_EQ(2 * FTD_RELAY_HELPERS, FTD_RELAY_HELPERS_MAX);
}

/* Helper 1 takes requests from 2 about 3 (relay.c ftd_relay_request). */
TEST(a_helper_takes_a_request_only_from_the_asker_about_a_third_node_it_holds_live)
{
	EXPECT_TRUE(ftd_relay_accepts(1, 2, 2, 3, 77, FTD_NODE_ALIVE, 5, 5));
	EXPECT_TRUE(ftd_relay_accepts(1, 2, 2, 3, 77, FTD_NODE_SUSPECT, 5, 5));
	EXPECT_TRUE(ftd_relay_accepts(1, 2, 2, 3, 77, FTD_NODE_UNKNOWN, 0, 5));
	/* A later incarnation than the one held dead is asked too. */
	EXPECT_TRUE(ftd_relay_accepts(1, 2, 2, 3, 77, FTD_NODE_DEAD, 5, 6));
	/* Forwarded, about the asker or us, without a nonce: no. */
	EXPECT_FALSE(ftd_relay_accepts(1, 2, 4, 3, 77, FTD_NODE_ALIVE, 5, 5));
	EXPECT_FALSE(ftd_relay_accepts(1, 2, 2, 2, 77, FTD_NODE_ALIVE, 5, 5));
	EXPECT_FALSE(ftd_relay_accepts(1, 2, 2, 1, 77, FTD_NODE_ALIVE, 5, 5));
	EXPECT_FALSE(ftd_relay_accepts(1, 2, 2, 3, 0, FTD_NODE_ALIVE, 5, 5));
	/* Held ended at that incarnation, or held at a later one: the notices tell it. */
	EXPECT_FALSE(ftd_relay_accepts(1, 2, 2, 3, 77, FTD_NODE_DEAD, 5, 5));
	EXPECT_FALSE(ftd_relay_accepts(1, 2, 2, 3, 77, FTD_NODE_LEFT, 5, 5));
	EXPECT_FALSE(ftd_relay_accepts(1, 2, 2, 3, 77, FTD_NODE_ALIVE, 6, 5));
}

/* relay.c ftd_relay_ask and ftdsim: a sample one larger than wanted, the suspect left out. */
TEST(helpers_are_the_sample_without_the_suspect)
{
	u32 drawn[] = { 7, 3, 9, 4 }, clean[] = { 7, 9, 4, 5 }, few[] = { 3, 8 };

	EXPECT_EQ(4u, FTD_RELAY_SAMPLE(3));
	/* The suspect drawn: the one drawn beyond the count takes its place. */
	ASSERT_EQ(3u, ftd_relay_pick(drawn, 4, 3, 3));
	EXPECT_EQ(7u, drawn[0]);
	EXPECT_EQ(9u, drawn[1]);
	EXPECT_EQ(4u, drawn[2]);
	/* Not drawn: the first three, the extra unused. */
	ASSERT_EQ(3u, ftd_relay_pick(clean, 4, 3, 3));
	EXPECT_EQ(4u, clean[2]);
	/* A small ring: whoever there is but the suspect. */
	ASSERT_EQ(1u, ftd_relay_pick(few, 2, 3, 3));
	EXPECT_EQ(8u, few[0]);
	EXPECT_EQ(0u, ftd_relay_pick(few, 0, 3, 3));
}

TEST_HARNESS_MAIN
