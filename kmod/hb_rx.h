/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reception: the UDP encapsulation hook of the instance's sockets. Runs in
 * the receive softirq; validates a frame completely before it may touch any
 * state, and counts what it drops.
 */
#ifndef FTD_HB_RX_H
#define FTD_HB_RX_H

#include <net/sock.h>

int ftd_hb_rx(struct sock *sk, struct sk_buff *skb);

#endif
