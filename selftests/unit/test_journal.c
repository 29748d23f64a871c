// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftstat --journal: the rate limit per event type (a rack's deaths are
 * logged whole, a storm is cut and counted, nothing is lost silently) and
 * the priorities. The journal itself is tried in the VM (systemd guest).
 */
#include <syslog.h>
#include "harness.h"
#include <linux/ftdetect.h>
#include "ftstat/journal.h"
#include "ftstat/ratelimit.h"

#define S 1000000000ULL

TEST(a_burst_is_logged_whole_then_cut_and_counted)
{
	struct ftstat_ratelimit rl;
	uint32_t dropped;
	unsigned int i, logged = 0;

	ftstat_ratelimit_init(&rl);
	for (i = 0; i < FTSTAT_RL_BURST + 300; i++)
		logged += ftstat_ratelimit_admit(&rl, FTD_EV_NODE_DEAD, 5 * S + i);
	EXPECT_EQ(FTSTAT_RL_BURST, logged);
	/* Not said before the window ends: more may come. */
	EXPECT_EQ(-1, ftstat_ratelimit_take_dropped(&rl, 5 * S + 1000, false, &dropped));
	/* Said once it has, then cleared. */
	EXPECT_EQ(FTD_EV_NODE_DEAD,
		  ftstat_ratelimit_take_dropped(&rl, 5 * S + FTSTAT_RL_WINDOW_NS, false, &dropped));
	EXPECT_EQ(300, dropped);
	EXPECT_EQ(-1, ftstat_ratelimit_take_dropped(&rl, 5 * S + FTSTAT_RL_WINDOW_NS, true, &dropped));
	/* A new window logs again. */
	EXPECT_TRUE(ftstat_ratelimit_admit(&rl, FTD_EV_NODE_DEAD, 5 * S + FTSTAT_RL_WINDOW_NS));
}

TEST(types_are_limited_apart)
{
	struct ftstat_ratelimit rl;
	uint32_t dropped;
	unsigned int i;

	ftstat_ratelimit_init(&rl);
	for (i = 0; i < FTSTAT_RL_BURST + 1; i++)
		ftstat_ratelimit_admit(&rl, FTD_EV_NODE_SUSPECT, S);
	EXPECT_TRUE(ftstat_ratelimit_admit(&rl, FTD_EV_NODE_DEAD, S));
	EXPECT_TRUE(ftstat_ratelimit_admit(&rl, FTD_EV_FENCED, S));
	/* At exit, what is still counted is said, window or not. */
	EXPECT_EQ(FTD_EV_NODE_SUSPECT, ftstat_ratelimit_take_dropped(&rl, S + 1, true, &dropped));
	EXPECT_EQ(1, dropped);
	EXPECT_EQ(-1, ftstat_ratelimit_take_dropped(&rl, S + 1, true, &dropped));
}

TEST(unknown_types_share_a_slot)
{
	struct ftstat_ratelimit rl;
	uint32_t dropped;
	unsigned int i, logged = 0;

	ftstat_ratelimit_init(&rl);
	for (i = 0; i < FTSTAT_RL_BURST + 2; i++)
		logged += ftstat_ratelimit_admit(&rl, FTD_EV_MAX + 1 + (i & 1) * 1000, S);
	EXPECT_EQ(FTSTAT_RL_BURST, logged);
	EXPECT_EQ(0, ftstat_ratelimit_take_dropped(&rl, S, true, &dropped));
	EXPECT_EQ(2, dropped);
}

/* A window that began at time 0 of the monotonic clock is still a window. */
TEST(a_window_at_time_zero)
{
	struct ftstat_ratelimit rl;
	unsigned int i;

	ftstat_ratelimit_init(&rl);
	for (i = 0; i < FTSTAT_RL_BURST; i++)
		EXPECT_TRUE(ftstat_ratelimit_admit(&rl, FTD_EV_PROC_DEAD, 0));
	EXPECT_FALSE(ftstat_ratelimit_admit(&rl, FTD_EV_PROC_DEAD, 1));
}

TEST(priorities)
{
	EXPECT_EQ(LOG_ERR, ftstat_journal_priority(FTD_EV_FENCED));
	EXPECT_EQ(LOG_WARNING, ftstat_journal_priority(FTD_EV_NODE_DEAD));
	EXPECT_EQ(LOG_WARNING, ftstat_journal_priority(FTD_EV_PROC_DEAD));
	EXPECT_EQ(LOG_WARNING, ftstat_journal_priority(FTD_EV_IFACE_DEAD));
	EXPECT_EQ(LOG_NOTICE, ftstat_journal_priority(FTD_EV_NODE_SUSPECT));
	EXPECT_EQ(LOG_NOTICE, ftstat_journal_priority(FTD_EV_NODE_LEFT));
	EXPECT_EQ(LOG_INFO, ftstat_journal_priority(FTD_EV_NODE_ALIVE));
	EXPECT_EQ(LOG_INFO, ftstat_journal_priority(FTD_EV_PROC_EXIT));
}

TEST_HARNESS_MAIN
