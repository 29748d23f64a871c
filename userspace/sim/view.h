/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What each node knows, and the ring each node sees.
 *
 * The module keeps, per node, a state for every member and its own ring of
 * live members (kmod/members.c): at 100k nodes that is 100k rings of 100k
 * entries. The simulator keeps one shared struct ftd_ring (the module's
 * kmod/proto/ring.c) and, per node, only what can differ: which deaths (and
 * rank deaths) it has learnt, one bit per "item" in a small table of the
 * deaths declared in the run. The shared ring holds dead the items known to
 * more than half the nodes; to answer a query for node v, the ring is
 * flipped to v's knowledge for the items where v differs (a few, while a
 * notice is spreading), queried with the module's functions, and flipped
 * back. Every answer is thus exactly what v's own ring would give.
 *
 * Successors and predecessors are asked at every tick of every node and
 * change only when the node's view does: they are cached per node, valid
 * while neither the shared ring nor the node's knowledge changed.
 *
 * The same bits are the deduplication state of the broadcast: the module
 * forwards a notice only if it changes the subject's state (dissem.c), i.e.
 * only if the bit was clear.
 */
#ifndef FTD_SIM_VIEW_H
#define FTD_SIM_VIEW_H

#include "proto/ring.h"
#include "proto/span.h"

enum sim_item_kind {
	SIM_ITEM_NODE_DEAD,	/* a node held dead: it leaves the ring */
	SIM_ITEM_PROC_DEAD,	/* a rank of a node died: no effect on the ring */
};

struct sim_item {
	u32 node;	/* subject (position) */
	u8 kind;
	u32 knowers;	/* nodes that know it */
	u32 job, rank, regid;	/* SIM_ITEM_PROC_DEAD */
};

struct sim_view {
	u32 n;
	struct ftd_ring ring;
	void *ring_mem;
	u32 cap, n_items, words;
	struct sim_item *items;
	u64 *known;		/* n x words bits: node v knows item i */
	u64 *ref;		/* words: items the shared ring holds dead */
	u64 *node_items;	/* words: items that shape the ring */
	int32_t *item_of_node;	/* n: the NODE_DEAD item of a node, or -1 */
	u32 *dead_held;		/* n: NODE_DEAD items each node knows (its ring's live: n - it) */
	u32 *flipped;		/* cap: scratch, items flipped for one query */
	u64 flips;		/* ring flips done for queries (cost statistic) */
	/* per-node cache of successors and predecessors */
	u32 k;
	u32 epoch;		/* bumped whenever the shared ring changes */
	u32 *cache_epoch;	/* n: epoch of the cached entries, 0: none */
	u32 *cache;		/* n x 2k: k successors, then k predecessors */
	u8 *cache_n;		/* n x 2: how many of each */
};

/* n nodes, every one live, at most cap items, k observers. */
int sim_view_init(struct sim_view *v, u32 n, u32 cap, u32 k);
void sim_view_free(struct sim_view *v);

/* The item of node's death (created if need be), or -1 when the table is full. */
int32_t sim_view_node_item(struct sim_view *v, u32 node);
/* The item of a rank death (created if need be), or -1. */
int32_t sim_view_proc_item(struct sim_view *v, u32 node, u32 job, u32 rank, u32 regid);
/* The item of node's death if there is one, else -1. */
static inline int32_t sim_view_find_node(const struct sim_view *v, u32 node)
{
	return v->item_of_node[node];
}

static inline bool sim_view_knows(const struct sim_view *v, u32 node, u32 item)
{
	return v->known[(size_t)node * v->words + item / 64] >> (item % 64) & 1;
}

/* Does node hold the node at pos dead? */
static inline bool sim_view_holds_dead(const struct sim_view *v, u32 node, u32 pos)
{
	int32_t item = sim_view_find_node(v, pos);

	return item >= 0 && sim_view_knows(v, node, (u32)item);
}

/* node learns item (it must not know it yet). */
void sim_view_learn(struct sim_view *v, u32 node, u32 item);

/* The module's ring queries, as node sees its ring (ring.h); k as at init. */
u32 sim_view_successors(struct sim_view *v, u32 node, u32 *out);
u32 sim_view_predecessors(struct sim_view *v, u32 node, u32 *out);
u32 sim_view_fingers(struct sim_view *v, u32 node, u32 *out, u32 max);
/* The k live predecessors of position pos (live or not), as node sees its ring. */
u32 sim_view_predecessors_of(struct sim_view *v, u32 node, u32 pos, u32 *out);
/* The k live successors of position pos (its observers), as node sees its ring. */
u32 sim_view_successors_of(struct sim_view *v, u32 node, u32 pos, u32 *out);
/* Live members in node's ring, itself included. */
u32 sim_view_live(struct sim_view *v, u32 node);
/* Live members in node's ring, and the lowest position of them (*lowest). */
u32 sim_view_live_lowest(struct sim_view *v, u32 node, u32 *lowest);
/* Up to max live members of node's ring in turn from *cursor, not node (ftd_ring_sweep_live). */
u32 sim_view_sweep(struct sim_view *v, u32 node, u32 *cursor, u32 max, u32 *out);
/* Up to m random live members of node's ring, not node (ftd_ring_sample_live). */
u32 sim_view_sample(struct sim_view *v, u32 node, const u32 *rand, u32 m, u32 *out);
/* Up to max of node's own live predecessors (past k: the walk of proto/watch.h). */
u32 sim_view_predecessors_far(struct sim_view *v, u32 node, u32 max, u32 *out);
/* The shares of the arc (from, end) as node sees its ring (proto/span.h). */
u32 sim_view_span(struct sim_view *v, u32 node, u32 from, u32 end, struct ftd_span_share *out,
		  u32 max);

#endif
