// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of ftstat's wait loop (userspace/ftstat/loop.c): sleeps,
 * the --timeout deadline, a readable descriptor, and SIGINT/SIGTERM, which
 * must end a wait even when they arrive before it starts (no lost wakeup).
 * Each test runs in its own process (the harness forks), so the signal
 * mask and handlers set here do not leak between tests.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>

#include "harness.h"

#include "ftstat/loop.h"

#define MS 1000000ULL

TEST(sleep_ends)
{
	struct ftstat_loop l;
	uint64_t t0;

	ASSERT_EQ(0, ftstat_loop_init(&l, 0));
	t0 = ftstat_now_ns(CLOCK_MONOTONIC);
	EXPECT_EQ(FTSTAT_WAIT_SLEPT, ftstat_loop_wait(&l, -1, 30 * MS));
	EXPECT_GE(ftstat_now_ns(CLOCK_MONOTONIC) - t0, 30 * MS);
}

TEST(deadline_cuts_a_longer_sleep)
{
	struct ftstat_loop l;
	uint64_t t0 = ftstat_now_ns(CLOCK_MONOTONIC);

	ASSERT_EQ(0, ftstat_loop_init(&l, 40 * MS));
	EXPECT_EQ(FTSTAT_WAIT_SLEPT, ftstat_loop_wait(&l, -1, 10 * MS));
	EXPECT_EQ(FTSTAT_WAIT_DEADLINE, ftstat_loop_wait(&l, -1, 1000 * MS));
	EXPECT_GE(ftstat_now_ns(CLOCK_MONOTONIC) - t0, 40 * MS);
	EXPECT_LT(ftstat_now_ns(CLOCK_MONOTONIC) - t0, 900 * MS);
	/* Once passed, it stays passed. */
	EXPECT_EQ(FTSTAT_WAIT_DEADLINE, ftstat_loop_wait(&l, -1, UINT64_MAX));
}

TEST(readable_fd)
{
	struct ftstat_loop l;
	int p[2];

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, ftstat_loop_init(&l, 0));
	EXPECT_EQ(FTSTAT_WAIT_SLEPT, ftstat_loop_wait(&l, p[0], 10 * MS));
	ASSERT_EQ(1, write(p[1], "x", 1));
	EXPECT_EQ(FTSTAT_WAIT_READY, ftstat_loop_wait(&l, p[0], UINT64_MAX));
	close(p[0]);
	close(p[1]);
}

static void signal_ends_wait(struct __test_metadata *_metadata, int sig)
{
	struct ftstat_loop l;

	ASSERT_EQ(0, ftstat_loop_init(&l, 5000 * MS));
	/* Blocked outside the wait: stays pending, then ends the next wait. */
	ASSERT_EQ(0, raise(sig));
	EXPECT_EQ(FTSTAT_WAIT_SIGNAL, ftstat_loop_wait(&l, -1, UINT64_MAX));
	/* And every wait after it. */
	EXPECT_EQ(FTSTAT_WAIT_SIGNAL, ftstat_loop_wait(&l, -1, 10 * MS));
}

TEST(sigint_ends_wait)
{
	signal_ends_wait(_metadata, SIGINT);
}

TEST(sigterm_ends_wait)
{
	signal_ends_wait(_metadata, SIGTERM);
}

TEST(signal_during_wait)
{
	struct ftstat_loop l;
	pid_t self = getpid(), child;

	ASSERT_EQ(0, ftstat_loop_init(&l, 5000 * MS));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		usleep(50000);
		kill(self, SIGTERM);
		_exit(0);
	}
	EXPECT_EQ(FTSTAT_WAIT_SIGNAL, ftstat_loop_wait(&l, -1, UINT64_MAX));
}

TEST_HARNESS_MAIN
