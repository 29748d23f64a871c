/* SPDX-License-Identifier: GPL-2.0-only */
/* ftctl show, ftctl stats and ftctl down: read (or stop) the instance. */
#ifndef FTCTL_SHOW_H
#define FTCTL_SHOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/msg.h"

/* The commands; they return an exit status (0, or 1 after an error). */
int ftctl_show(bool json);
int ftctl_stats(bool json);
int ftctl_down(void);

/* Their output, separate from the netlink I/O so that tests can check it. */
void ftctl_show_print(FILE *f, const struct ftu_config *cfg,
		      const struct ftu_node *nodes, size_t n, bool json);
void ftctl_stats_print(FILE *f, const struct ftu_stats *st, bool json);

#endif /* FTCTL_SHOW_H */
