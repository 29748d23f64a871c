/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reception: the UDP encapsulation hook of the instance's sockets, and the
 * receive completions of its RDMA queue pairs (rdma_ud.h). Runs in softirq;
 * validates a frame completely before it may touch any state, and counts
 * what it drops.
 */
#ifndef FTD_HB_RX_H
#define FTD_HB_RX_H

#include <net/sock.h>
#include "detect.h"
#include "peer.h"

int ftd_hb_rx(struct sock *sk, struct sk_buff *skb);

/*
 * One frame (buf, len: no transport header) that arrived at `at`, read at
 * now, from src; or, src NULL, on our rail `rail` of a fabric that gives no
 * IP source (rdma_ud.h). Softirq, under rcu_read_lock.
 */
void ftd_hb_rx_frame(struct ftd_net *fn, const u8 *buf, unsigned int len,
		     const union ftd_addr *src, u8 rail, struct ftd_arrival at, u64 now);

#endif
