// SPDX-License-Identifier: GPL-2.0
/*
 * The notice codec (kmod/proto/wire.c) and the order of rail reports
 * (kmod/proto/rail.h): a rail report keeps its 64-bit seq across the wire,
 * a rank notice its job and rank, and reports order as the protocol needs;
 * what a notice of a node's end or return changes (kmod/proto/apply.h), and
 * which votes count (kmod/proto/vote.h), and what a view says
 * (kmod/proto/view.h).
 */
#include "harness.h"
#include "proto/apply.h"
#include "proto/wire.h"
#include "proto/rail.h"
#include "proto/view.h"
#include "proto/vote.h"

static struct ftd_notice round_trip(const struct ftd_notice *in)
{
	u8 buf[FTD_WIRE_NOTICE_LEN];
	struct ftd_notice out;

	ftd_notice_encode(buf, in);
	memset(&out, 0xa5, sizeof(out));
	if (!ftd_notice_decode(buf, sizeof(buf), &out))
		memset(&out, 0, sizeof(out));
	return out;
}

TEST(rail_report_keeps_its_64_bit_seq)
{
	struct ftd_notice in = {
		.kind = FTD_NOTICE_IFACE_DEAD, .subject = 3, .subject_incarnation = 9,
		.origin = 4, .regid = 1, .rail_seq = 0x123456789abcdefULL,
	};
	struct ftd_notice out = round_trip(&in);

	EXPECT_EQ(FTD_NOTICE_IFACE_DEAD, out.kind);
	EXPECT_EQ(3, out.subject);
	EXPECT_EQ(1, out.regid);
	EXPECT_EQ(0x123456789abcdefULL, out.rail_seq);
	EXPECT_EQ(0, out.job);
	EXPECT_EQ(0, out.rank);
}

TEST(rank_notice_keeps_job_and_rank)
{
	struct ftd_notice in = {
		.kind = FTD_NOTICE_PROC_DEAD, .subject = 2, .subject_incarnation = 1,
		.origin = 2, .job = 77, .rank = 5, .regid = 12, .uid = 65534,
	};
	struct ftd_notice out = round_trip(&in);

	EXPECT_EQ(FTD_NOTICE_PROC_DEAD, out.kind);
	EXPECT_EQ(77, out.job);
	EXPECT_EQ(5, out.rank);
	EXPECT_EQ(12, out.regid);
	EXPECT_EQ(65534, out.uid);	/* whose rank it is */
	EXPECT_EQ(0, out.rail_seq);
}

TEST(indirect_probes_keep_their_nonce)
{
	u8 kinds[] = { FTD_NOTICE_PROBE_REQ, FTD_NOTICE_PROBE_RELAY };
	unsigned int i;

	for (i = 0; i < sizeof(kinds); i++) {
		struct ftd_notice in = {
			.kind = kinds[i], .subject = 7, .subject_incarnation = 1700000000,
			.origin = 3, .nonce = 0xfedcba9876543210ULL,
		};
		struct ftd_notice out = round_trip(&in);

		EXPECT_EQ(kinds[i], out.kind);
		EXPECT_EQ(7, out.subject);
		EXPECT_EQ(1700000000, out.subject_incarnation);
		EXPECT_EQ(3, out.origin);
		EXPECT_EQ(0xfedcba9876543210ULL, out.nonce);
		EXPECT_EQ(0, out.job);
		EXPECT_EQ(0, out.rank);
	}
}

TEST(outdated_keeps_its_nonce_and_the_incarnation_held)
{
	struct ftd_notice in = {
		.kind = FTD_NOTICE_OUTDATED, .subject = 2, .subject_incarnation = 1800000000,
		.origin = 2, .nonce = 0xfedcba9876543210ULL, .regid = 1799999999,
	};
	struct ftd_notice out = round_trip(&in);

	EXPECT_EQ(FTD_NOTICE_OUTDATED, out.kind);
	EXPECT_EQ(0xfedcba9876543210ULL, out.nonce);
	EXPECT_EQ(1799999999, out.regid);
	EXPECT_EQ(0, out.job);
	EXPECT_EQ(0, out.hb_floor);
	EXPECT_TRUE(ftd_notice_is_probe(FTD_NOTICE_OUTDATED));	/* the freshness check's */
}

/* A view's copy of a rank's end says so; no other flag, nor on another kind. */
TEST(the_view_flag_only_on_a_rank_end)
{
	struct ftd_notice in = {
		.kind = FTD_NOTICE_PROC_EXIT, .subject = 2, .subject_incarnation = 1,
		.origin = 3, .job = 7, .rank = 1, .regid = 4, .flags = FTD_NOTICE_F_VIEW,
	}, out = round_trip(&in);
	u8 buf[FTD_WIRE_NOTICE_LEN];

	EXPECT_EQ(FTD_NOTICE_PROC_EXIT, out.kind);
	EXPECT_EQ(FTD_NOTICE_F_VIEW, out.flags);
	in.flags = 0;
	out = round_trip(&in);
	EXPECT_EQ(FTD_NOTICE_PROC_EXIT, out.kind);
	EXPECT_EQ(0, out.flags);
	in.flags = FTD_NOTICE_F_CONTACT;
	ftd_notice_encode(buf, &in);
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
	in.flags = 0x80;
	ftd_notice_encode(buf, &in);
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
	in.kind = FTD_NOTICE_PROC_REG;
	in.flags = FTD_NOTICE_F_VIEW;
	ftd_notice_encode(buf, &in);
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
}

/* A first contact's digest says so; the flag on any other kind is malformed. */
TEST(the_contact_flag_only_on_a_digest)
{
	struct ftd_notice in = {
		.kind = FTD_NOTICE_DIGEST, .subject = 2, .subject_incarnation = 1,
		.origin = 2, .nonce = 0x1234567890abcdefULL, .regid = 9,
		.flags = FTD_NOTICE_F_CONTACT,
	}, out = round_trip(&in);
	u8 buf[FTD_WIRE_NOTICE_LEN];
	u8 kind;

	EXPECT_EQ(FTD_NOTICE_DIGEST, out.kind);
	EXPECT_EQ(FTD_NOTICE_F_CONTACT, out.flags);
	EXPECT_EQ(in.nonce, out.nonce);
	EXPECT_EQ(9, out.regid);
	in.flags = FTD_NOTICE_F_CONTACT | FTD_NOTICE_F_ANSWER | FTD_NOTICE_F_CAUGHT_UP;
	out = round_trip(&in);
	EXPECT_EQ(FTD_NOTICE_F_CONTACT | FTD_NOTICE_F_ANSWER | FTD_NOTICE_F_CAUGHT_UP, out.flags);
	/* An answer, a caught-up sender: of a contact digest only, alone malformed. */
	in.flags = FTD_NOTICE_F_ANSWER;
	ftd_notice_encode(buf, &in);
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
	in.flags = FTD_NOTICE_F_CAUGHT_UP;
	ftd_notice_encode(buf, &in);
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
	in.flags = FTD_NOTICE_F_VIEW;
	ftd_notice_encode(buf, &in);
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
	for (kind = 1; kind < __FTD_NOTICE_MAX; kind++) {
		if (kind == FTD_NOTICE_DIGEST)
			continue;
		in.kind = kind;
		in.flags = FTD_NOTICE_F_CONTACT;
		ftd_notice_encode(buf, &in);
		EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
		in.flags = FTD_NOTICE_F_CONTACT | FTD_NOTICE_F_ANSWER | FTD_NOTICE_F_CAUGHT_UP;
		ftd_notice_encode(buf, &in);
		EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
	}
}

TEST(reserved_bytes_and_unknown_kinds_are_malformed)
{
	struct ftd_notice in = { .kind = FTD_NOTICE_DEAD, .subject = 1 }, out;
	u8 buf[FTD_WIRE_NOTICE_LEN];

	ftd_notice_encode(buf, &in);
	ASSERT_TRUE(ftd_notice_decode(buf, sizeof(buf), &out));
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf) - 1, &out));
	buf[1] = 1;
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
	buf[1] = 0;
	buf[2] = 1;
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
	buf[2] = 0;
	buf[31] = 1;	/* a uid on a notice that is not about a rank */
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
	buf[31] = 0;
	buf[0] = __FTD_NOTICE_MAX;
	EXPECT_FALSE(ftd_notice_decode(buf, sizeof(buf), &out));
}

TEST(rail_reports_order_by_seq_then_dead_after_restored)
{
	/* Heard seq 10 again, then silent after it: the silence is newer. */
	EXPECT_GT(ftd_rail_report_key(10, true), ftd_rail_report_key(10, false));
	/* A DEAD made after seq 10 is older than a RESTORED at seq 11. */
	EXPECT_GT(ftd_rail_report_key(11, false), ftd_rail_report_key(10, true));
	/* Heartbeat seqs start at 1: every report is newer than none (0). */
	EXPECT_GT(ftd_rail_report_key(1, false), 0);
}

/* n encoded notices of kind, about nodes 1..n, back to back at buf. */
static u16 batch_of(u8 *buf, u8 kind, u16 n)
{
	struct ftd_notice in = { .kind = kind, .subject_incarnation = 7, .origin = 9 };
	u16 i;

	for (i = 0; i < n; i++) {
		in.subject = i + 1;
		ftd_notice_encode(buf + i * FTD_WIRE_NOTICE_LEN, &in);
	}
	return n * FTD_WIRE_NOTICE_LEN;
}

TEST(a_batch_of_news_holds_every_notice_in_order)
{
	u8 buf[FTD_WIRE_NOTICES_MAX * FTD_WIRE_NOTICE_LEN];
	struct ftd_notice out;
	u16 len = batch_of(buf, FTD_NOTICE_DEAD, FTD_WIRE_NOTICES_MAX), i;

	/* As many as fit in the largest frame, header included. */
	EXPECT_EQ(FTD_MAX_FRAME, FTD_WIRE_HDR_LEN + len);
	ASSERT_EQ(FTD_WIRE_NOTICES_MAX, ftd_notices_check(buf, len, false));
	for (i = 0; i < FTD_WIRE_NOTICES_MAX; i++) {
		ASSERT_TRUE(ftd_notice_decode(buf + i * FTD_WIRE_NOTICE_LEN, FTD_WIRE_NOTICE_LEN,
					      &out));
		EXPECT_EQ(i + 1, out.subject);
	}
	EXPECT_EQ(1, ftd_notices_check(buf, FTD_WIRE_NOTICE_LEN, false));
	EXPECT_EQ(0, ftd_notices_check(buf, 0, false));
	EXPECT_EQ(0, ftd_notices_check(buf, FTD_WIRE_NOTICE_LEN + 1, false));
}

TEST(one_bad_notice_spoils_the_whole_batch)
{
	u8 buf[4 * FTD_WIRE_NOTICE_LEN];
	u16 len = batch_of(buf, FTD_NOTICE_ALIVE, 4);

	ASSERT_EQ(4, ftd_notices_check(buf, len, false));
	buf[3 * FTD_WIRE_NOTICE_LEN + 2] = 1;	/* the last one's reserved byte */
	EXPECT_EQ(0, ftd_notices_check(buf, len, false));
	buf[3 * FTD_WIRE_NOTICE_LEN + 2] = 0;
	buf[FTD_WIRE_NOTICE_LEN] = __FTD_NOTICE_MAX;	/* the second's kind */
	EXPECT_EQ(0, ftd_notices_check(buf, len, false));
}

TEST(control_notices_are_alone_in_their_frame)
{
	u8 control[] = { FTD_NOTICE_SYNC, FTD_NOTICE_SUSPECT, FTD_NOTICE_PROBE,
			 FTD_NOTICE_PROBE_ACK, FTD_NOTICE_DIGEST, FTD_NOTICE_PROBE_REQ,
			 FTD_NOTICE_PROBE_RELAY, FTD_NOTICE_SHARE_ACK, FTD_NOTICE_OUTDATED };
	u8 news[] = { FTD_NOTICE_DEAD, FTD_NOTICE_LEFT, FTD_NOTICE_ALIVE, FTD_NOTICE_PROC_REG,
		      FTD_NOTICE_PROC_DEAD, FTD_NOTICE_PROC_EXIT, FTD_NOTICE_IFACE_DEAD,
		      FTD_NOTICE_IFACE_RESTORED };
	u8 buf[2 * FTD_WIRE_NOTICE_LEN];
	unsigned int i;

	for (i = 0; i < sizeof(control); i++) {
		EXPECT_FALSE(ftd_notice_batchable(control[i]));
		batch_of(buf, FTD_NOTICE_DEAD, 2);
		batch_of(buf + FTD_WIRE_NOTICE_LEN, control[i], 1);
		EXPECT_EQ(0, ftd_notices_check(buf, sizeof(buf), false));	/* behind news */
		batch_of(buf, control[i], 1);
		EXPECT_EQ(1, ftd_notices_check(buf, FTD_WIRE_NOTICE_LEN, false));	/* alone */
		/* Never in a share: only news is forwarded. */
		EXPECT_EQ(0, ftd_notices_check(buf, FTD_WIRE_NOTICE_LEN, true));
	}
	for (i = 0; i < sizeof(news); i++) {
		EXPECT_TRUE(ftd_notice_batchable(news[i]));
		batch_of(buf, news[i], 2);
		EXPECT_EQ(2, ftd_notices_check(buf, sizeof(buf), false));
		EXPECT_EQ(2, ftd_notices_check(buf, sizeof(buf), true));
	}
	/* Every kind is one or the other. */
	EXPECT_EQ(__FTD_NOTICE_MAX - 1, sizeof(control) + sizeof(news));
}

/* ------------------------------------------------------------- applying notices */

TEST(an_end_is_news_until_the_incarnation_held_ended)
{
	/* Of a node held live: the partition rule's to judge. */
	EXPECT_EQ(FTD_APPLY_LIVE, ftd_apply_gone(FTD_NODE_ALIVE, 5, 5));
	EXPECT_EQ(FTD_APPLY_LIVE, ftd_apply_gone(FTD_NODE_SUSPECT, 5, 5));
	EXPECT_EQ(FTD_APPLY_LIVE, ftd_apply_gone(FTD_NODE_ALIVE, 5, 6));
	/* Ended already, or older than the one held: nothing. */
	EXPECT_EQ(FTD_APPLY_OLD, ftd_apply_gone(FTD_NODE_DEAD, 5, 5));
	EXPECT_EQ(FTD_APPLY_OLD, ftd_apply_gone(FTD_NODE_LEFT, 5, 5));
	EXPECT_EQ(FTD_APPLY_OLD, ftd_apply_gone(FTD_NODE_ALIVE, 5, 4));
	EXPECT_EQ(FTD_APPLY_OLD, ftd_apply_gone(FTD_NODE_UNKNOWN, 5, 4));
	/* Never heard, or the end of a later incarnation than the dead one: hearsay. */
	EXPECT_EQ(FTD_APPLY_HEARSAY, ftd_apply_gone(FTD_NODE_UNKNOWN, 0, 0));
	EXPECT_EQ(FTD_APPLY_HEARSAY, ftd_apply_gone(FTD_NODE_UNKNOWN, 5, 5));
	EXPECT_EQ(FTD_APPLY_HEARSAY, ftd_apply_gone(FTD_NODE_DEAD, 5, 6));
	EXPECT_EQ(FTD_APPLY_HEARSAY, ftd_apply_gone(FTD_NODE_LEFT, 5, 6));
}

TEST(alive_at_an_incarnation_held_dead_is_older_than_the_death)
{
	EXPECT_EQ(FTD_APPLY_OLD, ftd_apply_alive(FTD_NODE_DEAD, 5, 5));
	EXPECT_EQ(FTD_APPLY_OLD, ftd_apply_alive(FTD_NODE_LEFT, 5, 5));
	EXPECT_EQ(FTD_APPLY_OLD, ftd_apply_alive(FTD_NODE_ALIVE, 5, 5));	/* nothing new */
	EXPECT_EQ(FTD_APPLY_OLD, ftd_apply_alive(FTD_NODE_ALIVE, 5, 4));
	/* A restart: of a node held live it applies, of a dead one it is hearsay. */
	EXPECT_EQ(FTD_APPLY_LIVE, ftd_apply_alive(FTD_NODE_SUSPECT, 5, 6));
	EXPECT_EQ(FTD_APPLY_HEARSAY, ftd_apply_alive(FTD_NODE_DEAD, 5, 6));
	/* First news of a node we knew nothing of. */
	EXPECT_EQ(FTD_APPLY_HEARSAY, ftd_apply_alive(FTD_NODE_UNKNOWN, 5, 5));
}

TEST(a_vote_counts_only_at_the_incarnation_held_live)
{
	EXPECT_TRUE(ftd_votes_take(FTD_NODE_ALIVE, 5, 5));
	EXPECT_TRUE(ftd_votes_take(FTD_NODE_SUSPECT, 5, 5));
	EXPECT_FALSE(ftd_votes_take(FTD_NODE_SUSPECT, 5, 4));
	EXPECT_FALSE(ftd_votes_take(FTD_NODE_ALIVE, 5, 6));
	EXPECT_FALSE(ftd_votes_take(FTD_NODE_DEAD, 5, 5));
	EXPECT_FALSE(ftd_votes_take(FTD_NODE_UNKNOWN, 0, 0));
}

/* ------------------------------------------------------------- views */

TEST(a_view_tells_each_known_node_and_the_ranks_of_those_held_up)
{
	u8 kind = 0xff, flags = 0xff;

	EXPECT_TRUE(ftd_view_node(FTD_NODE_SELF, &kind));
	EXPECT_EQ(FTD_NOTICE_ALIVE, kind);
	EXPECT_TRUE(ftd_view_node(FTD_NODE_SUSPECT, &kind));
	EXPECT_EQ(FTD_NOTICE_ALIVE, kind);
	EXPECT_TRUE(ftd_view_with_ranks(kind));
	EXPECT_TRUE(ftd_view_node(FTD_NODE_DEAD, &kind));
	EXPECT_EQ(FTD_NOTICE_DEAD, kind);
	EXPECT_FALSE(ftd_view_with_ranks(kind));
	EXPECT_TRUE(ftd_view_node(FTD_NODE_LEFT, &kind));
	EXPECT_EQ(FTD_NOTICE_LEFT, kind);
	EXPECT_FALSE(ftd_view_with_ranks(kind));
	EXPECT_FALSE(ftd_view_node(FTD_NODE_UNKNOWN, &kind));

	EXPECT_TRUE(ftd_view_rank(0, &kind, &flags));
	EXPECT_EQ(FTD_NOTICE_PROC_REG, kind);
	EXPECT_EQ(0, flags);
	EXPECT_TRUE(ftd_view_rank(FTD_EV_PROC_DEAD, &kind, &flags));
	EXPECT_EQ(FTD_NOTICE_PROC_DEAD, kind);
	EXPECT_EQ(FTD_NOTICE_F_VIEW, flags);
	EXPECT_TRUE(ftd_view_rank(FTD_EV_PROC_EXIT, &kind, &flags));
	EXPECT_EQ(FTD_NOTICE_PROC_EXIT, kind);
	EXPECT_EQ(FTD_NOTICE_F_VIEW, flags);
	/* Ended with the node: its death tells it. */
	EXPECT_FALSE(ftd_view_rank(FTD_EV_RANKS_DEAD, &kind, &flags));
}

TEST_HARNESS_MAIN
