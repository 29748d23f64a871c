/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Whose fault is a silence? The health of the observer and of the sender.
 *
 * A timeout of silence means death only if both ends were running. Two
 * things break that on a loaded machine, and both are measured, not
 * guessed (Lifeguard's local health awareness, for a heartbeat detector):
 *
 * The observer's own stall. When our timer fires late by more than a
 * period (a stalled CPU, a guest descheduled, softirqs left to a starved
 * ksoftirqd), the frames that arrived meanwhile may still sit in our
 * receive queues, and the senders were likely stalled with us. Silence
 * that falls inside our own stall is not counted: each watched node's
 * silence clock moves past it (ftd_health_skip_stall). A node that died
 * before the stall is declared the length of the stall later, never
 * falsely because of it. Only ticks late by more than a period count as a
 * stall: ordinary timer jitter does not move the clocks.
 *
 * The sender's lateness. Every heartbeat carries the sender's clock at
 * sending; two consecutive heartbeats of one rail stream (seq n, n + 1)
 * came one tick apart at the sender, so their distance beyond a period is
 * how late the sender's tick ran. As for our own ticks, only a lateness
 * of more than a period counts (less is timer jitter, and the detection
 * bound of timeout + period holds for a sender on time within a period).
 * The largest such lateness seen within FTD_HEALTH_WINDOW timeouts is the
 * sender's slowness; its deadline is the timeout plus that slowness, less
 * than twice the timeout (ftd_health_deadline). A gap of a timeout or
 * more is not a stall a node survives but a clock step, and is ignored.
 * A pause of its stream to us (we were not its successor for a while, or
 * its reminders, proto/detect.h) is never two consecutive seqs: the
 * sender resumes such a stream in a new epoch (ftd_seq_resumes).
 * A node that just stalled and recovered is thus given room to do it
 * again; a node that dies is still declared within two timeouts. The
 * clocks compared are the sender's own, so no clock synchronisation is
 * needed; the MAC covers them, so only a keyholder can claim slowness,
 * and it buys at most one timeout.
 */
#ifndef FTD_PROTO_HEALTH_H
#define FTD_PROTO_HEALTH_H

#include "compat.h"

/* A sender's slowness is remembered for this many timeouts. */
#define FTD_HEALTH_WINDOW 16

struct ftd_slowness {
	u64 late_ns;	/* the largest lateness of its ticks seen lately */
	u64 at_ns;	/* when that was seen (our clock) */
};

/*
 * The start of a watched node's silence (since), moved past our own
 * stall: the tick due at due_ns fired at now_ns. Silence before the stall
 * still counts.
 */
static inline u64 ftd_health_skip_stall(u64 since, u64 due_ns, u64 now_ns)
{
	if (!since || now_ns <= due_ns || since >= now_ns)
		return since;
	return since + (now_ns - (since > due_ns ? since : due_ns));
}

/*
 * Two heartbeats of one stream, sent at prev_tx and tx by the sender's
 * clock (seq consecutive), the later heard at now_ns: remember how late
 * the sender's tick was.
 */
void ftd_health_note_gap(struct ftd_slowness *s, u64 prev_tx, u64 tx, u64 period_ns,
			 u64 timeout_ns, u64 now_ns);

/* The silence after which a sender of that slowness is dead, at now_ns. */
u64 ftd_health_deadline(const struct ftd_slowness *s, u64 timeout_ns, u64 now_ns);

#endif
