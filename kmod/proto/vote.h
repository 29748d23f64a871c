/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Quorum: who judges a node, and how many votes declare it.
 *
 * With quorum = q above 1, an observer's timeout is only a vote. The
 * node's judges are its k observers (its k nearest successors in the
 * ring) that the voter itself holds alive, itself included: those that may
 * well be dead with it (suspect) are not counted on. Votes go to the
 * judges alone, not to the whole cluster: they are the nodes that count
 * them, and a refreshed vote is resent every half timeout, so a lost one,
 * or one sent before the ring changed, is not lost for good.
 *
 * The votes needed are q, but never more than the judges there are: a
 * vote that cannot be cast (its observer is dead too, or every other node
 * is) must not keep a death undeclared forever. A judge with a bad link to
 * the node is still outvoted, as long as the others are alive: that is
 * what the quorum is for. When the others are suspect, the quorum shrinks
 * with them; a partition is not the quorum's business (the primary
 * partition rule is).
 *
 * The judges past us in the ring are nodes we do not watch: we hold them
 * alive on no evidence. A run of deaths across a node and its successors
 * makes a dead node the judge of another whose judges do not watch it,
 * and each death waits for a vote that the other cannot cast: neither is
 * ever declared (1, 3 and 6 of 9 cut off with k = q = 4: 1 and 6 judge
 * each other). So once our own vote has stood a timeout short of the
 * votes needed, we ask every judge that has not voted (a PROBE, as a
 * suspect is asked), and after another timeout a judge not heard since
 * our vote began counts no more, as a suspect does not. A live judge
 * answers and stays counted: it has not voted because it hears the node,
 * and the quorum holds against us. And only with another judge's vote
 * beside ours: a voter alone, whose asks all go unanswered (its own
 * links or frames are what fails: the quorum test's node whose notices
 * its peers refuse), must not make itself the quorum. Counting out then
 * never lowers the votes needed below two. While our own tick is starved
 * or the machine drops received frames (proto/overload.h) the answers may
 * be among what we lost: a judge's silence then counts only past
 * FTD_OVERLOAD_EXCUSED timeouts, as any silence does.
 */
#ifndef FTD_PROTO_VOTE_H
#define FTD_PROTO_VOTE_H

#include "compat.h"
#include "elapsed.h"
#include "overload.h"
#include <linux/ftdetect.h>

/* May a node in this state (in the voter's view) judge another? */
static inline bool ftd_vote_may_judge(enum ftd_node_state st)
{
	return st == FTD_NODE_ALIVE || st == FTD_NODE_SELF;
}

/*
 * Is a vote against a node at inc, held in st at held_inc, recorded? Only
 * at the incarnation held live.
 */
static inline bool ftd_votes_take(enum ftd_node_state st, u32 held_inc, u32 inc)
{
	return inc == held_inc && (st == FTD_NODE_ALIVE || st == FTD_NODE_SUSPECT);
}

/* The fresh votes that declare a node, with that many judges of it. */
static inline u32 ftd_vote_needed(u32 quorum, u32 judges)
{
	if (judges >= quorum)
		return quorum;
	return judges ? judges : 1;
}

/*
 * The votes against one node that a node holds: who voted, and when. A
 * member's vote counts from its arrival, for a timeout: a transient
 * suspicion by one observer must not add up with another's much later.
 * Our own vote is sent to the judges when first cast, and again every
 * half timeout while we keep casting it (every tick): a judge that lost
 * it, or whose copy expired before the other votes came (an observer
 * reaches the node later as the ring heals past a run of deaths), gets
 * it again. It counts from its last sending.
 */
struct ftd_votes {
	u8 n;
	u32 voter[FTD_MAX_OBSERVERS];
	u64 at_ns[FTD_MAX_OBSERVERS];
	u64 own_since_ns;	/* our own vote stands, unbroken, since */
};

/* Record voter's vote at now (own: ours); true when ours is to be sent. */
static inline bool ftd_votes_record(struct ftd_votes *v, u32 voter, bool own, u64 now,
				    u64 timeout)
{
	bool send;
	u32 i;

	for (i = 0; i < v->n; i++)
		if (v->voter[i] == voter)
			break;
	if (i == v->n) {
		if (v->n == FTD_MAX_OBSERVERS)
			i = 0;	/* more voters than observers: views differ; reuse */
		else
			v->n++;
		v->voter[i] = voter;
		v->at_ns[i] = 0;
	}
	/* Ours is refreshed every half timeout while cast: expired, it begins again. */
	if (own && (!v->at_ns[i] || ftd_elapsed(now, v->at_ns[i]) >= timeout))
		v->own_since_ns = now;
	send = own && (!v->at_ns[i] || ftd_elapsed(now, v->at_ns[i]) >= timeout / 2);
	if (send || !own)
		v->at_ns[i] = now;
	return send;
}

/* The votes that count at now: those of the last timeout. */
static inline u32 ftd_votes_fresh(const struct ftd_votes *v, u64 now, u64 timeout)
{
	u32 i, fresh = 0;

	for (i = 0; i < v->n; i++)
		fresh += v->at_ns[i] && ftd_elapsed(now, v->at_ns[i]) < timeout;
	return fresh;
}

/* Does voter hold a vote that counts at now? */
static inline bool ftd_votes_has(const struct ftd_votes *v, u32 voter, u64 now, u64 timeout)
{
	u32 i;

	for (i = 0; i < v->n; i++)
		if (v->voter[i] == voter)
			return v->at_ns[i] && ftd_elapsed(now, v->at_ns[i]) < timeout;
	return false;
}

/* How long our own vote (we are self) has stood at now; 0 if it does not. */
static inline u64 ftd_votes_own_for(const struct ftd_votes *v, u32 self, u64 now, u64 timeout)
{
	return ftd_votes_has(v, self, now, timeout) ? ftd_elapsed(now, v->own_since_ns) : 0;
}

/*
 * Are the judges that have not voted to be asked now (a PROBE each, at
 * most one per ask interval)? Once our vote has stood a timeout.
 */
static inline bool ftd_votes_ask_judges(const struct ftd_votes *v, u32 self, u64 now,
					u64 timeout)
{
	return ftd_votes_own_for(v, self, now, timeout) >= timeout;
}

/*
 * Is judge (held alive, last heard at heard_ns; 0: never) to be asked now
 * (a PROBE, at most once an ask interval)? While the judges are asked, if
 * it has neither voted nor been heard since our vote began.
 */
static inline bool ftd_votes_judge_asked(const struct ftd_votes *v, u32 self, u32 judge,
					 u64 heard_ns, u64 now, u64 timeout)
{
	return judge != self && ftd_votes_ask_judges(v, self, now, timeout) &&
	       !ftd_votes_has(v, judge, now, timeout) &&
	       !(heard_ns && heard_ns >= v->own_since_ns);
}

/*
 * Does judge (held alive, last heard at heard_ns; 0: never) count toward
 * the votes needed at now? Unless it voted, not once our vote has stood
 * two timeouts (FTD_OVERLOAD_EXCUSED if excused: our tick starved or the
 * machine dropping), with another judge's beside it, without a word from
 * it since our vote began.
 */
static inline bool ftd_votes_judge_counts(const struct ftd_votes *v, u32 self, u32 judge,
					  u64 heard_ns, u64 now, u64 timeout, bool excused)
{
	if (judge == self || ftd_votes_has(v, judge, now, timeout))
		return true;
	if (ftd_votes_own_for(v, self, now, timeout) <
	    (excused ? FTD_OVERLOAD_EXCUSED : 2) * timeout ||
	    ftd_votes_fresh(v, now, timeout) < 2)
		return true;
	return heard_ns && heard_ns >= v->own_since_ns;
}

#endif
