/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Waiting in ftstat's loops (--watch, --interval): for the netlink socket,
 * a sleep, the --timeout deadline, or SIGINT/SIGTERM, whichever comes
 * first. The signals are blocked except inside ppoll(), so a signal can
 * never slip in between checking the stop flag and going to sleep.
 */
#ifndef FTSTAT_LOOP_H
#define FTSTAT_LOOP_H

#include <signal.h>
#include <stdint.h>
#include <time.h>

enum ftstat_wait {
	FTSTAT_WAIT_READY,	/* fd is readable */
	FTSTAT_WAIT_SLEPT,	/* max_ns went by */
	FTSTAT_WAIT_DEADLINE,	/* the --timeout deadline passed */
	FTSTAT_WAIT_SIGNAL,	/* SIGINT or SIGTERM */
	FTSTAT_WAIT_WOKEN,	/* a signal of ftstat_loop_wake_on() */
	FTSTAT_WAIT_ERROR,	/* ppoll failed (errno) */
};

struct ftstat_loop {
	sigset_t waitmask;	/* the mask to wait with: signals unblocked */
	uint64_t deadline;	/* CLOCK_MONOTONIC ns; 0: none */
};

/* Block SIGINT/SIGTERM, install their handler; timeout_ns 0: no deadline. */
int ftstat_loop_init(struct ftstat_loop *l, uint64_t timeout_ns);

/*
 * Let `sig` (SIGCHLD) end a wait too: blocked outside ppoll() like the
 * others, so that one arriving just before the wait is not missed.
 */
int ftstat_loop_wake_on(struct ftstat_loop *l, int sig);

/* Wait for `fd` (or not, if fd < 0) for at most max_ns (UINT64_MAX: no limit). */
enum ftstat_wait ftstat_loop_wait(struct ftstat_loop *l, int fd, uint64_t max_ns);

/*
 * Sleep at most max_ns or until any signal of the loop (for a drain after
 * a stop: neither the stop flag nor the deadline ends it).
 */
void ftstat_loop_pause(struct ftstat_loop *l, uint64_t max_ns);

uint64_t ftstat_now_ns(clockid_t clock);

#endif /* FTSTAT_LOOP_H */
