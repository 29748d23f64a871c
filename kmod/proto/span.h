/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Spanning broadcast: a notice reaches each live member once instead of
 * over ~log2 N paths (El-Ansary et al., "Efficient broadcast in structured
 * P2P networks", IPTPS 2003, over this ring's fingers).
 *
 * A broadcast hands out arcs of the ring. The holder of the arc (from,
 * end) sends the notices to its fingers inside it, each with the share
 * from that finger up to the next one (the last: up to end), and each
 * holder does the same with its share: a binomial tree, every live member
 * of the arc once, ceil(log2 N) hops deep. The originator's arc is the
 * whole ring (end == from).
 *
 * A tree loses a whole share with one frame, so a share is acknowledged
 * hop by hop and sent again while unacknowledged. After FTD_SPAN_SENDS
 * sends, or at once when its holder is held dead, the rest of it is handed
 * over to the shares its holder would have made (ftd_span_split from the
 * holder's position, the holder left out): a run of dead holders (a rack)
 * is so split at doubling distances, a round per level, and the live
 * members past it are reached in the first round after the handover. The
 * holder keeps a share of itself alone, sent again until it answers, is
 * held dead, or FTD_SPAN_ALONE_TIMEOUTS went by (then the repair's
 * business).
 *
 * Positions are those of struct ftd_ring; the caller's view decides who
 * is live. Views that differ only cost copies (a member in two shares
 * gets two) or a handover (a member held live that is dead).
 */
#ifndef FTD_PROTO_SPAN_H
#define FTD_PROTO_SPAN_H

#include "compat.h"
#include "ring.h"

/* Sends of a share before it is handed over to its holder's own shares. */
#define FTD_SPAN_SENDS	3
/*
 * Timeouts a holder alone is sent to before it is given up (unless held
 * dead sooner). One was too few: at 20 % loss each way a live holder
 * missed all of its 6 or 7 sends about once a run (ftdsim, 1,000 nodes,
 * 490 cut off at random: 1-14 pairs left to the repair, which took a
 * median 1.15 s). Four: none left in 200 runs, all knowing within
 * 212 ms; the price, dead holders sent to until they are held dead, is
 * 4.4 frames per node and death there instead of 2.2.
 */
#define FTD_SPAN_ALONE_TIMEOUTS	4
/*
 * Shares a node keeps waiting at most: past it the oldest broadcast share
 * is given up (the digests repair what it carried), a scoped rank's end
 * (proto/scope.h) only when every one waiting is one. A rack's deaths declared at once
 * make a few dozen frames, each with ~log2 N shares.
 */
#define FTD_SHARES_WAITING_MAX	4096

struct ftd_span_share {
	u32 to;		/* the member the share is sent to, and who forwards it */
	u32 end;	/* the share is the arc [to, end) of the ring */
};

/* Members from a to b going forward in a ring of n; a == b: the whole ring, n. */
static inline u32 ftd_span_dist(u32 n, u32 a, u32 b)
{
	return a == b ? n : b > a ? b - a : n - a + b;
}

/*
 * The shares of the arc (from, end), from excluded: up to max, nearest
 * first, each [finger, next finger) of from's fingers that lie inside it,
 * the last one up to end. from need not be live (a handover). Returns how
 * many were written; 0 when the arc holds no live member.
 */
u32 ftd_span_split(const struct ftd_ring *r, u32 from, u32 end, struct ftd_span_share *out,
		   u32 max);

/*
 * The from of ftd_span_split for a share whose holder is no member of the
 * ring any more (deleted from the node table): its arc begins where the
 * holder stood, at position `at` (the first member past it, mod n), so it
 * is split from the member before, which it leaves out. n > 0.
 */
static inline u32 ftd_span_from_gone(u32 n, u32 at)
{
	return (at % n + n - 1) % n;
}

/*
 * How long a share waits for its acknowledgement before it is sent again:
 * four round trips (rtt_ns: the slow-to-forget one of proto/watch.h, 0 if
 * none yet), at least a sixteenth and at most half of a period, but never
 * less than two round trips: an acknowledgement that cannot be back yet
 * is not missing (ftdsim, 1,000 nodes at 1 ms / 10 ms with 3 ms a hop:
 * capped at half a period, shares were sent again and handed over before
 * any acknowledgement came, 86 frames per node and death). A timer of its
 * own looks, not the tick: a loss at each of a tree's ~log2 N hops would
 * otherwise cost a period (ftdsim, 100,000 nodes, 1 % loss: the last node
 * knew 30 ms later than with no loss).
 */
static inline u64 ftd_span_resend_after(u64 period_ns, u64 rtt_ns)
{
	u64 t = 4 * rtt_ns;

	if (t < period_ns / 16)
		t = period_ns / 16;
	if (t > period_ns / 2)
		t = period_ns / 2;
	return t > 2 * rtt_ns ? t : 2 * rtt_ns;
}

/*
 * When a share sent `sends` times, last at sent_ns, is due for
 * ftd_span_step(): resend_after after the first send, twice as long after
 * each further one, but never more than a quarter timeout (or
 * resend_after, if longer). A holder that does not answer is likely dead
 * before we know it (a rack's members hold shares of their own deaths):
 * ftdsim, 1,000 nodes, 490 cut off at 20 % loss, resent at a fixed
 * interval: 3.4 million sends, 12 times the acknowledgements. The cap
 * keeps a live holder alone asked a few times a timeout for as long as it
 * is sent to (FTD_SPAN_ALONE_TIMEOUTS): doubling on, the waits outgrew the
 * timeout after 7 sends.
 */
static inline u64 ftd_span_due_at(u64 sent_ns, u32 sends, u64 resend_after, u64 timeout_ns)
{
	u64 wait = resend_after << (sends > 1 ? (sends < 8 ? sends - 1 : 7) : 0);
	u64 cap = timeout_ns / 4 > resend_after ? timeout_ns / 4 : resend_after;

	return sent_ns + (wait < cap ? wait : cap);
}

static inline bool ftd_span_due(u64 now, u64 sent_ns, u32 sends, u64 resend_after,
				u64 timeout_ns)
{
	return now > sent_ns && now >= ftd_span_due_at(sent_ns, sends, resend_after, timeout_ns);
}

enum ftd_span_step {
	FTD_SPAN_RESEND,	/* send the share again */
	FTD_SPAN_HAND_OVER,	/* the rest of it to its holder's own shares (ftd_span_split
				 * from the holder); the holder keeps itself alone, or is
				 * dropped if held dead */
	FTD_SPAN_DROP,		/* forget it */
};

/*
 * What to do with a share due: first sent at first_ns, sent `sends`
 * times, to a holder held dead or not, alone in its share or not (the
 * split from the holder is empty). A holder alone is sent to for
 * FTD_SPAN_ALONE_TIMEOUTS timeouts from the share's first send: by then
 * it is held dead or was heard, or it is the repair's business.
 */
enum ftd_span_step ftd_span_step(u64 now, u64 first_ns, u32 sends, u64 timeout_ns,
				 bool holder_dead, bool alone);

/*
 * The end of a share for its holder `to` alone, from the start: the arc
 * [to, to + 1) holds no other member in anybody's ring, so its receiver
 * forwards nothing, whatever it holds live (a scoped rank's end,
 * proto/scope.h). Node ids stop below FTD_NODE_NONE: no wrap.
 */
static inline u32 ftd_span_alone_end(u32 to)
{
	return to + 1;
}

#endif
