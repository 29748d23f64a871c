/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Votes, with quorum q > 1 (kmod/dissem.c record_vote): an observer's
 * timeout is a vote (a SUSPECT notice to the subject's judges); a node
 * that counts q votes from distinct observers, each from the last
 * timeout, declares the node dead. The votes a node holds about a subject
 * are struct ftd_peer's (struct ftd_votes, kmod/proto/vote.h, whose rules
 * both use); the simulator allocates them per node only for subjects
 * somebody voted against (an item, view.h).
 */
#ifndef FTD_SIM_QUORUM_H
#define FTD_SIM_QUORUM_H

#include <linux/ftdetect.h>
#include "proto/compat.h"
#include "proto/vote.h"

struct sim;

/*
 * A node's votes about one subject, and the judges it asked (proto/vote.h:
 * a judge silent since our vote began stops counting). The module asks
 * with a PROBE and hears the answer as any frame of that peer
 * (peer->last_heard_ns); the simulator keeps the answer here.
 */
struct sim_votes {
	struct ftd_votes votes;
	u32 judge[FTD_MAX_OBSERVERS];		/* position + 1; 0: a free slot */
	/* the PROBE to it: struct ftd_ask less nonce_ns, as node.c's ask_of() */
	u64 nonce[FTD_MAX_OBSERVERS];
	u64 probe_ns[FTD_MAX_OBSERVERS];
	u64 answered_ns[FTD_MAX_OBSERVERS];
};

struct sim_quorum {
	u32 n, cap;
	struct sim_votes **per_item;	/* cap: n entries each, allocated on the first vote */
	u32 items;			/* items with votes */
};

int sim_quorum_init(struct sim_quorum *qu, u32 n, u32 cap);
void sim_quorum_free(struct sim_quorum *qu);

/*
 * record_vote: node v records voter's vote (own: v's) against item's
 * subject at s->now; true if v's own is to be sent. *fresh: votes from the
 * last timeout. Out of memory sets s->err.
 */
bool sim_quorum_record(struct sim *s, u32 v, u32 item, u32 voter, bool own, u32 *fresh);

/* Node v's votes about item's subject; NULL if nobody voted against it yet. */
static inline struct sim_votes *sim_quorum_of(struct sim_quorum *qu, u32 v, u32 item)
{
	return qu->per_item[item] ? &qu->per_item[item][v] : NULL;
}

/* The slot of judge (a position) in sv, taken if new (the oldest ask reused). */
u32 sim_quorum_judge_slot(struct sim_votes *sv, u32 judge);

#endif
