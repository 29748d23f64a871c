/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Local links: when an interface carrying one of the local node's rails
 * goes down or loses carrier (or comes back), the node knows at once and
 * emits IFACE_DEAD / IFACE_RESTORED for itself; the other nodes see the
 * rail's heartbeats stop and decide by timeout.
 */
#ifndef FTD_LINK_H
#define FTD_LINK_H

int ftd_link_init(void);
void ftd_link_exit(void);

#endif
