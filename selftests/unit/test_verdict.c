// SPDX-License-Identifier: GPL-2.0
/*
 * One tick's verdict on one watched node (kmod/proto/verdict.h): the rules
 * of silence, stalls, overload, quorum, partition and asking, composed in
 * the order the module's tick and the simulator's both apply them; the
 * isolation rule the tick begins with (detect.h) and what a frame tells
 * of its sender (hearing.h), which the two also share.
 */
#include "harness.h"
#include "proto/hearing.h"
#include "proto/overload.h"
#include "proto/relay.h"
#include "proto/verdict.h"

#define MS 1000000ULL
#define P (10 * MS)
#define T (50 * MS)
#define NOW (10000 * MS)

static struct ftd_watch walk_with_edge = { .edge = true };
static struct ftd_watch walk_without_edge;

/* A healthy tick at NOW that heard someone just now, watching several. */
static struct ftd_tick healthy(void)
{
	return (struct ftd_tick){
		.now_ns = NOW,
		.due_ns = NOW,
		.period_ns = P,
		.timeout_ns = T,
		.ask_every_ns = ftd_detect_ask_every(P, T),
		.heard_any_ns = NOW,
		.walk = &walk_with_edge,
		.quorum = 1,
		.can_tell = true,
		.judging = true,
	};
}

static struct ftd_watched alive_heard_at(u64 at)
{
	return (struct ftd_watched){ .state = FTD_NODE_ALIVE, .last_heard_ns = at,
				     .baseline_ns = 1 };
}

/* Both steps, and the partition rule's verdict between them. */
static struct ftd_verdict judge(const struct ftd_tick *t, bool near, struct ftd_watched *w,
				enum ftd_partition_verdict pv)
{
	struct ftd_verdict v;

	ftd_verdict_silence(t, near, w, &v);
	if (ftd_verdict_declares(&v))
		ftd_verdict_partition(&v, pv);
	ftd_verdict_finish(t, near, w, &v);
	return v;
}

TEST(a_proven_silence_of_a_timeout_declares)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - T);
	struct ftd_verdict v = judge(&t, true, &w, FTD_PARTITION_APPLY);

	EXPECT_EQ(v.state, FTD_NODE_DEAD);
	EXPECT_EQ(v.event, FTD_EV_NODE_DEAD);
	EXPECT_FALSE(v.vote);
	EXPECT_EQ(v.ask, FTD_WATCH_ASK_NONE);
	EXPECT_EQ(v.since_ns, NOW - T);
	EXPECT_EQ(v.deadline_ns, T);
}

TEST(half_a_timeout_suspects_and_asks_through_helpers)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - T / 2);
	struct ftd_verdict v = judge(&t, true, &w, FTD_PARTITION_APPLY);

	EXPECT_EQ(v.state, FTD_NODE_SUSPECT);
	EXPECT_EQ(v.event, FTD_EV_NODE_SUSPECT);
	EXPECT_EQ(v.ask, FTD_WATCH_ASK_HELPERS);
	EXPECT_TRUE(v.tell_between);
	EXPECT_EQ(v.helpers, FTD_RELAY_HELPERS);
	EXPECT_EQ(v.ask_interval_ns, t.ask_every_ns);
	EXPECT_TRUE(v.remind);	/* silent two periods and more */
}

TEST(an_unproven_silence_only_suspects)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - T);
	struct ftd_verdict v;

	/* Nobody heard since the deadline passed: our receive path may lag. */
	t.heard_any_ns = NOW - 1;
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.state, FTD_NODE_SUSPECT);
	/* Watching one node, hearing nobody proves nothing either way. */
	t.can_tell = false;
	w = alive_heard_at(NOW - T);
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.state, FTD_NODE_DEAD);
}

TEST(an_isolated_observer_declares_nobody)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - 10 * T);
	struct ftd_verdict v;

	t.isolated = true;
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.state, FTD_NODE_SUSPECT);
}

TEST(with_a_quorum_a_timeout_is_a_vote)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - T);
	struct ftd_verdict v;

	t.quorum = 2;
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_TRUE(v.vote);
	EXPECT_EQ(v.state, FTD_NODE_SUSPECT);
	EXPECT_NE(v.event, FTD_EV_NODE_DEAD);
}

TEST(a_minority_judges_no_silence)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - 10 * T);
	struct ftd_verdict v;

	t.judging = false;
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.state, FTD_NODE_ALIVE);
	EXPECT_EQ(v.event, 0);
}

TEST(a_death_the_partition_rule_refuses_stays_a_suspicion)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - T);
	struct ftd_verdict v = judge(&t, true, &w, FTD_PARTITION_FENCE);

	EXPECT_EQ(v.state, FTD_NODE_SUSPECT);
	EXPECT_EQ(v.event, FTD_EV_NODE_SUSPECT);
	w = alive_heard_at(NOW - T);
	v = judge(&t, true, &w, FTD_PARTITION_HOLD);
	EXPECT_EQ(v.state, FTD_NODE_SUSPECT);
}

TEST(silence_inside_our_own_stall_is_not_counted)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - T);
	struct ftd_verdict v;

	/* The tick was due 30 ms ago: 20 ms of the node's silence are its own. */
	t.due_ns = NOW - 30 * MS;
	t.stalled = true;
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.since_ns, NOW - T + 30 * MS);
	EXPECT_EQ(w.baseline_ns, v.since_ns);	/* and it stays skipped */
	EXPECT_EQ(v.state, FTD_NODE_ALIVE);
}

TEST(silence_from_before_a_shortened_timing_is_none)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - 2 * T);
	struct ftd_verdict v;

	t.timing_since_ns = NOW - T / 4;
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.since_ns, NOW - T / 4);
	EXPECT_EQ(v.state, FTD_NODE_ALIVE);
}

TEST(an_overloaded_machine_is_excused_a_few_deadlines_only)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - T);
	struct ftd_verdict v;

	t.excused = true;
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.state, FTD_NODE_SUSPECT);
	/* A long silence is asked through more helpers, but not by a machine that drops. */
	EXPECT_EQ(v.helpers, FTD_RELAY_HELPERS);
	w = alive_heard_at(NOW - FTD_OVERLOAD_EXCUSED * T);
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.state, FTD_NODE_DEAD);
}

TEST(a_slow_sender_gets_a_longer_deadline)
{
	struct ftd_tick t = healthy();
	struct ftd_slowness slow = { .late_ns = 20 * MS, .at_ns = NOW - MS };
	struct ftd_watched w = alive_heard_at(NOW - T);
	struct ftd_verdict v;

	w.slow = &slow;
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.deadline_ns, T + 20 * MS);
	EXPECT_EQ(v.state, FTD_NODE_SUSPECT);
	w = alive_heard_at(NOW - T - 20 * MS);
	w.slow = &slow;
	v = judge(&t, true, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.state, FTD_NODE_DEAD);
}

TEST(past_a_run_without_its_edge_silence_is_no_evidence)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = alive_heard_at(NOW - 10 * T);
	struct ftd_verdict v;

	t.walk = &walk_without_edge;
	v = judge(&t, false, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(w.baseline_ns, NOW);
	EXPECT_EQ(v.state, FTD_NODE_ALIVE);
	/* Asked directly, a timeout apart, and never reminded. */
	EXPECT_EQ(v.ask, FTD_WATCH_ASK_DIRECT);
	EXPECT_EQ(v.ask_interval_ns, T);
	EXPECT_FALSE(v.remind);
	/* Once the edge is found, the same silence counts. */
	t.walk = &walk_with_edge;
	w = alive_heard_at(NOW - T);
	v = judge(&t, false, &w, FTD_PARTITION_APPLY);
	EXPECT_EQ(v.state, FTD_NODE_DEAD);
}

TEST(a_dead_node_stays_dead_and_says_nothing_again)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = { .state = FTD_NODE_DEAD, .last_heard_ns = NOW - 5 * T };
	struct ftd_verdict v = judge(&t, true, &w, FTD_PARTITION_APPLY);

	EXPECT_EQ(v.state, FTD_NODE_DEAD);
	EXPECT_EQ(v.event, 0);
	EXPECT_FALSE(ftd_verdict_declares(&v));
	EXPECT_FALSE(v.remind);
}

TEST(a_node_never_heard_is_not_timed)
{
	struct ftd_tick t = healthy();
	struct ftd_watched w = { .state = FTD_NODE_ALIVE };
	struct ftd_verdict v = judge(&t, true, &w, FTD_PARTITION_APPLY);

	EXPECT_EQ(v.since_ns, 0);
	EXPECT_EQ(v.state, FTD_NODE_ALIVE);
}

TEST(hearing_nobody_isolates_only_an_observer_of_several)
{
	EXPECT_TRUE(ftd_detect_isolated(2, T / 2, T / 2));
	EXPECT_FALSE(ftd_detect_isolated(2, T / 2 - 1, T / 2));
	/* One watched node: its silence and ours cannot be told apart. */
	EXPECT_FALSE(ftd_detect_isolated(1, 10 * T, T / 2));
}

TEST(an_isolation_begins_once_and_ends_long_or_short)
{
	u64 since = 0;

	EXPECT_EQ(ftd_detect_isolation(&since, false, NOW, T), FTD_ISOLATION_SAME);
	EXPECT_EQ(ftd_detect_isolation(&since, true, NOW, T), FTD_ISOLATION_BEGINS);
	EXPECT_EQ(since, NOW);
	EXPECT_EQ(ftd_detect_isolation(&since, true, NOW + P, T), FTD_ISOLATION_SAME);
	EXPECT_EQ(since, NOW);
	/* Shorter than the suspicion delay: nobody could have declared us. */
	EXPECT_EQ(ftd_detect_isolation(&since, false, NOW + T / 2 - 1, T), FTD_ISOLATION_ENDS);
	EXPECT_EQ(since, 0);
	EXPECT_EQ(ftd_detect_isolation(&since, true, NOW + T, T), FTD_ISOLATION_BEGINS);
	EXPECT_EQ(ftd_detect_isolation(&since, false, NOW + T + T / 2, T),
		  FTD_ISOLATION_ENDS_LONG);
	EXPECT_EQ(since, 0);
}

TEST(a_frame_counts_only_from_an_incarnation_not_held_dead_or_gone)
{
	EXPECT_EQ(ftd_hearing_of(FTD_NODE_ALIVE, 3, 3), FTD_HEARING_NODE);
	EXPECT_EQ(ftd_hearing_of(FTD_NODE_UNKNOWN, 0, 0), FTD_HEARING_NODE);
	EXPECT_EQ(ftd_hearing_of(FTD_NODE_SUSPECT, 3, 2), FTD_HEARING_STALE);
	/* Fail-stop: the declared incarnation stays dead, and is told so. */
	EXPECT_EQ(ftd_hearing_of(FTD_NODE_DEAD, 3, 3), FTD_HEARING_DEAD);
	EXPECT_EQ(ftd_hearing_of(FTD_NODE_DEAD, 3, 2), FTD_HEARING_STALE);
	EXPECT_EQ(ftd_hearing_of(FTD_NODE_LEFT, 3, 3), FTD_HEARING_LEFT);
	/* A newer one is a restart, whatever we held. */
	EXPECT_EQ(ftd_hearing_of(FTD_NODE_DEAD, 3, 4), FTD_HEARING_RESTART);
	EXPECT_EQ(ftd_hearing_of(FTD_NODE_LEFT, 3, 4), FTD_HEARING_RESTART);
	EXPECT_EQ(ftd_hearing_of(FTD_NODE_ALIVE, 3, 4), FTD_HEARING_RESTART);
}

TEST(a_replayed_or_reordered_heartbeat_is_no_news)
{
	EXPECT_TRUE(ftd_hearing_news(0, 1));
	EXPECT_TRUE(ftd_hearing_news(41, 43));
	EXPECT_FALSE(ftd_hearing_news(43, 43));
	EXPECT_FALSE(ftd_hearing_news(43, 42));
}

TEST_HARNESS_MAIN
