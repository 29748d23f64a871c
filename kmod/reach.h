/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reach check (proto/reach.h) for one instance: a burst of deaths
 * past k, or a predecessor that fenced itself, makes a node ask a sample
 * of the cluster whether it is still there, and a node that hears too few
 * of them fences as a minority. Its state is the timer's own
 * (ftd_net.reach).
 */
#ifndef FTD_REACH_H
#define FTD_REACH_H

#include "net.h"

/*
 * One tick at now_ns: start, run or end a check (prompted: a predecessor
 * we observe came back as a new incarnation while we held it live, or our
 * walk spans its whole cap, proto/watch.h;
 * overloaded: the machine drops received frames or leaves them waiting,
 * proto/overload.h, so the verdict waits, up to its limit). True when it put us in a minority: the
 * caller fences (ftd_fence_minority) once it dropped its locks. Timer
 * softirq; no lock held.
 */
bool ftd_reach_tick(struct ftd_net *fn, u64 now_ns, bool starved, bool prompted,
		    bool overloaded);

/* The instance comes up: no check. */
void ftd_reach_reset(struct ftd_net *fn);

#endif
