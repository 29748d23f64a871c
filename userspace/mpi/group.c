// SPDX-License-Identifier: LGPL-2.1 OR MIT
/* Which events concern which ranks of an attached communicator: see group.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "group.h"
#include "proto/scope.h"

static int id_cmp(const struct ftd_member *a, const struct ftd_member *b)
{
	if (a->job != b->job)
		return a->job < b->job ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return 0;
}

/* Insertion sort of the index: attach-time only, and mostly sorted already. */
static void sort_index(struct ftd_group *g)
{
	int i, j, r;

	for (i = 1; i < g->nby_id; i++) {
		r = g->by_id[i];
		for (j = i; j > 0 && id_cmp(&g->m[g->by_id[j - 1]], &g->m[r]) > 0; j--)
			g->by_id[j] = g->by_id[j - 1];
		g->by_id[j] = r;
	}
}

int ftd_group_init(struct ftd_group *g, int size, int self, const struct ftd_member *members,
		   uint32_t uid)
{
	int i;

	memset(g, 0, sizeof(*g));
	if (size <= 0 || self < 0 || self >= size)
		return -EINVAL;
	g->m = calloc(size, sizeof(*g->m));
	g->by_id = calloc(size, sizeof(*g->by_id));
	if (!g->m || !g->by_id) {
		ftd_group_free(g);
		return -ENOMEM;
	}
	memcpy(g->m, members, size * sizeof(*g->m));
	g->uid = uid;
	g->size = size;
	g->self = self;
	for (i = 0; i < size; i++)
		if (g->m[i].state != FTD_MEMBER_UNMONITORED)
			g->by_id[g->nby_id++] = i;
	sort_index(g);
	for (i = 1; i < g->nby_id; i++)
		if (!id_cmp(&g->m[g->by_id[i - 1]], &g->m[g->by_id[i]])) {
			ftd_group_free(g);
			return -ENOTUNIQ;
		}
	return 0;
}

void ftd_group_free(struct ftd_group *g)
{
	free(g->m);
	free(g->by_id);
	memset(g, 0, sizeof(*g));
}

int ftd_group_find(const struct ftd_group *g, uint32_t job, uint32_t rank)
{
	struct ftd_member key = { .job = job, .rank = rank };
	int lo = 0, hi = g->nby_id - 1, mid, c;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		c = id_cmp(&g->m[g->by_id[mid]], &key);
		if (!c)
			return g->by_id[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The member registered as the event's (job, rank), if ALIVE and not us. */
static int alive_member(const struct ftd_group *g, const struct ftd_event *ev)
{
	int r = ftd_group_find(g, ev->job, ev->rank);

	/* Another user's rank with the same numbers is not a member. */
	if (ev->uid != g->uid)
		return -1;
	if (r < 0 || r == g->self || g->m[r].state != FTD_MEMBER_ALIVE)
		return -1;
	return r;
}

enum ftd_verdict ftd_group_apply(struct ftd_group *g, const struct ftd_event *ev, int *ranks,
				 int *n)
{
	int r;

	*n = 0;
	switch (ev->type) {
	case FTD_EV_NODE_DEAD:
		for (r = 0; r < g->size; r++) {
			/* a death of an incarnation older than the one it was attached at is not its own */
			if (r == g->self || g->m[r].node != ev->node ||
			    g->m[r].state != FTD_MEMBER_ALIVE || g->m[r].incarnation > ev->incarnation)
				continue;
			g->m[r].state = FTD_MEMBER_FAILED;
			ranks[(*n)++] = r;
		}
		return *n ? FTD_VERDICT_FAILED : FTD_VERDICT_NONE;
	case FTD_EV_RANKS_DEAD:
	case FTD_EV_PROC_DEAD:
		r = alive_member(g, ev);
		if (r < 0)
			return FTD_VERDICT_NONE;
		g->m[r].state = FTD_MEMBER_FAILED;
		ranks[(*n)++] = r;
		return FTD_VERDICT_FAILED;
	case FTD_EV_PROC_EXIT:
		r = alive_member(g, ev);
		if (r < 0)
			return FTD_VERDICT_NONE;
		g->m[r].state = FTD_MEMBER_EXITED;
		ranks[(*n)++] = r;
		return FTD_VERDICT_EXITED;
	case FTD_EV_FENCED:
		ranks[(*n)++] = g->self;
		return FTD_VERDICT_FENCED;
	case FTD_EV_OVERFLOW:
		return FTD_VERDICT_LOST;
	default:
		return FTD_VERDICT_NONE;
	}
}

int ftd_group_scope_merge(const struct ftd_group *g, uint32_t **nodes, uint32_t *n)
{
	uint32_t *set = realloc(*nodes, ((size_t)*n + g->size) * sizeof(*set));
	uint32_t all = *n;
	int r;

	if (!set)
		return -ENOMEM;
	for (r = 0; r < g->size; r++)
		if (g->m[r].state != FTD_MEMBER_UNMONITORED && g->m[r].node != FTD_NODE_NONE)
			set[all++] = g->m[r].node;
	/* The module's own rule: sorted, once each (no id is FTD_NODE_NONE). */
	*nodes = set;
	*n = ftd_scope_normalize(set, all, FTD_NODE_NONE);
	return 0;
}

bool ftd_group_node_gone(const struct ftd_group *g, int r, uint8_t state, uint32_t incarnation)
{
	const struct ftd_member *m = &g->m[r];

	if (incarnation > m->incarnation)
		return true;
	return incarnation == m->incarnation && state == FTD_NODE_DEAD;
}

bool ftd_group_is_reporter(const struct ftd_group *g, int reporters)
{
	int r, before = 0;

	if (reporters <= 0)
		return true;
	for (r = 0; r < g->self; r++)
		if (g->m[r].state == FTD_MEMBER_ALIVE && ++before >= reporters)
			return false;
	return true;
}

int ftd_group_failed(const struct ftd_group *g, int *ranks, int max)
{
	int r, n = 0;

	for (r = 0; r < g->size; r++) {
		if (g->m[r].state != FTD_MEMBER_FAILED)
			continue;
		if (n < max)
			ranks[n] = r;
		n++;
	}
	return n;
}
