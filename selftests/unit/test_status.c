// SPDX-License-Identifier: GPL-2.0
/*
 * The status table: the module's writer (kmod/proto/status.c, the very code
 * the module runs) and libftdetect's reader (userspace/lib/status.c), on a
 * table in plain memory. What the table says after each kind of event and
 * change, its capacity rules, the reader's bounds against a torn or corrupt
 * table, and a reader racing a writer. The module's side (mmap, hooks,
 * locking) is tested in the VM: selftests/ftdetect/status_test.c and
 * selftests/net/status.sh.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "harness.h"
#include "proto/status.h"
/* The reader is library-private: compiled in here (see the Makefile). */
#include "lib/status.c"

struct tab {
	struct ftd_stab t;
	struct ftd__stab r;
	void *area;
	size_t size;
	u32 *fifo;
	u8 *queued;
	u64 seq;		/* event numbering */
};

static int tab_new(struct tab *x, u32 nodes, u32 ranks)
{
	memset(x, 0, sizeof(*x));
	x->size = ftd_stab_size(nodes, ranks, 4096);
	if (!x->size)
		return -1;
	x->area = aligned_alloc(4096, x->size);
	x->fifo = calloc(ranks, sizeof(u32));
	x->queued = calloc(ranks, 1);
	if (!x->area || !x->fifo || !x->queued)
		return -1;
	memset(x->area, 0, x->size);
	ftd_stab_init(&x->t, x->area, (u32)x->size, nodes, ranks, x->fifo, x->queued);
	return ftd__stab_open(&x->r, x->area, x->size);
}

static void tab_free(struct tab *x)
{
	free(x->area);
	free(x->fifo);
	free(x->queued);
}

/* Write sections, as the module brackets each hook. */
static void node_set(struct tab *x, u32 id, u8 state, u32 inc, bool forget)
{
	ftd_stab_begin(&x->t);
	ftd_stab_node_set(&x->t, id, state, inc, 0, 1, forget);
	ftd_stab_end(&x->t);
}

static void reg(struct tab *x, u32 node, u32 inc, u32 job, u32 rank, u32 regid, bool local)
{
	struct ftd_stab_ref ref = { .regid = regid, .local = local };

	ftd_stab_begin(&x->t);
	ftd_stab_rank_reg(&x->t, node, inc, job, rank, &ref);
	ftd_stab_end(&x->t);
}

/* Emit an event: numbered, then applied; ref for rank events. */
static u64 event(struct tab *x, u16 type, u32 node, u32 inc, u32 job, u32 rank, u32 regid,
		 bool local)
{
	struct ftd_stab_ref ref = { .regid = regid, .local = local };
	struct ftd_event ev = {
		.type = type, .node = node, .incarnation = inc, .job = job, .rank = rank,
		.rail = FTD_RAIL_NONE, .origin = FTD_NODE_NONE, .seq = ++x->seq,
	};

	ftd_stab_begin(&x->t);
	ftd_stab_event(&x->t, &ev, type == FTD_EV_PROC_DEAD || type == FTD_EV_PROC_EXIT ||
				   type == FTD_EV_RANKS_DEAD ? &ref : NULL);
	ftd_stab_end(&x->t);
	return ev.seq;
}

static u64 rail_event(struct tab *x, u16 type, u32 node, u32 inc, u32 rail)
{
	struct ftd_event ev = {
		.type = type, .node = node, .incarnation = inc, .rail = rail, .seq = ++x->seq,
	};

	ftd_stab_begin(&x->t);
	ftd_stab_event(&x->t, &ev, NULL);
	ftd_stab_end(&x->t);
	return ev.seq;
}

TEST(layout_is_what_the_header_says)
{
	struct tab x;
	struct ftd_status_info info;

	ASSERT_EQ(0, tab_new(&x, 100, 1000));
	EXPECT_EQ(0, x.size % 4096);
	EXPECT_EQ(128, sizeof(struct ftd_status_hdr));
	EXPECT_EQ(32, sizeof(struct ftd_status_node));
	EXPECT_EQ(48, sizeof(struct ftd_status_rank));
	EXPECT_EQ(FTD_STATUS_MAGIC, x.t.hdr->magic);
	EXPECT_EQ(x.size, x.t.hdr->size);
	EXPECT_EQ(1024, x.t.hdr->bucket_count);
	EXPECT_EQ(0, x.t.hdr->node_off % 64);
	EXPECT_EQ(0, x.t.hdr->rank_off % 64);
	EXPECT_TRUE(x.t.hdr->rank_off >= x.t.hdr->node_off + 100 * 32);
	EXPECT_TRUE(x.t.hdr->bucket_off >= x.t.hdr->rank_off + 1000 * 48);
	EXPECT_TRUE(x.t.hdr->bucket_off + 1024 * 4 <= x.size);
	EXPECT_EQ(0, x.t.hdr->seq);
	ASSERT_EQ(0, ftd__stab_info(&x.r, &info));
	EXPECT_EQ(FTD_NODE_NONE, info.local_node);
	EXPECT_EQ(0, info.changes);
	EXPECT_EQ(0, ftd_stab_size(0, 10, 4096));
	EXPECT_EQ(0, ftd_stab_size(10, FTD_STAB_MAX_RANKS + 1, 4096));
	/* The module's default fits the documented 3.5 MiB. */
	EXPECT_TRUE(ftd_stab_size(FTD_STATUS_DEFAULT_NODES, FTD_STATUS_DEFAULT_RANKS, 4096) <
		    (size_t)(3.5 * 1024 * 1024));
	tab_free(&x);
}

TEST(the_reader_refuses_what_it_cannot_trust)
{
	struct ftd__stab r;
	struct tab x;

	ASSERT_EQ(0, tab_new(&x, 10, 10));
	EXPECT_EQ(-EPROTO, ftd__stab_open(&r, x.area, 64));	/* shorter than a header */
	EXPECT_EQ(-EPROTO, ftd__stab_open(&r, x.area, x.size - 4096));	/* shorter than size */
	x.t.hdr->version = FTD_STATUS_VERSION + 1;
	EXPECT_EQ(-EPROTO, ftd__stab_open(&r, x.area, x.size));
	x.t.hdr->version = FTD_STATUS_VERSION;
	x.t.hdr->rank_cap = 1 << 30;				/* beyond the table */
	EXPECT_EQ(-EPROTO, ftd__stab_open(&r, x.area, x.size));
	x.t.hdr->rank_cap = 10;
	x.t.hdr->bucket_count = 12;				/* not a power of two */
	EXPECT_EQ(-EPROTO, ftd__stab_open(&r, x.area, x.size));
	x.t.hdr->bucket_count = 16;
	x.t.hdr->node_size = 16;				/* entries only grow */
	EXPECT_EQ(-EPROTO, ftd__stab_open(&r, x.area, x.size));
	x.t.hdr->node_size = 32;
	EXPECT_EQ(0, ftd__stab_open(&r, x.area, x.size));
	x.t.hdr->magic = 0;
	EXPECT_EQ(-EPROTO, ftd__stab_open(&r, x.area, x.size));
	tab_free(&x);
}

TEST(the_hash_spreads_a_job_over_the_buckets)
{
	static u32 count[65536];
	u32 i, worst = 0, job;

	for (job = 1; job <= 4; job++)
		for (i = 0; i < 16384; i++)
			count[ftd_status_rank_hash(job, i) & 65535]++;
	for (i = 0; i < 65536; i++)
		worst = count[i] > worst ? count[i] : worst;
	/* 65536 keys in 65536 buckets: a random hash's longest chain is ~8. */
	EXPECT_TRUE(worst <= 10) TH_LOG("longest chain %u", worst);
	EXPECT_NE(ftd_status_rank_hash(1, 2), ftd_status_rank_hash(2, 1));
}

TEST(nodes_follow_their_events)
{
	struct ftd_node_status n;
	struct ftd_status_info info;
	struct tab x;
	u64 s;

	ASSERT_EQ(0, tab_new(&x, 16, 16));
	node_set(&x, 1, FTD_NODE_SELF, 7, false);
	node_set(&x, 3, FTD_NODE_UNKNOWN, 0, false);
	node_set(&x, 2, FTD_NODE_UNKNOWN, 0, false);
	EXPECT_EQ(-ENOENT, ftd__stab_node(&x.r, 4, &n));

	event(&x, FTD_EV_NODE_ALIVE, 2, 100, 0, 0, 0, false);
	ASSERT_EQ(0, ftd__stab_node(&x.r, 2, &n));
	EXPECT_EQ(FTD_NODE_ALIVE, n.state);
	EXPECT_EQ(100, n.incarnation);
	event(&x, FTD_EV_NODE_SUSPECT, 2, 100, 0, 0, 0, false);
	s = event(&x, FTD_EV_NODE_DEAD, 2, 100, 0, 0, 0, false);
	ASSERT_EQ(0, ftd__stab_node(&x.r, 2, &n));
	EXPECT_EQ(FTD_NODE_DEAD, n.state);
	EXPECT_EQ(s, n.event_seq);
	/* A late report about an older incarnation changes nothing. */
	event(&x, FTD_EV_NODE_ALIVE, 2, 99, 0, 0, 0, false);
	ASSERT_EQ(0, ftd__stab_node(&x.r, 2, &n));
	EXPECT_EQ(FTD_NODE_DEAD, n.state);
	/* It came back. */
	event(&x, FTD_EV_NODE_RESTORED, 2, 101, 0, 0, 0, false);
	ASSERT_EQ(0, ftd__stab_node(&x.r, 2, &n));
	EXPECT_EQ(FTD_NODE_ALIVE, n.state);
	EXPECT_EQ(101, n.incarnation);
	/* Rails, ours included; a new incarnation starts with every rail up. */
	rail_event(&x, FTD_EV_IFACE_DEAD, 2, 101, 1);
	rail_event(&x, FTD_EV_IFACE_DEAD, 1, 7, 0);
	ASSERT_EQ(0, ftd__stab_node(&x.r, 2, &n));
	EXPECT_EQ(2, n.rails_down);
	ASSERT_EQ(0, ftd__stab_node(&x.r, 1, &n));
	EXPECT_EQ(1, n.rails_down);
	EXPECT_EQ(FTD_NODE_SELF, n.state);
	rail_event(&x, FTD_EV_IFACE_RESTORED, 1, 7, 0);
	event(&x, FTD_EV_NODE_ALIVE, 2, 102, 0, 0, 0, false);
	ASSERT_EQ(0, ftd__stab_node(&x.r, 2, &n));
	EXPECT_EQ(0, n.rails_down);
	ASSERT_EQ(0, ftd__stab_node(&x.r, 1, &n));
	EXPECT_EQ(0, n.rails_down);
	/* Whatever the others say, we are SELF. */
	event(&x, FTD_EV_NODE_DEAD, 1, 7, 0, 0, 0, false);
	ASSERT_EQ(0, ftd__stab_node(&x.r, 1, &n));
	EXPECT_EQ(FTD_NODE_SELF, n.state);
	event(&x, FTD_EV_FENCED, 1, 7, 0, 0, 0, false);

	ASSERT_EQ(0, ftd__stab_info(&x.r, &info));
	EXPECT_EQ(x.seq, info.event_seq);
	EXPECT_EQ(3, info.node_count);
	EXPECT_EQ(1, info.fenced);
	EXPECT_EQ(3 + x.seq, info.changes);	/* one per write section */
	EXPECT_EQ((int64_t)info.changes, ftd__stab_changes(&x.r));
	/* Sorted by id, whatever the order they came in. */
	EXPECT_EQ(1, x.t.nodes[0].id);
	EXPECT_EQ(2, x.t.nodes[1].id);
	EXPECT_EQ(3, x.t.nodes[2].id);
	tab_free(&x);
}

TEST(ranks_live_and_end_as_the_events_say)
{
	struct ftd_rank_status rs;
	struct ftd_status_info info;
	struct tab x;
	u64 s;

	ASSERT_EQ(0, tab_new(&x, 16, 64));
	node_set(&x, 1, FTD_NODE_SELF, 7, false);
	event(&x, FTD_EV_NODE_ALIVE, 2, 100, 0, 0, 0, false);
	reg(&x, 2, 100, 5, 0, 1, false);
	reg(&x, 2, 100, 5, 1, 2, false);
	reg(&x, 2, 100, 5, 1, 2, false);		/* repeated: one entry */
	reg(&x, 1, 7, 5, 2, 40, true);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 5, 1, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	EXPECT_EQ(2, rs.node);
	EXPECT_EQ(FTD_NODE_ALIVE, rs.node_state);
	EXPECT_EQ(0, rs.local);
	EXPECT_EQ(-ENOENT, ftd__stab_rank(&x.r, 5, 3, FTD_UID_NONE, &rs));
	EXPECT_EQ(-ENOENT, ftd__stab_rank(&x.r, 6, 1, FTD_UID_NONE, &rs));

	s = event(&x, FTD_EV_PROC_DEAD, 2, 100, 5, 1, 2, false);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 5, 1, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_DEAD, rs.state);
	EXPECT_EQ(FTD_EV_PROC_DEAD, rs.cause);
	EXPECT_EQ(s, rs.event_seq);
	/* A late registration of an ended one does not revive it. */
	reg(&x, 2, 100, 5, 1, 2, false);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 5, 1, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_DEAD, rs.state);

	/* Local: matched by regid alone. */
	event(&x, FTD_EV_PROC_EXIT, 1, 8, 5, 2, 40, true);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 5, 2, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_EXITED, rs.state);
	EXPECT_EQ(1, rs.local);
	EXPECT_EQ(FTD_NODE_SELF, rs.node_state);

	/* The node dies with rank 0, declared at a higher incarnation. */
	event(&x, FTD_EV_NODE_DEAD, 2, 101, 0, 0, 0, false);
	s = event(&x, FTD_EV_RANKS_DEAD, 2, 101, 5, 0, 1, false);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 5, 0, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_DEAD, rs.state);
	EXPECT_EQ(FTD_EV_RANKS_DEAD, rs.cause);
	EXPECT_EQ(s, rs.event_seq);
	EXPECT_EQ(FTD_NODE_DEAD, rs.node_state);

	/* An end that overtook its registration. */
	event(&x, FTD_EV_PROC_EXIT, 3, 5, 9, 9, 77, false);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 9, 9, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_EXITED, rs.state);
	reg(&x, 3, 5, 9, 9, 77, false);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 9, 9, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_EXITED, rs.state);

	/* The same rank again, elsewhere: the live registration is believed. */
	reg(&x, 4, 50, 5, 1, 1, false);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 5, 1, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	EXPECT_EQ(4, rs.node);
	EXPECT_EQ(FTD_NODE_UNKNOWN, rs.node_state);	/* node 4 not in the table */

	ASSERT_EQ(0, ftd__stab_info(&x.r, &info));
	EXPECT_EQ(1, info.ranks_alive);
	EXPECT_EQ(5, info.rank_count);
	tab_free(&x);
}

TEST(a_restart_or_a_forget_makes_live_ranks_stale)
{
	struct ftd_rank_status rs;
	struct tab x;

	ASSERT_EQ(0, tab_new(&x, 16, 64));
	node_set(&x, 1, FTD_NODE_SELF, 7, false);
	event(&x, FTD_EV_NODE_ALIVE, 2, 100, 0, 0, 0, false);
	reg(&x, 2, 100, 1, 0, 1, false);
	reg(&x, 2, 100, 1, 1, 2, false);
	event(&x, FTD_EV_PROC_EXIT, 2, 100, 1, 1, 2, false);
	reg(&x, 1, 7, 1, 2, 3, true);
	/* Node 2 restarted without anyone seeing it die. */
	node_set(&x, 2, FTD_NODE_ALIVE, 200, false);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 0, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_STALE, rs.state);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 1, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_EXITED, rs.state);		/* ended stays ended */
	/* Its view announces it again (same node, incarnation, regid): alive. */
	reg(&x, 2, 100, 1, 0, 1, false);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 0, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	/* Our instance restarted: every remote rank is stale, ours are not. */
	node_set(&x, 2, FTD_NODE_UNKNOWN, 0, true);
	node_set(&x, 1, FTD_NODE_SELF, 8, true);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 0, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_STALE, rs.state);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 2, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	/* Node removed from the table. */
	reg(&x, 2, 0, 1, 5, 9, false);
	ftd_stab_begin(&x.t);
	ftd_stab_node_del(&x.t, 2);
	ftd_stab_end(&x.t);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 5, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_STALE, rs.state);
	EXPECT_EQ(FTD_NODE_UNKNOWN, rs.node_state);
	EXPECT_EQ(1, x.t.hdr->ranks_alive);
	EXPECT_EQ(1, x.t.hdr->node_count);
	tab_free(&x);
}

TEST(a_full_rank_table_recycles_ended_entries_oldest_first_then_drops)
{
	struct ftd_rank_status rs;
	struct ftd_status_info info;
	struct tab x;
	u32 i;

	ASSERT_EQ(0, tab_new(&x, 4, 4));
	for (i = 0; i < 4; i++)
		reg(&x, 2, 1, 1, i, i + 1, false);
	event(&x, FTD_EV_PROC_DEAD, 2, 1, 1, 2, 3, false);	/* ended first */
	event(&x, FTD_EV_PROC_EXIT, 2, 1, 1, 0, 1, false);
	reg(&x, 2, 1, 1, 10, 11, false);			/* takes rank 2's slot */
	EXPECT_EQ(-ENOENT, ftd__stab_rank(&x.r, 1, 2, FTD_UID_NONE, &rs));
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 0, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_EXITED, rs.state);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 10, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	reg(&x, 2, 1, 1, 11, 12, false);			/* takes rank 0's */
	EXPECT_EQ(-ENOENT, ftd__stab_rank(&x.r, 1, 0, FTD_UID_NONE, &rs));
	ASSERT_EQ(0, ftd__stab_info(&x.r, &info));
	EXPECT_EQ(2, info.ranks_recycled);
	EXPECT_EQ(0, info.ranks_dropped);
	EXPECT_EQ(0, info.flags & FTD_STATUS_F_RANKS_FULL);
	/* Every slot alive: the next one is dropped, and says so. */
	reg(&x, 2, 1, 1, 12, 13, false);
	EXPECT_EQ(-EOVERFLOW, ftd__stab_rank(&x.r, 1, 12, FTD_UID_NONE, &rs));
	ASSERT_EQ(0, ftd__stab_info(&x.r, &info));
	EXPECT_EQ(1, info.ranks_dropped);
	EXPECT_TRUE(info.flags & FTD_STATUS_F_RANKS_FULL);
	EXPECT_EQ(4, info.ranks_alive);
	/* The live ones are all still there. */
	for (i = 1; i < 4; i++)
		EXPECT_EQ(0, ftd__stab_rank(&x.r, 1, i == 2 ? 10 : i, FTD_UID_NONE, &rs));
	/* A stale entry can be recycled; one announced again is skipped. */
	node_set(&x, 2, FTD_NODE_ALIVE, 2, false);		/* all four stale */
	reg(&x, 2, 1, 1, 1, 2, false);				/* rank 1 alive again */
	reg(&x, 2, 2, 1, 20, 21, false);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 1, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	ASSERT_EQ(0, ftd__stab_rank(&x.r, 1, 20, FTD_UID_NONE, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	tab_free(&x);
}

TEST(a_full_node_table_drops_and_says_so)
{
	struct ftd_node_status n;
	struct tab x;

	ASSERT_EQ(0, tab_new(&x, 2, 4));
	node_set(&x, 5, FTD_NODE_UNKNOWN, 0, false);
	node_set(&x, 9, FTD_NODE_UNKNOWN, 0, false);
	event(&x, FTD_EV_NODE_ALIVE, 7, 1, 0, 0, 0, false);
	EXPECT_EQ(-EOVERFLOW, ftd__stab_node(&x.r, 7, &n));
	EXPECT_EQ(-EOVERFLOW, ftd__stab_node(&x.r, 8, &n));	/* unknown, not absent */
	EXPECT_EQ(0, ftd__stab_node(&x.r, 9, &n));
	EXPECT_EQ(1, x.t.hdr->nodes_dropped);
	/* A removal makes room; the flag stays: something was lost once. */
	ftd_stab_begin(&x.t);
	ftd_stab_node_del(&x.t, 5);
	ftd_stab_end(&x.t);
	event(&x, FTD_EV_NODE_ALIVE, 7, 1, 0, 0, 0, false);
	EXPECT_EQ(0, ftd__stab_node(&x.r, 7, &n));
	EXPECT_EQ(FTD_NODE_ALIVE, n.state);
	EXPECT_TRUE(x.t.hdr->flags & FTD_STATUS_F_NODES_FULL);
	tab_free(&x);
}

TEST(the_reader_waits_out_a_write_and_gives_up_on_a_stuck_one)
{
	struct ftd_node_status n;
	struct tab x;
	uint64_t saved = ftd__stab_patience_ns;

	ASSERT_EQ(0, tab_new(&x, 4, 4));
	node_set(&x, 1, FTD_NODE_ALIVE, 1, false);
	ftd__stab_patience_ns = 20 * 1000 * 1000;
	ftd_stab_begin(&x.t);			/* a writer that never finishes */
	EXPECT_EQ(-EAGAIN, ftd__stab_node(&x.r, 1, &n));
	ftd_stab_end(&x.t);
	EXPECT_EQ(0, ftd__stab_node(&x.r, 1, &n));
	ftd__stab_patience_ns = saved;
	tab_free(&x);
}

TEST(a_corrupt_chain_cannot_trap_or_mislead_the_reader)
{
	struct ftd_rank_status rs;
	struct ftd_node_status n;
	struct tab x;
	u32 b;

	ASSERT_EQ(0, tab_new(&x, 4, 8));
	reg(&x, 2, 1, 1, 0, 1, false);
	/* The entry points at itself: a loop (as a torn read might see). */
	x.t.ranks[0].next = 1;
	EXPECT_EQ(0, ftd__stab_rank(&x.r, 1, 0, FTD_UID_NONE, &rs));
	/* A head beyond the entries in use is not followed. */
	b = ftd_status_rank_hash(1, 0) & (x.t.hdr->bucket_count - 1);
	x.t.buckets[b] = 1000;
	EXPECT_EQ(-ENOENT, ftd__stab_rank(&x.r, 1, 0, FTD_UID_NONE, &rs));
	/* A node count beyond the capacity is clamped. */
	x.t.hdr->node_count = 1u << 31;
	EXPECT_EQ(-ENOENT, ftd__stab_node(&x.r, 3, &n));
	tab_free(&x);
}

TEST(a_snapshot_holds_everything_with_the_node_of_each_rank)
{
	struct ftd_status_snapshot *snap = NULL;
	struct tab x;

	ASSERT_EQ(0, tab_new(&x, 8, 8));
	node_set(&x, 1, FTD_NODE_SELF, 7, false);
	event(&x, FTD_EV_NODE_ALIVE, 2, 100, 0, 0, 0, false);
	reg(&x, 2, 100, 3, 0, 1, false);
	reg(&x, 1, 7, 3, 1, 1, true);
	event(&x, FTD_EV_NODE_DEAD, 2, 100, 0, 0, 0, false);
	event(&x, FTD_EV_RANKS_DEAD, 2, 100, 3, 0, 1, false);
	ASSERT_EQ(0, ftd__stab_snapshot(&x.r, &snap));
	EXPECT_EQ(2, snap->n_nodes);
	EXPECT_EQ(2, snap->n_ranks);
	EXPECT_EQ(FTD_NODE_SELF, snap->nodes[0].state);
	EXPECT_EQ(FTD_NODE_DEAD, snap->nodes[1].state);
	EXPECT_EQ(FTD_RANK_DEAD, snap->ranks[0].state);
	EXPECT_EQ(FTD_NODE_DEAD, snap->ranks[0].node_state);
	EXPECT_EQ(FTD_RANK_ALIVE, snap->ranks[1].state);
	EXPECT_EQ(FTD_NODE_SELF, snap->ranks[1].node_state);
	EXPECT_EQ(x.seq, snap->info.event_seq);
	ftd_status_snapshot_free(snap);
	tab_free(&x);
}

/*
 * A writer moves every node to the next incarnation in one write section,
 * again and again; readers must never see two incarnations at once, nor
 * one go backwards.
 */
#define RACE_NODES 64
struct race {
	struct tab x;
	volatile int stop;
	u32 rounds;
};

static void *race_writer(void *arg)
{
	struct race *rc = arg;
	u32 g, i;

	for (g = 1; !rc->stop; g++) {
		ftd_stab_begin(&rc->x.t);
		for (i = 0; i < RACE_NODES; i++)
			ftd_stab_node_set(&rc->x.t, i + 1, FTD_NODE_ALIVE, g, (u8)g, 1, false);
		ftd_stab_end(&rc->x.t);
		rc->rounds = g;
		/* The module writes now and then, not back to back. */
		for (volatile int k = 0; k < 5000; k++)
			;
	}
	return NULL;
}

TEST(readers_racing_a_writer_see_whole_updates)
{
	struct ftd_status_snapshot *snap;
	struct ftd_node_status n;
	struct race rc = { 0 };
	pthread_t w;
	u32 last = 0, i, torn = 0, back = 0, reads = 0;
	int64_t changes = 0, c;
	time_t end;

	ASSERT_EQ(0, tab_new(&rc.x, RACE_NODES, 8));
	ASSERT_EQ(0, pthread_create(&w, NULL, race_writer, &rc));
	end = time(NULL) + 2;
	while (time(NULL) < end) {
		ASSERT_EQ(0, ftd__stab_snapshot(&rc.x.r, &snap));
		for (i = 1; i < snap->n_nodes; i++)
			if (snap->nodes[i].incarnation != snap->nodes[0].incarnation ||
			    snap->nodes[i].rails_down != (u8)snap->nodes[i].incarnation)
				torn++;
		if (snap->n_nodes && snap->nodes[0].incarnation < last)
			back++;
		if (snap->n_nodes)
			last = snap->nodes[0].incarnation;
		ftd_status_snapshot_free(snap);
		if (ftd__stab_node(&rc.x.r, 1 + reads % RACE_NODES, &n) == 0 &&
		    n.rails_down != (u8)n.incarnation)
			torn++;
		c = ftd__stab_changes(&rc.x.r);
		if (c < changes)
			back++;
		changes = c;
		reads++;
	}
	rc.stop = 1;
	pthread_join(w, NULL);
	EXPECT_EQ(0, torn);
	EXPECT_EQ(0, back);
	EXPECT_TRUE(rc.rounds > 100) TH_LOG("writer rounds %u", rc.rounds);
	EXPECT_TRUE(reads > 100) TH_LOG("reads %u", reads);
	TH_LOG("%u reads against %u writes", reads, rc.rounds);
	tab_free(&rc.x);
}

/* What a progress loop pays per check, on this host (not asserted). */
TEST(cost_of_a_read)
{
	struct ftd_rank_status rs;
	struct timespec a, b;
	struct tab x;
	const u32 n = 2000000;
	volatile int64_t sink = 0;
	u32 i;
	double ns_changes, ns_rank;

	ASSERT_EQ(0, tab_new(&x, 64, 4096));
	for (i = 0; i < 4096; i++)
		reg(&x, 1 + i % 64, 1, 1, i, i + 1, false);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		sink += ftd__stab_changes(&x.r);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ns_changes = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		sink += ftd__stab_rank(&x.r, 1, i % 4096, FTD_UID_NONE, &rs);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ns_rank = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n;
	TH_LOG("status changes %.1f ns, rank status %.1f ns (this build: make unit has ASan)",
	       ns_changes, ns_rank);
	(void)sink;
	tab_free(&x);
}

TEST_HARNESS_MAIN
