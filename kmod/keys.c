// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include "keys.h"

struct ftd_keys *ftd_keys_new(const struct ftd_config *cfg)
{
	struct ftd_keys *keys = kzalloc(sizeof(*keys), GFP_KERNEL_ACCOUNT);

	if (keys)
		ftd_keyring_init(&keys->ring, cfg->key, &cfg->accepted[0][0], cfg->n_accepted);
	return keys;
}

struct ftd_keys *ftd_keys_swap(struct ftd_net *fn, struct ftd_keys *keys)
{
	return rcu_replace_pointer(fn->keys, keys, lockdep_is_held(&fn->lock));
}

/* Keys are secrets: wiped, not just freed (as WireGuard frees its keys). */
static void keys_free_rcu(struct rcu_head *rcu)
{
	kfree_sensitive(container_of(rcu, struct ftd_keys, rcu));
}

void ftd_keys_free(struct ftd_keys *keys)
{
	if (keys)
		call_rcu(&keys->rcu, keys_free_rcu);
}
