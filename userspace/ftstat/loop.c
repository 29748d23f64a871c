// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include "ftstat/loop.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stop, woken;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_wake(int sig)
{
	(void)sig;
	woken = 1;
}

int ftstat_loop_wake_on(struct ftstat_loop *l, int sig)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	sigaddset(&block, sig);
	if (sigprocmask(SIG_BLOCK, &block, NULL) || sigaction(sig, &sa, NULL))
		return -errno;
	sigdelset(&l->waitmask, sig);
	return 0;
}

uint64_t ftstat_now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int ftstat_loop_init(struct ftstat_loop *l, uint64_t timeout_ns)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: ppoll returns EINTR */
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &block, &l->waitmask) ||
	    sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return -errno;
	sigdelset(&l->waitmask, SIGINT);
	sigdelset(&l->waitmask, SIGTERM);
	l->deadline = timeout_ns ? ftstat_now_ns(CLOCK_MONOTONIC) + timeout_ns : 0;
	return 0;
}

enum ftstat_wait ftstat_loop_wait(struct ftstat_loop *l, int fd, uint64_t max_ns)
{
	uint64_t now = ftstat_now_ns(CLOCK_MONOTONIC);
	uint64_t until = max_ns == UINT64_MAX ? UINT64_MAX : now + max_ns;
	bool by_deadline = false;

	if (l->deadline && l->deadline <= until) {
		until = l->deadline;
		by_deadline = true;
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct timespec ts, *tsp = NULL;
		int r;

		if (stop)
			return FTSTAT_WAIT_SIGNAL;
		if (woken) {
			woken = 0;
			return FTSTAT_WAIT_WOKEN;
		}
		now = ftstat_now_ns(CLOCK_MONOTONIC);
		if (until != UINT64_MAX) {
			if (now >= until)
				return by_deadline ? FTSTAT_WAIT_DEADLINE : FTSTAT_WAIT_SLEPT;
			ts.tv_sec = (time_t)((until - now) / 1000000000ULL);
			ts.tv_nsec = (long)((until - now) % 1000000000ULL);
			tsp = &ts;
		}
		/* fd < 0 is ignored by poll: a plain interruptible sleep. */
		r = ppoll(&pfd, 1, tsp, &l->waitmask);
		if (r > 0)
			return FTSTAT_WAIT_READY;
		if (r < 0 && errno != EINTR)
			return FTSTAT_WAIT_ERROR;
	}
}

void ftstat_loop_pause(struct ftstat_loop *l, uint64_t max_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(max_ns / 1000000000ULL),
		.tv_nsec = (long)(max_ns % 1000000000ULL),
	};

	if (woken) {
		woken = 0;
		return;
	}
	ppoll(NULL, 0, max_ns == UINT64_MAX ? NULL : &ts, &l->waitmask);
	woken = 0;
}
