/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Heartbeat sequence numbers. Each (sender incarnation, receiver, rail)
 * is one stream whose seq only grows: the receiver refuses any seq not
 * above the last one it heard, which is what makes a captured heartbeat
 * worthless. The sender's count lives in its per-peer state, which a
 * changed node table replaces; so a seq is an epoch (high 32 bits, drawn
 * from a per-instance counter whenever that state is created) and a count
 * within it (low 32 bits). A new epoch starts above everything sent
 * before, and a jump between epochs is a restart of the count, not a loss.
 */
#ifndef FTD_PROTO_SEQ_H
#define FTD_PROTO_SEQ_H

#include "compat.h"

/* The last seq "sent" when epoch begins: its first heartbeat is one more. */
static inline u64 ftd_seq_epoch_start(u32 epoch)
{
	return (u64)epoch << 32;
}

/*
 * Does a stream whose last heartbeat went on tick last_tick resume on
 * tick `tick` (tick counts of our timer; 0: never sent)? Then it starts a
 * new epoch. The receiver reads two consecutive seqs as two consecutive
 * ticks, and their distance beyond a period as our timer running late
 * (proto/health.h), which buys us time at its end. A stream we paused on
 * ticks that did run (it was not our successor for a while, or a reminder
 * stream, proto/detect.h, that had nothing to remind) is no such thing;
 * a late tick skips no tick, so real lateness stays visible.
 */
static inline bool ftd_seq_resumes(u64 last_tick, u64 tick)
{
	return last_tick && tick - last_tick > 1;
}

/* Does a gap from last to seq count as lost heartbeats? (last 0: none yet) */
static inline bool ftd_seq_same_epoch(u64 last, u64 seq)
{
	return last && last >> 32 == seq >> 32;
}

#endif
