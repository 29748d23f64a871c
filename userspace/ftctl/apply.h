/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftctl apply: make this namespace's instance match a config file.
 */
#ifndef FTCTL_APPLY_H
#define FTCTL_APPLY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/msg.h"
#include "ftctl/config.h"

struct ftctl_apply_opts {
	bool dry_run;	/* print the plan, touch nothing */
	bool restart;	/* take the instance down first even if not needed */
	bool verbose;	/* print each step as it is sent */
};

/*
 * Apply `conf` with `local` as the local node. Returns an exit status:
 * 0, or 1 after printing the failed step and the kernel's reason.
 */
int ftctl_apply(const struct ftctl_conf *conf, uint32_t local,
		const struct ftctl_apply_opts *opts);

/* One line per request, as --dry-run and --verbose print them. */
void ftctl_print_set_config(FILE *f, const struct ftu_config *req);
void ftctl_print_add_node(FILE *f, const struct ftctl_conf_node *n);

/*
 * The SET_CONFIG request of step 2 (without UP): period, timeout, the key
 * if the file has one, and with `fixed` the cluster id, node and port,
 * which can only be set while the instance is down.
 */
void ftctl_config_request(const struct ftctl_conf *conf, uint32_t local, bool fixed,
			  struct ftu_config *req);

#endif /* FTCTL_APPLY_H */
