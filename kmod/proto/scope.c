// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "scope.h"

static void sift_down(u32 *a, u32 root, u32 n)
{
	u32 child, t;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && a[child + 1] > a[child])
			child++;
		if (a[root] >= a[child])
			return;
		t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

/* Heapsort: O(n log n) whatever order a caller hands us. */
static void sort_ids(u32 *a, u32 n)
{
	u32 i, t;

	for (i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (i = n; i-- > 1;) {
		t = a[0];
		a[0] = a[i];
		a[i] = t;
		sift_down(a, 0, i);
	}
}

u32 ftd_scope_normalize(u32 *nodes, u32 count, u32 self)
{
	u32 i, kept = 0;

	sort_ids(nodes, count);
	for (i = 0; i < count; i++) {
		if (nodes[i] == self || (kept && nodes[kept - 1] == nodes[i]))
			continue;
		nodes[kept++] = nodes[i];
	}
	return kept;
}

bool ftd_scope_next(struct ftd_scope_walk *w, u32 *id)
{
	bool found = false;
	u32 i, c;

	for (i = 0; i < w->n; i++) {
		c = w->cursor[i];
		if (c < w->count[i] && (!found || w->nodes[i][c] < *id)) {
			*id = w->nodes[i][c];
			found = true;
		}
	}
	return found;
}

bool ftd_scope_holds(struct ftd_scope_walk *w, u32 i, u32 id)
{
	u32 c = w->cursor[i];

	if (c >= w->count[i] || w->nodes[i][c] != id)
		return false;
	w->cursor[i]++;
	return true;
}
