// SPDX-License-Identifier: GPL-2.0
/*
 * The overload rule (kmod/proto/overload.h): judging is held from a tick
 * that sees the machine's drop count grow until a timeout passes without
 * it growing.
 */
#include "harness.h"
#include "proto/overload.h"

#define MS 1000000ULL
#define T (100 * MS)

TEST(drops_before_the_start_hold_nothing)
{
	struct ftd_overload o;

	ftd_overload_start(&o, 58318);
	EXPECT_FALSE(ftd_overload_tick(&o, 58318, 1000 * MS, T));
	EXPECT_FALSE(ftd_overload_tick(&o, 58318, 5000 * MS, T));
}

TEST(a_drop_holds_judging_for_a_timeout)
{
	struct ftd_overload o;

	ftd_overload_start(&o, 7);
	EXPECT_TRUE(ftd_overload_tick(&o, 8, 1000 * MS, T));
	EXPECT_TRUE(ftd_overload_tick(&o, 8, 1090 * MS, T));
	EXPECT_FALSE(ftd_overload_tick(&o, 8, 1100 * MS, T));
}

TEST(drops_that_go_on_keep_it_held)
{
	struct ftd_overload o;
	u64 t, last = 0, drops = 0;

	ftd_overload_start(&o, 0);
	/* A drop every 60 ms for 3 s: held throughout, and a timeout after. */
	for (t = 1000 * MS; t < 4000 * MS; t += 10 * MS) {
		if ((t - 1000 * MS) % (60 * MS) == 0) {
			drops++;
			last = t;
		}
		EXPECT_TRUE(ftd_overload_tick(&o, drops, t, T));
	}
	EXPECT_TRUE(ftd_overload_tick(&o, drops, last + T - MS, T));
	EXPECT_FALSE(ftd_overload_tick(&o, drops, last + T, T));
}

TEST(drops_excuse_a_silence_of_a_few_deadlines_only)
{
	EXPECT_TRUE(ftd_overload_excuses(0, T));
	EXPECT_TRUE(ftd_overload_excuses(FTD_OVERLOAD_EXCUSED * T - 1, T));
	/* A peer none of whose frames got through for that long is judged. */
	EXPECT_FALSE(ftd_overload_excuses(FTD_OVERLOAD_EXCUSED * T, T));
	/* The deadline is the peer's own (a slow sender's is longer). */
	EXPECT_TRUE(ftd_overload_excuses(FTD_OVERLOAD_EXCUSED * T, 2 * T));
}

TEST(a_counter_that_wraps_still_counts_as_growth)
{
	struct ftd_overload o;

	/* The kernel's per-CPU counts are unsigned int: their sum may go down. */
	ftd_overload_start(&o, 4294967295ULL);
	EXPECT_TRUE(ftd_overload_tick(&o, 3, 1000 * MS, T));
}

TEST_HARNESS_MAIN
