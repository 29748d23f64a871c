/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftstat --prometheus: the instance, its counters and its nodes in the
 * Prometheus text exposition format (version 0.0.4), as node_exporter's
 * textfile collector and a Prometheus scrape read it. Pure formatting,
 * unit-tested without the module.
 */
#ifndef FTSTAT_PROM_H
#define FTSTAT_PROM_H

#include <stddef.h>
#include <stdio.h>

#include "common/msg.h"

void ftstat_print_prometheus(FILE *f, const struct ftu_config *cfg,
			     const struct ftu_stats *st, const struct ftu_node *nodes,
			     size_t n);

#endif /* FTSTAT_PROM_H */
