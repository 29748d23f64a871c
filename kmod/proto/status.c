// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "status.h"

#define ALIGN_TO(x, a)	(((x) + (a) - 1) / (a) * (a))
#define STALE_ALL	(1ULL << 32)	/* ranks_stale(): every incarnation */

struct layout {
	size_t node_off, rank_off, bucket_off, end;
	u32 buckets;
};

static u32 pow2_at_least(u32 n)
{
	u32 p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* Arrays on 64-byte boundaries: an entry never straddles a cache line it need not. */
static void layout(struct layout *l, u32 node_cap, u32 rank_cap)
{
	l->buckets = pow2_at_least(rank_cap);
	l->node_off = ALIGN_TO(sizeof(struct ftd_status_hdr), 64);
	l->rank_off = ALIGN_TO(l->node_off + (size_t)node_cap * sizeof(struct ftd_status_node),
			       64);
	l->bucket_off = ALIGN_TO(l->rank_off + (size_t)rank_cap * sizeof(struct ftd_status_rank),
				 64);
	l->end = l->bucket_off + (size_t)l->buckets * sizeof(u32);
}

size_t ftd_stab_size(u32 node_cap, u32 rank_cap, u32 page)
{
	struct layout l;

	if (!node_cap || node_cap > FTD_STAB_MAX_NODES || !rank_cap ||
	    rank_cap > FTD_STAB_MAX_RANKS)
		return 0;
	layout(&l, node_cap, rank_cap);
	return ALIGN_TO(l.end, page);
}

void ftd_stab_init(struct ftd_stab *t, void *area, u32 size, u32 node_cap, u32 rank_cap,
		   u32 *fifo, u8 *queued)
{
	struct ftd_status_hdr *h = area;
	struct layout l;

	layout(&l, node_cap, rank_cap);
	memset(t, 0, sizeof(*t));
	t->hdr = h;
	t->nodes = (struct ftd_status_node *)((u8 *)area + l.node_off);
	t->ranks = (struct ftd_status_rank *)((u8 *)area + l.rank_off);
	t->buckets = (u32 *)((u8 *)area + l.bucket_off);
	t->fifo = fifo;
	t->queued = queued;

	h->magic = FTD_STATUS_MAGIC;
	h->version = FTD_STATUS_VERSION;
	h->hdr_size = sizeof(*h);
	h->size = size;
	h->local_node = FTD_NODE_NONE;
	h->node_off = l.node_off;
	h->node_size = sizeof(struct ftd_status_node);
	h->node_cap = node_cap;
	h->rank_off = l.rank_off;
	h->rank_size = sizeof(struct ftd_status_rank);
	h->rank_cap = rank_cap;
	h->bucket_off = l.bucket_off;
	h->bucket_count = l.buckets;
}

void ftd_stab_begin(struct ftd_stab *t)
{
	ftd_store_once(t->hdr->seq, t->hdr->seq + 1);
	ftd_wmb();	/* odd before any entry changes */
	t->gen = t->hdr->changes + 1;
}

void ftd_stab_end(struct ftd_stab *t)
{
	ftd_store_once(t->hdr->changes, t->gen);
	ftd_wmb();	/* every change before even */
	ftd_store_once(t->hdr->seq, t->hdr->seq + 1);
}

/* ------------------------------------------------------------------ nodes */

/* The first position whose id is >= id. */
static u32 node_pos(const struct ftd_stab *t, u32 id)
{
	u32 lo = 0, hi = t->hdr->node_count, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->nodes[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct ftd_status_node *ftd_stab_node_find(struct ftd_stab *t, u32 id)
{
	u32 pos = node_pos(t, id);

	if (pos < t->hdr->node_count && t->nodes[pos].id == id)
		return &t->nodes[pos];
	return NULL;
}

/* The node's entry, inserted in id order if need be; NULL when full (counted). */
static struct ftd_status_node *node_get(struct ftd_stab *t, u32 id)
{
	struct ftd_status_hdr *h = t->hdr;
	struct ftd_status_node *n;
	u32 pos;

	if (id == FTD_NODE_NONE)
		return NULL;
	pos = node_pos(t, id);
	if (pos < h->node_count && t->nodes[pos].id == id)
		return &t->nodes[pos];
	if (h->node_count == h->node_cap) {
		h->nodes_dropped++;
		h->flags |= FTD_STATUS_F_NODES_FULL;
		return NULL;
	}
	memmove(&t->nodes[pos + 1], &t->nodes[pos], (h->node_count - pos) * sizeof(*n));
	n = &t->nodes[pos];
	memset(n, 0, sizeof(*n));
	n->id = id;
	n->state = FTD_NODE_UNKNOWN;
	n->gen = t->gen;
	h->node_count++;
	return n;
}

/* ------------------------------------------------------------------ ranks */

static u32 *bucket_of(const struct ftd_stab *t, u32 job, u32 rank)
{
	return &t->buckets[ftd_status_rank_hash(job, rank) & (t->hdr->bucket_count - 1)];
}

static u32 slot_of(const struct ftd_stab *t, const struct ftd_status_rank *e)
{
	return (u32)(e - t->ranks);
}

static bool ended(const struct ftd_status_rank *e)
{
	return e->state == FTD_RANK_DEAD || e->state == FTD_RANK_EXITED;
}

/*
 * The entry of a registration: (regid) among local entries, (node,
 * incarnation, regid) among the others. loose (ends only): failing that, the
 * newest unended remote entry of the node with that regid, whatever its
 * incarnation (a node declared dead at a higher incarnation than the one
 * its ranks registered at); without ref, with any regid.
 */
static struct ftd_status_rank *rank_find(const struct ftd_stab *t, u32 node, u32 inc, u32 job,
					 u32 rank, const struct ftd_stab_ref *ref, bool loose)
{
	struct ftd_status_rank *e, *best = NULL;
	u32 idx = *bucket_of(t, job, rank), steps = 0;

	for (; idx && steps < t->hdr->rank_cap; idx = e->next, steps++) {
		e = &t->ranks[idx - 1];
		if (e->job != job || e->rank != rank)
			continue;
		if (ref && ref->local) {
			if ((e->flags & FTD_STATUS_RANK_F_LOCAL) && e->regid == ref->regid)
				return e;
			continue;
		}
		if ((e->flags & FTD_STATUS_RANK_F_LOCAL) || e->node != node)
			continue;
		if (ref && e->regid == ref->regid && e->incarnation == inc)
			return e;
		if (loose && (!ref || e->regid == ref->regid) && !ended(e) &&
		    (!best || e->gen > best->gen))
			best = e;
	}
	return best;
}

/* Queue a slot for recycling, once. */
static void fifo_push(struct ftd_stab *t, u32 slot)
{
	u32 cap = t->hdr->rank_cap;

	if (t->queued[slot])
		return;
	t->queued[slot] = 1;
	t->fifo[(t->fifo_head + t->fifo_len) % cap] = slot;
	t->fifo_len++;
}

static void unlink_slot(struct ftd_stab *t, u32 slot)
{
	struct ftd_status_rank *e = &t->ranks[slot];
	u32 *p = bucket_of(t, e->job, e->rank);

	while (*p && *p != slot + 1)
		p = &t->ranks[*p - 1].next;
	if (*p)
		*p = e->next;
}

/* The slot of the entry that ended first, unlinked; false if none. */
static bool recycle(struct ftd_stab *t, u32 *slot)
{
	u32 s;

	while (t->fifo_len) {
		s = t->fifo[t->fifo_head];
		t->fifo_head = (t->fifo_head + 1) % t->hdr->rank_cap;
		t->fifo_len--;
		t->queued[s] = 0;
		if (t->ranks[s].state == FTD_RANK_ALIVE)
			continue;	/* stale, then announced again */
		unlink_slot(t, s);
		t->hdr->ranks_recycled++;
		*slot = s;
		return true;
	}
	return false;
}

/* A new entry in (job, rank)'s chain; NULL when every slot is ALIVE (counted). */
static struct ftd_status_rank *rank_new(struct ftd_stab *t, u32 node, u32 inc, u32 job, u32 rank,
					const struct ftd_stab_ref *ref)
{
	struct ftd_status_hdr *h = t->hdr;
	struct ftd_status_rank *e;
	u32 slot, *b;

	if (h->rank_count < h->rank_cap) {
		slot = h->rank_count++;
	} else if (!recycle(t, &slot)) {
		h->ranks_dropped++;
		h->flags |= FTD_STATUS_F_RANKS_FULL;
		return NULL;
	}
	e = &t->ranks[slot];
	memset(e, 0, sizeof(*e));
	e->job = job;
	e->rank = rank;
	e->node = node;
	e->incarnation = inc;
	e->regid = ref ? ref->regid : 0;
	e->uid = ref ? ref->uid : FTD_UID_NONE;
	e->flags = ref && ref->local ? FTD_STATUS_RANK_F_LOCAL : 0;
	e->state = FTD_RANK_FREE;
	b = bucket_of(t, job, rank);
	e->next = *b;
	*b = slot + 1;
	return e;
}

static void rank_set(struct ftd_stab *t, struct ftd_status_rank *e, u8 state)
{
	if (e->state == FTD_RANK_ALIVE)
		t->hdr->ranks_alive--;
	if (state == FTD_RANK_ALIVE)
		t->hdr->ranks_alive++;
	else
		fifo_push(t, slot_of(t, e));
	e->state = state;
	e->gen = t->gen;
}

/* The remote ranks of node below incarnation `below` are no longer tracked. */
static void ranks_stale(struct ftd_stab *t, u32 node, u64 below)
{
	struct ftd_status_rank *e;
	u32 i;

	if (!t->hdr->ranks_alive)
		return;
	for (i = 0; i < t->hdr->rank_count; i++) {
		e = &t->ranks[i];
		if (e->state == FTD_RANK_ALIVE && e->node == node && e->incarnation < below &&
		    !(e->flags & FTD_STATUS_RANK_F_LOCAL))
			rank_set(t, e, FTD_RANK_STALE);
	}
}

void ftd_stab_rank_reg(struct ftd_stab *t, u32 node, u32 inc, u32 job, u32 rank,
		       const struct ftd_stab_ref *ref)
{
	struct ftd_status_rank *e = rank_find(t, node, inc, job, rank, ref, false);

	if (e) {
		if (e->state == FTD_RANK_STALE)
			rank_set(t, e, FTD_RANK_ALIVE);
		return;		/* a repeat, or late: an ended entry stays ended */
	}
	e = rank_new(t, node, inc, job, rank, ref);
	if (e)
		rank_set(t, e, FTD_RANK_ALIVE);
}

static void rank_end(struct ftd_stab *t, u32 node, u32 inc, u32 job, u32 rank,
		     const struct ftd_stab_ref *ref, u8 how, u64 event_seq)
{
	struct ftd_status_rank *e = rank_find(t, node, inc, job, rank, ref, true);

	if (e && ended(e))
		return;
	if (!e) {
		/* The end overtook the registration (or the table was made after). */
		e = rank_new(t, node, inc, job, rank, ref);
		if (!e)
			return;
	}
	e->cause = how;
	e->event_seq = event_seq;
	rank_set(t, e, how == FTD_EV_PROC_EXIT ? FTD_RANK_EXITED : FTD_RANK_DEAD);
}

void ftd_stab_rank_ended(struct ftd_stab *t, u32 node, u32 inc, u32 job, u32 rank,
			 const struct ftd_stab_ref *ref, u8 how)
{
	rank_end(t, node, inc, job, rank, ref, how, 0);
}

/* ------------------------------------------------------------------ events */

/*
 * The entry an event about a node applies to: NULL if the event is about an
 * older incarnation than the entry's. A newer incarnation is a restart: the
 * old one's ranks are no longer tracked, its rails start up.
 */
static struct ftd_status_node *node_for_event(struct ftd_stab *t, const struct ftd_event *ev)
{
	struct ftd_status_node *n = node_get(t, ev->node);

	if (!n || n->state == FTD_NODE_SELF)
		return n;
	if (ev->incarnation < n->incarnation)
		return NULL;
	if (ev->incarnation > n->incarnation) {
		ranks_stale(t, n->id, ev->incarnation);
		n->incarnation = ev->incarnation;
		n->rails_down = 0;
	}
	return n;
}

static void node_event(struct ftd_stab *t, const struct ftd_event *ev, u8 state)
{
	struct ftd_status_node *n = node_for_event(t, ev);

	/* Our own entry says SELF whatever others think of us. */
	if (!n || n->state == FTD_NODE_SELF)
		return;
	n->state = state;
	n->event_seq = ev->seq;
	n->gen = t->gen;
}

static void rail_event(struct ftd_stab *t, const struct ftd_event *ev, bool down)
{
	struct ftd_status_node *n = node_for_event(t, ev);

	if (!n || ev->rail >= FTD_MAX_RAILS)
		return;
	if (down)
		n->rails_down |= 1U << ev->rail;
	else
		n->rails_down &= ~(1U << ev->rail);
	n->event_seq = ev->seq;
	n->gen = t->gen;
}

void ftd_stab_event(struct ftd_stab *t, const struct ftd_event *ev,
		    const struct ftd_stab_ref *ref)
{
	switch (ev->type) {
	case FTD_EV_NODE_ALIVE:
	case FTD_EV_NODE_RESTORED:
		node_event(t, ev, FTD_NODE_ALIVE);
		break;
	case FTD_EV_NODE_SUSPECT:
		node_event(t, ev, FTD_NODE_SUSPECT);
		break;
	case FTD_EV_NODE_DEAD:
		node_event(t, ev, FTD_NODE_DEAD);
		break;
	case FTD_EV_NODE_LEFT:
		node_event(t, ev, FTD_NODE_LEFT);
		break;
	case FTD_EV_IFACE_DEAD:
	case FTD_EV_IFACE_RESTORED:
		rail_event(t, ev, ev->type == FTD_EV_IFACE_DEAD);
		break;
	case FTD_EV_PROC_DEAD:
	case FTD_EV_PROC_EXIT:
	case FTD_EV_RANKS_DEAD:
		rank_end(t, ev->node, ev->incarnation, ev->job, ev->rank, ref, (u8)ev->type,
			 ev->seq);
		break;
	case FTD_EV_FENCED:
		t->hdr->fenced++;
		break;
	}
	t->hdr->event_seq = ev->seq;
}

/* ------------------------------------------------------------------ no event */

void ftd_stab_node_set(struct ftd_stab *t, u32 id, u8 state, u32 inc, u8 rails_down,
		       u8 nrails, bool forget)
{
	struct ftd_status_node *n = node_get(t, id);

	if (forget)
		ranks_stale(t, id, STALE_ALL);
	else if (n && inc > n->incarnation)
		ranks_stale(t, id, inc);
	if (!n)
		return;
	n->state = state;
	n->incarnation = inc;
	n->rails_down = rails_down;
	n->nrails = nrails;
	n->gen = t->gen;
}

void ftd_stab_node_del(struct ftd_stab *t, u32 id)
{
	struct ftd_status_hdr *h = t->hdr;
	u32 pos = node_pos(t, id);

	ranks_stale(t, id, STALE_ALL);
	if (pos >= h->node_count || t->nodes[pos].id != id)
		return;
	memmove(&t->nodes[pos], &t->nodes[pos + 1],
		(h->node_count - pos - 1) * sizeof(t->nodes[0]));
	h->node_count--;
	memset(&t->nodes[h->node_count], 0, sizeof(t->nodes[0]));
}

void ftd_stab_set_local(struct ftd_stab *t, u32 node, u32 inc, u32 cluster, bool up)
{
	struct ftd_status_hdr *h = t->hdr;

	h->local_node = node;
	h->local_incarnation = inc;
	h->cluster = cluster;
	if (up)
		h->flags |= FTD_STATUS_F_UP;
	else
		h->flags &= ~FTD_STATUS_F_UP;
}

void ftd_stab_set_event_seq(struct ftd_stab *t, u64 seq)
{
	t->hdr->event_seq = seq;
}
