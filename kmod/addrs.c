// SPDX-License-Identifier: GPL-2.0
#include <linux/jhash.h>
#include "addrs.h"

static u32 addr_hash(const union ftd_addr *a, u32 seed)
{
	if (a->sa.sa_family == AF_INET)
		return jhash_1word((__force u32)a->sin.sin_addr.s_addr, seed ^ AF_INET);
	return jhash2((const u32 *)&a->sin6.sin6_addr, 4, seed ^ AF_INET6);
}

static u32 key_hash(const void *key, u32 len, u32 seed)
{
	return addr_hash(key, seed);
}

static u32 rail_hash(const void *rail, u32 len, u32 seed)
{
	return addr_hash(&((const struct ftd_rail *)rail)->addr, seed);
}

static int rail_cmp(struct rhashtable_compare_arg *arg, const void *rail)
{
	return !ftd_addr_equal(arg->key, &((const struct ftd_rail *)rail)->addr);
}

static const struct rhashtable_params addrs_params = {
	.head_offset = offsetof(struct ftd_rail, addr_node),
	.hashfn = key_hash,
	.obj_hashfn = rail_hash,
	.obj_cmpfn = rail_cmp,
	.automatic_shrinking = true,
};

int ftd_addrs_init(struct ftd_net *fn)
{
	return rhashtable_init(&fn->addrs, &addrs_params);
}

void ftd_addrs_free(struct ftd_net *fn)
{
	WARN_ON(atomic_read(&fn->addrs.nelems));
	rhashtable_destroy(&fn->addrs);
}

u32 ftd_addrs_owner(struct ftd_net *fn, const union ftd_addr *a)
{
	struct ftd_rail *rail;

	lockdep_assert_held(&fn->lock);
	rail = rhashtable_lookup_fast(&fn->addrs, a, addrs_params);
	return rail ? rail->node : FTD_NODE_NONE;
}

int ftd_addrs_add(struct ftd_net *fn, struct ftd_peer *peer)
{
	int i, ret;

	lockdep_assert_held(&fn->lock);
	for (i = 0; i < peer->nrails; i++) {
		ret = rhashtable_insert_fast(&fn->addrs, &peer->rails[i].addr_node, addrs_params);
		if (ret) {
			while (i--)
				rhashtable_remove_fast(&fn->addrs, &peer->rails[i].addr_node,
						       addrs_params);
			return ret;
		}
	}
	return 0;
}

void ftd_addrs_del(struct ftd_net *fn, struct ftd_peer *peer)
{
	int i;

	lockdep_assert_held(&fn->lock);
	for (i = 0; i < peer->nrails; i++)
		WARN_ON(rhashtable_remove_fast(&fn->addrs, &peer->rails[i].addr_node,
					       addrs_params));
}
