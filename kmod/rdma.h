/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RDMA ports as the truth of a rail (docs/rdma.md). An MPI's traffic on
 * RoCE takes the RDMA port behind a rail's address, not its IP path: the
 * module is an RDMA client, follows every RDMA device's port events, and
 * link.c holds a rail down while the RDMA port of its interface is not
 * active, or since one it had went away, exactly as while its carrier is
 * lost. Kernels without CONFIG_INFINIBAND build without it: every rail is
 * an IP rail there.
 */
#ifndef FTD_RDMA_H
#define FTD_RDMA_H

#include <linux/netdevice.h>

#include <linux/ftdetect.h>

/* The RDMA port behind an interface (uapi: FTDETECT_A_ADDR_RDMA). */
struct ftd_rdma_port {
	enum ftd_rdma_state state;	/* GONE only as link.c reports a rail */
	u32 port;
	/* Dumps only (genl.c): heartbeats go over RDMA there, on this queue pair. */
	bool ud;
	u32 qpn;
	char device[64];		/* IB_DEVICE_NAME_MAX */
};

#if IS_ENABLED(CONFIG_INFINIBAND)
int ftd_rdma_init(void);
void ftd_rdma_exit(void);
/* The RDMA port behind dev, and its state. RTNL held. */
void ftd_rdma_port_of(struct net_device *dev, struct ftd_rdma_port *rp);
#else
static inline int ftd_rdma_init(void)
{
	return 0;
}

static inline void ftd_rdma_exit(void)
{
}

static inline void ftd_rdma_port_of(struct net_device *dev, struct ftd_rdma_port *rp)
{
	rp->state = FTD_RDMA_NONE;
}
#endif

#endif
