/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fencing (fail-stop): a node that the group holds dead, or that heard
 * nobody for a timeout, or that is in a minority, or that came up below the
 * incarnation the group holds it at, tells its ranks, forgets what it
 * concluded meanwhile and rejoins with a higher incarnation.
 */
#ifndef FTD_FENCE_H
#define FTD_FENCE_H

#include "net.h"

/*
 * This node was declared dead while alive (origin: the declarer), or heard
 * nobody for a timeout (origin: itself, proto/lease.h): tell its ranks
 * (FENCED), then rejoin with a higher incarnation. judged: the incarnation
 * the decision was about; if it has already ended, nothing happens (two
 * CPUs handling two copies of one verdict fence once, not twice, which
 * would end the new incarnation too, at every peer). Softirq or process
 * context.
 */
void ftd_fence(struct ftd_net *fn, u32 origin, u32 judged);
/*
 * A death would have left this node in a minority (proto/partition.h):
 * fence (origin: itself) and forget the view, every other member unknown
 * until heard again. judged as above. Softirq or process context.
 */
void ftd_fence_minority(struct ftd_net *fn, u32 judged);
/*
 * origin holds this node at held, above its own incarnation (OUTDATED,
 * proto/fresh.h): it came up too low to be heard. Fence and rejoin above
 * held. Softirq or process context.
 */
void ftd_fence_outdated(struct ftd_net *fn, u32 origin, u32 held);

#endif
