// SPDX-License-Identifier: GPL-2.0
/*
 * Whose fault is a silence (kmod/proto/health.c): silence inside the
 * observer's own stall is not counted, and a sender whose ticks ran late,
 * or an observer whose receive path lags, gets that much more silence, at
 * most one timeout in all, for a while.
 */
#include "harness.h"
#include "proto/health.h"
#include "proto/seq.h"

#define MS 1000000ULL
#define T (50 * MS)	/* timeout */
#define P (10 * MS)	/* period */

TEST(silence_inside_our_stall_is_not_counted)
{
	/* Heard at 100 ms; our tick due at 120 ms fired at 420 ms. */
	EXPECT_EQ(400 * MS, ftd_health_skip_stall(100 * MS, 120 * MS, 420 * MS));
	/* Silence left: the 20 ms before the stall, not 320 ms. */
	EXPECT_EQ(20 * MS, 420 * MS - ftd_health_skip_stall(100 * MS, 120 * MS, 420 * MS));
}

TEST(heard_during_our_stall_counts_from_its_end)
{
	EXPECT_EQ(420 * MS, ftd_health_skip_stall(200 * MS, 120 * MS, 420 * MS));
}

TEST(a_tick_on_time_moves_nothing)
{
	EXPECT_EQ(100 * MS, ftd_health_skip_stall(100 * MS, 420 * MS, 420 * MS));
	EXPECT_EQ(100 * MS, ftd_health_skip_stall(100 * MS, 430 * MS, 420 * MS)); /* early */
	EXPECT_EQ(0, ftd_health_skip_stall(0, 120 * MS, 420 * MS));	/* no clock yet */
	EXPECT_EQ(500 * MS, ftd_health_skip_stall(500 * MS, 120 * MS, 420 * MS));
}

TEST(a_sender_on_time_gets_the_timeout)
{
	struct ftd_slowness s = {};

	ftd_health_note_gap(&s, 1000 * MS, 1000 * MS + P, P, T, 5 * MS);
	EXPECT_EQ(0, s.late_ns);
	EXPECT_EQ(T, ftd_health_deadline(&s, NULL, T, 5 * MS));
}

TEST(a_late_sender_gets_its_lateness_more)
{
	struct ftd_slowness s = {};

	/* Its tick ran 30 ms late: heartbeats 40 ms apart by its clock. */
	ftd_health_note_gap(&s, 1000 * MS, 1040 * MS, P, T, 5 * MS);
	EXPECT_EQ(30 * MS, s.late_ns);
	EXPECT_EQ(T + 30 * MS, ftd_health_deadline(&s, NULL, T, 6 * MS));
	/* A smaller lateness later does not shrink what it was given. */
	ftd_health_note_gap(&s, 1040 * MS, 1065 * MS, P, T, 7 * MS);
	EXPECT_EQ(T + 30 * MS, ftd_health_deadline(&s, NULL, T, 8 * MS));
}

TEST(jitter_under_a_period_is_no_slowness)
{
	struct ftd_slowness s = {};

	ftd_health_note_gap(&s, 1000 * MS, 1000 * MS + 2 * P, P, T, 5 * MS);
	EXPECT_EQ(0, s.late_ns);
	EXPECT_EQ(T, ftd_health_deadline(&s, NULL, T, 5 * MS));
	ftd_health_note_gap(&s, 1000 * MS, 1000 * MS + 2 * P + 1, P, T, 5 * MS);
	EXPECT_EQ(P + 1, s.late_ns);
}

TEST(lateness_buys_less_than_one_timeout)
{
	struct ftd_slowness s = {};

	ftd_health_note_gap(&s, 1000 * MS, 1000 * MS + P + T - 1, P, T, 5 * MS);
	EXPECT_EQ(2 * T - 1, ftd_health_deadline(&s, NULL, T, 5 * MS));
}

TEST(a_pause_of_a_timeout_is_no_stall)
{
	struct ftd_slowness s = {};

	/* Its stream to us paused: we were not its successor for a while. */
	ftd_health_note_gap(&s, 1000 * MS, 1000 * MS + P + T, P, T, 5 * MS);
	EXPECT_EQ(0, s.late_ns);
	EXPECT_EQ(T, ftd_health_deadline(&s, NULL, T, 5 * MS));
}

/*
 * The sender's side of the same question: a stream it paused on ticks
 * that ran (not our successor for a while; a reminder stream with nothing
 * to remind) resumes in a new epoch, so that we never see two consecutive
 * seqs across the pause and take it for a late tick, which would stretch
 * its deadline by up to a timeout. A late tick is one tick: consecutive.
 */
TEST(a_stream_paused_on_ticks_that_ran_resumes_in_a_new_epoch)
{
	EXPECT_FALSE(ftd_seq_resumes(0, 7));	/* its first heartbeat */
	EXPECT_FALSE(ftd_seq_resumes(7, 7));	/* again in the same tick (a reminder) */
	EXPECT_FALSE(ftd_seq_resumes(7, 8));	/* the next tick, however late */
	EXPECT_TRUE(ftd_seq_resumes(7, 9));	/* tick 8 ran and sent it nothing */
	EXPECT_TRUE(ftd_seq_resumes(7, 7 + 40));
	/* A new epoch is no loss and no gap: not consecutive, not the same epoch. */
	EXPECT_FALSE(ftd_seq_same_epoch(ftd_seq_epoch_start(3) + 12, ftd_seq_epoch_start(4) + 1));
}

TEST(lateness_is_forgotten_after_the_window)
{
	struct ftd_slowness s = {};
	u64 at = 5 * MS, later = at + FTD_HEALTH_WINDOW * T + 1;

	ftd_health_note_gap(&s, 1000 * MS, 1040 * MS, P, T, at);
	EXPECT_EQ(T + 30 * MS, ftd_health_deadline(&s, NULL, T, at + FTD_HEALTH_WINDOW * T));
	EXPECT_EQ(T, ftd_health_deadline(&s, NULL, T, later));
	/* Once forgotten, a smaller lateness replaces it. */
	ftd_health_note_gap(&s, 2000 * MS, 2025 * MS, P, T, later);
	EXPECT_EQ(T + 15 * MS, ftd_health_deadline(&s, NULL, T, later));
}

/* Noted by a receive on another CPU after the tick read its clock: kept. */
TEST(lateness_noted_after_our_clock_read_is_kept)
{
	struct ftd_slowness s = {};

	ftd_health_note_gap(&s, 1000 * MS, 1040 * MS, P, T, 5 * MS + 1);
	EXPECT_EQ(T + 30 * MS, ftd_health_deadline(&s, NULL, T, 5 * MS));
}

TEST(clock_steps_are_no_lateness)
{
	struct ftd_slowness s = {};

	ftd_health_note_gap(&s, 1000 * MS, 900 * MS, P, T, 5 * MS);	/* stepped back */
	EXPECT_EQ(0, s.late_ns);
	/* Stepped forward by more than any stall a node survives. */
	ftd_health_note_gap(&s, 1000 * MS, 1000 * MS + 10 * T, P, T, 5 * MS);
	EXPECT_EQ(0, s.late_ns);
}

TEST(a_receive_path_on_pace_stretches_nothing)
{
	struct ftd_slowness own = {};

	ftd_health_note_lag(&own, P, P, T, 5 * MS);	/* a period: its pace */
	EXPECT_EQ(0, own.late_ns);
	EXPECT_EQ(T, ftd_health_deadline(NULL, &own, T, 5 * MS));
}

/* Heartbeats queued 5 ms behind a starved ksoftirqd at a 10 ms timeout. */
TEST(a_lagging_receive_path_stretches_every_deadline)
{
	struct ftd_slowness own = {}, on_time = {};

	ftd_health_note_lag(&own, 5 * MS, MS, 10 * MS, 100 * MS);
	EXPECT_EQ(5 * MS, own.late_ns);
	EXPECT_EQ(15 * MS, ftd_health_deadline(&on_time, &own, 10 * MS, 101 * MS));
	/* A shorter wait later does not shrink it while remembered. */
	ftd_health_note_lag(&own, 2 * MS, MS, 10 * MS, 102 * MS);
	EXPECT_EQ(15 * MS, ftd_health_deadline(&on_time, &own, 10 * MS, 103 * MS));
	/* Forgotten after the window. */
	EXPECT_EQ(10 * MS, ftd_health_deadline(&on_time, &own, 10 * MS,
						 100 * MS + FTD_HEALTH_WINDOW * 10 * MS + 1));
}

TEST(lag_and_slowness_together_stretch_at_most_a_timeout)
{
	struct ftd_slowness s = {}, own = {};

	ftd_health_note_gap(&s, 1000 * MS, 1040 * MS, P, T, 5 * MS);	/* 30 ms late */
	ftd_health_note_lag(&own, 15 * MS, P, T, 5 * MS);
	EXPECT_EQ(T + 45 * MS, ftd_health_deadline(&s, &own, T, 6 * MS));
	ftd_health_note_lag(&own, 40 * MS, P, T, 7 * MS);
	EXPECT_EQ(2 * T, ftd_health_deadline(&s, &own, T, 8 * MS));
	/* A wait longer than a timeout counts as one. */
	ftd_health_note_lag(&own, 10 * T, P, T, 9 * MS);
	EXPECT_EQ(T, own.late_ns);
	EXPECT_EQ(2 * T, ftd_health_deadline(NULL, &own, T, 10 * MS));
}

TEST_HARNESS_MAIN
