/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registered ranks: a process registers (job, rank) on its /dev/ftdetect file,
 * and the node tells the cluster (PROC_REG), or nobody for a scoped one,
 * whose end goes to the nodes of its scope only (scope.h).
 * A clean deregister is PROC_EXIT; the file going away while still
 * registered (crash, kill -9, OOM kill: the kernel closes the files of a dead
 * process) is PROC_DEAD, with no timeout involved.
 */
#ifndef FTD_PROC_H
#define FTD_PROC_H

#include "event.h"

int ftd_proc_register(struct ftd_reader *r, const struct ftd_rank_reg *reg);
int ftd_proc_deregister(struct ftd_reader *r);
/* FTD_IOC_SCOPE: where a scoped registration's end goes (proto/scope.h). */
int ftd_proc_scope(struct ftd_reader *r, const struct ftd_scope *arg);
/* A descriptor of the file is being closed by the current task. */
void ftd_proc_flush(struct ftd_reader *r);
/* The file is being released. */
void ftd_proc_release(struct ftd_reader *r);

#endif
