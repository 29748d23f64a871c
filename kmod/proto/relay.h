/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Indirect probes: a suspect is asked through others too (SWIM's
 * ping-req), so that a lossy or broken link between two live nodes is no
 * death while other members still reach the suspect.
 *
 * An observer that suspects a node PROBEs it directly (proto/detect.h) and,
 * with the same nonce, sends FTD_NOTICE_PROBE_REQ to FTD_RELAY_HELPERS
 * random live members. A helper PROBEs the suspect itself (one PROBE serves
 * every request that came meanwhile) and keeps each request for a while;
 * when the suspect answers, it sends each requester FTD_NOTICE_PROBE_RELAY
 * echoing that requester's nonce. The requester believes a relay only while
 * its nonce is the one outstanding for the suspect, at the incarnation it
 * holds, and then counts the suspect as heard.
 *
 * What a relay proves: the suspect answered a nonce the helper made at
 * most ftd_relay_wait() before the request came (ftd_fresh_ask_due reuses
 * a young unanswered nonce), so it was alive after the requester began to
 * suspect it. A real death is never refuted: nobody can answer for a dead
 * node, so it is declared at the timeout as without relays; a suspect that
 * answers a helper and then dies is declared a timeout after that answer.
 *
 * Loss: a false death needed the direct round trip to fail at every ask;
 * now each of the helpers' four-frame paths must fail too, so at frame
 * loss p the rate falls by about (4p)^FTD_RELAY_HELPERS per ask. A suspect
 * still silent after its first ask is asked through twice as many
 * (ftd_relay_helpers).
 *
 * A helper keeps FTD_RELAY_SLOTS requests per suspect (a suspect has k
 * observers, rarely all suspecting at once); a newer request from the same
 * requester replaces its older one, a full table drops the oldest.
 * Requests are MAC'd notices from members, fresh under the notice windows
 * (proto/fresh.h): a replayed one is refused before it costs a PROBE, and
 * a relay echoing an old nonce is ignored by the requester.
 */
#ifndef FTD_PROTO_RELAY_H
#define FTD_PROTO_RELAY_H

#include "compat.h"
#include "apply.h"
#include "detect.h"
#include "elapsed.h"

#define FTD_RELAY_HELPERS	3	/* members asked per ask of a suspect */
#define FTD_RELAY_HELPERS_MAX	(2 * FTD_RELAY_HELPERS)
#define FTD_RELAY_SLOTS		2	/* requests a helper keeps per suspect */

struct ftd_relay_req {
	u32 requester;
	u64 nonce;	/* the requester's, echoed in the relay; 0: a free slot */
	u64 asked_ns;	/* when the request came */
};

struct ftd_relay {
	struct ftd_relay_req req[FTD_RELAY_SLOTS];
};

/*
 * How long a request waits for the suspect's answer, and how old the
 * helper's nonce may be to answer it: the observer's interval between
 * asks. The next ask brings a new request if the suspect is still silent.
 */
static inline u64 ftd_relay_wait(u64 period_ns, u64 timeout_ns)
{
	return ftd_detect_ask_every(period_ns, timeout_ns);
}

/*
 * How many helpers an ask of a suspect silent for silent_ns goes to. Its
 * first ask (the suspicion begins at half the timeout) goes to
 * FTD_RELAY_HELPERS; an ask an ask interval later means the first one
 * brought no answer, and the declaration is near: twice as many. At 20 %
 * loss an ask fails about 0.36 x 0.59^3 = 7 % of the time with three
 * helpers, 1.5 % with six; a live suspect whose heartbeats were all lost
 * is declared only if every ask before the timeout fails. ftdsim, 1,000
 * nodes, 20 % loss: one death and 2 s after, seeds 1-3, 5, 3 and 3 false
 * declarations before, none now (relay requests +5 to +20 %); 490 nodes cut
 * at random, seeds 1-62, a false declaration in 1 run instead of 17 and
 * undelivered pairs in none instead of 4. A suspect that answers its first
 * ask, as nearly every one does below a few percent of loss, costs what it
 * did. An observer that is itself overloaded (its tick starved, or the
 * machine dropping what it receives: proto/overload.h) does not double:
 * its silences are excused from a declaration meanwhile, and more frames
 * would feed the drops that made the suspects.
 */
static inline u32 ftd_relay_helpers(u64 silent_ns, u64 period_ns, u64 timeout_ns,
				    bool overloaded)
{
	return !overloaded && silent_ns >= ftd_detect_suspect_after(timeout_ns) +
					   ftd_detect_ask_every(period_ns, timeout_ns) ?
		       FTD_RELAY_HELPERS_MAX : FTD_RELAY_HELPERS;
}

/*
 * Whom an observer asks about suspect: a sample of distinct members it
 * holds live, drawn one larger than wanted (ftd_ring_sample_live: the
 * suspect itself may be drawn), then the first `helpers` of them that are
 * not the suspect. Kept in ids, in place; returns how many.
 */
#define FTD_RELAY_SAMPLE(helpers)	((helpers) + 1)

static inline u32 ftd_relay_pick(u32 *ids, u32 n, u32 suspect, u32 helpers)
{
	u32 i, picked = 0;

	for (i = 0; i < n && picked < helpers; i++)
		if (ids[i] != suspect)
			ids[picked++] = ids[i];
	return picked;
}

/*
 * Does a helper (self) take a request from sender to ask subject? From the
 * asker itself (origin), about a node other than either of them, with a
 * nonce to echo (ftd_relay_request_ok: the module checks it before it
 * looks the suspect up); and not about an incarnation inc the helper
 * holds ended (in st at held_inc) or past: the asker learns that from the
 * notices (ftd_relay_suspect_open).
 */
static inline bool ftd_relay_request_ok(u32 self, u32 sender, u32 origin, u32 subject,
					u64 nonce)
{
	return origin == sender && subject != sender && subject != self && nonce;
}

static inline bool ftd_relay_suspect_open(enum ftd_node_state st, u32 held_inc, u32 inc)
{
	return ftd_apply_gone(st, held_inc, inc) != FTD_APPLY_OLD;
}

static inline bool ftd_relay_accepts(u32 self, u32 sender, u32 origin, u32 subject, u64 nonce,
				     enum ftd_node_state st, u32 held_inc, u32 inc)
{
	return ftd_relay_request_ok(self, sender, origin, subject, nonce) &&
	       ftd_relay_suspect_open(st, held_inc, inc);
}

/* Keep a request (nonce 0 is none: ignored). A zeroed table is empty. */
static inline void ftd_relay_record(struct ftd_relay *r, u32 requester, u64 nonce, u64 now)
{
	u32 i, slot = 0;

	if (!nonce)
		return;
	for (i = 0; i < FTD_RELAY_SLOTS; i++) {
		if (r->req[i].nonce && r->req[i].requester == requester) {
			slot = i;
			break;
		}
		if (!r->req[i].nonce ||
		    (r->req[slot].nonce && r->req[i].asked_ns < r->req[slot].asked_ns))
			slot = i;
	}
	r->req[slot] = (struct ftd_relay_req){
		.requester = requester, .nonce = nonce, .asked_ns = now,
	};
}

/*
 * The suspect answered, at now, a nonce we made at nonce_ns: move the
 * requests it answers to out (at most FTD_RELAY_SLOTS) and free them.
 * Requests older than `wait` are dropped unanswered; so is a request that
 * came more than `wait` after our nonce was made (the answer is older
 * evidence than the requester's silence: our next PROBE answers it).
 */
static inline u32 ftd_relay_take(struct ftd_relay *r, u64 now, u64 nonce_ns, u64 wait,
				 struct ftd_relay_req *out)
{
	u32 i, n = 0;

	for (i = 0; i < FTD_RELAY_SLOTS; i++) {
		struct ftd_relay_req *q = &r->req[i];

		if (!q->nonce)
			continue;
		if (ftd_elapsed(now, q->asked_ns) >= wait) {
			q->nonce = 0;
			continue;
		}
		if (ftd_elapsed(q->asked_ns, nonce_ns) > wait)
			continue;
		out[n++] = *q;
		q->nonce = 0;
	}
	return n;
}

/*
 * Does a relay with this nonce, at this incarnation, vouch for the suspect
 * we hold at held_incarnation, whose PROBE nonce outstanding is ours?
 */
static inline bool ftd_relay_vouches(u64 relay_nonce, u32 relay_incarnation, u64 ours,
				     u32 held_incarnation)
{
	return ours && relay_nonce == ours && relay_incarnation == held_incarnation;
}

#endif
