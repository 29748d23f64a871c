// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/random.h>
#include "members.h"
#include "proto/detect.h"
#include "proto/reach.h"
#include "proto/watch.h"
#include "proto/span.h"

/* Room for n members: the peer array and the ring's memory, one allocation. */
static struct ftd_members *members_alloc(u32 n)
{
	struct ftd_members *m;

	m = kvzalloc(struct_size(m, mem, n * sizeof(*m->peers) + ftd_ring_mem_size(n)),
		     GFP_KERNEL_ACCOUNT);
	if (!m)
		return NULL;
	m->n = n;
	m->peers = (struct ftd_peer **)m->mem;
	return m;
}

struct ftd_members *ftd_members_prepare(struct ftd_net *fn, const struct ftd_peer *drop,
					struct ftd_peer *add)
{
	struct ftd_members *m;
	struct ftd_peer *peer;
	unsigned long id;
	bool placed = !add;
	u32 n = 0, i = 0;

	lockdep_assert_held(&fn->lock);
	xa_for_each(&fn->peers, id, peer)
		if (peer != drop)
			n++;
	m = members_alloc(n + !!add);
	if (!m)
		return NULL;
	/* xarray iteration is in index order: the ring's order by node id. */
	xa_for_each(&fn->peers, id, peer) {
		if (!placed && add->id < id) {
			m->peers[i++] = add;
			placed = true;
		}
		if (peer != drop)
			m->peers[i++] = peer;
	}
	if (!placed)
		m->peers[i++] = add;
	WARN_ON_ONCE(i != m->n);
	return m;
}

void ftd_members_discard(struct ftd_members *m)
{
	kvfree(m);
}

/* Position of the first member of m whose id is id or more (m->n: none). */
static u32 position_at_or_after(const struct ftd_members *m, u32 id)
{
	u32 lo = 0, hi = m->n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (m->peers[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Position of node id in m, or -1. */
static s64 position_of(const struct ftd_members *m, u32 id)
{
	u32 lo = position_at_or_after(m, id);

	/* Not "cond ? lo : -1": that is a u32, and -1 would be a huge position. */
	if (lo < m->n && m->peers[lo]->id == id)
		return lo;
	return -1;
}

static bool peer_in_ring(const struct ftd_peer *peer)
{
	return peer->self || ftd_detect_in_ring(READ_ONCE(peer->state));
}

void ftd_members_publish(struct ftd_net *fn, struct ftd_members *m)
{
	struct ftd_members *old;
	u32 i;

	lockdep_assert_held(&fn->lock);
	ftd_ring_init(&m->ring, m->n, m->mem + m->n * sizeof(*m->peers));
	/*
	 * Under ring_lock, like ftd_members_sync(): a state change made while
	 * we read the states is synced after, into the ring published here.
	 */
	spin_lock_bh(&fn->ring_lock);
	old = rcu_dereference_protected(fn->members, lockdep_is_held(&fn->lock));
	for (i = 0; i < m->n; i++)
		if (!peer_in_ring(m->peers[i]))
			ftd_ring_set_live(&m->ring, i, false);
	rcu_assign_pointer(fn->members, m);
	spin_unlock_bh(&fn->ring_lock);
	if (old)
		kvfree_rcu(old, rcu);
}

int ftd_members_rebuild(struct ftd_net *fn)
{
	struct ftd_members *m = ftd_members_prepare(fn, NULL, NULL);

	if (!m)
		return -ENOMEM;
	ftd_members_publish(fn, m);
	return 0;
}

void ftd_members_free(struct ftd_net *fn)
{
	struct ftd_members *old;

	lockdep_assert_held(&fn->lock);
	old = rcu_dereference_protected(fn->members, lockdep_is_held(&fn->lock));
	RCU_INIT_POINTER(fn->members, NULL);
	if (old)
		kvfree_rcu(old, rcu);
}

void ftd_members_sync(struct ftd_net *fn, struct ftd_peer *peer)
{
	struct ftd_members *m;
	s64 pos;

	rcu_read_lock();
	spin_lock_bh(&fn->ring_lock);
	m = rcu_dereference(fn->members);
	/*
	 * Only the peer the ring holds: a replaced one, still heard on another
	 * CPU under RCU, must not mark its successor live (an unknown node in
	 * the ring as live is never timed out, and its death never declared).
	 */
	if (m && (pos = position_of(m, peer->id)) >= 0 && m->peers[pos] == peer) {
		bool live = peer_in_ring(peer);

		/* Who joined during a burst of deaths was not of its membership. */
		if (live && !ftd_ring_is_live(&m->ring, pos))
			WRITE_ONCE(peer->live_since_ns, ktime_get_ns());
		ftd_ring_set_live(&m->ring, pos, live);
	}
	spin_unlock_bh(&fn->ring_lock);
	rcu_read_unlock();
}

u32 ftd_members_live(struct ftd_net *fn, u32 *lowest)
{
	struct ftd_members *m;
	u32 live = 0;

	*lowest = FTD_NODE_NONE;
	rcu_read_lock();
	spin_lock_bh(&fn->ring_lock);
	m = rcu_dereference(fn->members);
	if (m && m->ring.live) {
		live = m->ring.live;
		*lowest = m->peers[ftd_ring_random_live(&m->ring, 0)]->id;
	}
	spin_unlock_bh(&fn->ring_lock);
	rcu_read_unlock();
	return live;
}

u32 ftd_members_random(struct ftd_net *fn, struct ftd_peer **out, u32 max)
{
	struct ftd_members *m;
	u32 n = 0, pos, tries;
	s64 self;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "ftd_members_* without rcu_read_lock");
	spin_lock_bh(&fn->ring_lock);
	m = rcu_dereference(fn->members);
	if (!m || (self = position_of(m, READ_ONCE(fn->cfg.node))) < 0)
		goto out;
	for (tries = 0; n < max && tries < 2 * max && m->ring.live > 1; tries++) {
		pos = ftd_ring_random_live(&m->ring, get_random_u32_below(m->ring.live));
		if (pos != self)
			out[n++] = m->peers[pos];
	}
out:
	spin_unlock_bh(&fn->ring_lock);
	return n;
}

u32 ftd_members_sample(struct ftd_net *fn, u32 *ids, u32 max)
{
	u32 pos_buf[FTD_REACH_SAMPLE], rand[FTD_REACH_SAMPLE], n = 0, i;
	struct ftd_members *m;
	s64 self;

	if (max > FTD_REACH_SAMPLE)
		max = FTD_REACH_SAMPLE;
	get_random_bytes(rand, sizeof(rand));
	rcu_read_lock();
	spin_lock_bh(&fn->ring_lock);
	m = rcu_dereference(fn->members);
	if (m && (self = position_of(m, READ_ONCE(fn->cfg.node))) >= 0)
		n = ftd_ring_sample_live(&m->ring, self, rand, max, pos_buf);
	for (i = 0; i < n; i++)
		ids[i] = m->peers[pos_buf[i]]->id;
	spin_unlock_bh(&fn->ring_lock);
	rcu_read_unlock();
	return n;
}

u32 ftd_members_sweep(struct ftd_net *fn, struct ftd_peer **out, u32 max, u32 *cursor)
{
	u32 pos_buf[FTD_MAX_OBSERVERS], n = 0, i;
	struct ftd_members *m;
	s64 self;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "ftd_members_* without rcu_read_lock");
	if (max > FTD_MAX_OBSERVERS)
		max = FTD_MAX_OBSERVERS;
	spin_lock_bh(&fn->ring_lock);
	m = rcu_dereference(fn->members);
	if (m && (self = position_of(m, READ_ONCE(fn->cfg.node))) >= 0)
		n = ftd_ring_sweep_live(&m->ring, self, cursor, max, pos_buf);
	for (i = 0; i < n; i++)
		out[i] = m->peers[pos_buf[i]];
	spin_unlock_bh(&fn->ring_lock);
	return n;
}

enum which { SUCCESSORS, PREDECESSORS, FINGERS };

/* The neighbours of node `of` (live or not) in our ring. */
static u32 neighbours(struct ftd_net *fn, u32 of, struct ftd_peer **out, u32 max,
		      enum which which)
{
	u32 pos_buf[FTD_MAX_FINGERS], n = 0, i;
	struct ftd_members *m;
	s64 pos;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "ftd_members_* without rcu_read_lock");
	if (max > FTD_MAX_FINGERS)
		max = FTD_MAX_FINGERS;
	spin_lock_bh(&fn->ring_lock);
	m = rcu_dereference(fn->members);
	if (!m || (pos = position_of(m, of)) < 0)
		goto out;
	switch (which) {
	case SUCCESSORS:
		n = ftd_ring_successors(&m->ring, pos, max, pos_buf);
		break;
	case PREDECESSORS:
		n = ftd_ring_predecessors(&m->ring, pos, max, pos_buf);
		break;
	case FINGERS:
		n = ftd_ring_fingers(&m->ring, pos, pos_buf, max);
		break;
	}
	for (i = 0; i < n; i++)
		out[i] = m->peers[pos_buf[i]];
out:
	spin_unlock_bh(&fn->ring_lock);
	return n;
}

u32 ftd_members_successors(struct ftd_net *fn, struct ftd_peer **out, u32 k)
{
	return neighbours(fn, READ_ONCE(fn->cfg.node), out, k, SUCCESSORS);
}

u32 ftd_members_predecessors_of(struct ftd_net *fn, u32 id, struct ftd_peer **out, u32 k)
{
	return neighbours(fn, id, out, k, PREDECESSORS);
}

u32 ftd_members_successors_of(struct ftd_net *fn, u32 id, struct ftd_peer **out, u32 max)
{
	return neighbours(fn, id, out, max, SUCCESSORS);
}

u32 ftd_members_predecessors_far(struct ftd_net *fn, struct ftd_peer **out, u32 *pos_buf,
				 u32 max, u32 *live)
{
	struct ftd_members *m;
	u32 n = 0, i;
	s64 pos;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "ftd_members_* without rcu_read_lock");
	spin_lock_bh(&fn->ring_lock);
	m = rcu_dereference(fn->members);
	*live = m ? m->ring.live : 0;
	if (m && (pos = position_of(m, READ_ONCE(fn->cfg.node))) >= 0)
		n = ftd_ring_predecessors(&m->ring, pos, max, pos_buf);
	for (i = 0; i < n; i++)
		out[i] = m->peers[pos_buf[i]];
	spin_unlock_bh(&fn->ring_lock);
	return n;
}

u32 ftd_members_shares(struct ftd_net *fn, u32 from, u32 end, struct ftd_peer **to, u32 *ends,
		       u32 max)
{
	struct ftd_span_share sh[FTD_MAX_FINGERS];
	struct ftd_members *m;
	u32 n = 0, i;
	s64 pos;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "ftd_members_* without rcu_read_lock");
	if (max > FTD_MAX_FINGERS)
		max = FTD_MAX_FINGERS;
	spin_lock_bh(&fn->ring_lock);
	m = rcu_dereference(fn->members);
	if (!m || !m->n)
		goto out;
	/* A holder deleted meanwhile: its arc is still to be covered. */
	pos = position_of(m, from);
	if (pos < 0)
		pos = ftd_span_from_gone(m->n, position_at_or_after(m, from));
	/* The arc ends at the first member at or after end (it need not be one of ours). */
	n = ftd_span_split(&m->ring, pos, position_at_or_after(m, end) % m->n, sh, max);
	for (i = 0; i < n; i++) {
		to[i] = m->peers[sh[i].to];
		ends[i] = m->peers[sh[i].end]->id;
	}
out:
	spin_unlock_bh(&fn->ring_lock);
	return n;
}

u32 ftd_members_fingers(struct ftd_net *fn, struct ftd_peer **out, u32 max)
{
	return neighbours(fn, READ_ONCE(fn->cfg.node), out, max, FINGERS);
}

u32 ftd_members_dead_between(struct ftd_net *fn, u32 from,
			     struct ftd_peer *out[FTD_WATCH_TELL_MAX])
{
	struct ftd_watch_between b;
	struct ftd_members *m;
	s64 pos, self;
	u32 n = 0;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "ftd_members_* without rcu_read_lock");
	spin_lock_bh(&fn->ring_lock);
	m = rcu_dereference(fn->members);
	if (!m || (pos = position_of(m, from)) < 0 ||
	    (self = position_of(m, READ_ONCE(fn->cfg.node))) < 0)
		goto out;
	for (ftd_watch_between_start(&b, m->n, self, pos); ftd_watch_between_more(&b, n);
	     ftd_watch_between_next(&b))
		if (!ftd_ring_is_live(&m->ring, b.pos) &&
		    ftd_watch_tells_of(READ_ONCE(m->peers[b.pos]->state)))
			out[n++] = m->peers[b.pos];
out:
	spin_unlock_bh(&fn->ring_lock);
	return n;
}
