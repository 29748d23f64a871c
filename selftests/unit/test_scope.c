// SPDX-License-Identifier: GPL-2.0
/*
 * Scoped registrations' rules (kmod/proto/scope.h): which scopes are
 * taken, who is told, and the walk that gives each node all of its ends
 * in one frame.
 */
#include "harness.h"
#include <stdlib.h>
#include "proto/scope.h"
#include "proto/span.h"

TEST(check_takes_what_the_uapi_header_says)
{
	EXPECT_EQ(0, ftd_scope_check(0, 0, 0));		/* no scope: every node */
	EXPECT_EQ(0, ftd_scope_check(1, 0, 0));
	EXPECT_EQ(0, ftd_scope_check(FTD_SCOPE_MAX, 0, 0));
	EXPECT_EQ(-E2BIG, ftd_scope_check(FTD_SCOPE_MAX + 1, 0, 0));
	EXPECT_EQ(-EINVAL, ftd_scope_check(1, 1, 0));
	EXPECT_EQ(-EINVAL, ftd_scope_check(1, 0, 1));
	EXPECT_FALSE(ftd_scope_id_ok(FTD_NODE_NONE));
	EXPECT_TRUE(ftd_scope_id_ok(0));
}

TEST(normalize_sorts_and_drops_duplicates_and_self)
{
	u32 nodes[] = { 9, 3, 7, 3, 5, 9, 1, 5 };
	u32 want[] = { 1, 3, 7, 9 };
	u32 n = ftd_scope_normalize(nodes, 8, 5), i;

	ASSERT_EQ(4, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(want[i], nodes[i]);
	EXPECT_EQ(0, ftd_scope_normalize(nodes, 0, 5));
	nodes[0] = 5;
	EXPECT_EQ(0, ftd_scope_normalize(nodes, 1, 5));	/* only ourselves: nobody to tell */
}

TEST(normalize_of_the_largest_scope_in_reverse)
{
	u32 *nodes = malloc(FTD_SCOPE_MAX * sizeof(*nodes)), i, n;

	ASSERT_TRUE(nodes != NULL);
	for (i = 0; i < FTD_SCOPE_MAX; i++)
		nodes[i] = FTD_SCOPE_MAX - i;		/* 1024 .. 1 */
	n = ftd_scope_normalize(nodes, FTD_SCOPE_MAX, FTD_NODE_NONE);
	EXPECT_EQ(FTD_SCOPE_MAX, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(i + 1, nodes[i]);
	free(nodes);
}

/* Three ends, their scopes overlapping: each node once, with the ends it is owed. */
TEST(walk_gives_each_node_its_ends_at_once)
{
	static const u32 a[] = { 1, 4, 6 }, b[] = { 2, 4 }, c[] = { 4, 6, 8 };
	const u32 *nodes[] = { a, b, c };
	u32 count[] = { 3, 2, 3 }, cursor[3] = { 0 };
	struct ftd_scope_walk w = { .nodes = nodes, .count = count, .cursor = cursor, .n = 3 };
	/* node, then whether a, b, c hold it */
	static const u32 want[][4] = {
		{ 1, 1, 0, 0 }, { 2, 0, 1, 0 }, { 4, 1, 1, 1 }, { 6, 1, 0, 1 }, { 8, 0, 0, 1 },
	};
	u32 id, k = 0, i;

	while (ftd_scope_next(&w, &id)) {
		ASSERT_LT(k, 5);
		EXPECT_EQ(want[k][0], id);
		for (i = 0; i < 3; i++)
			EXPECT_EQ(want[k][i + 1], ftd_scope_holds(&w, i, id));
		k++;
	}
	EXPECT_EQ(5, k);
}

/* A walk goes when its shares fit beside those waiting, or when none wait. */
TEST(walk_waits_for_room_among_the_waiting_shares)
{
	EXPECT_TRUE(ftd_scope_walk_fits(0, FTD_SHARES_WAITING_MAX, FTD_SHARES_WAITING_MAX));
	EXPECT_TRUE(ftd_scope_walk_fits(0, 2 * FTD_SHARES_WAITING_MAX, FTD_SHARES_WAITING_MAX));
	EXPECT_TRUE(ftd_scope_walk_fits(3072, 1024, FTD_SHARES_WAITING_MAX));
	EXPECT_FALSE(ftd_scope_walk_fits(3073, 1024, FTD_SHARES_WAITING_MAX));
	EXPECT_FALSE(ftd_scope_walk_fits(1, FTD_SHARES_WAITING_MAX, FTD_SHARES_WAITING_MAX));
}

/* A share to a holder alone: its arc holds no other member in any ring. */
TEST(alone_end_is_past_the_holder_only)
{
	EXPECT_EQ(8, ftd_span_alone_end(7));
	EXPECT_EQ(FTD_NODE_NONE, ftd_span_alone_end(FTD_NODE_NONE - 1));
}

TEST_HARNESS_MAIN
