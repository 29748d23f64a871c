/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instance's key ring (proto/keyring.h), published with RCU so that a
 * key changes while the instance runs: the receive path and every sender
 * read it unlocked; a change builds a new ring, publishes it under
 * fn->lock and frees the old one after a grace period.
 */
#ifndef FTD_KEYS_H
#define FTD_KEYS_H

#include "net.h"
#include "proto/keyring.h"

struct ftd_keys {
	struct rcu_head rcu;
	struct ftd_keyring ring;
};

/* The ring of cfg's key and accepted keys; NULL if out of memory. */
struct ftd_keys *ftd_keys_new(const struct ftd_config *cfg);

/* Publish keys (from ftd_keys_new()) and return the ring it replaces. */
struct ftd_keys *ftd_keys_swap(struct ftd_net *fn, struct ftd_keys *keys);

/* Wipe and free a ring once no reader can hold it; NULL-safe. */
void ftd_keys_free(struct ftd_keys *keys);

/* The current ring; under rcu_read_lock() (the receive path holds it). */
static inline const struct ftd_keyring *ftd_keys_get(struct ftd_net *fn)
{
	return &rcu_dereference(fn->keys)->ring;
}

/* The current ring, for a holder of fn->lock (GET_CONFIG). */
static inline const struct ftd_keyring *ftd_keys_locked(struct ftd_net *fn)
{
	return &rcu_dereference_protected(fn->keys, lockdep_is_held(&fn->lock))->ring;
}

#endif
