/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A node cut off from everyone fences itself: the self-fencing lease.
 *
 * A node that hears nobody (no valid frame from any member, its PROBEs
 * unanswered) declares nobody dead: the fault is likely its own. But the
 * others declare *it* dead a timeout after its last frame reached them, and
 * from then on the job treats its ranks as dead, while they would run on,
 * zombies writing to shared files. So a node holds its membership on a
 * lease that hearing anyone renews: a timeout of silence from everyone, the
 * time the others take to declare it, ends the lease, and the node fences
 * itself (FENCED to its ranks, a higher incarnation), once per isolation.
 * When it hears the group again it rejoins like any fenced node.
 *
 * Only our own running time counts: silence inside our own stall (a tick
 * late by more than a period) is skipped as for the silence of a watched
 * node (proto/health.h), and a starved tick (the late one, or the one
 * right after it, before the receive queues are drained) fences nobody.
 * With a single watched node, hearing nobody cannot be told from that
 * node's death (a two-node cluster): no lease.
 *
 * Only silence that reached us counts either. "Nobody" is what the module
 * processed, and a receive path that lags makes live members look silent:
 * the lease runs for the deadline we judge any node by, the timeout
 * stretched by our receive path's recent lag (ftd_health_deadline, at
 * most two timeouts), and while the machine is overloaded (it dropped
 * received frames within the last timeout, or frames wait on a CPU that
 * drains nothing: proto/overload.h) it does not end, up to
 * FTD_OVERLOAD_EXCUSED such deadlines: the lease judges silence as every
 * deadline does. Frames dropped or waiting reached this machine, so it is
 * not cut off from the wire, and any of them may be a member's: under
 * full CPU load in the test VM (bench/suspect.sh, 1 ms / 10 ms, 10 runs,
 * the machine dropping received frames in every run) one node fenced
 * itself after 13 ms of silence, its tick on time and no frame seen
 * waiting, while nobody had declared it. A node really cut
 * off fences that much later than the others declare it: its ranks may
 * run on as zombies for up to a timeout (or, overloaded all along, that
 * limit) past their declared death.
 *
 * A node that sends but receives nothing (a broken receive path) is fenced
 * although the others still hear it: it could not take part in its job
 * either (no message reaches it), and its new incarnation tells the others
 * that its ranks ended.
 */
#ifndef FTD_PROTO_LEASE_H
#define FTD_PROTO_LEASE_H

#include "compat.h"
#include "detect.h"
#include "elapsed.h"
#include "health.h"
#include "overload.h"

struct ftd_lease {
	u64 since_ns;	/* silence from everyone counts from here */
	bool fenced;	/* this isolation already fenced us */
};

/*
 * One tick, due at due_ns, fired at now_ns; last_rx_ns: our last valid
 * frame from anyone; overloaded: the machine drops received frames or
 * leaves them waiting (proto/overload.h); own_rx: our receive path's lag.
 * True when the lease ran out: fence now.
 */
static inline bool ftd_lease_expired(struct ftd_lease *l, bool can_tell, bool starved,
				     bool overloaded, const struct ftd_slowness *own_rx,
				     u64 last_rx_ns, u64 due_ns, u64 now_ns, u64 period_ns,
				     u64 timeout_ns)
{
	u64 since = l->since_ns > last_rx_ns ? l->since_ns : last_rx_ns;
	u64 silent, deadline;

	if (now_ns - due_ns > period_ns)
		since = ftd_health_skip_stall(since, due_ns, now_ns);
	l->since_ns = since;
	silent = since ? ftd_elapsed(now_ns, since) : 0;
	if (!can_tell || !since || silent < ftd_detect_suspect_after(timeout_ns)) {
		l->fenced = false;	/* we hear someone: a new lease */
		return false;
	}
	deadline = ftd_health_deadline(NULL, own_rx, timeout_ns, now_ns);
	if (silent < deadline || starved || l->fenced)
		return false;
	if (overloaded && ftd_overload_excuses(silent, deadline))
		return false;
	l->fenced = true;
	return true;
}

#endif
