/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftstat -w --exec: run an admin's program on each event, as serf's event
 * handlers do: the event as one JSON line on its standard input and as
 * FTD_* variables in its environment (FTD_EVENT=NODE_DEAD, FTD_NODE=3,
 * ...); its standard output goes to ftstat's standard error. Detection never waits for it: the kernel multicasts events and
 * moves on; here at most FTSTAT_HOOK_RUNNING programs run at once, the
 * others wait in order in a bounded queue, and a program that outlives
 * its timeout is stopped (SIGTERM to its process group, SIGKILL a second
 * later). Every event is handed over, or reported on stderr as dropped.
 */
#ifndef FTSTAT_HOOK_H
#define FTSTAT_HOOK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/ftdetect.h>

#define FTSTAT_HOOK_RUNNING	4	/* programs at once */
#define FTSTAT_HOOK_QUEUE	1024	/* events waiting for a slot */

struct ftstat_hook_run {
	pid_t pid;		/* 0: free */
	uint64_t seq;		/* the event's */
	uint64_t deadline;	/* CLOCK_MONOTONIC: SIGTERM then */
	bool killed;		/* SIGTERM sent; SIGKILL to its group at deadline */
	bool reaped;		/* killed and reaped: only its group's SIGKILL is due */
};

struct ftstat_hook {
	const char *cmd;	/* run as /bin/sh -c cmd */
	uint64_t timeout_ns;
	struct ftstat_hook_run run[FTSTAT_HOOK_RUNNING];
	struct ftd_event queue[FTSTAT_HOOK_QUEUE];
	unsigned int head, len;
	uint64_t dropped;	/* events the full queue refused */
	uint64_t failed;	/* programs that exited non-zero or were stopped */
};

void ftstat_hook_init(struct ftstat_hook *h, const char *cmd, uint64_t timeout_ns);

/* Hand over one event: run it now, or queue it. */
void ftstat_hook_event(struct ftstat_hook *h, const struct ftd_event *ev);

/*
 * Reap finished programs, stop overdue ones, start queued events. Returns
 * how long the caller may sleep before calling again (UINT64_MAX: nothing
 * runs; SIGCHLD also interrupts the caller's ppoll).
 */
uint64_t ftstat_hook_poll(struct ftstat_hook *h);

/* Stop: drop queued events (saying so), SIGTERM the running programs. */
void ftstat_hook_stop(struct ftstat_hook *h);

/* Whether a program runs or an event waits. */
bool ftstat_hook_busy(const struct ftstat_hook *h);

#endif /* FTSTAT_HOOK_H */
