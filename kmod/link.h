/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Local links: when an interface carrying one of the local node's rails
 * goes down or loses carrier, or the RDMA port behind it is not active
 * (rdma.h), or comes back, the node knows at once and emits IFACE_DEAD /
 * IFACE_RESTORED for itself, and sends nothing on the rail while it is
 * down; the other nodes see the rail's heartbeats stop and decide by
 * timeout.
 */
#ifndef FTD_LINK_H
#define FTD_LINK_H

int ftd_link_init(void);
void ftd_link_exit(void);
struct ftd_net;

/* Look at every rail of every instance again, from a work item (RTNL). */
void ftd_link_recheck_soon(void);
/* The same for one instance's rails (its work item: init, schedule, cancel). */
void ftd_link_net_init(struct ftd_net *fn);
void ftd_link_recheck_net(struct ftd_net *fn);
void ftd_link_net_exit(struct ftd_net *fn);

#endif
