/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A machine that drops what it receives judges late: the overload rule.
 *
 * A starved tick (docs/detection.md, "A starved observer does not judge")
 * catches an observer whose own timer did not run. A tick on time can
 * still judge a silence its own machine made: when the receive path cannot
 * keep up, the kernel drops frames before any protocol sees them (the
 * per-CPU backlog past netdev_max_backlog), heartbeats of live peers among
 * them, and the senders look silent. In the test VM, 3 s of junk frames
 * (four senders, one vCPU) made 16 nodes declare each other dead and
 * fence themselves (the two counted: 10 and 18 times), and the storm of
 * rejoins went on for seconds after the flood.
 *
 * So while this machine has dropped received frames within the last
 * timeout, a silence shorter than FTD_OVERLOAD_EXCUSED deadlines is no
 * evidence: the observer may suspect but declares nobody dead for it, and
 * the reach check's verdict waits as long; no rail is reported dead; a
 * timeout after the last drop it judges again, on silences measured from
 * frames it did receive. A longer silence is judged even while the
 * machine drops (a peer none of whose frames got through for that long is
 * as good as unreachable), so that a machine that drops all the time
 * still declares, that much later. The lease is held within the same
 * limit (proto/lease.h): frames that reach the machine prove it is not
 * cut off. Frames left waiting on a CPU that drains nothing (kmod/lag.h,
 * ftd_rx_stuck) hold verdicts and the lease alike: they will be
 * processed, and may be a member's.
 * The drops counted are the machine's, not the instance's: any frame
 * lost there may have been a heartbeat, and so any traffic that overruns
 * the backlog (another tenant's, on any interface) delays our verdicts.
 *
 * What it costs: while drops go on, this node declares up to that many
 * deadlines late (the other observers of its predecessors may not, and it
 * applies their notices), and reports no rail dead.
 * The same bound holds for a starved tick (its timer late, or the one
 * after): a machine whose ticks are late all the time would otherwise
 * never declare anyone. 16 nodes at 1 ms on the test VM's one emulated CPU
 * (lifecycle.sh) had every tick but a few late, and a node whose instance
 * was gone stayed alive at the others for over 60 s. Silence inside the
 * observer's own stall is still not counted (proto/health.h).
 */
#ifndef FTD_PROTO_OVERLOAD_H
#define FTD_PROTO_OVERLOAD_H

#include "compat.h"
#include "elapsed.h"

#define FTD_OVERLOAD_EXCUSED	4	/* deadlines of silence drops excuse */

struct ftd_overload {
	u64 drops;	/* the machine's count at the last tick */
	u64 last_ns;	/* the count last grew, seen at this tick; 0: not since the start */
};

/* The instance starts (or restarts) watching; drops: the count now. */
static inline void ftd_overload_start(struct ftd_overload *o, u64 drops)
{
	o->drops = drops;
	o->last_ns = 0;
}

/*
 * A tick at now_ns; drops: the machine's count of received frames it
 * dropped, now. True while judging is held: the count grew within the
 * last timeout.
 */
static inline bool ftd_overload_tick(struct ftd_overload *o, u64 drops, u64 now_ns,
				     u64 timeout_ns)
{
	if (drops != o->drops) {
		o->drops = drops;
		o->last_ns = now_ns ? now_ns : 1;
	}
	return o->last_ns && ftd_elapsed(now_ns, o->last_ns) < timeout_ns;
}

/* Drops going on, or a starved tick, excuse a silence of silence_ns against deadline_ns. */
static inline bool ftd_overload_excuses(u64 silence_ns, u64 deadline_ns)
{
	return silence_ns < FTD_OVERLOAD_EXCUSED * deadline_ns;
}

#endif
