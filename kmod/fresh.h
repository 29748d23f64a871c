/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Applies the freshness rules of the protocol core (proto/fresh.h) to each
 * authenticated frame: refuses stale, replayed and unproven ones (counted
 * per reason, globally and per member), answers PROBEs and probes members
 * whose incarnation is not proven yet.
 */
#ifndef FTD_FRESH_H
#define FTD_FRESH_H

#include "net.h"
#include "peer.h"
#include "proto/wire.h"

/*
 * f, from peer, passed its MAC check (and a notice frame
 * ftd_notices_check): may it change any state? Receive softirq. A PROBE
 * or PROBE_ACK is consumed here (false). The frame arrived at arrived_ns
 * (stamp.h), is handled at now.
 */
bool ftd_fresh_accept(struct ftd_net *fn, struct ftd_peer *peer, const struct ftd_frame *f,
		      u64 now, u64 arrived_ns);

/*
 * Ask peer whether it is there (a PROBE, proven or not), unless we did
 * within `every`: its answer counts as hearing it (ftd_detect_answered).
 * Returns the nonce sent (a young unanswered one again), 0 if none was.
 * Any context but hard irq.
 */
u64 ftd_fresh_ping(struct ftd_net *fn, struct ftd_peer *peer, u64 every);

/* The same, reusing an unanswered nonce only if made less than `wait` ago. */
u64 ftd_fresh_ask(struct ftd_net *fn, struct ftd_peer *peer, u64 every, u64 wait);

/*
 * Members we have not proven, or not heard since we came up, hold no place
 * in our ring and may never send us a frame: PROBE them from a work item,
 * each at most once per timeout or per second (the longer), while the
 * instance is up. Kick after the instance came up, the node table grew, or
 * we forgot what we knew (fenced).
 */
void ftd_fresh_probe_kick(struct ftd_net *fn);
void ftd_fresh_init(struct ftd_net *fn);
/* The instance is down: returns with no sweep running or queued. */
void ftd_fresh_stop(struct ftd_net *fn);

#endif
