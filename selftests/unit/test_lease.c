// SPDX-License-Identifier: GPL-2.0
/*
 * The self-fencing lease (kmod/proto/lease.h): a timeout of hearing nobody
 * fences once per isolation, counted on our own running time only.
 */
#include "harness.h"
#include "proto/lease.h"

#define MS 1000000ULL
#define P (10 * MS)
#define T (100 * MS)

/*
 * Ticks on time every period from `from` to `to`, the machine overloaded
 * at each (stuck: drops, or frames waiting on a stuck CPU), our receive
 * path's lag as lag says (NULL: none): when the lease ran out.
 */
static u64 run_loaded(struct ftd_lease *l, bool stuck, const struct ftd_slowness *lag,
		      u64 last_rx, u64 from, u64 to)
{
	u64 now;

	for (now = from; now <= to; now += P)
		if (ftd_lease_expired(l, true, false, stuck, lag, last_rx, now, now, P, T))
			return now;
	return 0;
}

/* The same on an idle machine; can_tell: we watch several nodes. */
static u64 run(struct ftd_lease *l, bool can_tell, u64 last_rx, u64 from, u64 to)
{
	u64 now;

	if (can_tell)
		return run_loaded(l, false, NULL, last_rx, from, to);
	for (now = from; now <= to; now += P)
		if (ftd_lease_expired(l, false, false, false, NULL, last_rx, now, now, P, T))
			return now;
	return 0;
}

TEST(a_timeout_of_silence_fences_once)
{
	struct ftd_lease l = {};

	/* Last heard at 1 s: fenced on the first tick a timeout later. */
	EXPECT_EQ(1000 * MS + T, run(&l, true, 1000 * MS, 1000 * MS, 1500 * MS));
	/* Still hearing nobody: not again. */
	EXPECT_EQ(0, run(&l, true, 1000 * MS, 1500 * MS, 3000 * MS));
}

TEST(hearing_someone_renews_the_lease)
{
	struct ftd_lease l = {};

	/* Heard every 90 ms: never a timeout of silence. */
	for (u64 t = 1000 * MS; t < 2000 * MS; t += 90 * MS)
		EXPECT_EQ(0, run(&l, true, t, t, t + 80 * MS));
}

TEST(a_new_isolation_fences_again)
{
	struct ftd_lease l = {};

	EXPECT_EQ(1100 * MS, run(&l, true, 1000 * MS, 1000 * MS, 1300 * MS));
	/* Heard again at 2 s, then nothing: a second fence. */
	EXPECT_EQ(0, run(&l, true, 2000 * MS, 2000 * MS, 2000 * MS));
	EXPECT_EQ(2100 * MS, run(&l, true, 2000 * MS, 2010 * MS, 2500 * MS));
}

TEST(one_watched_node_cannot_tell)
{
	struct ftd_lease l = {};

	EXPECT_EQ(0, run(&l, false, 1000 * MS, 1000 * MS, 3000 * MS));
}

TEST(never_heard_anyone_no_lease)
{
	struct ftd_lease l = {};

	EXPECT_EQ(0, run(&l, true, 0, 1000 * MS, 3000 * MS));
}

/*
 * The tick read the clock at now; another CPU then took a frame and
 * stamped it later than that. Heard just now, not 584 years ago (two
 * emulated CPUs: nodes fenced themselves while hearing everyone).
 */
TEST(a_frame_stamped_after_the_ticks_clock_renews)
{
	struct ftd_lease l = {};

	/* Silent since 1 s, then heard 1 ns after the tick read 1.1 s. */
	EXPECT_EQ(0, run(&l, true, 1000 * MS, 1000 * MS, 1090 * MS));
	EXPECT_FALSE(ftd_lease_expired(&l, true, false, false, NULL, 1100 * MS + 1, 1100 * MS, 1100 * MS,
				       P, T));
	/* And silence counts from that frame on. */
	EXPECT_EQ(1200 * MS + 10 * MS, run(&l, true, 1100 * MS + 1, 1110 * MS, 1500 * MS));
}

TEST(our_own_stall_does_not_count)
{
	struct ftd_lease l = {};

	/* Heard at 1 s; on time until 1.03 s, then a tick 500 ms late. */
	EXPECT_EQ(0, run(&l, true, 1000 * MS, 1000 * MS, 1030 * MS));
	EXPECT_FALSE(ftd_lease_expired(&l, true, true, false, NULL, 1000 * MS, 1040 * MS, 1540 * MS, P, T));
	/* The 40 ms of silence up to the late tick's due time count. */
	EXPECT_EQ(1600 * MS, run(&l, true, 1000 * MS, 1550 * MS, 2000 * MS));
}

TEST(a_starved_tick_fences_nobody)
{
	struct ftd_lease l = {};

	EXPECT_FALSE(ftd_lease_expired(&l, true, true, false, NULL, 1000 * MS, 1200 * MS, 1200 * MS, P, T));
	EXPECT_TRUE(ftd_lease_expired(&l, true, false, false, NULL, 1000 * MS, 1210 * MS, 1210 * MS, P, T));
}

/*
 * Our receive path lagged lately (frames handled 30 ms after they
 * arrived): the lease runs for the deadline stretched by it, as every
 * deadline this node judges by (proto/health.h).
 */
TEST(a_lagging_receive_path_stretches_the_lease)
{
	struct ftd_slowness lag = {};
	struct ftd_lease l = {};

	ftd_health_note_lag(&lag, 30 * MS, P, T, 900 * MS);
	EXPECT_EQ(1000 * MS + T + 30 * MS,
		  run_loaded(&l, false, &lag, 1000 * MS, 1000 * MS, 1500 * MS));
}

/* The stretch is at most one timeout: a cut-off node still fences within two. */
TEST(the_lease_stretch_is_bounded)
{
	struct ftd_slowness lag = {};
	struct ftd_lease l = {};

	ftd_health_note_lag(&lag, 5 * T, P, T, 900 * MS);
	EXPECT_EQ(1000 * MS + 2 * T, run_loaded(&l, false, &lag, 1000 * MS, 1000 * MS, 1500 * MS));
}

/* A lag long forgotten stretches nothing. */
TEST(an_old_lag_is_forgotten)
{
	struct ftd_slowness lag = {};
	struct ftd_lease l = {};

	ftd_health_note_lag(&lag, 30 * MS, P, T, 100 * MS);
	EXPECT_EQ(10000 * MS + T, run_loaded(&l, false, &lag, 10000 * MS, 10000 * MS, 10500 * MS));
}

/*
 * The machine drops received frames, or frames wait on a CPU that drains
 * nothing: any may be a member's, so the lease holds, up to
 * FTD_OVERLOAD_EXCUSED deadlines of silence; then a node overloaded all
 * along fences anyway.
 */
TEST(an_overloaded_machine_holds_the_lease_for_a_while)
{
	struct ftd_lease l = {};

	EXPECT_EQ(1000 * MS + FTD_OVERLOAD_EXCUSED * T,
		  run_loaded(&l, true, NULL, 1000 * MS, 1000 * MS, 2000 * MS));
}

/* Held while overloaded, it ends at the first tick that is not. */
TEST(the_lease_ends_once_nothing_waits)
{
	struct ftd_lease l = {};

	EXPECT_FALSE(ftd_lease_expired(&l, true, false, true, NULL, 1000 * MS, 1100 * MS,
				       1100 * MS, P, T));
	EXPECT_FALSE(ftd_lease_expired(&l, true, false, true, NULL, 1000 * MS, 1110 * MS,
				       1110 * MS, P, T));
	EXPECT_TRUE(ftd_lease_expired(&l, true, false, false, NULL, 1000 * MS, 1120 * MS,
				      1120 * MS, P, T));
}

TEST_HARNESS_MAIN
