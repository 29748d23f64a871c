// SPDX-License-Identifier: GPL-2.0-only
#include "sim/view.h"
#include "sim/mem.h"

static size_t known_bytes(const struct sim_view *v)
{
	return (size_t)v->n * v->words * sizeof(u64);
}

int sim_view_init(struct sim_view *v, u32 n, u32 cap, u32 k)
{
	u32 i;

	memset(v, 0, sizeof(*v));
	v->n = n;
	v->k = k;
	v->epoch = 1;
	v->words = (cap + 63) / 64;
	v->cap = v->words * 64;
	v->ring_mem = sim_zalloc(ftd_ring_mem_size(n));
	v->items = sim_zalloc(v->cap * sizeof(*v->items));
	v->known = sim_zalloc(known_bytes(v));
	v->ref = sim_zalloc(v->words * sizeof(u64));
	v->node_items = sim_zalloc(v->words * sizeof(u64));
	v->item_of_node = sim_zalloc((size_t)n * sizeof(*v->item_of_node));
	v->dead_held = sim_zalloc((size_t)n * sizeof(*v->dead_held));
	v->flipped = sim_zalloc(v->cap * sizeof(*v->flipped));
	v->cache_epoch = sim_zalloc((size_t)n * sizeof(*v->cache_epoch));
	v->cache = sim_zalloc((size_t)n * 2 * k * sizeof(*v->cache));
	v->cache_n = sim_zalloc((size_t)n * 2);
	if (!v->ring_mem || !v->items || !v->known || !v->ref || !v->node_items ||
	    !v->item_of_node || !v->dead_held || !v->flipped || !v->cache_epoch || !v->cache || !v->cache_n) {
		sim_view_free(v);
		return -1;
	}
	ftd_ring_init(&v->ring, n, v->ring_mem);
	for (i = 0; i < n; i++)
		v->item_of_node[i] = -1;
	return 0;
}

void sim_view_free(struct sim_view *v)
{
	sim_release(v->ring_mem, ftd_ring_mem_size(v->n));
	sim_release(v->items, v->cap * sizeof(*v->items));
	sim_release(v->known, known_bytes(v));
	sim_release(v->ref, v->words * sizeof(u64));
	sim_release(v->node_items, v->words * sizeof(u64));
	sim_release(v->item_of_node, (size_t)v->n * sizeof(*v->item_of_node));
	sim_release(v->dead_held, (size_t)v->n * sizeof(*v->dead_held));
	sim_release(v->flipped, v->cap * sizeof(*v->flipped));
	sim_release(v->cache_epoch, (size_t)v->n * sizeof(*v->cache_epoch));
	sim_release(v->cache, (size_t)v->n * 2 * v->k * sizeof(*v->cache));
	sim_release(v->cache_n, (size_t)v->n * 2);
	memset(v, 0, sizeof(*v));
}

static int32_t new_item(struct sim_view *v, u32 node, u8 kind)
{
	struct sim_item *it;

	if (v->n_items == v->cap)
		return -1;
	it = &v->items[v->n_items];
	memset(it, 0, sizeof(*it));
	it->node = node;
	it->kind = kind;
	return v->n_items++;
}

int32_t sim_view_node_item(struct sim_view *v, u32 node)
{
	int32_t i = v->item_of_node[node];

	if (i >= 0)
		return i;
	i = new_item(v, node, SIM_ITEM_NODE_DEAD);
	if (i >= 0) {
		v->item_of_node[node] = i;
		v->node_items[i / 64] |= 1ULL << (i % 64);
	}
	return i;
}

int32_t sim_view_proc_item(struct sim_view *v, u32 node, u32 job, u32 rank, u32 regid)
{
	struct sim_item *it;
	u32 i;
	int32_t r;

	for (i = 0; i < v->n_items; i++) {
		it = &v->items[i];
		if (it->kind == SIM_ITEM_PROC_DEAD && it->node == node && it->job == job &&
		    it->rank == rank && it->regid == regid)
			return i;
	}
	r = new_item(v, node, SIM_ITEM_PROC_DEAD);
	if (r >= 0) {
		v->items[r].job = job;
		v->items[r].rank = rank;
		v->items[r].regid = regid;
	}
	return r;
}

void sim_view_learn(struct sim_view *v, u32 node, u32 item)
{
	struct sim_item *it = &v->items[item];
	u64 bit = 1ULL << (item % 64);

	v->known[(size_t)node * v->words + item / 64] |= bit;
	it->knowers++;
	if (it->kind == SIM_ITEM_NODE_DEAD) {
		v->cache_epoch[node] = 0;	/* its view changed */
		v->dead_held[node]++;
	}
	/* Once most nodes hold it dead, the shared ring does too. */
	if (it->kind == SIM_ITEM_NODE_DEAD && !(v->ref[item / 64] & bit) &&
	    (u64)it->knowers * 2 > v->n) {
		v->ref[item / 64] |= bit;
		ftd_ring_set_live(&v->ring, it->node, false);
		v->epoch++;	/* every cached view may have changed */
	}
}

/* Flip the shared ring to node's knowledge; returns how many items differ. */
static u32 enter(struct sim_view *v, u32 node)
{
	const u64 *mine = &v->known[(size_t)node * v->words];
	u32 w, n = 0, i;
	u64 d;

	for (w = 0; w < v->words; w++) {
		d = (mine[w] ^ v->ref[w]) & v->node_items[w];
		while (d) {
			i = w * 64 + (u32)__builtin_ctzll(d);
			d &= d - 1;
			ftd_ring_set_live(&v->ring, v->items[i].node, !(mine[w] >> (i % 64) & 1));
			v->flipped[n++] = i;
		}
	}
	v->flips += n;
	return n;
}

static void leave(struct sim_view *v, u32 n)
{
	u32 i, it;

	for (i = 0; i < n; i++) {
		it = v->flipped[i];
		ftd_ring_set_live(&v->ring, v->items[it].node, !(v->ref[it / 64] >> (it % 64) & 1));
	}
}

static void fill_cache(struct sim_view *v, u32 node)
{
	u32 *c = &v->cache[(size_t)node * 2 * v->k], f = enter(v, node);

	v->cache_n[2 * node] = ftd_ring_successors(&v->ring, node, v->k, c);
	v->cache_n[2 * node + 1] = ftd_ring_predecessors(&v->ring, node, v->k, c + v->k);
	leave(v, f);
	v->cache_epoch[node] = v->epoch;
}

static u32 cached(struct sim_view *v, u32 node, u32 which, u32 *out)
{
	u32 n;

	if (v->cache_epoch[node] != v->epoch)
		fill_cache(v, node);
	n = v->cache_n[2 * node + which];
	memcpy(out, &v->cache[((size_t)node * 2 + which) * v->k], n * sizeof(*out));
	return n;
}

u32 sim_view_successors(struct sim_view *v, u32 node, u32 *out)
{
	return cached(v, node, 0, out);
}

u32 sim_view_predecessors(struct sim_view *v, u32 node, u32 *out)
{
	return cached(v, node, 1, out);
}

u32 sim_view_predecessors_of(struct sim_view *v, u32 node, u32 pos, u32 *out)
{
	u32 f = enter(v, node), r = ftd_ring_predecessors(&v->ring, pos, v->k, out);

	leave(v, f);
	return r;
}

u32 sim_view_successors_of(struct sim_view *v, u32 node, u32 pos, u32 *out)
{
	u32 f = enter(v, node), r = ftd_ring_successors(&v->ring, pos, v->k, out);

	leave(v, f);
	return r;
}

/*
 * Without flipping the ring: the partition rule asks at every death a
 * node applies, and a flip per death it holds and the shared ring does
 * not made a rack of 1,000 at 10,000 nodes nine times slower.
 */
u32 sim_view_live(struct sim_view *v, u32 node)
{
	return v->n - v->dead_held[node];
}

u32 sim_view_live_lowest(struct sim_view *v, u32 node, u32 *lowest)
{
	u32 pos = 0;

	while (pos + 1 < v->n && sim_view_holds_dead(v, node, pos))
		pos++;
	*lowest = pos;
	return sim_view_live(v, node);
}

u32 sim_view_sweep(struct sim_view *v, u32 node, u32 *cursor, u32 max, u32 *out)
{
	u32 f = enter(v, node), r = ftd_ring_sweep_live(&v->ring, node, cursor, max, out);

	leave(v, f);
	return r;
}

u32 sim_view_sample(struct sim_view *v, u32 node, const u32 *rand, u32 m, u32 *out)
{
	u32 f = enter(v, node), r = ftd_ring_sample_live(&v->ring, node, rand, m, out);

	leave(v, f);
	return r;
}

u32 sim_view_predecessors_far(struct sim_view *v, u32 node, u32 max, u32 *out)
{
	u32 f = enter(v, node), r = ftd_ring_predecessors(&v->ring, node, max, out);

	leave(v, f);
	return r;
}

u32 sim_view_fingers(struct sim_view *v, u32 node, u32 *out, u32 max)
{
	u32 f = enter(v, node), r = ftd_ring_fingers(&v->ring, node, out, max);

	leave(v, f);
	return r;
}

u32 sim_view_span(struct sim_view *v, u32 node, u32 from, u32 end, struct ftd_span_share *out,
		  u32 max)
{
	u32 f = enter(v, node), r = ftd_span_split(&v->ring, from, end, out, max);

	leave(v, f);
	return r;
}
