// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "fresh.h"
#include "elapsed.h"

static void prove(struct ftd_fresh *s, u32 incarnation)
{
	if (incarnation == s->incarnation)
		return;
	/* A new incarnation numbers its notices and heartbeats anew. */
	s->incarnation = incarnation;
	s->hb_floor = 0;
	s->notice_floor = 0;
	memset(s->notices, 0, sizeof(s->notices));
}

/* Within an incarnation: has this notice's seq passed on its rail before? */
static enum ftd_fresh_verdict notice_window(struct ftd_fresh *s, const struct ftd_frame *f)
{
	if (f->rail >= FTD_MAX_RAILS || f->seq <= s->notice_floor ||
	    ftd_replay_check(&s->notices[f->rail], f->seq) != FTD_REPLAY_FRESH)
		return FTD_FRESH_REPLAY;
	return FTD_FRESH_OK;
}

enum ftd_fresh_verdict ftd_fresh_check(struct ftd_fresh *s, const struct ftd_frame *f, u32 self,
				       const struct ftd_notice *n)
{
	if (f->receiver != self)
		return FTD_FRESH_REPLAY;
	/* 0 is no incarnation (they are wall-clock seconds): it proves nothing. */
	if (!f->incarnation || (s->incarnation && f->incarnation < s->incarnation))
		return FTD_FRESH_STALE;
	if (n && (n->kind == FTD_NOTICE_PROBE_ACK || n->kind == FTD_NOTICE_OUTDATED)) {
		if (!ftd_ask_is_ours(&s->ask, n->nonce))
			return FTD_FRESH_REPLAY;
		/*
		 * It refused our PROBE: it proves us nothing, nor we it. The
		 * nonce stays ours: this may answer a copy sent before our last
		 * restart, which changes nothing then (ftd_fresh_outdated_floor),
		 * and the answer to the copy sent after is still to come.
		 */
		if (n->kind == FTD_NOTICE_OUTDATED)
			return FTD_FRESH_OUTDATED;
		ftd_ask_answered(&s->ask, n->nonce);
		/* We never lost track of this incarnation: its windows stand. */
		if (f->incarnation == s->incarnation)
			return FTD_FRESH_ANSWERED;
		prove(s, f->incarnation);
		s->hb_floor = n->hb_floor;
		s->notice_floor = f->seq;	/* one sequence: all earlier ones */
		return FTD_FRESH_PROVEN;
	}
	if (!s->incarnation)
		return FTD_FRESH_UNPROVEN;
	/* Newer than proven: nobody could have captured it earlier. */
	prove(s, f->incarnation);
	if (f->type != FTD_FRAME_NOTICE)
		return f->seq > s->hb_floor ? FTD_FRESH_OK : FTD_FRESH_REPLAY;
	return notice_window(s, f);
}

bool ftd_ask_ping_due(struct ftd_ask *a, u64 now, u64 every, u64 nonce)
{
	if (a->probe_ns && ftd_elapsed(now, a->probe_ns) < every)
		return false;
	a->nonce = nonce ? nonce : 1;
	a->nonce_ns = now;
	a->probe_ns = now;
	return true;
}

bool ftd_ask_due(struct ftd_ask *a, u64 now, u64 every, u64 wait, u64 nonce)
{
	if (a->nonce && ftd_elapsed(now, a->nonce_ns) < wait) {
		if (ftd_elapsed(now, a->probe_ns) < every)
			return false;
		a->probe_ns = now;	/* the same nonce again */
		return true;
	}
	return ftd_ask_ping_due(a, now, every, nonce);
}

bool ftd_fresh_answer_probe(struct ftd_fresh *s, const struct ftd_frame *f, u32 self, u64 now,
			    u64 every, enum ftd_fresh_verdict *v)
{
	*v = FTD_FRESH_OK;
	if (f->receiver != self) {
		*v = FTD_FRESH_REPLAY;
		return false;
	}
	if (s->incarnation) {
		if (f->incarnation < s->incarnation)
			*v = FTD_FRESH_STALE;
		else if (f->incarnation == s->incarnation)
			*v = notice_window(s, f);
		/* A higher one is a restart: its window starts when proven. */
		if (*v != FTD_FRESH_OK)
			return false;
	}
	if (s->ack_ns && ftd_elapsed(now, s->ack_ns) < every)
		return false;
	s->ack_ns = now;
	return true;
}

bool ftd_fresh_outdated_due(struct ftd_fresh *s, u64 now, u64 every)
{
	if (s->outdated_ns && ftd_elapsed(now, s->outdated_ns) < every)
		return false;
	s->outdated_ns = now;
	return true;
}
