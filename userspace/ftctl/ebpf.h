/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftctl xdp ... / ftctl tc ...: the eBPF programs of ebpf/ (attach, detach,
 * status), and the part of `ftctl apply` that handles them (the config's
 * `xdp =` and `tc =` keys). See docs/ebpf.md.
 */
#ifndef FTCTL_EBPF_H
#define FTCTL_EBPF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ftctl/config.h"
#include "status.h"

extern const char ftctl_xdp_usage[];
extern const char ftctl_tc_usage[];

/* The commands (argv[0] is "xdp" or "tc"); they return an exit status. */
int ftctl_cmd_xdp(int argc, char **argv);
int ftctl_cmd_tc(int argc, char **argv);

/*
 * After the instance took the config: attach the programs the file asks
 * for to the local node's heartbeat interfaces, detach those it does not
 * ask for, and write its port, cluster and members into the maps. With
 * dry_run, only print the steps. Returns an exit status.
 */
int ftctl_apply_ebpf(const struct ftctl_conf *conf, uint32_t local, bool dry_run, bool verbose);

/* Status output, apart from the I/O so that tests can check it. */
void ftctl_xdp_status_print(FILE *f, const struct ftd_ebpf_status *st, bool json);
void ftctl_tc_status_print(FILE *f, const struct ftd_ebpf_status *st, bool json);

#endif /* FTCTL_EBPF_H */
