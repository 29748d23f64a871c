// SPDX-License-Identifier: GPL-2.0
/*
 * libftdetect_mpi's decision logic (userspace/mpi/group.c): which events
 * concern which ranks of an attached communicator.
 *
 * The group used by most tests, 8 ranks on 3 nodes, this process rank 1:
 *
 *   rank   0    1    2    3    4    5    6    7
 *   node   10   10   20   20   20   30   30   30
 *   id     7:0  7:1  7:2  7:3  7:4  7:5  7:6  7:7   (job 7, rank)
 *   state  -    self -    -    -    UNMONITORED (rank 5 never registered)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "group.h"

#define JOB 7
#define UID 1000	/* the job's owner */

static void make_group(struct ftd_group *g)
{
	static const uint32_t nodes[8] = { 10, 10, 20, 20, 20, 30, 30, 30 };
	struct ftd_member m[8];
	int i;

	for (i = 0; i < 8; i++) {
		m[i].node = nodes[i];
		m[i].job = JOB;
		m[i].rank = i;
		m[i].state = FTD_MEMBER_ALIVE;
		m[i].incarnation = 100 + nodes[i];
	}
	m[5].state = FTD_MEMBER_UNMONITORED;
	m[5].node = FTD_NODE_NONE;
	ftd_group_init(g, 8, 1, m, UID);
}

static struct ftd_event ev(uint16_t type, uint32_t node, uint32_t job, uint32_t rank)
{
	struct ftd_event e = {
		.version = FTD_EVENT_VERSION, .size = sizeof(e), .type = type,
		.node = node, .job = job, .rank = rank, .origin = FTD_NODE_NONE, .uid = UID,
		.incarnation = 100 + node,	/* make_group's members were attached at it */
	};
	return e;
}

/* apply, and return the ranks as a string "2,3,4" for comparison */
static enum ftd_verdict apply(struct ftd_group *g, struct ftd_event e, char *out)
{
	int ranks[8], n, i;
	enum ftd_verdict v = ftd_group_apply(g, &e, ranks, &n);

	out[0] = '\0';
	for (i = 0; i < n; i++)
		sprintf(out + strlen(out), "%s%d", i ? "," : "", ranks[i]);
	return v;
}

/*
 * Another user's rank that registered the same (job, rank) on another node
 * (the kernel refuses it on the same node) and died: not a member.
 */
TEST(another_uids_rank_is_not_a_member)
{
	struct ftd_group g;
	struct ftd_event e;
	char got[64];

	make_group(&g);
	e = ev(FTD_EV_PROC_DEAD, 20, JOB, 3);
	e.uid = UID + 1;
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, e, got));
	e.type = FTD_EV_PROC_EXIT;	/* nor does its clean exit stop the watch */
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, e, got));
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, ev(FTD_EV_PROC_DEAD, 20, JOB, 3), got));
	EXPECT_STREQ("3", got);
	ftd_group_free(&g);
}

TEST(proc_dead_reports_that_rank_once)
{
	struct ftd_group g;
	char r[64];

	make_group(&g);
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, ev(FTD_EV_PROC_DEAD, 20, JOB, 3), r));
	EXPECT_STREQ("3", r);
	/* the same death again, or its RANKS_DEAD: no news */
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_PROC_DEAD, 20, JOB, 3), r));
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_RANKS_DEAD, 20, JOB, 3), r));
	ftd_group_free(&g);
}

TEST(node_dead_reports_its_live_registered_ranks)
{
	struct ftd_group g;
	char r[64];

	make_group(&g);
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, ev(FTD_EV_PROC_DEAD, 20, JOB, 3), r));
	/* node 20: 3 is already failed, 2 and 4 are news */
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, ev(FTD_EV_NODE_DEAD, 20, 0, 0), r));
	EXPECT_STREQ("2,4", r);
	/* the RANKS_DEAD records that follow a NODE_DEAD are no news */
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_RANKS_DEAD, 20, JOB, 2), r));
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_RANKS_DEAD, 20, JOB, 4), r));
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_NODE_DEAD, 20, 0, 0), r));
	ftd_group_free(&g);
}

TEST(never_registered_rank_is_never_reported)
{
	struct ftd_group g;
	char r[64];

	make_group(&g);
	/* node 30 holds 5 (unmonitored), 6 and 7 */
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, ev(FTD_EV_NODE_DEAD, 30, 0, 0), r));
	EXPECT_STREQ("6,7", r);
	/* an event naming rank 5's would-be identity is not about it either */
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_PROC_DEAD, 30, JOB, 5), r));
	/* nor a node that is none */
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_NODE_DEAD, FTD_NODE_NONE, 0, 0), r));
	EXPECT_EQ(-1, ftd_group_find(&g, JOB, 5));
	ftd_group_free(&g);
}

TEST(ranks_dead_without_node_dead)
{
	struct ftd_group g;
	char r[64];

	/* a reader that joined late, or lost the NODE_DEAD: RANKS_DEAD alone suffices */
	make_group(&g);
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, ev(FTD_EV_RANKS_DEAD, 20, JOB, 4), r));
	EXPECT_STREQ("4", r);
	ftd_group_free(&g);
}

TEST(other_jobs_and_unknown_ranks_are_ignored)
{
	struct ftd_group g;
	char r[64];

	make_group(&g);
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_PROC_DEAD, 20, JOB + 1, 3), r));
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_PROC_DEAD, 20, JOB, 8), r));
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_NODE_DEAD, 40, 0, 0), r));
	/* events that are not failures */
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_NODE_SUSPECT, 20, 0, 0), r));
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_NODE_LEFT, 20, 0, 0), r));
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_IFACE_DEAD, 20, 0, 0), r));
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_NODE_RESTORED, 20, 0, 0), r));
	EXPECT_EQ(0, ftd_group_failed(&g, NULL, 0));
	ftd_group_free(&g);
}

TEST(clean_exit_is_not_a_failure)
{
	struct ftd_group g;
	char r[64];

	make_group(&g);
	EXPECT_EQ(FTD_VERDICT_EXITED, apply(&g, ev(FTD_EV_PROC_EXIT, 20, JOB, 2), r));
	EXPECT_STREQ("2", r);
	/* it deregistered: its node's death does not report it */
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, ev(FTD_EV_NODE_DEAD, 20, 0, 0), r));
	EXPECT_STREQ("3,4", r);
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_PROC_DEAD, 20, JOB, 2), r));
	ftd_group_free(&g);
}

TEST(self_is_never_reported)
{
	struct ftd_group g;
	char r[64];

	make_group(&g);
	/* our own node (10) declared dead: the kernel fences us instead; rank 0 is the news */
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, ev(FTD_EV_NODE_DEAD, 10, 0, 0), r));
	EXPECT_STREQ("0", r);
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, ev(FTD_EV_PROC_DEAD, 10, JOB, 1), r));
	EXPECT_EQ(FTD_VERDICT_FENCED, apply(&g, ev(FTD_EV_FENCED, 10, 0, 0), r));
	EXPECT_STREQ("1", r);
	ftd_group_free(&g);
}

TEST(overflow_says_events_were_lost)
{
	struct ftd_group g;
	char r[64];

	make_group(&g);
	EXPECT_EQ(FTD_VERDICT_LOST, apply(&g, ev(FTD_EV_OVERFLOW, FTD_NODE_NONE, 0, 0), r));
	EXPECT_STREQ("", r);
	ftd_group_free(&g);
}

TEST(failed_lists_every_failed_rank)
{
	struct ftd_group g;
	int ranks[8], n;
	char r[64];

	make_group(&g);
	apply(&g, ev(FTD_EV_PROC_DEAD, 30, JOB, 7), r);
	apply(&g, ev(FTD_EV_PROC_DEAD, 10, JOB, 0), r);
	apply(&g, ev(FTD_EV_PROC_EXIT, 20, JOB, 3), r);
	n = ftd_group_failed(&g, ranks, 8);
	ASSERT_EQ(2, n);
	EXPECT_EQ(0, ranks[0]);
	EXPECT_EQ(7, ranks[1]);
	/* a short buffer still counts all */
	EXPECT_EQ(2, ftd_group_failed(&g, ranks, 1));
	EXPECT_EQ(0, ranks[0]);
	ftd_group_free(&g);
}

/*
 * The scope of this rank's registration: the nodes of its registered
 * members, merged over the groups it attached (ftd_mpi_scope.c).
 */
TEST(scope_is_the_nodes_of_registered_members_merged)
{
	struct ftd_member m[3] = {
		{ .node = 40, .job = JOB, .rank = 0 },
		{ .node = 10, .job = JOB, .rank = 1 },
		{ .node = 99, .job = JOB, .rank = 2, .state = FTD_MEMBER_UNMONITORED },
	};
	struct ftd_group g, h;
	uint32_t *set = NULL, n = 0;

	make_group(&g);
	ASSERT_EQ(0, ftd_group_scope_merge(&g, &set, &n));
	ASSERT_EQ(3, n);	/* rank 5 never registered: not its FTD_NODE_NONE */
	EXPECT_EQ(10, set[0]);
	EXPECT_EQ(20, set[1]);
	EXPECT_EQ(30, set[2]);
	ASSERT_EQ(0, ftd_group_init(&h, 3, 1, m, UID));
	ASSERT_EQ(0, ftd_group_scope_merge(&h, &set, &n));
	ASSERT_EQ(4, n);	/* 40 joins; 10 is there; 99's member never registered */
	EXPECT_EQ(10, set[0]);
	EXPECT_EQ(40, set[3]);
	free(set);
	ftd_group_free(&g);
	ftd_group_free(&h);
}

/* A late NODE_DEAD of an incarnation before the attach's is not about these ranks. */
TEST(node_dead_of_an_older_incarnation_is_not_theirs)
{
	struct ftd_group g;
	struct ftd_event e;
	char r[64];

	make_group(&g);	/* ranks 2, 3, 4 on node 20, attached at incarnation 120 */
	e = ev(FTD_EV_NODE_DEAD, 20, 0, 0);
	e.incarnation = 119;
	EXPECT_EQ(FTD_VERDICT_NONE, apply(&g, e, r));
	e.incarnation = 120;
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, e, r));
	EXPECT_STREQ("2,3,4", r);
	ftd_group_free(&g);
}

/* Events were lost: the status table's node entry says whether a member's node is gone. */
TEST(node_gone_after_lost_events)
{
	struct ftd_group g;

	make_group(&g);	/* rank 2 on node 20, attached at its incarnation 120 */
	EXPECT_FALSE(ftd_group_node_gone(&g, 2, FTD_NODE_ALIVE, 120));
	EXPECT_FALSE(ftd_group_node_gone(&g, 2, FTD_NODE_SUSPECT, 120));
	EXPECT_TRUE(ftd_group_node_gone(&g, 2, FTD_NODE_DEAD, 120));
	EXPECT_TRUE(ftd_group_node_gone(&g, 2, FTD_NODE_ALIVE, 121));	/* up again since */
	EXPECT_TRUE(ftd_group_node_gone(&g, 2, FTD_NODE_DEAD, 121));
	/* an entry of an older incarnation than the attach saw: not about these ranks */
	EXPECT_FALSE(ftd_group_node_gone(&g, 2, FTD_NODE_DEAD, 119));
	ftd_group_free(&g);
}

/* Identities need not follow the group's ranks: they come from the first attach. */
TEST(identities_from_several_jobs)
{
	struct ftd_member m[4] = {
		{ .node = 1, .job = 100, .rank = 3 },
		{ .node = 1, .job = 55, .rank = 0 },
		{ .node = 2, .job = 100, .rank = 1 },
		{ .node = 3, .job = 55, .rank = 9 },
	};
	struct ftd_group g;
	char r[64];

	ASSERT_EQ(0, ftd_group_init(&g, 4, 0, m, UID));
	EXPECT_EQ(0, ftd_group_find(&g, 100, 3));
	EXPECT_EQ(1, ftd_group_find(&g, 55, 0));
	EXPECT_EQ(2, ftd_group_find(&g, 100, 1));
	EXPECT_EQ(3, ftd_group_find(&g, 55, 9));
	EXPECT_EQ(-1, ftd_group_find(&g, 100, 0));
	EXPECT_EQ(FTD_VERDICT_FAILED, apply(&g, ev(FTD_EV_PROC_DEAD, 3, 55, 9), r));
	EXPECT_STREQ("3", r);
	ftd_group_free(&g);
}

TEST(duplicate_identity_is_refused)
{
	struct ftd_member m[3] = {
		{ .node = 1, .job = 5, .rank = 0 },
		{ .node = 2, .job = 5, .rank = 1 },
		{ .node = 3, .job = 5, .rank = 0 },
	};
	struct ftd_group g;

	EXPECT_EQ(-ENOTUNIQ, ftd_group_init(&g, 3, 0, m, UID));
	/* an unmonitored member's identity is not compared */
	m[2].state = FTD_MEMBER_UNMONITORED;
	ASSERT_EQ(0, ftd_group_init(&g, 3, 0, m, UID));
	ftd_group_free(&g);
	EXPECT_EQ(-EINVAL, ftd_group_init(&g, 3, 3, m, UID));
	EXPECT_EQ(-EINVAL, ftd_group_init(&g, 0, 0, m, UID));
}

TEST(reporters_are_the_first_live_members)
{
	struct ftd_member m[6];
	struct ftd_group g;
	char r[64];
	int i;

	for (i = 0; i < 6; i++)
		m[i] = (struct ftd_member){ .node = i, .job = 1, .rank = i };
	/* self = 2: with 2 reporters, ranks 0 and 1 report, not us */
	ASSERT_EQ(0, ftd_group_init(&g, 6, 2, m, UID));
	EXPECT_FALSE(ftd_group_is_reporter(&g, 2));
	EXPECT_TRUE(ftd_group_is_reporter(&g, 3));
	EXPECT_TRUE(ftd_group_is_reporter(&g, 0));	/* 0: everybody */
	/* rank 0 dies: now we are the second live member */
	apply(&g, ev(FTD_EV_PROC_DEAD, 0, 1, 0), r);
	EXPECT_TRUE(ftd_group_is_reporter(&g, 2));
	EXPECT_FALSE(ftd_group_is_reporter(&g, 1));
	ftd_group_free(&g);
	/* unmonitored and exited members are not counted as reporters */
	m[0].state = FTD_MEMBER_UNMONITORED;
	ASSERT_EQ(0, ftd_group_init(&g, 6, 2, m, UID));
	apply(&g, ev(FTD_EV_PROC_EXIT, 1, 1, 1), r);
	EXPECT_TRUE(ftd_group_is_reporter(&g, 1));
	ftd_group_free(&g);
}

TEST(large_group_lookup)
{
	enum { N = 4096 };
	static struct ftd_member m[N];
	static int ranks[N];
	struct ftd_group g;
	struct ftd_event e;
	int i, n;

	/* identities in reverse order of the group ranks, 64 ranks a node */
	for (i = 0; i < N; i++)
		m[i] = (struct ftd_member){ .node = i / 64, .job = 9, .rank = N - 1 - i };
	ASSERT_EQ(0, ftd_group_init(&g, N, 0, m, UID));
	for (i = 0; i < N; i++)
		ASSERT_EQ(i, ftd_group_find(&g, 9, N - 1 - i));
	e = ev(FTD_EV_NODE_DEAD, 10, 0, 0);
	ASSERT_EQ(FTD_VERDICT_FAILED, ftd_group_apply(&g, &e, ranks, &n));
	ASSERT_EQ(64, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(640 + i, ranks[i]);
	ftd_group_free(&g);
}

TEST_HARNESS_MAIN
