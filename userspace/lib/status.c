// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * Reading the status table: the seqcount protocol of <linux/ftdetect.h>.
 * Each public read copies what it needs between two loads of seq and
 * retries while the kernel writes; everything it derives (a search, a chain
 * walk) is bounded by the checked geometry, so a torn copy can only be
 * wrong, never out of bounds, and is then discarded.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "status.h"

uint64_t ftd__stab_patience_ns = 1000000000ULL;

/* ------------------------------------------------------------------ seqcount */

static uint32_t seq_load_acquire(const struct ftd__stab *s)
{
	return __atomic_load_n(&s->hdr->seq, __ATOMIC_ACQUIRE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct retry {
	unsigned int tries;
	uint64_t deadline;
};

/*
 * Start (or restart) a read: the even seq to check at the end, or -EAGAIN
 * once the table has kept changing for ftd__stab_patience_ns (the kernel
 * writes for microseconds at a time: this is never expected).
 */
static int read_begin(const struct ftd__stab *s, struct retry *r, uint32_t *seq)
{
	for (;;) {
		if (r->tries && r->tries % 64 == 0) {
			uint64_t t = now_ns();

			if (!r->deadline)
				r->deadline = t + ftd__stab_patience_ns;
			else if (t > r->deadline)
				return -EAGAIN;
			sched_yield();
		}
		r->tries++;
		*seq = seq_load_acquire(s);
		if (!(*seq & 1))
			return 0;
	}
}

/* True if what was copied since read_begin is consistent. */
static bool read_ok(const struct ftd__stab *s, uint32_t seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->hdr->seq, __ATOMIC_RELAXED) == seq;
}

/* ------------------------------------------------------------------ geometry */

static bool fits(uint64_t off, uint64_t count, uint64_t entry, size_t size)
{
	return off % 8 == 0 && off + count * entry <= size;
}

int ftd__stab_open(struct ftd__stab *s, const void *base, size_t size)
{
	const struct ftd_status_hdr *h = base;

	if (size < sizeof(*h) || h->magic != FTD_STATUS_MAGIC ||
	    h->version != FTD_STATUS_VERSION || h->hdr_size < sizeof(*h) || h->size > size)
		return -EPROTO;
	s->base = base;
	s->size = h->size;
	s->hdr = h;
	s->node_off = h->node_off;
	s->node_size = h->node_size;
	s->node_cap = h->node_cap;
	s->rank_off = h->rank_off;
	s->rank_size = h->rank_size;
	s->rank_cap = h->rank_cap;
	s->bucket_off = h->bucket_off;
	s->bucket_count = h->bucket_count;
	/* Entries may grow in later versions, never shrink. */
	if (s->node_size < sizeof(struct ftd_status_node) ||
	    s->rank_size < sizeof(struct ftd_status_rank) ||
	    !s->bucket_count || (s->bucket_count & (s->bucket_count - 1)) ||
	    !fits(s->node_off, s->node_cap, s->node_size, s->size) ||
	    !fits(s->rank_off, s->rank_cap, s->rank_size, s->size) ||
	    !fits(s->bucket_off, s->bucket_count, sizeof(uint32_t), s->size))
		return -EPROTO;
	return 0;
}

static const struct ftd_status_node *node_at(const struct ftd__stab *s, uint32_t i)
{
	return (const void *)(s->base + s->node_off + (size_t)i * s->node_size);
}

static const struct ftd_status_rank *rank_at(const struct ftd__stab *s, uint32_t i)
{
	return (const void *)(s->base + s->rank_off + (size_t)i * s->rank_size);
}

static uint32_t bucket_head(const struct ftd__stab *s, uint32_t job, uint32_t rank)
{
	const uint32_t *b = (const void *)(s->base + s->bucket_off);

	return __atomic_load_n(&b[ftd_status_rank_hash(job, rank) & (s->bucket_count - 1)],
			       __ATOMIC_RELAXED);
}

/* Counts as the header says now, never beyond the capacity. */
static uint32_t node_count(const struct ftd__stab *s)
{
	uint32_t n = __atomic_load_n(&s->hdr->node_count, __ATOMIC_RELAXED);

	return n < s->node_cap ? n : s->node_cap;
}

static uint32_t rank_count(const struct ftd__stab *s)
{
	uint32_t n = __atomic_load_n(&s->hdr->rank_count, __ATOMIC_RELAXED);

	return n < s->rank_cap ? n : s->rank_cap;
}

/* ------------------------------------------------------------------ copies */

static void copy_node(struct ftd_node_status *out, const struct ftd_status_node *n)
{
	struct ftd_status_node c;

	memcpy(&c, n, sizeof(c));
	memset(out, 0, sizeof(*out));
	out->id = c.id;
	out->incarnation = c.incarnation;
	out->state = c.state;
	out->rails_down = c.rails_down;
	out->nrails = c.nrails;
	out->event_seq = c.event_seq;
	out->gen = c.gen;
}

/* uid took what was padding: the struct's size and offsets are the ABI's. */
_Static_assert(sizeof(struct ftd_rank_status) == 48 &&
	       offsetof(struct ftd_rank_status, uid) == 28 &&
	       offsetof(struct ftd_rank_status, event_seq) == 32, "libftdetect.so.1 ABI");

static void copy_rank(struct ftd_rank_status *out, const struct ftd_status_rank *e)
{
	memset(out, 0, sizeof(*out));
	out->job = e->job;
	out->rank = e->rank;
	out->node = e->node;
	out->incarnation = e->incarnation;
	out->regid = e->regid;
	out->state = e->state;
	out->local = !!(e->flags & FTD_STATUS_RANK_F_LOCAL);
	out->cause = e->cause;
	out->uid = e->uid;
	out->event_seq = e->event_seq;
	out->gen = e->gen;
}

static void copy_info(struct ftd_status_info *out, const struct ftd_status_hdr *hp)
{
	struct ftd_status_hdr h;

	memcpy(&h, hp, sizeof(h));
	memset(out, 0, sizeof(*out));
	out->changes = h.changes;
	out->event_seq = h.event_seq;
	out->flags = h.flags;
	out->local_node = h.local_node;
	out->local_incarnation = h.local_incarnation;
	out->cluster = h.cluster;
	out->node_count = h.node_count;
	out->node_cap = h.node_cap;
	out->rank_count = h.rank_count;
	out->rank_cap = h.rank_cap;
	out->ranks_alive = h.ranks_alive;
	out->nodes_dropped = h.nodes_dropped;
	out->ranks_dropped = h.ranks_dropped;
	out->ranks_recycled = h.ranks_recycled;
	out->fenced = h.fenced;
}

/* The index of node id within [0, count), or -1. */
static int64_t find_node(const struct ftd__stab *s, uint32_t count, uint32_t id)
{
	uint32_t lo = 0, hi = count, mid, v;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		v = __atomic_load_n(&node_at(s, mid)->id, __ATOMIC_RELAXED);
		if (v == id)
			return mid;
		if (v < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static uint8_t node_state_of(const struct ftd__stab *s, uint32_t count,
			     const struct ftd_rank_status *r)
{
	int64_t i;

	if (r->local)
		return FTD_NODE_SELF;
	i = find_node(s, count, r->node);
	return i < 0 ? FTD_NODE_UNKNOWN : __atomic_load_n(&node_at(s, (uint32_t)i)->state,
							  __ATOMIC_RELAXED);
}

/* Better evidence first: ALIVE, then the most recent change. */
static bool better(const struct ftd_rank_status *a, const struct ftd_rank_status *b)
{
	if ((a->state == FTD_RANK_ALIVE) != (b->state == FTD_RANK_ALIVE))
		return a->state == FTD_RANK_ALIVE;
	return a->gen > b->gen;
}

/* ------------------------------------------------------------------ reads */

int64_t ftd__stab_changes(const struct ftd__stab *s)
{
	struct retry r = { 0 };
	uint32_t seq;
	uint64_t c;
	int ret;

	/* One untorn load where the CPU has them: no need for seq. */
	if (sizeof(void *) >= 8)
		return (int64_t)(__atomic_load_n(&s->hdr->changes, __ATOMIC_ACQUIRE) &
				 INT64_MAX);
	do {
		ret = read_begin(s, &r, &seq);
		if (ret)
			return ret;
		c = s->hdr->changes;
	} while (!read_ok(s, seq));
	return (int64_t)(c & INT64_MAX);
}

int ftd__stab_info(const struct ftd__stab *s, struct ftd_status_info *out)
{
	struct retry r = { 0 };
	uint32_t seq;
	int ret;

	do {
		ret = read_begin(s, &r, &seq);
		if (ret)
			return ret;
		copy_info(out, s->hdr);
	} while (!read_ok(s, seq));
	return 0;
}

int ftd__stab_node(const struct ftd__stab *s, uint32_t id, struct ftd_node_status *out)
{
	struct retry r = { 0 };
	uint32_t seq, flags;
	int64_t i;
	int ret;

	do {
		ret = read_begin(s, &r, &seq);
		if (ret)
			return ret;
		i = find_node(s, node_count(s), id);
		if (i >= 0)
			copy_node(out, node_at(s, (uint32_t)i));
		flags = __atomic_load_n(&s->hdr->flags, __ATOMIC_RELAXED);
	} while (!read_ok(s, seq));
	if (i < 0)
		return flags & FTD_STATUS_F_NODES_FULL ? -EOVERFLOW : -ENOENT;
	return 0;
}

int ftd__stab_rank(const struct ftd__stab *s, uint32_t job, uint32_t rank, uint32_t uid,
		   struct ftd_rank_status *out)
{
	struct ftd_rank_status cur, best;
	struct retry r = { 0 };
	uint32_t seq, flags, idx, count, steps;
	bool found;
	int ret;

	do {
		ret = read_begin(s, &r, &seq);
		if (ret)
			return ret;
		found = false;
		count = rank_count(s);
		idx = bucket_head(s, job, rank);
		/* A torn chain may loop or point anywhere: bounded, checked. */
		for (steps = 0; idx && idx <= count && steps < s->rank_cap; steps++) {
			const struct ftd_status_rank *e = rank_at(s, idx - 1);

			copy_rank(&cur, e);
			if (cur.job == job && cur.rank == rank && cur.state != FTD_RANK_FREE &&
			    (uid == FTD_UID_NONE || cur.uid == uid) &&
			    (!found || better(&cur, &best))) {
				best = cur;
				found = true;
			}
			idx = __atomic_load_n(&e->next, __ATOMIC_RELAXED);
		}
		if (found)
			best.node_state = node_state_of(s, node_count(s), &best);
		flags = __atomic_load_n(&s->hdr->flags, __ATOMIC_RELAXED);
	} while (!read_ok(s, seq));
	if (!found)
		return flags & FTD_STATUS_F_RANKS_FULL ? -EOVERFLOW : -ENOENT;
	*out = best;
	return 0;
}

int ftd__stab_snapshot(const struct ftd__stab *s, struct ftd_status_snapshot **out)
{
	struct ftd_status_snapshot *snap = calloc(1, sizeof(*snap));
	struct retry r = { 0 };
	unsigned char *nraw = NULL, *rraw = NULL;
	uint32_t seq, nn, nr, room_n = 0, room_r = 0, i;
	size_t k;
	int ret;

	if (!snap)
		return -ENOMEM;
	/* Only copies inside the window: it must be short to be quiet. */
	for (;;) {
		ret = read_begin(s, &r, &seq);
		if (ret)
			goto err;
		nn = node_count(s);
		nr = rank_count(s);
		if (!nraw || nn > room_n || nr > room_r) {
			/* Grow outside the window; the counts may move meanwhile. */
			unsigned char *a = realloc(nraw, (size_t)(nn + 16) * s->node_size);
			unsigned char *b = a ? realloc(rraw, (size_t)(nr + 64) * s->rank_size) : NULL;

			if (a)
				nraw = a;
			if (b)
				rraw = b;
			if (!a || !b) {
				ret = -ENOMEM;
				goto err;
			}
			room_n = nn + 16;
			room_r = nr + 64;
			continue;
		}
		copy_info(&snap->info, s->hdr);
		memcpy(nraw, node_at(s, 0), (size_t)nn * s->node_size);
		memcpy(rraw, rank_at(s, 0), (size_t)nr * s->rank_size);
		if (read_ok(s, seq))
			break;
	}

	snap->nodes = calloc(nn ? nn : 1, sizeof(*snap->nodes));
	snap->ranks = calloc(nr ? nr : 1, sizeof(*snap->ranks));
	if (!snap->nodes || !snap->ranks) {
		ret = -ENOMEM;
		goto err;
	}
	snap->info.node_count = nn;
	snap->n_nodes = nn;
	for (i = 0; i < nn; i++)
		copy_node(&snap->nodes[i], (const void *)(nraw + (size_t)i * s->node_size));
	for (i = 0, k = 0; i < nr; i++) {
		const struct ftd_status_rank *e = (const void *)(rraw + (size_t)i * s->rank_size);
		struct ftd_rank_status *rs = &snap->ranks[k];
		size_t lo = 0, hi = nn;

		if (e->state == FTD_RANK_FREE)
			continue;
		copy_rank(rs, e);
		rs->node_state = rs->local ? FTD_NODE_SELF : FTD_NODE_UNKNOWN;
		while (!rs->local && lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (snap->nodes[mid].id == rs->node) {
				rs->node_state = snap->nodes[mid].state;
				break;
			}
			if (snap->nodes[mid].id < rs->node)
				lo = mid + 1;
			else
				hi = mid;
		}
		k++;
	}
	snap->n_ranks = k;
	free(nraw);
	free(rraw);
	*out = snap;
	return 0;
err:
	ftd_status_snapshot_free(snap);
	free(nraw);
	free(rraw);
	return ret;
}

void ftd_status_snapshot_free(struct ftd_status_snapshot *s)
{
	if (!s)
		return;
	free(s->nodes);
	free(s->ranks);
	free(s);
}
