// SPDX-License-Identifier: GPL-2.0
#include "reach.h"
#include "fresh.h"
#include "majority.h"
#include "members.h"
#include "proto/detect.h"
#include "proto/elapsed.h"

/*
 * How many of the sample we heard since the check began, and (*held) how
 * many of it we still hold live; asks the others.
 */
static u32 hear_sample(struct ftd_net *fn, const struct ftd_reach *r, u64 timeout, bool ask,
		       u32 *held)
{
	struct ftd_peer *peer;
	u32 heard = 0, i;
	bool got, live;

	*held = 0;
	rcu_read_lock();
	for (i = 0; i < r->asked; i++) {
		peer = ftd_peer_find(fn, r->ids[i]);
		if (!peer) {
			(*held)++;	/* removed from the table: not heard */
			continue;
		}
		spin_lock_bh(&peer->lock);
		got = peer->last_heard_ns >= r->since_ns;
		live = ftd_detect_in_ring(peer->state);
		spin_unlock_bh(&peer->lock);
		if (!live && !got)
			continue;	/* declared meanwhile: proto/reach.h */
		(*held)++;
		if (got)
			heard++;
		else if (ask)
			ftd_fresh_ping(fn, peer, timeout / FTD_REACH_ASKS);
	}
	rcu_read_unlock();
	return heard;
}

bool ftd_reach_tick(struct ftd_net *fn, u64 now_ns, bool starved, bool prompted,
		    bool overloaded)
{
	u64 timeout = READ_ONCE(fn->cfg.timeout_ns);
	struct ftd_reach *r = &fn->reach;
	u32 burst, deaths, base, heard, held, lowest;
	enum ftd_reach_verdict v;
	bool lost;

	if (READ_ONCE(fn->partition.minority_of)) {
		r->since_ns = 0;	/* fenced meanwhile: that check is moot */
		return false;
	}
	/* Nothing due and no check on, as on nearly every tick: no lock. */
	if (!r->since_ns && !prompted &&
	    !ftd_partition_in_burst(&fn->partition, now_ns, timeout))
		return false;
	spin_lock_bh(&fn->partition_lock);
	burst = fn->partition.burst;
	deaths = ftd_partition_in_burst(&fn->partition, now_ns, timeout) ? fn->partition.dead : 0;
	base = fn->partition.base;
	spin_unlock_bh(&fn->partition_lock);
	if (!r->since_ns) {
		if (starved ||
		    !ftd_reach_due(r, burst, deaths, READ_ONCE(fn->cfg.observers), prompted))
			return false;
		/* The membership: the burst's, from before its deaths, if one is on. */
		ftd_reach_start(r, ftd_members_sample(fn, r->ids, FTD_REACH_SAMPLE),
				deaths ? base : ftd_members_live(fn, &lowest), now_ns);
	}
	heard = hear_sample(fn, r, timeout, ftd_elapsed(now_ns, r->since_ns) < timeout, &held);
	/* Answers may be among the frames dropped or waiting: wait, within the limit. */
	v = ftd_reach_judge(r, heard, held, now_ns, timeout,
			    starved || (overloaded &&
					ftd_overload_excuses(ftd_elapsed(now_ns, r->since_ns),
							     timeout)));
	if (v == FTD_REACH_AGAIN)	/* a fresh sample, now */
		ftd_reach_start(r, ftd_members_sample(fn, r->ids, FTD_REACH_SAMPLE), r->members,
				now_ns);
	if (v != FTD_REACH_FENCE)
		return false;
	spin_lock_bh(&fn->partition_lock);
	lost = ftd_partition_lost(&fn->partition, r->members);
	spin_unlock_bh(&fn->partition_lock);
	if (lost && r->deaths)
		pr_info("node %u heard %u of the %u members it asked within a timeout, twice running, %u deaths into a burst: cut off from the majority of %u members\n",
			fn->cfg.node, heard, r->asked, r->deaths, r->members);
	else if (lost)
		pr_info("node %u heard %u of the %u members it asked within a timeout, twice running, when a predecessor came back as a new incarnation or a silence behind it had no end it could find: cut off from the majority of %u members\n",
			fn->cfg.node, heard, r->asked, r->members);
	return lost;
}

void ftd_reach_reset(struct ftd_net *fn)
{
	fn->reach = (struct ftd_reach){};
}
