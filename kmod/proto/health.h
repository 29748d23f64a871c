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
 *
 * Our own receive path's lag. A tick on time does not prove that the
 * receive path keeps up: on a swamped CPU the receive softirq hands its
 * backlog to ksoftirqd, a task like any other, while the heartbeat timer
 * still fires on time, and live senders' frames wait there; their senders
 * look silent for as long as the frames wait. Each heartbeat's wait (its
 * arrival stamp to the module) is measured; the longest wait beyond a
 * period within FTD_HEALTH_WINDOW timeouts is our lag, and every deadline
 * we judge by is stretched by it (ftd_health_note_lag). With the sender's
 * slowness the stretch is at most one timeout, so that a death is still
 * declared within two timeouts. In the test VM under full CPU load and a
 * busy host (bench/suspect.sh), nodes declared each other dead after 10
 * to 15 ms of silence at a 10 ms timeout, ticks on time, frames heard
 * from others a moment before: the silent senders' heartbeats were most
 * likely queued.
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

/*
 * A heartbeat we handled at now_ns had waited lag_ns since its arrival
 * stamp: remember our receive path's lag (own_rx).
 */
void ftd_health_note_lag(struct ftd_slowness *own_rx, u64 lag_ns, u64 period_ns, u64 timeout_ns,
			 u64 now_ns);

/*
 * The silence after which a sender of that slowness is dead, at now_ns,
 * judged by an observer whose receive path lags as own_rx says (NULL: the
 * sender's own part alone).
 */
u64 ftd_health_deadline(const struct ftd_slowness *s, const struct ftd_slowness *own_rx,
			u64 timeout_ns, u64 now_ns);

#endif
