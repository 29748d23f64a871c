/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Freshness of a member's frames: the decision, per frame, whether an
 * authenticated frame is also a new one. A valid MAC proves who made a
 * frame, never when; these rules make a captured frame worthless later:
 *
 *  - a frame names its receiver (under the MAC): one addressed to another
 *    node was captured on its way there, and is a replay here;
 *  - incarnations only grow: a frame of an older incarnation than the one
 *    proven is stale;
 *  - an incarnation is proven by a challenge: until a member answered a
 *    PROBE notice carrying a random nonce of ours (PROBE_ACK, MAC'd with
 *    the nonce, at its current incarnation), nothing it sends is believed.
 *    After that, a higher incarnation is proven by itself (nobody holds a
 *    frame of an incarnation newer than the newest one sent);
 *  - within an incarnation, heartbeats carry one sequence per rail (the
 *    receiver keeps the highest, proto/seq.h), and notices one sequence
 *    per sender, checked per rail against a replay window (proto/replay);
 *  - a receiver that lost track of a member's streams (it had to PROBE)
 *    learns floors with the answer: the member starts a new epoch of its
 *    heartbeat streams to us and names its start, and the answer's own seq
 *    bounds every notice sent before it; anything at or below is older
 *    than the proof.
 *
 * So after an instance or module restart, when we know nothing, a replayed
 * frame is refused until the member proves which incarnation is current.
 */
#ifndef FTD_PROTO_FRESH_H
#define FTD_PROTO_FRESH_H

#include "compat.h"
#include "replay.h"
#include "wire.h"
#include <linux/ftdetect.h>

/*
 * Our PROBE to a node, outstanding until answered: the nonce its answer
 * must echo, when we made it, when we last sent it. The module keeps one
 * per peer, for every ask (struct ftd_fresh); the simulator one per ask it
 * models (userspace/sim: a suspect's observer, a voter asking a judge).
 */
struct ftd_ask {
	u64 nonce;		/* outstanding, 0: none */
	u64 nonce_ns;		/* when we made it */
	u64 probe_ns;		/* when we last sent it */
};

struct ftd_fresh {
	u32 incarnation;	/* the newest incarnation proven, 0: none yet */
	u8 sweeps;		/* sweeps that asked it in vain since it was last
				 * heard or our view reset (ftd_fresh_sweep_due) */
	struct ftd_ask ask;	/* our PROBE to it */
	u64 ack_ns;		/* when we last answered one of its PROBEs */
	u64 outdated_ns;	/* when we last told one of them OUTDATED (its
				 * own budget: ftd_fresh_outdated_due) */
	u64 hb_floor;		/* its heartbeats at or below: older than the proof */
	u64 notice_floor;	/* its notices at or below: older than the proof */
	struct ftd_replay notices[FTD_MAX_RAILS];	/* at `incarnation` */
};

enum ftd_fresh_verdict {
	FTD_FRESH_OK = 0,	/* believe it */
	FTD_FRESH_PROVEN,	/* a PROBE_ACK answering our PROBE: proven now */
	FTD_FRESH_ANSWERED,	/* a PROBE_ACK answering our PROBE, of the
				 * incarnation already proven: alive now */
	FTD_FRESH_STALE,	/* an older incarnation than the one proven */
	FTD_FRESH_REPLAY,	/* a notice seen before, or too old to tell; an
				 * answer to no PROBE of ours; a frame for
				 * another node */
	FTD_FRESH_UNPROVEN,	/* nothing proven yet: refused, PROBE it */
	FTD_FRESH_OUTDATED,	/* an OUTDATED answering our PROBE: the member
				 * holds us at the notice's regid, which it found
				 * above the PROBE's incarnation
				 * (ftd_fresh_outdated_floor()) */
};

/*
 * A MAC-valid frame f from the member, received by node self; n is its
 * decoded notice (NULL for a heartbeat). Updates s: proven incarnation,
 * windows, floor. (Above the floor, a heartbeat's seq is checked by the
 * detector, which keeps the highest one per rail.)
 */
enum ftd_fresh_verdict ftd_fresh_check(struct ftd_fresh *s, const struct ftd_frame *f, u32 self,
				       const struct ftd_notice *n);

/*
 * Answer a PROBE in f? Not if f is a replay: once the member's incarnation
 * is proven, its PROBEs pass the notice window like any notice (so replayed
 * ones cannot use up the answers meant for real ones); before that, any
 * PROBE for us is answered, at most once per `every`.
 */
bool ftd_fresh_answer_probe(struct ftd_fresh *s, const struct ftd_frame *f, u32 self, u64 now,
			    u64 every, enum ftd_fresh_verdict *v);

/*
 * A PROBE that ftd_fresh_answer_probe() found STALE (older than the
 * incarnation proven): answer it with OUTDATED, at most once per `every`?
 * Its sender came up below the incarnation we hold it at (its clock behind
 * at start, or ahead of it before: a node fenced twice within a second,
 * then reloaded): refused for good, it would never be heard again, and,
 * hearing nobody from the start, it would never fence itself either. Told
 * what we hold, it restarts above it. A replayed PROBE gets an answer
 * whose nonce its sender does not hold (ignored there), of its own size;
 * replayed once a period, it takes the answer's turn, which delays a real
 * one as much as dropping it would (what an attacker on the path can do
 * anyway). Its budget is not the PROBE_ACK's: those stay for real PROBEs.
 */
bool ftd_fresh_outdated_due(struct ftd_fresh *s, u64 now, u64 every);

/*
 * An OUTDATED answered our PROBE: the member holds us at `held`. The
 * incarnation to restart above, or 0 if ours (own) is not below it (a
 * PROBE sent before we last restarted may be answered after), or if none
 * is above it.
 */
static inline u32 ftd_fresh_outdated_floor(u32 held, u32 own)
{
	return held > own && held != (u32)~0U ? held : 0;
}

/*
 * Is nonce (an answer's echo) that of our PROBE outstanding? And the
 * answer to it: the PROBE is answered (no longer outstanding).
 */
static inline bool ftd_ask_is_ours(const struct ftd_ask *a, u64 nonce)
{
	return a->nonce && nonce == a->nonce;
}

static inline bool ftd_ask_answered(struct ftd_ask *a, u64 nonce)
{
	if (!ftd_ask_is_ours(a, nonce))
		return false;
	a->nonce = 0;
	return true;
}

/*
 * The round trip of an answer to our nonce (just answered, at now), or 0
 * if unknown: only a nonce sent once has one. One sent again
 * (ftd_ask_due) may be answered for either copy, and timing from the
 * first would add the wait between them: up to a timeout, which
 * proto/watch.h would take for the network's.
 */
static inline u64 ftd_ask_rtt(const struct ftd_ask *a, u64 now)
{
	if (a->probe_ns != a->nonce_ns || now <= a->nonce_ns)
		return 0;
	return now - a->nonce_ns;
}

/*
 * Should we PROBE it now (none sent for `every`)? If so, records nonce
 * (non-zero; 0 is taken as 1) as outstanding, made and sent at now. A
 * PROBE to a proven member asks whether it is alive now: its answer
 * (FTD_FRESH_ANSWERED) is as fresh as its nonce.
 */
bool ftd_ask_ping_due(struct ftd_ask *a, u64 now, u64 every, u64 nonce);

/*
 * PROBE it now (none sent for `every`)? With the nonce of a PROBE of ours
 * still unanswered if that one was made less than `wait` ago (an answer to
 * either copy counts, and proves it alive `wait` ago at the most), else a
 * new one. For every PROBE that waits for an answer: a suspect asked, an
 * unproven sender asked, a PROBE answered by one back. A new nonce each
 * time refused the answer already on its way as a replay whenever the
 * round trip took longer than `every`: two nodes whose probes crossed
 * after a heal lost both answers, and a node that came up next to busy
 * ones, asked every period, was never proven and declared its observers
 * dead (island, cutoff_3_nodes). Records the nonce as above.
 */
bool ftd_ask_due(struct ftd_ask *a, u64 now, u64 every, u64 wait, u64 nonce);

/* The same, for the module's one ask per peer. */
static inline u64 ftd_fresh_rtt(const struct ftd_fresh *s, u64 now)
{
	return ftd_ask_rtt(&s->ask, now);
}

static inline bool ftd_fresh_ping_due(struct ftd_fresh *s, u64 now, u64 every, u64 nonce)
{
	return ftd_ask_ping_due(&s->ask, now, every, nonce);
}

static inline bool ftd_fresh_ask_due(struct ftd_fresh *s, u64 now, u64 every, u64 wait,
				     u64 nonce)
{
	return ftd_ask_due(&s->ask, now, every, wait, nonce);
}

/*
 * The sweep over members we have not heard (listed but powered off, not
 * started yet, or lost when our view was reset): PROBE this one now? Its
 * would-be observers (near: we would be among its k live successors were
 * it live) ask it every `base`; every other node asks it at once, then
 * after 2, 4, ... up to 2^FTD_SWEEP_BACKOFF bases (a minute at a base of a
 * second) while it stays silent. A node that starts needs nobody's sweep
 * to be found: it PROBEs every member at once itself, and each PROBEs it
 * back (a PROBE from a member we have not heard); its would-be observers
 * find it within a base should all of those be lost. Without the backoff
 * each powered-off node cost every live node a PROBE (and on IPv4 an ARP
 * broadcast) a second for good: 100 of them swamped the receive path of
 * eight emulated nodes. Records the ask as ftd_ask_ping_due does.
 */
#define FTD_SWEEP_BACKOFF	6

/*
 * Is the sweep to ask it every base (near)? Its would-be observer does
 * (observer: we would be among its k live successors were it live). So
 * does every node of a minority, for each member of the other side: its
 * ring still holds live the members of its side it no longer hears (a
 * minority declares nobody), so those next to the other side may be
 * gone, and the majority never asks a member it holds dead.
 */
static inline bool ftd_fresh_sweep_near(bool observer, bool minority)
{
	return observer || minority;
}

static inline bool ftd_fresh_sweep_due(struct ftd_fresh *s, u64 now, u64 base, bool near,
				       u64 nonce)
{
	u64 every = near ? base : base << s->sweeps;

	if (!ftd_ask_ping_due(&s->ask, now, every, nonce))
		return false;
	if (!near && s->sweeps < FTD_SWEEP_BACKOFF)
		s->sweeps++;
	return true;
}

/* Heard, or our view was reset: the next sweep asks it at once. */
static inline void ftd_fresh_sweep_reset(struct ftd_fresh *s)
{
	s->sweeps = 0;
}

#endif
