/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instance's tick: an hrtimer that fires every period in softirq
 * context, independent of any process, sends one heartbeat on every rail
 * to each of the node's k live successors (its observers), then runs the
 * detection tick (detect.h), whose notices go out together (outbox.h).
 */
#ifndef FTD_TIMER_H
#define FTD_TIMER_H

#include "net.h"

void ftd_timer_init(struct ftd_net *fn);
/* fn->lock held, instance marked up. */
void ftd_timer_start(struct ftd_net *fn);
/* fn->lock held, instance up: tick now, then every period (a new one). */
void ftd_timer_restart(struct ftd_net *fn);
/* fn->lock held, instance marked down; returns with no callback running. */
void ftd_timer_stop(struct ftd_net *fn);

#endif
