// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "ring.h"

static void tree_add(struct ftd_ring *r, u32 pos, int delta)
{
	u32 i;

	for (i = pos + 1; i <= r->n; i += i & -i)
		r->tree[i] += delta;
}

/* Live members in positions [0, pos]. */
static u32 live_upto(const struct ftd_ring *r, u32 pos)
{
	u32 i, sum = 0;

	for (i = pos + 1; i; i -= i & -i)
		sum += r->tree[i];
	return sum;
}

/* Position of the rank-th live member (1-based rank <= r->live). */
static u32 live_select(const struct ftd_ring *r, u32 rank)
{
	u32 pos = 0, step = 1;

	while (step <= r->n / 2)
		step <<= 1;
	for (; step; step >>= 1) {
		if (pos + step <= r->n && r->tree[pos + step] < rank) {
			pos += step;
			rank -= r->tree[pos];
		}
	}
	return pos;	/* 1-based index pos + 1, i.e. position pos */
}

void ftd_ring_init(struct ftd_ring *r, u32 n, void *mem)
{
	u32 i, j;

	r->n = n;
	r->live = n;
	r->tree = mem;
	r->is_live = (u8 *)mem + (size_t)(n + 1) * sizeof(u32);
	memset(r->tree, 0, (size_t)(n + 1) * sizeof(u32));
	/* Linear-time build of a tree of all ones. */
	for (i = 1; i <= n; i++) {
		r->tree[i] += 1;
		j = i + (i & -i);
		if (j <= n)
			r->tree[j] += r->tree[i];
	}
	memset(r->is_live, 1, n);
}

void ftd_ring_set_live(struct ftd_ring *r, u32 pos, bool live)
{
	if (pos >= r->n || r->is_live[pos] == live)
		return;
	r->is_live[pos] = live;
	tree_add(r, pos, live ? 1 : -1);
	r->live += live ? 1 : -1;
}

/* The live member at live distance d (>= 1, may wrap) after pos. */
static u32 live_after(const struct ftd_ring *r, u32 pos, u32 d)
{
	u32 base = live_upto(r, pos);	/* rank of pos, or of the last live before it */

	return live_select(r, (u32)(((u64)base + d - 1) % r->live) + 1);
}

/* The live member at live distance d (>= 1) before pos. */
static u32 live_before(const struct ftd_ring *r, u32 pos, u32 d)
{
	/* rank of the first live member at or after pos, minus one */
	u32 base = pos ? live_upto(r, pos - 1) : 0;

	return live_select(r, (u32)(((u64)base + r->live - (d % r->live)) % r->live) + 1);
}

static u32 others_live(const struct ftd_ring *r, u32 pos)
{
	return r->live - (pos < r->n && r->is_live[pos] ? 1 : 0);
}

u32 ftd_ring_successors(const struct ftd_ring *r, u32 pos, u32 k, u32 *out)
{
	u32 i, m = others_live(r, pos);

	if (k > m)
		k = m;
	for (i = 0; i < k; i++)
		out[i] = live_after(r, pos, i + 1);
	return k;
}

u32 ftd_ring_predecessors(const struct ftd_ring *r, u32 pos, u32 k, u32 *out)
{
	u32 i, m = others_live(r, pos);

	if (k > m)
		k = m;
	for (i = 0; i < k; i++)
		out[i] = live_before(r, pos, i + 1);
	return k;
}

u32 ftd_ring_fingers(const struct ftd_ring *r, u32 pos, u32 *out, u32 max)
{
	u32 m = others_live(r, pos), n = 0;
	u64 d;

	for (d = 1; d <= m && n < max; d <<= 1)
		out[n++] = live_after(r, pos, (u32)d);
	return n;
}

u32 ftd_ring_random_live(const struct ftd_ring *r, u32 j)
{
	return live_select(r, j + 1);
}

static u32 gcd(u32 a, u32 b)
{
	while (b) {
		u32 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * About live / phi (40503 / 2^16), made coprime to live: successive asks
 * land far apart (a run of silent members is left after a step or two),
 * and live steps still meet every live member once.
 */
static u32 sweep_stride(u32 live)
{
	u32 s = (u32)(((u64)live * 40503) >> 16);

	if (!s)
		s = 1;
	while (gcd(s, live) != 1)
		s++;
	return s;
}

u32 ftd_ring_sweep_live(const struct ftd_ring *r, u32 self, u32 *cursor, u32 max, u32 *out)
{
	u32 n = 0, i, pos, j, stride;

	if (!r->live)
		return 0;
	stride = sweep_stride(r->live);
	for (i = 0; n < max && i <= max && i < r->live; i++) {
		j = *cursor % r->live;
		pos = ftd_ring_random_live(r, j);
		*cursor = j < r->live - stride ? j + stride : j - (r->live - stride);
		if (pos != self)
			out[n++] = pos;
	}
	return n;
}

u32 ftd_ring_sample_live(const struct ftd_ring *r, u32 self, const u32 *rand, u32 m, u32 *out)
{
	u32 others = others_live(r, self), i, j, t, n = 0;

	if (m > others)
		m = others;
	/* out holds the live distances chosen so far, then their positions. */
	for (j = others - m + 1; j <= others; j++) {
		t = 1 + rand[n] % j;
		for (i = 0; i < n && out[i] != t; i++)
			;
		out[n] = i < n ? j : t;	/* t taken already: j, new in this round */
		n++;
	}
	for (i = 0; i < n; i++)
		out[i] = live_after(r, self, out[i]);
	return n;
}

bool ftd_ring_observes(const struct ftd_ring *r, u32 observer, u32 target, u32 k)
{
	u32 succ[FTD_MAX_OBSERVERS], i, n;

	if (k > FTD_MAX_OBSERVERS)
		k = FTD_MAX_OBSERVERS;
	n = ftd_ring_successors(r, target, k, succ);
	for (i = 0; i < n; i++)
		if (succ[i] == observer)
			return true;
	return false;
}
