// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include "routes.h"

/*
 * The same destination, down to an IPv6 address's scope (the flow's oif),
 * from the same rail of ours: a cached route holds its source address.
 */
static bool route_to(const struct ftd_route *r, const union ftd_addr *a, u8 rail_idx)
{
	return r->rail == rail_idx && ftd_addr_equal(&r->addr, a) &&
	       (a->sa.sa_family != AF_INET6 ||
		r->addr.sin6.sin6_scope_id == a->sin6.sin6_scope_id);
}

int ftd_routes_start(struct ftd_net *fn)
{
	BUILD_BUG_ON(FTD_ROUTES > U8_MAX);	/* struct ftd_rail.route */
	lockdep_assert_held(&fn->lock);
	fn->routes = kzalloc(sizeof(*fn->routes), GFP_KERNEL_ACCOUNT);
	WRITE_ONCE(fn->routes_held, 0);
	return fn->routes ? 0 : -ENOMEM;
}

void ftd_routes_stop(struct ftd_net *fn)
{
	int i;

	lockdep_assert_held(&fn->lock);
	if (!fn->routes)
		return;
	for (i = 0; i < FTD_ROUTES; i++)
		dst_cache_destroy(&fn->routes->slot[i].cache);	/* NULL: nothing */
	kfree(fn->routes);
	fn->routes = NULL;
	WRITE_ONCE(fn->routes_held, 0);
}

/* Which slot to take for a new destination (see ftd_routes_get). */
static struct ftd_route *route_pick(struct ftd_routes *routes, u64 tick)
{
	struct ftd_route *r, *unused = NULL, *oldest = NULL;
	int i;

	for (i = 0; i < FTD_ROUTES; i++) {
		r = &routes->slot[i];
		if (r->cache.cache && tick - r->used_tick > FTD_ROUTE_IDLE_TICKS)
			return r;
		if (!r->addr.sa.sa_family) {
			if (!unused)
				unused = r;
		} else if (!oldest || r->used_tick < oldest->used_tick) {
			oldest = r;
		}
	}
	return unused ? unused : oldest;
}

/* A slot for addr from our rail rail_idx. */
static struct ftd_route *route_take(struct ftd_net *fn, const union ftd_addr *addr, u8 rail_idx,
				    u64 tick)
{
	struct ftd_route *r = route_pick(fn->routes, tick);

	if (!r->cache.cache) {
		/* Softirq: no sleeping, and a failure only costs a lookup. */
		if (dst_cache_init(&r->cache, GFP_ATOMIC | __GFP_NOWARN))
			return NULL;
		WRITE_ONCE(fn->routes_held, fn->routes_held + 1);
	} else {
		/* Nobody else uses it: its old routes go now. */
		dst_cache_reset_now(&r->cache);
	}
	r->addr = *addr;
	r->rail = rail_idx;
	return r;
}

/* Free the caches of the nodes no longer sent to (the ring changed). */
static void routes_sweep(struct ftd_net *fn, u64 tick)
{
	struct ftd_route *r;
	int i;

	fn->routes->swept_tick = tick;
	for (i = 0; i < FTD_ROUTES; i++) {
		r = &fn->routes->slot[i];
		if (!r->cache.cache || tick - r->used_tick <= FTD_ROUTE_FREE_TICKS)
			continue;
		dst_cache_destroy(&r->cache);	/* no other user: the timer's own */
		memset(r, 0, sizeof(*r));
		WRITE_ONCE(fn->routes_held, fn->routes_held - 1);
	}
}

struct dst_cache *ftd_routes_get(struct ftd_net *fn, struct ftd_rail *rail, u8 rail_idx)
{
	u64 tick = atomic64_read(&fn->stats.ticks);
	struct ftd_route *r;
	int i;

	if (unlikely(!fn->routes))
		return NULL;
	if (tick - fn->routes->swept_tick > FTD_ROUTE_FREE_TICKS)
		routes_sweep(fn, tick);
	r = rail->route < FTD_ROUTES ? &fn->routes->slot[rail->route] : NULL;
	if (!r || !route_to(r, &rail->addr, rail_idx)) {
		/* A peer replaced (its addresses changed) finds its slot again. */
		for (i = 0, r = NULL; i < FTD_ROUTES && !r; i++)
			if (route_to(&fn->routes->slot[i], &rail->addr, rail_idx))
				r = &fn->routes->slot[i];
		if (!r)
			r = route_take(fn, &rail->addr, rail_idx, tick);
		if (!r)
			return NULL;
		rail->route = r - fn->routes->slot;
	}
	r->used_tick = tick;
	return &r->cache;
}
