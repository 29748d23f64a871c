/* SPDX-License-Identifier: GPL-2.0-only */
/* ftstat --watch: stream the instance's events as they happen. */
#ifndef FTSTAT_WATCH_H
#define FTSTAT_WATCH_H

#include <stdbool.h>
#include <stdint.h>

/* Exit status when --timeout expires before --count events were seen. */
#define FTSTAT_EXIT_TIMEOUT 3

struct ftstat_watch_opts {
	bool json;
	bool journal;		/* to the systemd journal, not stdout (journal.h) */
	uint64_t count;		/* stop after this many events; 0: never */
	uint64_t timeout_ns;	/* stop after this long; 0: never */
	uint32_t types;		/* bit (1 << type) per event type shown; 0: all */
	const char *exec;	/* run this (sh -c) on each event shown (hook.h) */
	uint64_t exec_timeout_ns;	/* stop it after this long */
};

/* Returns the exit status: 0, 1 (error) or FTSTAT_EXIT_TIMEOUT. */
int ftstat_watch(const struct ftstat_watch_opts *o);

#endif /* FTSTAT_WATCH_H */
