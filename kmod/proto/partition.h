/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Partitions, fail-stop: only a majority declares.
 *
 * A node cannot tell "half of the cluster died" from "I am on the wrong
 * side of a broken switch": either way, half of the members fall silent at
 * once. If both sides declared the other dead, each would carry on as the
 * job (split brain). So deaths that come together are weighed against the
 * membership from before them: a node applies a death only if the members
 * it still holds live stay a strict majority of that membership, or
 * exactly half of it with its lowest node id among them (the tie-break:
 * of two equal halves, the one with the lowest id goes on). Otherwise it
 * is in a minority: it does not apply that death but passes it on (the
 * last straw: the rest of its side counts it too and fences with it, even
 * where none of them is left to declare that node), fences itself (FENCED
 * to its ranks, a higher incarnation, as the lease does, proto/lease.h)
 * and forgets its view, so that it neither declares nor counts the nodes
 * it no longer hears. In the minority it suspects and declares nobody,
 * learns of members only by hearing them itself (not from its side, whose
 * nodes may still hold the other side dead or alive), and stays so until
 * it holds more than half of that membership live again: the heal, when
 * the majority's nodes answer its probes (or an admin restarts it, which
 * makes the members it then hears the new membership).
 *
 * "Deaths that come together": a burst is a run of deaths each within a
 * window of the previous one (four timeouts: the two sides of a cut
 * declare each other within about two); its membership is the count of
 * live members (ourselves included) when its first death came. Members
 * of it that leave cleanly during the burst leave that membership too
 * (not one that joined or came back since). Deaths
 * further apart than the window each start a burst of their own, so a
 * cluster that loses nodes one by one carries on down to its last one,
 * while one that loses a majority at once fences everywhere: that is the
 * price of never splitting, as for any majority rule.
 *
 * A member counts once in a burst: one that dies, comes back (fenced, it
 * rejoins at a higher incarnation) and dies again within the window is one
 * member of the burst's membership, not two. Counted each time, a node
 * declared again and again after a partition healed (three times in
 * 700 ms) made the five other nodes of a 6-node cluster count a minority
 * and fence themselves all at once. The caller keeps, with each member,
 * the burst its death was counted in (ftd_partition_judge()'s counted).
 *
 * Before its count crosses half, a minority applies the other side's
 * deaths like any node (it cannot know yet); those deliveries end at its
 * fence, which ends its ranks too.
 *
 * A heal is judged on a count of the members held live, and that count
 * must come from after the view was forgotten: taken before, on another
 * CPU while this one entered the minority, it still holds the other side
 * live and would end the minority at once (two emulated CPUs: an island's
 * node left its minority the moment it entered it, and declared the
 * majority). So minorities are numbered (lost), the one whose view is
 * forgotten is recorded (forgot), and a count is good for a heal only if
 * it was begun after that record and no minority began since: the caller
 * reads ftd_partition_count_from() first, then counts, then judges.
 */
#ifndef FTD_PROTO_PARTITION_H
#define FTD_PROTO_PARTITION_H

#include "compat.h"
#include "elapsed.h"

struct ftd_partition {
	u64 last_ns;		/* the burst's last death; 0: none yet (read unlocked) */
	u64 begun_ns;		/* its first death: names it in the members' records */
	u32 base;		/* live members when the burst began */
	u32 dead;		/* deaths applied since */
	u32 lowest;		/* the lowest live id then: the tie-break */
	bool lowest_gone;	/* it died in the burst */
	u32 burst;		/* bursts begun: names the current one */
	u32 minority_of;	/* nonzero: in a minority of a membership this large */
	u32 lost;		/* minorities entered */
	u32 forgot;		/* the last of them whose view is forgotten (read unlocked) */
};

enum ftd_partition_verdict {
	FTD_PARTITION_APPLY,	/* a death like any other */
	FTD_PARTITION_HOLD,	/* in a minority: apply nothing */
	FTD_PARTITION_FENCE,	/* this death would leave us in a minority: fence */
};

/* Four timeouts: see above. */
static inline u64 ftd_partition_window(u64 timeout_ns)
{
	return 4 * timeout_ns;
}

/* Safe without the lock too (last_ns is read once): a fast path's hint. */
static inline bool ftd_partition_in_burst(const struct ftd_partition *p, u64 now_ns,
					  u64 timeout_ns)
{
	u64 last = ftd_load_once(p->last_ns);

	return last && ftd_elapsed(now_ns, last) < ftd_partition_window(timeout_ns);
}

/*
 * In a minority, we hold live members again (ourselves included): true if
 * they are more than half of the membership whose majority we lost, and
 * then we are no longer in a minority.
 */
/* Read before counting the live members that a heal is judged on. */
static inline u32 ftd_partition_count_from(const struct ftd_partition *p)
{
	return ftd_load_once(p->forgot);
}

/* The view of the current minority is forgotten: counts begun now may heal it. */
static inline void ftd_partition_forgot(struct ftd_partition *p)
{
	ftd_store_once(p->forgot, p->lost);
}

/*
 * live: the members we hold live, counted after reading from =
 * ftd_partition_count_from().
 */
static inline bool ftd_partition_healed(struct ftd_partition *p, u32 live, u32 from)
{
	if (!p->minority_of || from != p->lost || 2 * live <= p->minority_of)
		return false;
	ftd_store_once(p->minority_of, 0);
	return true;
}

/*
 * We are in a minority of a membership of `members`: a death would leave
 * too few of it live (below), or we reach too few of it (proto/reach.h).
 * True unless we were already.
 */
static inline bool ftd_partition_lost(struct ftd_partition *p, u32 members)
{
	if (p->minority_of || !members)
		return false;
	p->lost++;
	ftd_store_once(p->minority_of, members);
	ftd_store_once(p->last_ns, 0);
	return true;
}

/*
 * Should the death of subject, a member we hold live, be applied at now_ns?
 * live: the members we hold live now (ourselves and subject included),
 * counted after reading from (as for a heal), lowest: the lowest of their
 * ids. counted: the subject's record of the burst its death was last
 * counted in (0: none), kept by the caller with the subject and written
 * here. An APPLY is counted in the burst, unless the subject's death
 * already was (it came back meanwhile: it is applied again, counts
 * nothing and does not prolong the burst); a FENCE puts us in the minority
 * (the caller fences and forgets its view).
 */
static inline enum ftd_partition_verdict
ftd_partition_judge(struct ftd_partition *p, u32 subject, u64 *counted, u32 live, u32 lowest,
		    u32 from, u64 now_ns, u64 timeout_ns)
{
	u32 after;

	if (p->minority_of && !ftd_partition_healed(p, live, from))
		return FTD_PARTITION_HOLD;
	if (!ftd_partition_in_burst(p, now_ns, timeout_ns)) {
		p->base = live;
		p->dead = 0;
		p->burst++;
		p->begun_ns = now_ns ? now_ns : 1;
		p->lowest = lowest;
		p->lowest_gone = false;
	} else if (*counted == p->begun_ns) {
		return FTD_PARTITION_APPLY;
	}
	after = p->base > p->dead + 1 ? p->base - p->dead - 1 : 0;
	if (2 * after > p->base ||
	    (2 * after == p->base && !p->lowest_gone && subject != p->lowest)) {
		ftd_store_once(p->last_ns, now_ns ? now_ns : 1);
		p->dead++;
		p->lowest_gone |= subject == p->lowest;
		*counted = p->begun_ns;
		return FTD_PARTITION_APPLY;
	}
	ftd_partition_lost(p, p->base);
	return FTD_PARTITION_FENCE;
}

/*
 * May another node tell us about a member we do not hold live (never
 * heard, or forgotten at our fence): that it died, or that it lives? Not
 * in a minority, where such news comes from our side of the cut: from
 * nodes that declared the other side before they fenced (held dead here,
 * that member would be told so when the cut heals, and fence although it
 * was in the majority), or that still hold it alive (counted live here, it
 * would end our minority while the cut lasts). In a minority we hold live
 * only the members we hear ourselves.
 */
static inline bool ftd_partition_takes_hearsay(const struct ftd_partition *p)
{
	return !p->minority_of;
}

/*
 * A member we held live left cleanly: it leaves the burst's membership if
 * it was in it, live since before the burst's first death (live_since_ns,
 * on the clock of now_ns; 0: since before we started), and its death was
 * not counted there already (counted, its record as for
 * ftd_partition_judge()). One that joined, or came back, during the burst
 * was never counted in its membership: taken out of it, a node started and
 * stopped while others died made the live half fence.
 */
static inline void ftd_partition_left(struct ftd_partition *p, u64 live_since_ns, u64 counted,
				      u64 now_ns, u64 timeout_ns)
{
	if (ftd_partition_in_burst(p, now_ns, timeout_ns) && live_since_ns < p->begun_ns &&
	    counted != p->begun_ns && p->base > p->dead + 1)
		p->base--;
}

#endif
