// SPDX-License-Identifier: GPL-2.0
/*
 * Freshness rules of the protocol core (kmod/proto/fresh.c): nothing is
 * believed before a member proved its incarnation by echoing our nonce;
 * older incarnations are stale; notices pass their replay window once; a
 * frame addressed to another node is a replay here.
 */
#include "harness.h"
#include "proto/fresh.h"

#define HB	FTD_FRAME_HEARTBEAT
#define NOTICE	FTD_FRAME_NOTICE
#define SELF	1

/* A frame for SELF (or another receiver) as the checks see it. */
static struct ftd_frame frame_to(u32 receiver, u32 incarnation, u8 type, u8 rail, u64 seq)
{
	return (struct ftd_frame){ .type = type, .rail = rail, .incarnation = incarnation,
				   .seq = seq, .receiver = receiver };
}

/* The notice of a frame for SELF: a PROBE_ACK echoing nonce if ack. */
static enum ftd_fresh_verdict check(struct ftd_fresh *s, u32 incarnation, u8 type, u8 rail,
				    u64 seq, bool ack, u64 nonce)
{
	struct ftd_frame f = frame_to(SELF, incarnation, type, rail, seq);
	struct ftd_notice n = { .kind = ack ? FTD_NOTICE_PROBE_ACK : FTD_NOTICE_ALIVE,
				.nonce = nonce };

	return ftd_fresh_check(s, &f, SELF, type == NOTICE ? &n : NULL);
}

/* Proven at incarnation inc through one PROBE/PROBE_ACK exchange. */
static void prove(struct ftd_fresh *s, u32 inc)
{
	ftd_fresh_ping_due(s, 0, 10, 7);
	check(s, inc, NOTICE, 0, 1, true, 7);
}

TEST(nothing_is_believed_before_a_proof)
{
	struct ftd_fresh s = {};

	EXPECT_EQ(FTD_FRESH_UNPROVEN, check(&s, 100, HB, 0, 1, false, 0));
	EXPECT_EQ(FTD_FRESH_UNPROVEN, check(&s, 100, NOTICE, 0, 1, false, 0));
	ASSERT_TRUE(ftd_fresh_ping_due(&s, 1000, 10, 0xabc));
	EXPECT_FALSE(ftd_fresh_ping_due(&s, 1005, 10, 0xdef));	/* rate-limited */
	/* Incarnation 0 is no incarnation: even with our nonce, no proof. */
	EXPECT_EQ(FTD_FRESH_STALE, check(&s, 0, NOTICE, 0, 2, true, 0xabc));
	EXPECT_EQ(0, s.incarnation);
	/* An answer to no probe of ours, or with another nonce: refused. */
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 100, NOTICE, 0, 2, true, 0x123));
	EXPECT_EQ(0, s.incarnation);
	EXPECT_EQ(FTD_FRESH_PROVEN, check(&s, 100, NOTICE, 0, 3, true, 0xabc));
	EXPECT_EQ(100, s.incarnation);
	/* The nonce is spent: the same answer again is a replay. */
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 100, NOTICE, 0, 4, true, 0xabc));
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 100, HB, 0, 9, false, 0));
}

TEST(older_incarnations_are_stale_newer_ones_proven_by_themselves)
{
	struct ftd_fresh s = {};

	prove(&s, 100);
	ASSERT_EQ(100, s.incarnation);
	EXPECT_EQ(FTD_FRESH_STALE, check(&s, 99, HB, 0, 50, false, 0));
	EXPECT_EQ(FTD_FRESH_STALE, check(&s, 99, NOTICE, 0, 50, false, 0));
	/* A restart: nobody can hold a frame of an incarnation not yet used. */
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 101, NOTICE, 0, 1, false, 0));
	EXPECT_EQ(101, s.incarnation);
	EXPECT_EQ(FTD_FRESH_STALE, check(&s, 100, NOTICE, 0, 2, false, 0));
}

TEST(notices_pass_once_per_rail)
{
	struct ftd_fresh s = {};

	prove(&s, 5);
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 5, NOTICE, 0, 10, false, 0));
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 5, NOTICE, 0, 10, false, 0));
	/* The same notice on another rail is that rail's first copy. */
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 5, NOTICE, 1, 10, false, 0));
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 5, NOTICE, 1, 10, false, 0));
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 5, NOTICE, FTD_MAX_RAILS, 11, false, 0));
	/* Its next incarnation numbers notices from 1 again. */
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 6, NOTICE, 0, 1, false, 0));
}

/*
 * A sender numbers its notices in one sequence whoever they are for, so a
 * notice captured on its way to node 3 carries a seq node 1 never saw: only
 * the receiver field tells it is not ours. Heartbeats likewise.
 */
TEST(a_frame_for_another_node_is_a_replay_here)
{
	struct ftd_fresh s = {};
	struct ftd_frame f;
	struct ftd_notice alive = { .kind = FTD_NOTICE_ALIVE };
	struct ftd_notice ack = { .kind = FTD_NOTICE_PROBE_ACK, .nonce = 0x77 };

	f = frame_to(3, 5, NOTICE, 0, 40);
	prove(&s, 5);
	EXPECT_EQ(FTD_FRESH_REPLAY, ftd_fresh_check(&s, &f, SELF, &alive));
	f = frame_to(3, 5, HB, 0, 40);
	EXPECT_EQ(FTD_FRESH_REPLAY, ftd_fresh_check(&s, &f, SELF, NULL));
	/* Nor does it use up the seq: the real one for us still passes. */
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 5, NOTICE, 0, 40, false, 0));
	/* Not even an answer to our own outstanding probe, sent elsewhere. */
	s = (struct ftd_fresh){};
	ASSERT_TRUE(ftd_fresh_ping_due(&s, 0, 10, 0x77));
	f = frame_to(3, 5, NOTICE, 0, 2);
	EXPECT_EQ(FTD_FRESH_REPLAY, ftd_fresh_check(&s, &f, SELF, &ack));
	EXPECT_EQ(0, s.incarnation);
}

/*
 * A receiver that lost its state (a re-added node, a reloaded module)
 * proves the member again; the answer names a floor, and the member's
 * heartbeats of this same incarnation from before the proof (which the
 * receiver cannot tell from new ones by their seq alone) are refused.
 */
TEST(frames_older_than_the_proof_are_refused)
{
	struct ftd_notice ack = { .kind = FTD_NOTICE_PROBE_ACK, .nonce = 9,
				  .hb_floor = 5ULL << 32 };
	struct ftd_fresh s = {};
	struct ftd_frame f;

	ASSERT_TRUE(ftd_fresh_ping_due(&s, 0, 10, 9));
	f = frame_to(SELF, 100, NOTICE, 0, 3);
	ASSERT_EQ(FTD_FRESH_PROVEN, ftd_fresh_check(&s, &f, SELF, &ack));
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 100, HB, 0, (2ULL << 32) + 700, false, 0));
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 100, HB, 1, 5ULL << 32, false, 0));
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 100, HB, 1, (5ULL << 32) + 1, false, 0));
	/* Its notices before the answer (seq 3) likewise, on every rail. */
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 100, NOTICE, 0, 2, false, 0));
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 100, NOTICE, 1, 3, false, 0));
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 100, NOTICE, 1, 4, false, 0));
	/* Its next incarnation starts its streams from scratch. */
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 101, HB, 0, (1ULL << 32) + 1, false, 0));
}

TEST(probes_are_answered_rate_limited_and_never_for_a_replay)
{
	struct ftd_fresh s = {};
	enum ftd_fresh_verdict v;
	struct ftd_frame f;

	/* Unproven sender: any PROBE for us, at most one answer per 10. */
	f = frame_to(SELF, 5, NOTICE, 0, 1);
	EXPECT_TRUE(ftd_fresh_answer_probe(&s, &f, SELF, 100, 10, &v));
	EXPECT_EQ(FTD_FRESH_OK, v);
	f.seq = 2;
	EXPECT_FALSE(ftd_fresh_answer_probe(&s, &f, SELF, 105, 10, &v));
	EXPECT_TRUE(ftd_fresh_answer_probe(&s, &f, SELF, 110, 10, &v));
	/* Another CPU answered after our clock read: no second answer. */
	f.seq = 3;
	EXPECT_FALSE(ftd_fresh_answer_probe(&s, &f, SELF, 109, 10, &v));
	/* For another node: no answer, counted as a replay. */
	f = frame_to(3, 5, NOTICE, 0, 3);
	EXPECT_FALSE(ftd_fresh_answer_probe(&s, &f, SELF, 500, 10, &v));
	EXPECT_EQ(FTD_FRESH_REPLAY, v);

	/*
	 * Proven: a replayed PROBE fails the window and does not use up the
	 * answer the real, new one needs within the same period.
	 */
	prove(&s, 5);
	f = frame_to(SELF, 5, NOTICE, 0, 20);
	EXPECT_TRUE(ftd_fresh_answer_probe(&s, &f, SELF, 1000, 10, &v));
	EXPECT_FALSE(ftd_fresh_answer_probe(&s, &f, SELF, 2000, 10, &v));	/* replayed */
	EXPECT_EQ(FTD_FRESH_REPLAY, v);
	f.seq = 21;
	EXPECT_TRUE(ftd_fresh_answer_probe(&s, &f, SELF, 2001, 10, &v));
	f = frame_to(SELF, 4, NOTICE, 0, 30);
	EXPECT_FALSE(ftd_fresh_answer_probe(&s, &f, SELF, 3000, 10, &v));	/* old incarnation */
	EXPECT_EQ(FTD_FRESH_STALE, v);
}

/*
 * A proven member can be asked again whether it is alive (a suspect, a
 * member we have not heard yet): the answer is fresh, and changes neither
 * the proof nor the windows (notices in flight still pass).
 */
TEST(a_proven_member_answers_a_ping_without_losing_its_windows)
{
	struct ftd_fresh s = {};

	prove(&s, 5);
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 5, NOTICE, 0, 10, false, 0));
	ASSERT_TRUE(ftd_fresh_ping_due(&s, 100, 10, 0x55));
	EXPECT_FALSE(ftd_fresh_ping_due(&s, 105, 10, 0x66));	/* rate-limited */
	/* Our clock read before another CPU sent the last one: still limited. */
	EXPECT_FALSE(ftd_fresh_ping_due(&s, 99, 10, 0x66));
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 5, NOTICE, 0, 12, true, 0x66));
	EXPECT_EQ(FTD_FRESH_ANSWERED, check(&s, 5, NOTICE, 0, 13, true, 0x55));
	EXPECT_EQ(5, s.incarnation);
	/* Spent; and a notice sent before the answer still passes once. */
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 5, NOTICE, 0, 14, true, 0x55));
	EXPECT_EQ(FTD_FRESH_OK, check(&s, 5, NOTICE, 0, 11, false, 0));
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 5, NOTICE, 0, 10, false, 0));
	/* An answer from a later incarnation proves that one, with floors. */
	ASSERT_TRUE(ftd_fresh_ping_due(&s, 200, 10, 0x77));
	EXPECT_EQ(FTD_FRESH_PROVEN, check(&s, 6, NOTICE, 0, 3, true, 0x77));
	EXPECT_EQ(6, s.incarnation);
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 6, NOTICE, 0, 2, false, 0));
}

/*
 * Asking a node that has not answered yet (a PROBE back, a suspect, an
 * unproven sender, each as often as every period): while our PROBE is
 * young, the same nonce goes again, so that the answer already on its way
 * is believed (a new nonce refused it whenever the round trip took longer
 * than a period), and so is one to the copy if the first PROBE was lost.
 * Older than `wait`, or answered: a new nonce.
 */
TEST(an_ask_repeats_the_nonce_of_a_young_unanswered_probe)
{
	struct ftd_fresh s = {};

	ASSERT_TRUE(ftd_fresh_ping_due(&s, 1000, 1000, 0xa));
	EXPECT_FALSE(ftd_fresh_ask_due(&s, 1005, 10, 200, 0xc));	/* rate-limited */
	ASSERT_TRUE(ftd_fresh_ask_due(&s, 1050, 10, 200, 0xc));
	EXPECT_EQ(0xa, s.ask.nonce);
	EXPECT_FALSE(ftd_fresh_ask_due(&s, 1055, 10, 200, 0xc));	/* rate-limited */
	EXPECT_EQ(FTD_FRESH_PROVEN, check(&s, 100, NOTICE, 0, 1, true, 0xa));
	/* Answered: a new nonce. */
	ASSERT_TRUE(ftd_fresh_ask_due(&s, 1070, 10, 200, 0xd));
	EXPECT_EQ(0xd, s.ask.nonce);
	/* Repeated while young, not past `wait` from when it was made. */
	ASSERT_TRUE(ftd_fresh_ask_due(&s, 1200, 10, 200, 0xe));
	EXPECT_EQ(0xd, s.ask.nonce);
	ASSERT_TRUE(ftd_fresh_ask_due(&s, 1270, 10, 200, 0xe));
	EXPECT_EQ(0xe, s.ask.nonce);
	EXPECT_EQ(FTD_FRESH_REPLAY, check(&s, 100, NOTICE, 0, 2, true, 0xd));
	EXPECT_EQ(FTD_FRESH_ANSWERED, check(&s, 100, NOTICE, 0, 3, true, 0xe));
}

/*
 * Answers feed the round-trip estimate of the walk past a run
 * (proto/watch.h): only an answer to a nonce sent once has a known round
 * trip. Sent again, the answer may be to the first copy or the second, and
 * timing from the first would add the wait between them (up to a timeout).
 */
TEST(the_round_trip_is_known_only_for_a_nonce_sent_once)
{
	struct ftd_fresh s = {};

	ASSERT_TRUE(ftd_fresh_ask_due(&s, 1000, 10, 200, 0xa));
	EXPECT_EQ(FTD_FRESH_PROVEN, check(&s, 100, NOTICE, 0, 1, true, 0xa));
	EXPECT_EQ(7, ftd_fresh_rtt(&s, 1007));
	ASSERT_TRUE(ftd_fresh_ask_due(&s, 1100, 10, 200, 0xb));
	ASSERT_TRUE(ftd_fresh_ask_due(&s, 1150, 10, 200, 0xc));	/* 0xb again */
	EXPECT_EQ(0xb, s.ask.nonce);
	EXPECT_EQ(FTD_FRESH_ANSWERED, check(&s, 100, NOTICE, 0, 2, true, 0xb));
	EXPECT_EQ(0, ftd_fresh_rtt(&s, 1152));
	/* Our clock read before another CPU sent it: no sample either. */
	ASSERT_TRUE(ftd_fresh_ask_due(&s, 1400, 10, 200, 0xd));
	EXPECT_EQ(0, ftd_fresh_rtt(&s, 1400));
}

/*
 * A node that came up below the incarnation a member holds it at (its
 * clock behind) is refused as stale for good: the member answers its
 * PROBE with OUTDATED, at most once per period, and the prober believes
 * the answer only for its outstanding nonce, and restarts only above an
 * incarnation higher than its own.
 */
TEST(a_prober_held_above_its_incarnation_is_told_so)
{
	struct ftd_notice outdated = { .kind = FTD_NOTICE_OUTDATED, .nonce = 0x55,
				       .regid = 1000 };
	struct ftd_notice ack = { .kind = FTD_NOTICE_PROBE_ACK, .nonce = 0x55 };
	struct ftd_fresh member = {}, prober = {};
	enum ftd_fresh_verdict v;
	struct ftd_frame f;

	/* The member proved the prober at 1000; it comes back as 900. */
	prove(&member, 1000);
	f = frame_to(SELF, 900, NOTICE, 0, 1);
	EXPECT_FALSE(ftd_fresh_answer_probe(&member, &f, SELF, 100, 10, &v));
	EXPECT_EQ(FTD_FRESH_STALE, v);
	EXPECT_TRUE(ftd_fresh_outdated_due(&member, 100, 10));
	EXPECT_FALSE(ftd_fresh_outdated_due(&member, 105, 10));	/* once a period */
	EXPECT_TRUE(ftd_fresh_outdated_due(&member, 110, 10));
	/* Its own budget: replayed stale PROBEs leave the real ones their answers. */
	f = frame_to(SELF, 1000, NOTICE, 0, 2);
	EXPECT_TRUE(ftd_fresh_answer_probe(&member, &f, SELF, 111, 10, &v));
	EXPECT_EQ(FTD_FRESH_OK, v);

	/* The prober: only its outstanding nonce counts, and it proves nothing. */
	f = frame_to(SELF, 7, NOTICE, 0, 1);
	EXPECT_EQ(FTD_FRESH_REPLAY, ftd_fresh_check(&prober, &f, SELF, &outdated));
	ASSERT_TRUE(ftd_fresh_ping_due(&prober, 0, 10, 0x44));
	EXPECT_EQ(FTD_FRESH_REPLAY, ftd_fresh_check(&prober, &f, SELF, &outdated));
	ASSERT_TRUE(ftd_fresh_ping_due(&prober, 20, 10, 0x55));
	EXPECT_EQ(FTD_FRESH_OUTDATED, ftd_fresh_check(&prober, &f, SELF, &outdated));
	EXPECT_EQ(0, prober.incarnation);
	/* Not spent: the answer to a copy of the PROBE from after a restart may follow. */
	f = frame_to(SELF, 7, NOTICE, 0, 2);
	EXPECT_EQ(FTD_FRESH_PROVEN, ftd_fresh_check(&prober, &f, SELF, &ack));
	EXPECT_EQ(7, prober.incarnation);

	/* Restart above 1000 if below it; not if already there or above. */
	EXPECT_EQ(1000, ftd_fresh_outdated_floor(1000, 900));
	EXPECT_EQ(0, ftd_fresh_outdated_floor(1000, 1000));	/* a PROBE from before a restart */
	EXPECT_EQ(0, ftd_fresh_outdated_floor(1000, 1001));
	EXPECT_EQ(0, ftd_fresh_outdated_floor(UINT32_MAX, 5));	/* nothing above it */
}

/* The ask alone (the simulator keeps one per observer and suspect): answered once. */
TEST(an_ask_is_answered_once_by_its_own_nonce)
{
	struct ftd_ask a = {};

	EXPECT_FALSE(ftd_ask_is_ours(&a, 0));	/* none outstanding: 0 is no nonce */
	ASSERT_TRUE(ftd_ask_ping_due(&a, 500, 10, 0x5));
	EXPECT_FALSE(ftd_ask_answered(&a, 0x6));
	EXPECT_TRUE(ftd_ask_is_ours(&a, 0x5));
	EXPECT_TRUE(ftd_ask_answered(&a, 0x5));
	EXPECT_EQ(4, ftd_ask_rtt(&a, 504));
	EXPECT_FALSE(ftd_ask_answered(&a, 0x5));	/* a duplicate answer */
	EXPECT_EQ(0, a.nonce);
}

/*
 * How many times a sweep every base (from..until) asks a silent member; the
 * first max of them in at.
 */
static unsigned int sweep_times(struct ftd_fresh *s, bool near, u64 from, u64 until, u64 *at,
				unsigned int max)
{
	unsigned int n = 0;
	u64 t;

	for (t = from; t <= until; t++)
		if (ftd_fresh_sweep_due(s, t * 1000, 1000, near, t + 1)) {
			if (n < max)
				at[n] = t;
			n++;
		}
	return n;
}

/*
 * A listed node that stays silent (powered off): its would-be observers ask
 * it every base, the others at once and then less and less often, down to
 * once in 2^FTD_SWEEP_BACKOFF bases; heard again or our view reset, it is
 * asked at once again.
 */
TEST(a_silent_member_is_swept_less_and_less_often_but_by_its_observers)
{
	struct ftd_fresh far = {}, near = {};
	u64 at[64];
	unsigned int n, i;

	/* From 1: a time of 0 is "never sent" to an ask. */
	EXPECT_EQ(300, sweep_times(&near, true, 1, 300, at, 64));
	n = sweep_times(&far, false, 1, 300, at, 64);
	ASSERT_EQ(9, n);
	{
		const u64 want[] = { 1, 3, 7, 15, 31, 63, 127, 191, 255 };

		for (i = 0; i < n; i++)
			EXPECT_EQ(want[i], at[i]);
	}
	/* The ask is still an ask: nonce made and sent at the sweep. */
	EXPECT_EQ(256u, far.ask.nonce);
	EXPECT_EQ(255000u, far.ask.probe_ns);

	/* Heard (or our view reset): asked at once, then the backoff over. */
	ftd_fresh_sweep_reset(&far);
	n = sweep_times(&far, false, 301, 320, at, 64);
	ASSERT_EQ(4, n);
	{
		const u64 want[] = { 301, 303, 307, 315 };

		for (i = 0; i < n; i++)
			EXPECT_EQ(want[i], at[i]);
	}
	/* Its would-be observer's turn comes a base after any ask, whoever's. */
	near.ask.probe_ns = 400500;
	EXPECT_FALSE(ftd_fresh_sweep_due(&near, 401000, 1000, true, 9));
	EXPECT_TRUE(ftd_fresh_sweep_due(&near, 401500, 1000, true, 9));
	EXPECT_EQ(0, near.sweeps);

	/* Near: its would-be observer, or any node of a minority. */
	EXPECT_FALSE(ftd_fresh_sweep_near(false, false));
	EXPECT_TRUE(ftd_fresh_sweep_near(true, false));
	EXPECT_TRUE(ftd_fresh_sweep_near(false, true));
}

TEST_HARNESS_MAIN
