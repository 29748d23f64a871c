/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RDMA devices and ports a config names for its RDMA rails
 * (`rdma = 1@mlx5_1/1`, ftdetect.conf(5)), checked against this node's
 * through libibverbs before anything is applied: the local node's address
 * on such a rail must be one of that port's (RoCE: a GID of the port is
 * the address; InfiniBand: the address is on the port's IPoIB interface).
 * The module binds its queue pair by address; this check is what makes an
 * address that ended up on another HCA, or a device that is missing, an
 * error that names the device, instead of heartbeats on the wrong fabric.
 */
#ifndef FTCTL_RDMA_H
#define FTCTL_RDMA_H

#include <stddef.h>

#include "ftctl/config.h"

/*
 * 0 if every named rail of conf is on its device and port at the local
 * node `local`; else -1 with the reason in err.
 */
int ftctl_rdma_check(const struct ftctl_conf *conf, const struct ftctl_conf_node *local,
		     char *err, size_t errlen);

#endif
