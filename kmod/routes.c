// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include "routes.h"

/* The same destination, down to an IPv6 address's scope (the flow's oif). */
static bool route_to(const struct ftd_route *r, const union ftd_addr *a)
{
	return ftd_addr_equal(&r->addr, a) &&
	       (a->sa.sa_family != AF_INET6 ||
		r->addr.sin6.sin6_scope_id == a->sin6.sin6_scope_id);
}

int ftd_routes_start(struct ftd_net *fn)
{
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

/* A slot for addr: unused if one is, else the one used longest ago. */
static struct ftd_route *route_take(struct ftd_net *fn, const union ftd_addr *addr)
{
	struct ftd_route *r, *oldest = NULL;
	int i;

	for (i = 0; i < FTD_ROUTES; i++) {
		r = &fn->routes->slot[i];
		if (!r->addr.sa.sa_family) {
			oldest = r;
			break;
		}
		if (!oldest || r->used_tick < oldest->used_tick)
			oldest = r;
	}
	r = oldest;
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
	return r;
}

struct dst_cache *ftd_routes_get(struct ftd_net *fn, struct ftd_rail *rail)
{
	u64 tick = atomic64_read(&fn->stats.ticks);
	struct ftd_route *r;
	int i;

	if (unlikely(!fn->routes))
		return NULL;
	r = rail->route < FTD_ROUTES ? &fn->routes->slot[rail->route] : NULL;
	if (!r || !route_to(r, &rail->addr)) {
		/* A peer replaced (its addresses changed) finds its slot again. */
		for (i = 0, r = NULL; i < FTD_ROUTES && !r; i++)
			if (route_to(&fn->routes->slot[i], &rail->addr))
				r = &fn->routes->slot[i];
		if (!r)
			r = route_take(fn, &rail->addr);
		if (!r)
			return NULL;
		rail->route = r - fn->routes->slot;
	}
	r->used_tick = tick;
	return &r->cache;
}
