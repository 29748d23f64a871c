/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Replay protection: a sliding window over the sequence numbers of one
 * sender's authenticated stream (as WireGuard's counter and BFD's
 * authenticated sequence numbers). A frame passes once: a sequence number
 * seen before, or older than the window, is a replay (or a duplicate) and
 * changes nothing. Sequence numbers start at 1; 0 is never valid.
 *
 * A MAC says who made a frame, not when: without this, a frame captured
 * once could be sent again at any later time and be believed.
 */
#ifndef FTD_PROTO_REPLAY_H
#define FTD_PROTO_REPLAY_H

#include "compat.h"

/*
 * Bits of history: frames of one stream reordered by more than this many
 * sequence numbers are dropped as too old. A notice stream is a few frames
 * per event; 256 leaves room for a burst of a whole view's notices.
 */
#define FTD_REPLAY_WINDOW	256

struct ftd_replay {
	u64 top;	/* highest sequence number accepted, 0: none yet */
	u64 bits[FTD_REPLAY_WINDOW / 64];	/* bit (s % WINDOW): s was seen */
};

enum ftd_replay_verdict {
	FTD_REPLAY_FRESH = 0,	/* accepted, and now remembered */
	FTD_REPLAY_SEEN,	/* within the window, already accepted once */
	FTD_REPLAY_OLD,		/* older than the window: cannot tell, refused */
	FTD_REPLAY_ZERO,	/* 0 is no sequence number */
};

/* Check seq and, if fresh, remember it. */
enum ftd_replay_verdict ftd_replay_check(struct ftd_replay *w, u64 seq);

/* Forget everything: the sender started a new incarnation. */
static inline void ftd_replay_reset(struct ftd_replay *w)
{
	memset(w, 0, sizeof(*w));
}

#endif
