/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Read the state of this network namespace's ftdetect instance: config,
 * node dump, counters. Shared by ftctl and ftstat. Each returns 0 or
 * -errno; print failures with ftu_nl_perror().
 */
#ifndef FTU_QUERY_H
#define FTU_QUERY_H

#include <stddef.h>

#include "common/msg.h"
#include "common/nl.h"

int ftu_get_config(struct ftu_nl *nl, struct ftu_config *cfg);

/* All nodes, sorted by id; free *nodes with free(). */
int ftu_get_nodes(struct ftu_nl *nl, struct ftu_node **nodes, size_t *n);

int ftu_get_stats(struct ftu_nl *nl, struct ftu_stats *st);

/* Sort nodes by id (the order of every listing). */
void ftu_sort_nodes(struct ftu_node *nodes, size_t n);

#endif /* FTU_QUERY_H */
