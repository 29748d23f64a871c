// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>
#include "fresh.h"
#include "peer.h"
#include "addrs.h"
#include "stab.h"
#include "members.h"
#include "bounds.h"

bool ftd_addr_equal(const union ftd_addr *a, const union ftd_addr *b)
{
	if (a->sa.sa_family != b->sa.sa_family)
		return false;
	if (a->sa.sa_family == AF_INET)
		return a->sin.sin_addr.s_addr == b->sin.sin_addr.s_addr;
	if (a->sa.sa_family == AF_INET6)
		return ipv6_addr_equal(&a->sin6.sin6_addr, &b->sin6.sin6_addr);
	return false;
}

int ftd_peer_rail_of(const struct ftd_peer *peer, const union ftd_addr *src)
{
	int i;

	for (i = 0; i < peer->nrails; i++)
		if (ftd_addr_equal(&peer->rails[i].addr, src))
			return i;
	return -1;
}

struct ftd_rank_table *ftd_peer_ranks(struct ftd_peer *peer)
{
	struct ftd_rank_table *t = peer->ranks, *bigger;
	u32 room;

	lockdep_assert_held(&peer->lock);
	if (!t) {
		t = kzalloc(FTD_RANKS_SIZE(FTD_RANKS_FIRST), GFP_ATOMIC | __GFP_NOWARN);
		if (t)
			t->room = FTD_RANKS_FIRST;
		peer->ranks = t;
		return t;
	}
	room = ftd_ranks_grow_to(t);
	if (!room)
		return t;
	/* Every reader holds the lock: the old table can go at once. */
	bigger = krealloc(t, FTD_RANKS_SIZE(room), GFP_ATOMIC | __GFP_NOWARN);
	if (!bigger)
		return t;	/* full at its room: it takes nothing new (proto/ranks.h) */
	bigger->room = room;
	peer->ranks = bigger;
	return bigger;
}

/*
 * A cache per number of rails, each object the size of a peer with that
 * many: most nodes have one or two, and kmalloc would round a peer of two
 * (1,280 bytes) up to 2 kB (bench/memory.sh).
 */
static struct kmem_cache *peer_caches[FTD_MAX_RAILS];

int ftd_peer_caches_init(void)
{
	char name[16];
	int i;

	for (i = 0; i < FTD_MAX_RAILS; i++) {
		snprintf(name, sizeof(name), "ftd_peer_%d", i + 1);
		peer_caches[i] = kmem_cache_create(name,
						   struct_size((struct ftd_peer *)NULL, rails, i + 1),
						   __alignof__(struct ftd_peer), SLAB_ACCOUNT, NULL);
		if (!peer_caches[i]) {
			ftd_peer_caches_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

void ftd_peer_caches_exit(void)
{
	int i;

	for (i = 0; i < FTD_MAX_RAILS; i++) {
		kmem_cache_destroy(peer_caches[i]);	/* NULL: nothing */
		peer_caches[i] = NULL;
	}
}

void ftd_peer_memory(struct ftd_net *fn, struct ftd_peer_memory *mem)
{
	size_t timing = kmalloc_size_roundup(sizeof(struct ftd_rail_timing));
	struct ftd_peer *peer;
	unsigned long id;
	int i;

	*mem = (struct ftd_peer_memory){};
	rcu_read_lock();
	xa_for_each(&fn->peers, id, peer) {
		/* The walk resumes at the next id: peer is not kept across. */
		if (id && !(id % 1024)) {
			rcu_read_unlock();
			cond_resched();
			rcu_read_lock();
		}
		mem->nodes += kmem_cache_size(peer_caches[peer->nrails - 1]);
		/* A rank table changes size under the lock (ftd_peer_ranks). */
		spin_lock_bh(&peer->lock);
		for (i = 0; i < peer->nrails; i++)
			if (peer->rails[i].timing)
				mem->nodes += timing;
		if (peer->ranks)
			mem->ranks += kmalloc_size_roundup(FTD_RANKS_SIZE(peer->ranks->room));
		spin_unlock_bh(&peer->lock);
	}
	rcu_read_unlock();
}

static void peer_free(struct ftd_peer *peer)
{
	int i;

	for (i = 0; i < peer->nrails; i++)
		kfree(peer->rails[i].timing);
	kfree(peer->ranks);
	kmem_cache_free(peer_caches[peer->nrails - 1], peer);
}

static void peer_free_rcu(struct rcu_head *rcu)
{
	peer_free(container_of(rcu, struct ftd_peer, rcu));
}

static struct ftd_peer *peer_alloc(u32 id, const union ftd_addr *addrs, u8 nrails)
{
	struct ftd_peer *peer;
	int i;

	if (WARN_ON(!nrails || nrails > FTD_MAX_RAILS))
		return NULL;
	/* Charged to whoever configures the node table: it may be a user namespace. */
	peer = kmem_cache_zalloc(peer_caches[nrails - 1], GFP_KERNEL_ACCOUNT);
	if (!peer)
		return NULL;
	peer->id = id;
	peer->nrails = nrails;
	spin_lock_init(&peer->lock);
	peer->state = FTD_NODE_UNKNOWN;
	for (i = 0; i < nrails; i++) {
		peer->rails[i].addr = addrs[i];
		peer->rails[i].node = id;
	}
	return peer;
}

/*
 * What we know of the node moves from old to its replacement peer (not yet
 * published): everything but our streams to it. A rail's receive position
 * moves by rail index, the stream the node's frames name (its seqs there
 * only grow, so a frame captured before stays stale); what belongs to a
 * link (last heard, down, reports) moves with its address. Our streams
 * start a new epoch here, above any floor old gave out in a PROBE_ACK
 * before the move. old->lock held; old forwards to peer from now on.
 */
static void peer_carry(struct ftd_net *fn, struct ftd_peer *peer, struct ftd_peer *old)
{
	int i, o_rail;

	lockdep_assert_held(&old->lock);
	peer->state = old->state;
	peer->incarnation = old->incarnation;
	peer->last_heard_ns = old->last_heard_ns;
	peer->baseline_ns = old->baseline_ns;
	peer->fence_sent_ns = old->fence_sent_ns;
	peer->burst_counted_ns = old->burst_counted_ns;
	peer->live_since_ns = READ_ONCE(old->live_since_ns);
	peer->watch_gen = old->watch_gen;
	peer->dead_told = old->dead_told;
	peer->ranks = old->ranks;
	old->ranks = NULL;
	peer->slow = old->slow;
	peer->votes = old->votes;
	peer->tx = old->tx;
	peer->hb_tick = old->hb_tick;
	peer->fresh = old->fresh;
	peer->relay = old->relay;
	memset(&old->relay, 0, sizeof(old->relay));	/* answered once, by peer */
	peer->rx_badmac = old->rx_badmac;
	peer->rx_stale = old->rx_stale;
	peer->rx_replay = old->rx_replay;
	peer->rx_unproven = old->rx_unproven;
	peer->badmac_ns = old->badmac_ns;
	peer->key_id = old->key_id;
	peer->view_pending = old->view_pending;
	peer->view_sent_ns = old->view_sent_ns;
	peer->digest_pending = old->digest_pending;
	peer->digest = old->digest;
	peer->contact_sent_ns = old->contact_sent_ns;
	peer->contact_answered_ns = old->contact_answered_ns;
	for (i = 0; i < min(peer->nrails, old->nrails); i++) {
		peer->rails[i].rx_seq = old->rails[i].rx_seq;
		peer->rails[i].rx_tx_ns = old->rails[i].rx_tx_ns;
		peer->rails[i].rx = old->rails[i].rx;
		peer->rails[i].lost = old->rails[i].lost;
	}
	for (i = 0; i < peer->nrails; i++) {
		struct ftd_rail *r = &peer->rails[i];
		struct ftd_rail *o;

		o_rail = ftd_peer_rail_of(old, &r->addr);
		if (o_rail < 0)
			continue;	/* a new link: never heard, never reported */
		o = &old->rails[o_rail];
		if (old->rails_down & BIT(o_rail))
			peer->rails_down |= BIT(i);
		r->report_key = o->report_key;
		r->back = o->back;
		r->last_heard_ns = o->last_heard_ns;
		r->stamp = o->stamp;
		r->timing = o->timing;	/* old is freed without it */
		o->timing = NULL;
	}
	ftd_peer_start_streams(fn, peer);
	WRITE_ONCE(old->successor, peer);
}

/*
 * The ring for the node table after a change, built only while the
 * instance is up: down, nothing reads it, and it is built once when the
 * instance comes up (net.c). A cold `ftctl apply` adds its nodes one at a
 * time, and a build each was O(N^2) in all: 16,000 nodes took 139 s in
 * the emulated guest (bench/memory.sh). NULL when down; ERR_PTR: no memory.
 */
static struct ftd_members *ring_prepare(struct ftd_net *fn, const struct ftd_peer *drop,
					struct ftd_peer *add)
{
	struct ftd_members *m;

	if (!fn->up)
		return NULL;
	m = ftd_members_prepare(fn, drop, add);
	return m ?: ERR_PTR(-ENOMEM);
}

/* Down, the ring of the last time up goes: it may hold a peer freed now. */
static void ring_publish(struct ftd_net *fn, struct ftd_members *m)
{
	if (m)
		ftd_members_publish(fn, m);
	else
		ftd_members_free(fn);
}

int ftd_peer_add(struct ftd_net *fn, u32 id, const union ftd_addr *addrs, u8 nrails,
		 struct netlink_ext_ack *extack)
{
	struct ftd_peer *peer, *old;
	struct ftd_members *m;
	u32 owner;
	int i;

	lockdep_assert_held(&fn->lock);

	/* An address identifies the sender of a frame: it must be unique. */
	for (i = 0; i < nrails; i++) {
		owner = ftd_addrs_owner(fn, &addrs[i]);
		if (owner != FTD_NODE_NONE && owner != id) {
			NL_SET_ERR_MSG_MOD(extack, "address already belongs to another node");
			return -EEXIST;
		}
	}

	/* Re-applying an unchanged node keeps its state and statistics. */
	old = xa_load(&fn->peers, id);
	if (old && old->nrails == nrails) {
		for (i = 0; i < nrails; i++)
			if (!ftd_addr_equal(&addrs[i], &old->rails[i].addr))
				break;
		if (i == nrails)
			return 0;
	}

	if (!old && fn->n_peers >= ftd_max_nodes(fn)) {
		if (ftd_net_owned_by_init_ns(fn))
			NL_SET_ERR_MSG_MOD(extack, "the node table is full (module parameter max_nodes)");
		else
			NL_SET_ERR_MSG_MOD(extack,
				"the node table is full (in a user namespace: module parameter userns_max_nodes)");
		return -ENOSPC;
	}
	peer = peer_alloc(id, addrs, nrails);
	if (!peer)
		return -ENOMEM;
	if (!old)
		ftd_peer_start_streams(fn, peer);
	peer->self = fn->cfg.node == id;
	if (peer->self)
		peer->state = FTD_NODE_SELF;

	/* Everything that can fail, before anything changes. */
	m = ring_prepare(fn, old, peer);
	if (IS_ERR(m))
		goto nomem;
	if (ftd_addrs_add(fn, peer)) {
		if (m)
			ftd_members_discard(m);
		goto nomem;
	}
	if (!old && xa_reserve(&fn->peers, id, GFP_KERNEL_ACCOUNT)) {
		ftd_addrs_del(fn, peer);
		if (m)
			ftd_members_discard(m);
		goto nomem;
	}
	/*
	 * A replaced node's state moves under its lock: a change made to old
	 * after the move finds old->successor (ftd_peer_lock_current), also
	 * before the store below makes peer the one found by id.
	 */
	if (old) {
		spin_lock_bh(&old->lock);
		peer_carry(fn, peer, old);
		if (peer->self)
			peer->state = FTD_NODE_SELF;
		else if (peer->state == FTD_NODE_SELF)
			peer->state = FTD_NODE_UNKNOWN;	/* no longer us: until heard */
		spin_unlock_bh(&old->lock);
	}
	/* A reserved or occupied slot: the store allocates nothing. */
	WARN_ON(xa_is_err(xa_store(&fn->peers, id, peer, GFP_KERNEL)));
	ring_publish(fn, m);
	if (old) {
		ftd_addrs_del(fn, old);
		call_rcu(&old->rcu, peer_free_rcu);	/* unpublished everywhere */
	} else {
		fn->n_peers++;
	}
	spin_lock_bh(&peer->lock);
	ftd_status_node(fn, peer, !old);
	spin_unlock_bh(&peer->lock);
	/* It may never send to us (we do not observe it): ask it to prove itself. */
	if (!peer->self)
		ftd_fresh_probe_kick(fn);
	return 0;
nomem:
	peer_free(peer);
	return -ENOMEM;
}

int ftd_peer_del(struct ftd_net *fn, u32 id)
{
	struct ftd_members *m;
	struct ftd_peer *peer;

	lockdep_assert_held(&fn->lock);
	peer = xa_load(&fn->peers, id);
	if (!peer)
		return -ENOENT;
	m = ring_prepare(fn, peer, NULL);
	if (IS_ERR(m))
		return -ENOMEM;
	/* Who holds it still (another CPU, under RCU) tells nothing more of it. */
	spin_lock_bh(&peer->lock);
	peer->deleted = true;
	spin_unlock_bh(&peer->lock);
	xa_erase(&fn->peers, id);
	ftd_addrs_del(fn, peer);
	ring_publish(fn, m);
	fn->n_peers--;
	ftd_status_node_del(fn, id);
	call_rcu(&peer->rcu, peer_free_rcu);	/* unpublished everywhere */
	return 0;
}

void ftd_peer_del_all(struct ftd_net *fn)
{
	struct ftd_peer *peer;
	unsigned long id;

	lockdep_assert_held(&fn->lock);
	/* The ring is gone first (ftd_members_free): nothing else points here. */
	WARN_ON(rcu_access_pointer(fn->members));
	xa_for_each(&fn->peers, id, peer) {
		xa_erase(&fn->peers, id);
		ftd_addrs_del(fn, peer);
		call_rcu(&peer->rcu, peer_free_rcu);
	}
	fn->n_peers = 0;
}

void ftd_peer_mark_self(struct ftd_net *fn)
{
	struct ftd_peer *peer;
	unsigned long id;

	lockdep_assert_held(&fn->lock);
	xa_for_each(&fn->peers, id, peer) {
		spin_lock_bh(&peer->lock);
		peer->self = id == fn->cfg.node;
		if (peer->self)
			peer->state = FTD_NODE_SELF;
		else if (peer->state == FTD_NODE_SELF)
			peer->state = FTD_NODE_UNKNOWN;
		ftd_status_node(fn, peer, false);
		spin_unlock_bh(&peer->lock);
		ftd_members_sync(fn, peer);
	}
}

void ftd_peer_start_streams(struct ftd_net *fn, struct ftd_peer *peer)
{
	u64 first = ftd_seq_epoch_start(atomic_inc_return(&fn->seq_epoch));
	int i;

	for (i = 0; i < peer->nrails; i++)
		atomic64_set(&peer->rails[i].tx_seq, first);
}

u64 ftd_peer_restart_streams(struct ftd_net *fn, struct ftd_peer *peer)
{
	u64 floor = ftd_seq_epoch_start(atomic_inc_return(&fn->seq_epoch)), cur;
	int i;

	/* Never backwards, even racing the timer's increments: a max. */
	for (i = 0; i < peer->nrails; i++)
		do {
			cur = atomic64_read(&peer->rails[i].tx_seq);
		} while (cur < floor && atomic64_cmpxchg(&peer->rails[i].tx_seq, cur, floor) != cur);
	return floor;
}

struct ftd_rank_table *ftd_peer_new_incarnation(struct ftd_peer *peer, u32 incarnation)
{
	struct ftd_rank_table *old = peer->ranks;
	int i;

	lockdep_assert_held(&peer->lock);
	peer->incarnation = incarnation;
	peer->rails_down = 0;
	peer->votes.n = 0;
	peer->slow = (struct ftd_slowness){};
	/* A new incarnation is a first contact of its own (repair.c). */
	peer->contact_sent_ns = 0;
	peer->contact_answered_ns = 0;
	peer->ranks = NULL;	/* the old incarnation's: the caller's now */
	for (i = 0; i < peer->nrails; i++) {
		peer->rails[i].rx_seq = 0;
		peer->rails[i].report_key = 0;
	}
	return old;
}

void ftd_peer_reset_all(struct ftd_net *fn)
{
	struct ftd_peer *peer;
	unsigned long id;
	int i;

	lockdep_assert_held(&fn->lock);
	xa_for_each(&fn->peers, id, peer) {
		spin_lock_bh(&peer->lock);
		peer->state = peer->self ? FTD_NODE_SELF : FTD_NODE_UNKNOWN;
		/*
		 * What it proved, its incarnation and its streams' positions
		 * survive our restart: frames captured before it stay stale.
		 */
		if (peer->self)
			peer->incarnation = fn->incarnation;
		/* The sweep asks every member at once, whenever it last did. */
		peer->fresh.ask.probe_ns = 0;
		peer->view_pending = 0;
		peer->digest_pending = false;
		peer->contact_sent_ns = 0;
		peer->contact_answered_ns = 0;
		peer->last_heard_ns = 0;
		WRITE_ONCE(peer->badmac_ns, 0);
		peer->baseline_ns = 0;
		peer->fence_sent_ns = 0;
		kfree(peer->ranks);	/* starts over small (proto/ranks.h) */
		peer->ranks = NULL;
		peer->rails_down = 0;
		peer->votes.n = 0;
		peer->slow = (struct ftd_slowness){};
		for (i = 0; i < peer->nrails; i++) {
			struct ftd_rail *r = &peer->rails[i];

			r->last_heard_ns = 0;
			r->stamp = FTD_STAMP_NONE;
			kfree(r->timing);	/* until it is heard again */
			r->timing = NULL;
		}
		ftd_status_node(fn, peer, true);
		spin_unlock_bh(&peer->lock);
		ftd_members_sync(fn, peer);	/* out of the ring until heard */
	}
}
