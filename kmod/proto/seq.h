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

/* Does a gap from last to seq count as lost heartbeats? (last 0: none yet) */
static inline bool ftd_seq_same_epoch(u64 last, u64 seq)
{
	return last && last >> 32 == seq >> 32;
}

#endif
