// SPDX-License-Identifier: GPL-2.0
#include "majority.h"
#include "members.h"
#include "peer.h"

enum ftd_partition_verdict ftd_majority_judge(struct ftd_net *fn, struct ftd_peer *subject,
					     u64 now_ns)
{
	enum ftd_partition_verdict v;
	u32 live, lowest, from;

	lockdep_assert_held(&subject->lock);
	from = ftd_partition_count_from(&fn->partition);
	smp_rmb();	/* the count after the record that the view was forgotten */
	live = ftd_members_live(fn, &lowest);
	spin_lock_bh(&fn->partition_lock);
	v = ftd_partition_judge(&fn->partition, subject->id, &subject->burst_counted_ns, live,
				lowest, from, now_ns,
				READ_ONCE(fn->cfg.timeout_ns));
	spin_unlock_bh(&fn->partition_lock);
	return v;
}

bool ftd_majority_takes_hearsay(struct ftd_net *fn)
{
	bool takes;

	spin_lock_bh(&fn->partition_lock);
	takes = ftd_partition_takes_hearsay(&fn->partition);
	spin_unlock_bh(&fn->partition_lock);
	return takes;
}

void ftd_majority_tick(struct ftd_net *fn)
{
	u32 live, lowest, of, from;
	bool healed;

	if (!READ_ONCE(fn->partition.minority_of))
		return;
	from = ftd_partition_count_from(&fn->partition);
	smp_rmb();	/* as in ftd_majority_judge */
	live = ftd_members_live(fn, &lowest);
	spin_lock_bh(&fn->partition_lock);
	of = fn->partition.minority_of;
	healed = ftd_partition_healed(&fn->partition, live, from);
	spin_unlock_bh(&fn->partition_lock);
	if (healed)
		pr_info("node %u holds %u of the %u members live again: no longer in a minority\n",
			fn->cfg.node, live, of);
}

void ftd_majority_left(struct ftd_net *fn, struct ftd_peer *peer, u64 now_ns)
{
	lockdep_assert_held(&peer->lock);
	spin_lock_bh(&fn->partition_lock);
	ftd_partition_left(&fn->partition, READ_ONCE(peer->live_since_ns), peer->burst_counted_ns,
			   now_ns, READ_ONCE(fn->cfg.timeout_ns));
	spin_unlock_bh(&fn->partition_lock);
}

void ftd_majority_forgot(struct ftd_net *fn)
{
	spin_lock_bh(&fn->partition_lock);
	ftd_partition_forgot(&fn->partition);
	spin_unlock_bh(&fn->partition_lock);
}

void ftd_majority_reset(struct ftd_net *fn)
{
	spin_lock_bh(&fn->partition_lock);
	fn->partition = (struct ftd_partition){};
	spin_unlock_bh(&fn->partition_lock);
}

u32 ftd_majority_minority_of(struct ftd_net *fn)
{
	u32 of;

	spin_lock_bh(&fn->partition_lock);
	of = fn->partition.minority_of;
	spin_unlock_bh(&fn->partition_lock);
	return of;
}
