/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The partition rule (proto/partition.h) for one instance: only a majority
 * declares. Its state is under ftd_net.partition_lock, a leaf: it may be
 * taken with peer->lock held and takes no other lock (ftd_majority_judge
 * reads the ring, under ring_lock, before it).
 */
#ifndef FTD_MAJORITY_H
#define FTD_MAJORITY_H

#include "net.h"
#include "proto/partition.h"

struct ftd_peer;

/*
 * May subject, a member we hold live, be declared dead now? On
 * FTD_PARTITION_FENCE the caller, once it dropped its locks, calls
 * ftd_fence_minority(). Any context; subject->lock held (it keeps
 * the burst its death was counted in).
 */
enum ftd_partition_verdict ftd_majority_judge(struct ftd_net *fn, struct ftd_peer *subject,
					     u64 now_ns);
/* May another node tell us about a member we do not hold live? */
bool ftd_majority_takes_hearsay(struct ftd_net *fn);
/* Each tick: in a minority, do we hold a majority of it live again? */
void ftd_majority_tick(struct ftd_net *fn);
/* peer, a member we held live, left cleanly; its lock held. */
void ftd_majority_left(struct ftd_net *fn, struct ftd_peer *peer, u64 now_ns);
/*
 * In a minority, the view was forgotten (every member not heard since is
 * unknown): live counts begun from now on may end the minority.
 */
void ftd_majority_forgot(struct ftd_net *fn);
/* The instance comes up: no burst, no minority. */
void ftd_majority_reset(struct ftd_net *fn);
/* Nonzero while we are in a minority: the membership whose majority we lost. */
u32 ftd_majority_minority_of(struct ftd_net *fn);

#endif
