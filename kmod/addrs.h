/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which node holds an address: the node table's index of its rails'
 * addresses, so that adding a node checks its addresses against every
 * other node's without walking them all (a cold `ftctl apply` of N nodes
 * was O(N^2) with the walk: bench/memory.sh). All under fn->lock.
 */
#ifndef FTD_ADDRS_H
#define FTD_ADDRS_H

#include "net.h"
#include "peer.h"

int ftd_addrs_init(struct ftd_net *fn);
/* Every peer's addresses were taken out already (ftd_peer_del_all). */
void ftd_addrs_free(struct ftd_net *fn);

/* The node holding address a, FTD_NODE_NONE if none. */
u32 ftd_addrs_owner(struct ftd_net *fn, const union ftd_addr *a);

/*
 * Index peer's addresses (a replaced peer's and its successor's may be in
 * at once: both are the same node's). -ENOMEM: none indexed.
 */
int ftd_addrs_add(struct ftd_net *fn, struct ftd_peer *peer);
void ftd_addrs_del(struct ftd_net *fn, struct ftd_peer *peer);

#endif
