// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include "sim/evq.h"
#include "sim/mem.h"

#define WHEEL_BUCKETS	4096	/* a power of two */
#define MAX_COUNT_WIDTH	12	/* counting sort up to 4096 ns buckets, qsort above */
#define KEEP_BUCKET	256	/* an emptied bucket keeps at most this much room */

static const u64 *sort_phase;

static int by_phase(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	if (sort_phase[x] != sort_phase[y])
		return sort_phase[x] < sort_phase[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static inline bool before(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->t < b->t || (a->t == b->t && (int32_t)(a->order - b->order) < 0);
}

static int by_time(const void *a, const void *b)
{
	return before(a, b) ? -1 : before(b, a);
}

int sim_evq_init(struct sim_evq *q, u32 n, const u64 *phase, u64 period, u64 span)
{
	u32 i;

	memset(q, 0, sizeof(*q));
	q->n = n;
	q->period = period;
	q->nb = WHEEL_BUCKETS;
	/* The wheel spans at least 4 x span: most frames land in it. */
	while (((u64)q->nb << q->wb) < 4 * span && q->wb < 40)
		q->wb++;
	q->who = sim_zalloc((size_t)n * sizeof(*q->who));
	q->phase = sim_zalloc((size_t)n * sizeof(*q->phase));
	q->b = sim_zalloc(q->nb * sizeof(*q->b));
	if (q->wb <= MAX_COUNT_WIDTH)
		q->count = sim_zalloc(((1U << q->wb) + 1) * sizeof(*q->count));
	if (!q->who || !q->phase || !q->b || (q->wb <= MAX_COUNT_WIDTH && !q->count)) {
		sim_evq_free(q);
		return -1;
	}
	for (i = 0; i < n; i++)
		q->who[i] = i;
	sort_phase = phase;
	qsort(q->who, n, sizeof(*q->who), by_phase);
	for (i = 0; i < n; i++)
		q->phase[i] = phase[q->who[i]];
	return 0;
}

void sim_evq_free(struct sim_evq *q)
{
	u32 i;

	sim_release(q->who, (size_t)q->n * sizeof(*q->who));
	sim_release(q->phase, (size_t)q->n * sizeof(*q->phase));
	for (i = 0; q->b && i < q->nb; i++)
		sim_release(q->b[i].e, q->b[i].cap * sizeof(*q->b[i].e));
	sim_release(q->b, q->nb * sizeof(*q->b));
	sim_release(q->tmp, q->tmp_cap * sizeof(*q->tmp));
	if (q->count)
		sim_release(q->count, ((1U << q->wb) + 1) * sizeof(*q->count));
	sim_release(q->heap, q->cap * sizeof(*q->heap));
	sim_release(q->msgs, q->n_msgs * sizeof(*q->msgs));
	sim_release(q->free_msgs, q->n_msgs * sizeof(*q->free_msgs));
	memset(q, 0, sizeof(*q));
}

/* A slot for a frame's contents. */
static int64_t msg_alloc(struct sim_evq *q)
{
	size_t n = q->n_msgs ? 2 * q->n_msgs : 1024, i;
	struct sim_msg *m;
	u32 *fl;

	if (q->n_free)
		return q->free_msgs[--q->n_free];
	m = sim_realloc(q->msgs, q->n_msgs * sizeof(*m), n * sizeof(*m));
	if (!m)
		return -1;
	q->msgs = m;
	fl = sim_realloc(q->free_msgs, q->n_msgs * sizeof(*fl), n * sizeof(*fl));
	if (!fl)
		return -1;	/* n_msgs unchanged: the larger msgs[] is just unused */
	q->free_msgs = fl;
	for (i = n; i > q->n_msgs; i--)
		q->free_msgs[q->n_free++] = i - 1;
	q->n_msgs = n;
	return q->free_msgs[--q->n_free];
}

static int heap_push(struct sim_evq *q, const struct sim_ev *ev)
{
	size_t i, parent;

	if (q->len == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 64;
		struct sim_ev *h = sim_realloc(q->heap, q->cap * sizeof(*h), cap * sizeof(*h));

		if (!h)
			return -1;
		q->heap = h;
		q->cap = cap;
	}
	for (i = q->len++; i; i = parent) {
		parent = (i - 1) / 4;
		if (!before(ev, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
	}
	q->heap[i] = *ev;
	return 0;
}

static void heap_pop(struct sim_evq *q, struct sim_ev *out)
{
	struct sim_ev last;
	size_t i = 0, c, best, end;

	*out = q->heap[0];
	last = q->heap[--q->len];
	if (!q->len)
		return;
	for (;;) {
		c = 4 * i + 1;
		if (c >= q->len)
			break;
		best = c;
		end = c + 4 < q->len ? c + 4 : q->len;
		for (c++; c < end; c++)
			if (before(&q->heap[c], &q->heap[best]))
				best = c;
		if (!before(&q->heap[best], &last))
			break;
		q->heap[i] = q->heap[best];
		i = best;
	}
	q->heap[i] = last;
}

static int bucket_add(struct sim_evq *q, struct sim_bucket *b, const struct sim_ev *ev)
{
	u32 i;

	if (b->len == b->cap) {
		u32 cap = b->cap ? 2 * b->cap : 16;
		struct sim_ev *e = sim_realloc(b->e, b->cap * sizeof(*e), cap * sizeof(*e));

		if (!e)
			return -1;
		b->e = e;
		b->cap = cap;
	}
	if (!b->sorted) {
		b->e[b->len++] = *ev;
		return 0;
	}
	/* Being served: keep it in order (a frame with next to no latency). */
	for (i = b->len; i > b->pos && before(ev, &b->e[i - 1]); i--)
		b->e[i] = b->e[i - 1];
	b->e[i] = *ev;
	b->len++;
	return 0;
}

/* Stable counting sort of the waiting part of b on the time within the bucket. */
static int bucket_sort(struct sim_evq *q, struct sim_bucket *b)
{
	u32 n = b->len - b->pos, w = 1U << q->wb, i, off;
	struct sim_ev *e = b->e + b->pos;

	b->sorted = true;
	if (n < 2)
		return 0;
	if (!q->count) {
		qsort(e, n, sizeof(*e), by_time);
		return 0;
	}
	if (q->tmp_cap < n) {
		u32 cap = n > 2 * q->tmp_cap ? n : 2 * q->tmp_cap;
		struct sim_ev *t = sim_realloc(q->tmp, q->tmp_cap * sizeof(*t), cap * sizeof(*t));

		if (!t)
			return -1;
		q->tmp = t;
		q->tmp_cap = cap;
	}
	memset(q->count, 0, (w + 1) * sizeof(*q->count));
	for (i = 0; i < n; i++)
		q->count[(e[i].t & (w - 1)) + 1]++;
	for (i = 0; i < w; i++)
		q->count[i + 1] += q->count[i];
	/* Appended in insertion order, so equal times keep it (modulo 2^32 aside). */
	for (i = 0; i < n; i++) {
		off = e[i].t & (w - 1);
		q->tmp[q->count[off]++] = e[i];
	}
	memcpy(e, q->tmp, n * sizeof(*e));
	return 0;
}

int sim_evq_push(struct sim_evq *q, u64 t, const struct sim_msg *m)
{
	struct sim_ev ev = { .t = t, .order = q->order++ };
	u64 abs = t >> q->wb;
	int64_t slot = msg_alloc(q);
	int ret;

	if (slot < 0)
		return -1;
	ev.msg = slot;
	q->msgs[slot] = *m;
	if (!q->in_wheel)
		q->cur = q->scan = q->last >> q->wb;
	if (abs >= q->cur + q->nb) {
		ret = heap_push(q, &ev);
	} else {
		ret = bucket_add(q, &q->b[abs & (q->nb - 1)], &ev);
		if (!ret) {
			q->in_wheel++;
			if (abs < q->scan)
				q->scan = abs;
		}
	}
	if (ret)
		return -1;
	if (++q->in_flight > q->peak)
		q->peak = q->in_flight;
	return 0;
}

/* The bucket holding the earliest frame of the wheel, sorted, or NULL. */
static struct sim_bucket *wheel_first(struct sim_evq *q)
{
	struct sim_bucket *b;

	if (!q->in_wheel)
		return NULL;
	for (;; q->scan++) {
		b = &q->b[q->scan & (q->nb - 1)];
		if (b->pos < b->len)
			break;
	}
	if (!b->sorted && bucket_sort(q, b))
		abort();	/* out of memory for the sort scratch: nothing sane to do */
	return b;
}

static inline u64 tick_time(const struct sim_evq *q)
{
	return q->round * q->period + q->phase[q->cursor];
}

u64 sim_evq_next_time(struct sim_evq *q)
{
	struct sim_bucket *b = wheel_first(q);
	u64 t = tick_time(q);

	if (b && b->e[b->pos].t < t)
		t = b->e[b->pos].t;
	if (q->len && q->heap[0].t < t)
		t = q->heap[0].t;
	return t;
}

enum sim_ev_kind sim_evq_pop(struct sim_evq *q, u64 *t, u32 *node, struct sim_msg *m)
{
	struct sim_bucket *b = wheel_first(q);
	const struct sim_ev *first = NULL;
	struct sim_ev ev;
	u64 tt = tick_time(q);

	if (b)
		first = &b->e[b->pos];
	if (q->len && (!first || before(&q->heap[0], first)))
		first = &q->heap[0];
	if (!first || first->t > tt) {
		*t = q->last = tt;
		*node = q->who[q->cursor];
		if (++q->cursor == q->n) {
			q->cursor = 0;
			q->round++;
		}
		return SIM_EV_TICK;
	}
	if (q->len && first == &q->heap[0]) {
		heap_pop(q, &ev);
	} else {
		ev = b->e[b->pos++];
		if (b->pos == b->len) {
			b->pos = b->len = 0;
			b->sorted = false;
			/* A burst passed: give its room back (4096 buckets add up). */
			if (b->cap > KEEP_BUCKET) {
				sim_release(b->e, b->cap * sizeof(*b->e));
				b->e = NULL;
				b->cap = 0;
			}
		}
		q->in_wheel--;
		q->cur = q->scan;
	}
	*t = q->last = ev.t;
	*m = q->msgs[ev.msg];
	q->free_msgs[q->n_free++] = ev.msg;
	q->in_flight--;
	return SIM_EV_MSG;
}
