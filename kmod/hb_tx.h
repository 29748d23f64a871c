/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emission: the instance's hrtimer, which fires every period in softirq
 * context, independent of any process, sends one heartbeat on every rail of
 * every observer and then runs the detection tick.
 */
#ifndef FTD_HB_TX_H
#define FTD_HB_TX_H

#include "net.h"

void ftd_hb_timer_init(struct ftd_net *fn);
/* fn->lock held, instance marked up. */
void ftd_hb_timer_start(struct ftd_net *fn);
/* fn->lock held, instance marked down; returns with no callback running. */
void ftd_hb_timer_stop(struct ftd_net *fn);

#endif
