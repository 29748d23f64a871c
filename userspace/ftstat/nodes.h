/* SPDX-License-Identifier: GPL-2.0-only */
/* ftstat (default mode): the node table, once or every --interval. */
#ifndef FTSTAT_NODES_H
#define FTSTAT_NODES_H

#include <stdbool.h>
#include <stdint.h>

struct ftstat_nodes_opts {
	bool json;
	bool rails;		/* one extra row per rail */
	bool delays;		/* the driver-to-module delay table instead */
	bool prometheus;	/* the Prometheus text format instead (prom.h) */
	const char *output;	/* write each snapshot to this file, atomically */
	uint64_t interval_ns;	/* 0: print once */
	uint64_t count;		/* with interval: stop after this many; 0: never */
	uint64_t timeout_ns;	/* with interval: stop after this long; 0: never */
};

/* Returns the exit status: 0 or 1. */
int ftstat_nodes(const struct ftstat_nodes_opts *o);

#endif /* FTSTAT_NODES_H */
