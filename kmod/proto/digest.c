// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "digest.h"

/* splitmix64's finalizer: neighbouring ids and incarnations spread apart. */
static u64 mix(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

void ftd_digest_add(struct ftd_digest *d, u32 id, u32 inc, enum ftd_node_state state)
{
	u64 class;

	switch (state) {
	case FTD_NODE_SELF:
	case FTD_NODE_ALIVE:
	case FTD_NODE_SUSPECT:
		class = 1;
		break;
	case FTD_NODE_DEAD:
		class = 2;
		break;
	case FTD_NODE_LEFT:
		class = 3;
		break;
	default:
		return;
	}
	d->sum += mix(((u64)id << 32 | inc) ^ mix(class));
	d->nodes++;
}

u64 ftd_digest_rank_word(u32 regid)
{
	return mix(regid ^ 0x7261e4b51d3c9f08ULL);
}

void ftd_digest_add_ranks(struct ftd_digest *d, u32 id, u32 inc, u64 live_sum)
{
	/* An odd factor per (node, incarnation): a product stays linear in the sum. */
	d->sum += (mix(((u64)id << 32 | inc) ^ 0x52414e4b53ULL) | 1) * live_sum;
}

void ftd_digest_track(struct ftd_digest_track *t, const struct ftd_digest *now_d, u64 now_ns)
{
	if (t->changed_ns && ftd_digest_equal(&t->last, now_d))
		return;
	t->last = *now_d;
	t->changed_ns = now_ns ? now_ns : 1;
}

u64 ftd_digest_every(u64 timeout_ns, u32 rnd)
{
	u64 base = 4 * timeout_ns;

	if (base < 1000000000ULL)
		base = 1000000000ULL;
	/* base * [0.75, 1.25) */
	return base - base / 4 + (base / 2) * (rnd & 0xffff) / 0x10000;
}
