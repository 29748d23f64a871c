/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The ring of members: members sorted by node id, some of them live (not
 * declared dead, not left). Each node heartbeats to its k live successors
 * and observes its k live predecessors; notices travel along fingers at
 * live distances 1, 2, 4, ... (a logarithmic-degree overlay). When a node
 * dies or leaves, it stops being live and the ring heals around it.
 *
 * Liveness is a Fenwick tree over member positions, so that "the j-th live
 * member after position p" costs O(log N): the module and the simulator
 * (100k nodes) run this very code. The caller owns the memory and locking.
 */
#ifndef FTD_PROTO_RING_H
#define FTD_PROTO_RING_H

#include "compat.h"
#include <linux/ftdetect.h>	/* FTD_MAX_OBSERVERS: k */
#define FTD_MAX_FINGERS		32	/* log2 of any u32 ring */

struct ftd_ring {
	u32 n;		/* members */
	u32 live;	/* live members */
	u32 *tree;	/* n + 1 entries, Fenwick tree of liveness (1-based) */
	u8 *is_live;	/* n entries */
};

/* Bytes of memory a ring of n members needs (tree + flags). */
static inline size_t ftd_ring_mem_size(u32 n)
{
	return (size_t)(n + 1) * sizeof(u32) + n;
}

/* Lay the ring over mem (ftd_ring_mem_size(n) bytes), every member live. */
void ftd_ring_init(struct ftd_ring *r, u32 n, void *mem);

void ftd_ring_set_live(struct ftd_ring *r, u32 pos, bool live);

static inline bool ftd_ring_is_live(const struct ftd_ring *r, u32 pos)
{
	return r->is_live[pos];
}

/*
 * Positions of the up to k live members after (successors) or before
 * (predecessors) position pos, nearest first, never pos itself. pos itself
 * need not be live. Returns how many were written.
 */
u32 ftd_ring_successors(const struct ftd_ring *r, u32 pos, u32 k, u32 *out);
u32 ftd_ring_predecessors(const struct ftd_ring *r, u32 pos, u32 k, u32 *out);

/*
 * The overlay: live members at live distances 1, 2, 4, ... after pos,
 * distinct, never pos. Returns how many were written (at most max).
 * Forwarding a notice the first time it is seen to these reaches every live
 * member in O(log N) hops, over many disjoint paths.
 */
u32 ftd_ring_fingers(const struct ftd_ring *r, u32 pos, u32 *out, u32 max);

/* Position of the j-th live member (0 <= j < r->live), in ring order. */
u32 ftd_ring_random_live(const struct ftd_ring *r, u32 j);

/*
 * Up to max live members other than self, from the cursor-th live one on
 * in steps of about live / phi (coprime to live), each at most once; the
 * cursor moves past them. A node that hears nobody asks members in turn:
 * it reaches every live one within live/max rounds, where random picks
 * could miss the only one left alive for long (and its lease would run
 * out, proto/lease.h). Not in ring order: next to a run of silent members
 * (a rack, a third of the ring cut off, not yet declared) asks in ring
 * order met only the run for as many rounds as it is long, and the lease
 * of a node on the side that goes on ran out (ftdsim).
 */
u32 ftd_ring_sweep_live(const struct ftd_ring *r, u32 self, u32 *cursor, u32 max, u32 *out);

/*
 * Up to m distinct live members other than self, drawn uniformly (Floyd's
 * sampling over live distances from self): rand holds m random numbers,
 * the caller's entropy. Returns how many were written: m, or all the
 * others when there are fewer.
 */
u32 ftd_ring_sample_live(const struct ftd_ring *r, u32 self, const u32 *rand, u32 m, u32 *out);

/* Does observer receive target's heartbeats (is it one of its k live successors)? */
bool ftd_ring_observes(const struct ftd_ring *r, u32 observer, u32 target, u32 k);

#endif
