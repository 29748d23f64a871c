/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Anti-entropy: a node's view of the membership in 64 bits, so that two
 * nodes can tell with one frame whether a notice was lost between them.
 *
 * The digest covers, for every node known at all (never-heard nodes are
 * left out, as each node holds them alike), its incarnation and whether it
 * is up (alive, suspect, ourselves), dead or left; and, for every node up,
 * the registrations of ranks on it still live (ranks.h): a registration
 * whose end (PROC_DEAD, PROC_EXIT) one node missed leaves the two digests
 * apart like a missed death. A suspicion is local and not part of it, nor
 * are the ranks of a node held dead (their end is the node's). It is a sum
 * of one mixed word per node and per live registration, so the order of the
 * walk does not matter, and a node's registrations cost one word: their
 * sum, which its rank table keeps as it changes.
 *
 * The rule (ftd_digest_send_due, ftd_digest_exchange): a node sends its digest to one random live
 * member when its own has not changed for a timeout (a notice still on its
 * way is not a loss); the receiver compares it with its own, settled the
 * same way. If they differ, the two exchange views (view.h), which deliver
 * what either missed at most once per incarnation (dissem.h).
 */
#ifndef FTD_PROTO_DIGEST_H
#define FTD_PROTO_DIGEST_H

#include "compat.h"
#include "elapsed.h"
#include <linux/ftdetect.h>

struct ftd_digest {
	u64 sum;
	u32 nodes;	/* nodes counted: shown by ftstat, compared too */
};

/* Add node id at incarnation inc in state to d; unknown states add nothing. */
void ftd_digest_add(struct ftd_digest *d, u32 id, u32 inc, enum ftd_node_state state);

/* A registration's word, summed over the live ones (ftd_rank_table.live_sum). */
u64 ftd_digest_rank_word(u32 regid);

/*
 * Add the live registrations of node id, up at incarnation inc, by their
 * sum (ftd_rank_table.live_sum). Linear in live_sum: adding the sums of
 * two sets adds their union, so a set can also be taken away (the
 * simulator adds minus the words of the ended ones).
 */
void ftd_digest_add_ranks(struct ftd_digest *d, u32 id, u32 inc, u64 live_sum);

static inline bool ftd_digest_equal(const struct ftd_digest *a, const struct ftd_digest *b)
{
	return a->sum == b->sum && a->nodes == b->nodes;
}

/*
 * Our digest over time: settled once unchanged for a timeout. Feed every
 * digest computed (ftd_digest_track), ask whether it is settled.
 */
struct ftd_digest_track {
	struct ftd_digest last;
	u64 changed_ns;		/* when last took its value */
};

void ftd_digest_track(struct ftd_digest_track *t, const struct ftd_digest *now_d, u64 now_ns);

static inline bool ftd_digest_settled(const struct ftd_digest_track *t, u64 now_ns,
				      u64 timeout_ns)
{
	return t->changed_ns && now_ns >= t->changed_ns && now_ns - t->changed_ns >= timeout_ns;
}

/* Is our digest due to go out: settled, and its time (ftd_digest_every) come? */
static inline bool ftd_digest_send_due(const struct ftd_digest_track *t, u64 now_ns,
				       u64 next_ns, u64 timeout_ns)
{
	return ftd_digest_settled(t, now_ns, timeout_ns) && now_ns >= next_ns;
}

/* A member's digest against ours (mine): do we exchange views? Settled, and apart. */
static inline bool ftd_digest_exchange(const struct ftd_digest_track *t,
				       const struct ftd_digest *mine,
				       const struct ftd_digest *theirs, u64 now_ns, u64 timeout_ns)
{
	return ftd_digest_settled(t, now_ns, timeout_ns) && !ftd_digest_equal(mine, theirs);
}

/*
 * First contact (a node we begin to hear, or hear at a new incarnation:
 * it joined, restarted or rejoined after a fence; or whose incarnation we
 * just proved, having refused what it sent before): each side sends the
 * other its last digest, marked FTD_NOTICE_F_CONTACT, instead of its view,
 * and answers one it receives with its own (ftd_digest_contact_due).
 * Its receiver asks the sender for the view (a SYNC) if the two differ
 * and the sender has caught up with the group since it came up (its view
 * settled once: FTD_NOTICE_F_CAUGHT_UP): a joiner catches up from one
 * member, no member asks the joiner (it knows nothing the group lacks, and
 * would be asked by every member it contacts), and a member does ask a
 * node back from a minority (caught up long ago), which knows what only
 * its island saw (the island's new incarnations). Neither side need be
 * settled now (a joiner never is), so a contact digest is never compared
 * as a settled one; at most one ask per timeout, as contacts come in
 * bursts (a cold start, a heal). What an ask misses, the settled digests
 * above repair.
 */
static inline bool ftd_digest_ask_on_contact(const struct ftd_digest *mine,
					     const struct ftd_digest *theirs, bool theirs_caught_up,
					     u64 now_ns, u64 asked_ns, u64 timeout_ns)
{
	if (!theirs_caught_up || ftd_digest_equal(mine, theirs))
		return false;
	return !asked_ns || ftd_elapsed(now_ns, asked_ns) >= timeout_ns;
}

/*
 * Is a contact digest due to a member, last sent (or, for an answer, last
 * answered) at last_ns? At most once a timeout per member and role: a
 * first contact comes twice (we proved it, then heard it), and a member's
 * contacts are answered once (an answer never is), so nothing loops.
 */
static inline bool ftd_digest_contact_due(u64 now_ns, u64 last_ns, u64 timeout_ns)
{
	return !last_ns || ftd_elapsed(now_ns, last_ns) >= timeout_ns;
}

/*
 * How often a node sends its digest: every max(1 s, 4 timeouts), spread
 * by rnd (any u32) over +-25 % so that nodes do not fall into step.
 */
u64 ftd_digest_every(u64 timeout_ns, u32 rnd);

#endif
