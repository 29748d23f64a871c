// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator (userspace/sim/, docs/simulation.md) on small clusters: the
 * protocol core the module compiles, driven through sim_run(). Without loss,
 * every live node must deliver every failure exactly once, over at most
 * ceil(log2 N) + 2 hops, and the first node must know within
 * [timeout - period, timeout + 2 periods] of a node's death.
 */
#include <math.h>
#include "harness.h"
#include "sim/sim.h"

static void config(struct sim_config *cfg, u32 nodes, enum sim_scenario sc)
{
	sim_config_default(cfg);
	cfg->nodes = nodes;
	cfg->scenario = sc;
	cfg->net.loss = 0;
}

/* The hard case of the issue: 490 of 1,000 nodes cut off at random, 20 % loss. */
static void config_half_cut(struct sim_config *cfg, u64 seed)
{
	config(cfg, 1000, SIM_SC_PARTITION);
	cfg->cut = 490;
	cfg->cut_layout = SIM_LAYOUT_RANDOM;
	cfg->net.loss = 0.2;
	cfg->seed = seed;
}

/*
 * cut nodes from position first (-1: drawn from the seed) cut off from the
 * rest of a ring of nodes, still reaching each other.
 */
static void config_island(struct sim_config *cfg, u32 nodes, u32 cut, s64 first)
{
	config(cfg, nodes, SIM_SC_PARTITION);
	cfg->cut = cut;
	cfg->cut_mode = SIM_CUT_ISLAND;
	cfg->first = first;
}

static u32 hop_bound(u32 nodes)
{
	return (u32)ceil(log2(nodes)) + 2;
}

/* Every receiver delivered every failure exactly once, and nothing else happened. */
#define ASSERT_EXACTLY_ONCE(res) do { \
	ASSERT_EQ(0, (res).never_delivered); \
	ASSERT_EQ(0, (res).delivered_again); \
	ASSERT_EQ(0, (res).false_deaths); \
	ASSERT_EQ(0, (res).codec_errors); \
	ASSERT_TRUE((res).complete); \
} while (0)

/* A partition: every node off the side that goes on fenced, none on it. */
#define ASSERT_FENCED_RIGHT(res) do { \
	ASSERT_EQ(0, (res).unfenced); \
	ASSERT_EQ(0, (res).fenced_wrongly); \
} while (0)

#define ASSERT_DETECTED_IN_WINDOW(cfg, res) do { \
	ASSERT_GE((res).detect_min_ns, (s64)((cfg).timeout_ns - (cfg).period_ns)); \
	ASSERT_LE((res).detect_min_ns, (s64)((cfg).timeout_ns + 2 * (cfg).period_ns)); \
} while (0)

static const u32 sizes[] = { 64, 1000 };

TEST(single_death)
{
	struct sim_config cfg;
	struct sim_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		config(&cfg, sizes[i], SIM_SC_SINGLE);
		ASSERT_EQ(0, sim_run(&cfg, &res));
		TH_LOG("N=%u: detected %.2fms, all know %.2fms, hops %u/%.1f", sizes[i],
		       res.detect_min_ns / 1e6, res.all_know_ns / 1e6, res.hops_max, res.hops_mean);
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_TRUE(res.ok);
		ASSERT_EQ(1, res.failures);
		ASSERT_EQ(sizes[i] - 1, res.receivers);
		ASSERT_LE(res.hops_max, hop_bound(sizes[i]));
		ASSERT_DETECTED_IN_WINDOW(cfg, res);
		/* Once one node knows, the broadcast takes a few hops of ~20us. */
		ASSERT_LE(res.spread_max_ns, (u64)hop_bound(sizes[i]) * 2 * cfg.net.latency_ns);
		/* Heartbeats: k per node per period, whatever N. */
		ASSERT_GT(res.hb_per_node_s, 0.9 * cfg.k * 1e9 / cfg.period_ns);
		ASSERT_LT(res.hb_per_node_s, 1.01 * cfg.k * 1e9 / cfg.period_ns);
	}
}

TEST(adjacent_deaths)
{
	struct sim_config cfg;
	struct sim_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		config(&cfg, sizes[i], SIM_SC_ADJACENT);
		cfg.adjacent = 3;	/* more than k = 2: the next node hears nobody */
		ASSERT_EQ(0, sim_run(&cfg, &res));
		TH_LOG("N=%u: detected %.2f..%.2fms, all know %.2fms, hops %u", sizes[i],
		       res.detect_min_ns / 1e6, res.detect_max_ns / 1e6, res.all_know_ns / 1e6,
		       res.hops_max);
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_TRUE(res.ok);
		ASSERT_EQ(3, res.failures);
		ASSERT_LE(res.hops_max, hop_bound(sizes[i]));
		ASSERT_DETECTED_IN_WINDOW(cfg, res);
	}
}

/*
 * A rack dies at once (a run of adjacent nodes, many times k): the
 * observer after it watches past the run (proto/watch.h), so every death
 * is known everywhere within two timeouts, not one timeout per k of them.
 */
TEST(rack_declared_within_two_timeouts)
{
	static const u32 racks[] = { 16, 64 };
	struct sim_config cfg;
	struct sim_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(racks); i++) {
		config(&cfg, 1000, SIM_SC_ADJACENT);
		cfg.adjacent = racks[i];
		ASSERT_EQ(0, sim_run(&cfg, &res));
		TH_LOG("rack of %u: detected %.2f..%.2fms, all know %.2fms, probes %llu", racks[i],
		       res.detect_min_ns / 1e6, res.detect_max_ns / 1e6, res.all_know_ns / 1e6,
		       (unsigned long long)res.probes);
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_TRUE(res.ok);
		ASSERT_EQ(racks[i], res.failures);
		ASSERT_LE(res.all_know_ns, 2 * cfg.timeout_ns);
	}
}

/*
 * A rack's deaths share frames (the uapi's "Batches"): what a tick
 * declares goes to each finger in one frame, and what one frame brings as
 * news is forwarded in one. A single death is one notice a frame.
 */
TEST(a_racks_deaths_share_frames)
{
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 1000, SIM_SC_SINGLE);
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_GE(res.notice_items, res.notice_frames);
	ASSERT_LE(res.notice_items, res.notice_frames + res.notice_frames / 100);
	config(&cfg, 1000, SIM_SC_ADJACENT);
	cfg.adjacent = 64;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EXACTLY_ONCE(res);
	TH_LOG("rack of 64: %llu notice frames carried %llu notices (%.2f a frame), %.1f frames a node and death",
	       (unsigned long long)res.notice_frames, (unsigned long long)res.notice_items,
	       (double)res.notice_items / (double)res.notice_frames, res.notice_per_node_failure);
	/*
	 * One a frame before (9.4 frames a node and death); 2.4 a frame once
	 * they shared frames; 10.6 with the spanning broadcast (0.1 frames a
	 * node and death: a share carries a tick's deaths all the way).
	 */
	ASSERT_GE(res.notice_items, 2 * res.notice_frames);
}

/*
 * The spanning broadcast (proto/span.h): a notice reaches each live
 * member once over a tree of the fingers, where the flood (--flood, the
 * module before wire v7) sent ~log2 N copies each; acknowledged hop by
 * hop, so no fewer members learn it, and no later than ceil(log2 N) + 2
 * hops.
 */
TEST(spanning_broadcast_one_copy_a_member)
{
	struct sim_config cfg;
	struct sim_result flood, tree;

	config(&cfg, 1000, SIM_SC_SINGLE);
	cfg.flood = true;
	ASSERT_EQ(0, sim_run(&cfg, &flood));
	cfg.flood = false;
	ASSERT_EQ(0, sim_run(&cfg, &tree));
	TH_LOG("one death, 1,000 nodes: %llu notice frames flooded, %llu over the tree (+ %llu acks), hops %u",
	       (unsigned long long)flood.notice_frames, (unsigned long long)tree.notice_frames,
	       (unsigned long long)tree.span_acks, tree.hops_max);
	ASSERT_EXACTLY_ONCE(tree);
	ASSERT_FALSE(tree.flood);
	ASSERT_LE(tree.hops_max, hop_bound(1000));
	ASSERT_DETECTED_IN_WINDOW(cfg, tree);
	/* One share to each of the 998 others, each acknowledged; a few direct frames besides. */
	ASSERT_EQ(tree.receivers - 1, tree.span_acks);
	ASSERT_LE(tree.notice_frames, tree.receivers + 8);
	ASSERT_GE(flood.notice_frames, 8 * tree.notice_frames);
	ASSERT_EQ(0, tree.span_resends);
}

/*
 * A tree loses a whole share with one frame: without the repair's digests,
 * only the acknowledgements, resends and handovers keep every pair
 * delivered, at 5 % loss on every frame (acks included).
 */
TEST(spanning_loss_resent_exactly_once)
{
	static const enum sim_scenario sc[] = { SIM_SC_SINGLE, SIM_SC_ADJACENT, SIM_SC_PARTITION };
	struct sim_config cfg;
	struct sim_result res;
	u64 resends = 0, seed;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sc); i++) {
		for (seed = 1; seed <= 3; seed++) {
			config(&cfg, 1000, sc[i]);
			cfg.no_repair = true;
			cfg.net.loss = 0.05;
			cfg.seed = seed;
			ASSERT_EQ(0, sim_run(&cfg, &res));
			ASSERT_EXACTLY_ONCE(res);
			ASSERT_EQ(0, res.repairs);
			resends += res.span_resends;
		}
	}
	ASSERT_GT(resends, 0);	/* else this test shows nothing */
	TH_LOG("9 runs at 5 %% loss, no repair: every pair delivered once, %llu shares sent again",
	       (unsigned long long)resends);
}

/*
 * Hops slower than half a period (1 ms / 10 ms, 3 ms +- 0.5 ms a hop): a
 * share waits two round trips before it is sent again. Capped at half a
 * period, every share went again and was handed over before its
 * acknowledgement could come back: 86 frames a node and death.
 */
TEST(slow_hops_are_not_sent_again)
{
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 1000, SIM_SC_SINGLE);
	cfg.period_ns = 1000000;
	cfg.timeout_ns = 10000000;
	cfg.net.latency_ns = 3000000;
	cfg.net.jitter_ns = 500000;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	TH_LOG("3 ms a hop: all know %.1f ms, %.2f frames a node and death, %llu sent again",
	       res.all_know_ns / 1e6,
	       (double)(res.notice_frames + res.span_acks) / res.receivers / res.failures,
	       (unsigned long long)res.span_resends);
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_EQ(0, res.span_resends);
	/* A share and an acknowledgement from each of the two declarers, and their tells. */
	ASSERT_LE(res.notice_frames + res.span_acks, 5 * res.receivers);
}

/*
 * A rack whose members hold shares: a share sent to a dead member is
 * handed over, at doubling distances, to the live members past the run.
 */
TEST(spanning_rack_hands_dead_holders_shares_over)
{
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 1000, SIM_SC_ADJACENT);
	cfg.adjacent = 64;
	cfg.no_repair = true;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	TH_LOG("rack of 64: all know %.2fms, %llu frames, %llu handovers, %.3f frames a node and death",
	       res.all_know_ns / 1e6, (unsigned long long)res.notice_frames,
	       (unsigned long long)res.span_handovers, res.notice_per_node_failure);
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_LE(res.all_know_ns, 2 * cfg.timeout_ns);
	ASSERT_GT(res.span_handovers, 0);
	/* The flood: 3.7 a node and death (a_racks_deaths_share_frames). */
	ASSERT_LT(res.notice_per_node_failure, 0.5);
}

TEST(partition_majority_declares_each_once)
{
	struct sim_config cfg;
	struct sim_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		config(&cfg, sizes[i], SIM_SC_PARTITION);
		cfg.cut = 8;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_EQ(8, res.failures);
		ASSERT_EQ(sizes[i] - 8, res.receivers);
		ASSERT_LE(res.hops_max, hop_bound(sizes[i]));
		ASSERT_DETECTED_IN_WINDOW(cfg, res);
	}
}

/* A node that observes >= 2 nodes and hears nobody declares nobody (kmod/detect.c). */
TEST(partition_isolated_side_declares_nobody)
{
	struct sim_config cfg;
	struct sim_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		config(&cfg, sizes[i], SIM_SC_PARTITION);
		cfg.cut = 8;
		cfg.cut_mode = SIM_CUT_ISOLATED;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_EQ(0, res.cut_declared);
		ASSERT_TRUE(res.ok);
	}
}

/*
 * The rule as it was before commit 7faca8f (isolation judged over the whole
 * timeout, and silences judged before anyone is heard after them): the
 * first predecessor's silence reaches the timeout up to a period before
 * "nothing from anyone" does, and a cut-off node declares it. The check
 * must see that.
 */
TEST(isolation_over_the_timeout_lets_cut_off_nodes_declare)
{
	struct sim_config cfg;
	struct sim_result res;
	unsigned int i;
	u64 declared = 0;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		config(&cfg, sizes[i], SIM_SC_PARTITION);
		cfg.cut = 8;
		cfg.isolated_after_ns = cfg.timeout_ns;
		cfg.declare_unproven = true;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);	/* the majority is still right */
		declared += res.cut_declared;
		if (res.cut_declared)
			ASSERT_FALSE(res.ok);
	}
	ASSERT_GT(declared, 0);
}

/*
 * Runs of 1000 nodes with digests or partitions: up to about 17 s under
 * the sanitizers, more than half the harness's default 30 s limit, which
 * a loaded machine has exceeded (a package install beside the suite; a
 * CI run on 7 December 2026, a_cut_of_most_of_the_ring_fences_everyone).
 * The limit only guards against a hang, so these tests get a larger one.
 */
FIXTURE(heavy) {};
static FIXTURE_SETUP(heavy) {}
static FIXTURE_TEARDOWN(heavy) {}

/*
 * 490 of 1,000 cut off at random, 20 % loss on every frame, no repair: a
 * share handed over keeps its live holder alone. Sent to for a timeout
 * only (6 or 7 sends, the waits doubling), about once a run that holder
 * missed them all and was given up: seeds 1, 3, 4 and 5 left 14, 5, 1 and
 * 6 pairs never delivered (and the repair took a median 1.15 s over 200
 * seeds). A holder alone is now sent to for FTD_SPAN_ALONE_TIMEOUTS, the
 * waits capped at a quarter timeout (proto/span.h).
 */
TEST_F_TIMEOUT(heavy, a_live_holder_alone_is_not_given_up_at_20_percent_loss, 300)
{
	static const u64 seeds[] = { 1, 3, 4, 5 };
	struct sim_config cfg;
	struct sim_result res;
	u64 drops = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		config_half_cut(&cfg, seeds[i]);
		cfg.no_repair = true;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		TH_LOG("seed %llu: all know %.1f ms, %llu never delivered, %llu shares given up, %.2f frames a node and death",
		       (unsigned long long)seeds[i], res.all_know_ns / 1e6,
		       (unsigned long long)res.never_delivered, (unsigned long long)res.span_drops,
		       (double)(res.notice_frames + res.span_acks) / res.receivers / res.failures);
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_EQ(0, res.repairs);
		drops += res.span_drops;
	}
	TH_LOG("%llu shares given up in all (their holders dead)", (unsigned long long)drops);
}

/*
 * Half the cluster cut off at random. The flood (--flood, the module
 * before wire v7) left some survivors hearing of some deaths from nobody
 * (all their fingers' paths lost: seeds 1-4 left 46-111 pairs), and only
 * the digests repaired it; the spanning broadcast hands a dead holder's
 * share over and loses none. The repair is shown with the flood as the
 * lossy carrier.
 */
TEST_F_TIMEOUT(heavy, repair_delivers_what_the_broadcast_lost, 180)
{
	struct sim_config cfg;
	struct sim_result res;
	u64 lost = 0, repairs = 0;
	u64 seed;

	for (seed = 1; seed <= 2; seed++) {
		config(&cfg, 1000, SIM_SC_PARTITION);
		cfg.cut = 490;
		cfg.cut_layout = SIM_LAYOUT_RANDOM;
		cfg.seed = seed;
		cfg.no_repair = true;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);	/* the spanning broadcast */
		ASSERT_GT(res.span_handovers, 0);
		cfg.flood = true;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		lost += res.never_delivered;
		ASSERT_EQ(0, res.repairs);
		cfg.no_repair = false;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_EQ(0, res.cut_declared);
		repairs += res.repairs;
	}
	ASSERT_GT(lost, 0);	/* else this test shows nothing */
	ASSERT_GT(repairs, 0);
	TH_LOG("flooded without repair %llu pairs lost; with it none, after %llu view exchanges",
	       (unsigned long long)lost, (unsigned long long)repairs);
}

/*
 * A rack of 1,000 (issue #11's goal, there at 100,000 nodes: `make
 * bench-sim-rack`, simulation.md): every death once at every survivor,
 * within two timeouts where the timeout is ten periods (the walk past the
 * run needs half a timeout, three periods and a timeout), and the spanning
 * broadcast carries it at a fraction of a frame per node and death.
 */
TEST_F_TIMEOUT(heavy, a_rack_of_1000_within_two_timeouts, 180)
{
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 10000, SIM_SC_PARTITION);
	cfg.cut = 1000;
	cfg.timeout_ns = 10 * cfg.period_ns;
	cfg.no_repair = true;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	TH_LOG("10,000 nodes, a rack of 1,000: declared %.2f..%.2f ms, all know %.2f ms, %.3f notice frames a node and death, %llu handovers",
	       res.detect_min_ns / 1e6, res.detect_max_ns / 1e6, res.all_know_ns / 1e6,
	       res.notice_per_node_failure, (unsigned long long)res.span_handovers);
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_EQ(0, res.cut_declared);
	ASSERT_LE(res.all_know_ns, 2 * cfg.timeout_ns);
	ASSERT_LT(res.notice_per_node_failure, 0.2);
}

/*
 * A node cut off from everyone whose predecessor's last heartbeats before
 * the cut were lost: that silence runs out before "nobody for half a
 * timeout" holds, and the node declared it (490 of 1,000 cut off at 20 %
 * loss: in 115 of 200 seeds). A silence is judged only once someone was
 * heard after it ran out (ftd_detect_silence_proven): none now. Seeds 2,
 * 4 and 5 declared 1-2 such deaths each without the rule.
 */
TEST_F_TIMEOUT(heavy, a_cut_off_node_waits_to_hear_someone_after_a_deadline, 180)
{
	static const u64 seeds[] = { 2, 4, 5 };
	struct sim_config cfg;
	struct sim_result res;
	u64 unproven = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		config_half_cut(&cfg, seeds[i]);
		ASSERT_EQ(0, sim_run(&cfg, &res));
		EXPECT_EQ(0, res.cut_declared);
		cfg.declare_unproven = true;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		unproven += res.cut_declared;
	}
	ASSERT_GT(unproven, 0);	/* else this test shows nothing */
	TH_LOG("cut-off nodes declared %llu deaths without the rule, none with it",
	       (unsigned long long)unproven);
}

/* Nodes cut off with each other still (a rack's uplink): no quorum, so they declare. */
TEST_F_TIMEOUT(heavy, partition_island_counts_its_declarations, 180)
{
	struct sim_config cfg;
	struct sim_result res;

	config_island(&cfg, 1000, 8, -1);
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_EQ(0, res.cut_declared);	/* island declarations are counted apart */
	/* ... until its reach check (proto/reach.h) fences all of it */
	ASSERT_FENCED_RIGHT(res);
	TH_LOG("the island delivered %llu deaths of the majority; fenced: %llu by the reach check, %llu by the partition rule, %llu by the lease, the last %.1f ms after the cut",
	       (unsigned long long)res.minority_delivered, (unsigned long long)res.fenced_reach,
	       (unsigned long long)res.fenced_majority, (unsigned long long)res.fenced_lease,
	       res.fence_all_ns / 1e6);
}

/*
 * An even split (proto/partition.h): the half with node id 1 goes on and
 * declares the other half, each death once at each of its nodes; the
 * other half fences itself as its count of deaths reaches half, and no
 * node of the half that goes on fences. Either half may hold node 1.
 */
TEST_F_TIMEOUT(heavy, an_even_split_goes_on_on_the_side_of_node_1, 180)
{
	static const s64 firsts[] = { 0, 250 };	/* the island holds node 1, or not */
	struct sim_config cfg;
	struct sim_result res;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(firsts); i++) {
		config_island(&cfg, 1000, 500, firsts[i]);
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_EQ(500, res.receivers);
		ASSERT_FENCED_RIGHT(res);
		ASSERT_TRUE(res.ok);
		ASSERT_LE(res.fence_all_ns, 6 * cfg.timeout_ns);
		TH_LOG("island from node %lld: all of the half that goes on know %.1f ms after the cut, the other half fenced by %.1f ms (%llu by the partition rule)",
		       (long long)firsts[i] + 1, res.all_know_ns / 1e6, res.fence_all_ns / 1e6,
		       (unsigned long long)res.fenced_majority);
	}
}

/*
 * An even split of 2,000 nodes: a node of the winning half asks a sample
 * of 32 drawn from the whole ring and hears about half of it (the other
 * half not yet declared when the check is judged); under a quarter with a
 * probability of about 0.001 (proto/reach.h). With some 3,000 checks, one
 * reach check in seeds 3-8 fenced one or two nodes of the half that goes
 * on. A minority is now confirmed by a fresh sample before the fence.
 */
TEST_F_TIMEOUT(heavy, an_even_split_fences_nobody_of_the_winning_half, 180)
{
	struct sim_config cfg;
	struct sim_result res;
	u64 seed, checks = 0;

	for (seed = 3; seed <= 4; seed++) {
		config_island(&cfg, 2000, 1000, 0);
		cfg.seed = seed;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_FENCED_RIGHT(res);
		checks += res.reach_checks;
	}
	TH_LOG("seeds 3-4: %llu reach checks, no node of the winning half fenced",
	       (unsigned long long)checks);
}

/*
 * An even split whose halves are longer than the walk's cap
 * (FTD_WATCH_MAX): no observer finds a far edge. Silence past the k
 * nearest counted only from an edge, so each half was declared k at a
 * time, a timeout apart, and the losing half fenced only as its count
 * crossed half: 29.4 s at 4,000 nodes, 119 s at 10,000. A walk over its
 * whole cap now counts as one that found the edge once a reach check
 * begun since held (proto/watch.h; each half hears about half of its
 * sample), and the partition rule alone decides who applies the deaths.
 */
TEST_F_TIMEOUT(heavy, an_even_split_past_the_walks_cap_settles_in_timeouts, 300)
{
	struct sim_config cfg;
	struct sim_result res;

	config_island(&cfg, 4000, 2000, 1);
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_FENCED_RIGHT(res);
	ASSERT_TRUE(res.ok);
	ASSERT_LE(res.all_know_ns, 6 * cfg.timeout_ns);
	ASSERT_LE(res.fence_all_ns, 6 * cfg.timeout_ns);
	TH_LOG("4,000 nodes: the half that goes on knows all %.1f ms after the cut, the other half fenced by %.1f ms",
	       res.all_know_ns / 1e6, res.fence_all_ns / 1e6);
}

/*
 * An island of a third: it hears about a third of its reach check's
 * sample, above the quarter that fences, and fenced only as its count of
 * deaths crossed half, after the walk past the majority had declared it
 * k at a time: 10.2 s at 1,000 nodes. Its walk now spans half the ring
 * and counts once its reach check held (it hears about a third of its
 * sample), and its count crosses half within a few timeouts.
 */
TEST_F_TIMEOUT(heavy, an_island_of_a_third_fences_in_timeouts, 180)
{
	struct sim_config cfg;
	struct sim_result res;

	config_island(&cfg, 1000, 333, -1);
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_FENCED_RIGHT(res);
	ASSERT_TRUE(res.ok);
	ASSERT_LE(res.fence_all_ns, 6 * cfg.timeout_ns);
	TH_LOG("the island fenced by %.1f ms after the cut (%llu by the partition rule)",
	       res.fence_all_ns / 1e6, (unsigned long long)res.fenced_majority);
}

/*
 * Islands of 10-25 % of the ring, from node 1: their edges declare a few
 * of the majority and fence by the reach check, after which the island
 * learns no more deaths, and its other nodes check no more. With one
 * check as the verdict either way, those that heard a quarter of their
 * sample (or half, by chance) once ran on as zombies: 31 of an island of
 * 150 (k = 1), 16 of 150 and 97 of 200 (k = 2). A check is now made again
 * at once until two running agree (proto/reach.h). Seed 5, k = 1, 250:
 * two nodes heard half their sample once by chance.
 */
TEST_F_TIMEOUT(heavy, islands_of_a_tenth_to_a_quarter_fence_themselves, 300)
{
	static const struct { u32 k, cut; u64 seed; } runs[] = {
		{ 1, 150, 1 }, { 2, 150, 1 }, { 2, 200, 1 }, { 1, 250, 5 },
	};
	struct sim_config cfg;
	struct sim_result res;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		config_island(&cfg, 1000, runs[i].cut, 0);
		cfg.k = runs[i].k;
		cfg.seed = runs[i].seed;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_FENCED_RIGHT(res);
		ASSERT_TRUE(res.ok);
		ASSERT_LE(res.fence_all_ns, 60 * cfg.timeout_ns);
		TH_LOG("k %u, island of %u: fenced by %.1f ms (%llu by the reach check, %llu by the partition rule), %llu reach checks",
		       runs[i].k, runs[i].cut, res.fence_all_ns / 1e6,
		       (unsigned long long)res.fenced_reach, (unsigned long long)res.fenced_majority,
		       (unsigned long long)res.reach_checks);
	}
}

/*
 * A third of the ring cut off in one piece: the node after it hears
 * nobody until the others' notices reach it, and asks members to learn
 * whether it is itself cut off. Asked in ring order from a random start,
 * a third of the time the asks went into the cut for longer than its
 * lease and it fenced itself although on the side that goes on (seed 5
 * here; node 898 with a third cut off as an island, seed 1). The asks
 * now land far apart (proto/ring.h ftd_ring_sweep_live).
 */
TEST_F_TIMEOUT(heavy, a_node_next_to_a_cut_third_keeps_its_lease, 180)
{
	struct sim_config cfg;
	struct sim_result res;
	u64 seed;

	for (seed = 1; seed <= 6; seed++) {
		config(&cfg, 1000, SIM_SC_PARTITION);
		cfg.cut = 333;
		cfg.seed = seed;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_FENCED_RIGHT(res);
		ASSERT_EQ(333, res.fenced_lease);	/* each cut-off node alone */
	}
}

/*
 * More than half cut off, each node alone: no side goes on. The rest
 * fences by the partition rule as its count crosses half, each cut-off
 * node by its lease; nobody is left to deliver.
 */
TEST_F_TIMEOUT(heavy, a_cut_of_most_of_the_ring_fences_everyone, 180)
{
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 1000, SIM_SC_PARTITION);
	cfg.cut = 600;
	cfg.cut_layout = SIM_LAYOUT_RANDOM;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EQ(0, res.receivers);
	ASSERT_EQ(0, res.unfenced);
	ASSERT_EQ(0, res.cut_declared);
	ASSERT_EQ(600, res.fenced_lease);
	ASSERT_TRUE(res.ok);
	TH_LOG("the 400 fenced by the partition rule (%llu) or the reach check (%llu), the last %.1f ms after the cut",
	       (unsigned long long)res.fenced_majority, (unsigned long long)res.fenced_reach,
	       res.fence_all_ns / 1e6);
}

TEST(rank_crash_needs_no_timeout)
{
	struct sim_config cfg;
	struct sim_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		config(&cfg, sizes[i], SIM_SC_PROC);
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_TRUE(res.ok);
		ASSERT_EQ(sizes[i], res.receivers);	/* its own node too */
		ASSERT_EQ(0, res.detect_min_ns);
		ASSERT_LE(res.hops_max, hop_bound(sizes[i]));
		ASSERT_LE(res.all_know_ns, (u64)hop_bound(sizes[i]) * 2 * cfg.net.latency_ns);
	}
}

/*
 * A rank's crash whose every frame is lost (the first 64 frames after it,
 * its broadcast among them): the spanning broadcast's shares are sent
 * again once the losses end. The flood (--flood) had no second copy: no
 * survivor heard it, and only the digests, which count the live
 * registrations of every node up, told them (found by fuzz_sim:
 * crash-rank-death-lost-on-every-path).
 */
TEST(repair_delivers_a_rank_crash_lost_on_every_path)
{
	static u8 lost[64];	/* zeros: below SIM_FATE_LOST, every one lost */
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 8, SIM_SC_PROC);
	cfg.warmup_ns = cfg.timeout_ns + cfg.period_ns;
	cfg.net.fate = lost;
	cfg.net.fate_len = sizeof(lost);
	cfg.net.fate_from_ns = cfg.warmup_ns;
	cfg.no_repair = true;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_GT(res.span_resends, 0);
	cfg.flood = true;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EQ(cfg.nodes - 1, res.never_delivered);	/* else this test shows nothing */
	cfg.no_repair = false;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_GT(res.repairs, 0);
	TH_LOG("all know after %.0f ms, %llu view exchanges", res.all_know_ns / 1e6,
	       (unsigned long long)res.repairs);
}

/* A lost notice is covered by the other paths of the broadcast. */
TEST(loss_one_percent_still_exactly_once)
{
	static const enum sim_scenario scs[] = { SIM_SC_SINGLE, SIM_SC_ADJACENT, SIM_SC_PROC };
	struct sim_config cfg;
	struct sim_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(scs); i++) {
		config(&cfg, 1000, scs[i]);
		cfg.net.loss = 0.01;
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
		ASSERT_TRUE(res.ok);
		ASSERT_GT(res.hb_lost + res.notice_lost, 0);
	}
}

/*
 * Loss-driven false deaths (docs/simulation.md, finding 7): at 15 % loss
 * on every frame, observers lose a suspect's heartbeats and its direct
 * PROBE round trips alike; asking helpers to probe it (proto/relay.h)
 * refutes the suspicion through other paths.
 */
TEST(indirect_probes_remove_loss_driven_false_deaths)
{
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 1000, SIM_SC_SINGLE);
	cfg.net.loss = 0.15;
	cfg.tail_ns = 2000000000ULL;
	/*
	 * A run whose losses, without the helpers, make false deaths: not
	 * every one does at 15 % (seed 1 stopped doing so when notices came
	 * to share frames, seed 3 with the spanning broadcast: each draws the
	 * losses anew); seed 6 does now.
	 */
	cfg.seed = 6;
	cfg.no_relay = true;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_GT(res.false_deaths, 0);	/* else this test shows nothing */
	TH_LOG("without indirect probes: %llu false deaths in 2 s",
	       (unsigned long long)res.false_deaths);
	cfg.no_relay = false;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EQ(0, res.false_deaths);
	ASSERT_EQ(0, res.never_delivered);
	ASSERT_GT(res.relays_heard, 0);
	ASSERT_DETECTED_IN_WINDOW(cfg, res);
	TH_LOG("with them: none; %llu suspicions refuted through a helper",
	       (unsigned long long)res.relays_heard);
}

/*
 * What bench/sim-loss.sh counts: the time of the first false declaration,
 * and a run that stops there. At 30 % loss a live node is declared within
 * seconds (seed 1: 1.14 s); the stopped run is the same run up to then
 * (the same first false death, at the same time) and ends there, with one
 * live node declared. Without loss, no false death and no time.
 */
TEST(a_run_can_stop_at_its_first_false_death)
{
	struct sim_config cfg;
	struct sim_result res;
	u64 first;

	config(&cfg, 1000, SIM_SC_SINGLE);
	cfg.net.loss = 0.30;
	cfg.tail_ns = cfg.limit_ns = 5000000000ULL;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_GT(res.false_declared, 1);	/* else this test shows nothing */
	ASSERT_GT(res.first_false_ns, 0);
	ASSERT_LT(res.first_false_ns, res.sim_ns);
	first = res.first_false_ns;

	cfg.stop_at_false = true;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EQ(first, res.first_false_ns);
	ASSERT_EQ(first, res.sim_ns);
	ASSERT_EQ(1, res.false_declared);
	TH_LOG("30 %% loss: first live node declared %.2f s into the run", first / 1e9);

	cfg.net.loss = 0;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EQ(0, res.false_declared);
	ASSERT_EQ(0, res.first_false_ns);
	ASSERT_TRUE(res.ok);
}

/*
 * A live node just past a run whose links to both observers after the
 * run are broken (every frame between them lost; each still reaches the
 * others): they watch it through the walk (proto/watch.h) and their
 * PROBEs are never answered; once the run's far edge is found its silence
 * counts from the same moment as the far dead nodes'. As a suspect it is
 * asked through helpers too, as a near suspect is, and is not declared.
 * Before, it was declared with them (7 declarations, 57 false deliveries;
 * the "node past a run" cause of the 20 % loss traces, docs/simulation.md).
 */
TEST(a_node_past_a_run_is_asked_through_helpers)
{
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 64, SIM_SC_ADJACENT);
	cfg.adjacent = 6;	/* 3 k: the walk goes past the run */
	cfg.first = 10;		/* dead: 10..15; the observer after them: 16 */
	cfg.net.n_broken = 2;	/* node 9 to both observers after the run */
	cfg.net.broken[0][0] = cfg.net.broken[1][0] = 9;
	cfg.net.broken[0][1] = 16;
	cfg.net.broken[1][1] = 17;
	cfg.tail_ns = 1000000000ULL;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	TH_LOG("declarations %llu, false deaths %llu, suspicions refuted through a helper %llu",
	       (unsigned long long)res.declarations, (unsigned long long)res.false_deaths,
	       (unsigned long long)res.relays_heard);
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_EQ(6, res.failures);
	ASSERT_GT(res.relays_heard, 0);
	ASSERT_DETECTED_IN_WINDOW(cfg, res);
}

TEST(quorum_of_two)
{
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 1000, SIM_SC_SINGLE);
	cfg.quorum = 2;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EXACTLY_ONCE(res);
	ASSERT_TRUE(res.ok);
	ASSERT_GE(res.votes, 2);
	ASSERT_DETECTED_IN_WINDOW(cfg, res);
}

/*
 * q = k = 4, a run of 9 of 20: the survivors reach the run's middle at
 * different times as the ring heals, so their votes come further apart
 * than a timeout. A vote was sent once, when first cast, and expired at
 * the judges before the last one came: one death was never declared
 * (found by fuzz_sim; seeds 1, 2 and 5). Now a vote still cast is resent
 * every half timeout (proto/vote.h).
 */
TEST(quorum_of_every_observer_still_declares_a_run)
{
	static const u64 seeds[] = { 1, 2, 5 };
	struct sim_config cfg;
	struct sim_result res;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		config(&cfg, 20, SIM_SC_ADJACENT);
		cfg.k = 4;
		cfg.quorum = 4;
		cfg.adjacent = 9;
		cfg.seed = seeds[i];
		ASSERT_EQ(0, sim_run(&cfg, &res));
		ASSERT_EXACTLY_ONCE(res);
	}
}

/*
 * Three of nine nodes cut off at random (1, 3 and 6), k = q = 4. Each of
 * 1 and 6 has the other among its judges (its k successors), and no judge
 * of the one watches the other: held alive on no evidence, each dead
 * judge was waited for, and neither death was ever declared (12 pairs
 * undelivered; fuzz_sim, corpus crash-dead-judges-wait-for-each-other).
 * Now a judge that has not voted is asked once our vote has stood a
 * timeout, and counted out if silent (proto/vote.h).
 */
TEST(dead_judges_do_not_hold_a_quorum_back)
{
	struct sim_config cfg;
	struct sim_result res;

	config(&cfg, 9, SIM_SC_PARTITION);
	cfg.k = 4;
	cfg.quorum = 4;
	cfg.cut = 3;
	cfg.cut_layout = SIM_LAYOUT_RANDOM;
	cfg.cut_mode = SIM_CUT_ISOLATED;
	cfg.first = 0;
	cfg.seed = 1;
	ASSERT_EQ(0, sim_run(&cfg, &res));
	ASSERT_EQ(3, res.failures);
	ASSERT_EQ(0, res.never_delivered);
	ASSERT_EQ(0, res.false_deaths);
	ASSERT_EXACTLY_ONCE(res);
}

/*
 * 490 of 1,000 nodes cut off at random, 20 % loss (simulation.md): a
 * predecessor adopted past a run still heartbeats to the dead nodes after
 * it if the declarer's one notice to the run's edge was lost, and was
 * declared for it. Now each ask of a suspect through helpers also tells it
 * the deaths between it and us (proto/watch.h). Seeds 51 and 52 before:
 * 7,047 and 3,547 false deliveries, 71 and 123 pairs never delivered;
 * now none (over seeds 1-62: a false declaration in 17 runs instead of
 * 28). The run is chaotic: a later protocol change may move these two
 * seeds either way, and that is a reason to look again at the 62, not to
 * pick other seeds.
 */
TEST_F_TIMEOUT(heavy, an_adopted_predecessor_is_told_the_deaths_between, 180)
{
	static const u64 seeds[] = { 51, 52 };
	struct sim_config cfg;
	struct sim_result res;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		config_half_cut(&cfg, seeds[i]);
		ASSERT_EQ(0, sim_run(&cfg, &res));
		EXPECT_EQ(0, res.false_deaths);
		EXPECT_EQ(0, res.never_delivered);
		EXPECT_EQ(0, res.delivered_again);
	}
}

/*
 * Loss alone, one real death, 1,000 nodes at 20 % loss on every frame
 * (10 ms / 50 ms, q = 1, 2 s after everyone knows): a live suspect whose
 * five heartbeats were lost needs every ask (the direct PROBE and three
 * helpers' four-frame paths, each about 0.36 x 0.59^3 = 0.074 to fail) to
 * fail twice. Before the asks after an unanswered one went to twice as
 * many helpers (ftd_relay_helpers), one of these three runs declared a
 * live node (998 false deliveries; `ftdsim -n 1000 -s single --tail 2s
 * -L 0.2`, seeds 1-3, made 5, 3 and 3 false declarations); now none.
 */
TEST(a_suspect_still_silent_is_asked_through_more_helpers)
{
	static const u64 seeds[] = { 1, 2, 3 };
	struct sim_config cfg;
	struct sim_result res;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		config(&cfg, 1000, SIM_SC_SINGLE);
		cfg.net.loss = 0.2;
		cfg.tail_ns = 2000000000ULL;
		cfg.seed = seeds[i];
		ASSERT_EQ(0, sim_run(&cfg, &res));
		EXPECT_EQ(0, res.false_deaths);
		EXPECT_EQ(0, res.never_delivered);
		EXPECT_EQ(0, res.delivered_again);
	}
}

TEST(same_seed_same_run)
{
	struct sim_config cfg;
	struct sim_result a, b;

	config(&cfg, 1000, SIM_SC_ADJACENT);
	cfg.net.loss = 0.01;
	cfg.net.jitter = SIM_JITTER_EXP;
	ASSERT_EQ(0, sim_run(&cfg, &a));
	ASSERT_EQ(0, sim_run(&cfg, &b));
	ASSERT_EQ(a.detect_min_ns, b.detect_min_ns);
	ASSERT_EQ(a.all_know_ns, b.all_know_ns);
	ASSERT_EQ(a.notice_frames, b.notice_frames);
	ASSERT_EQ(a.hb_lost, b.hb_lost);
	ASSERT_EQ(a.events, b.events);
	cfg.seed = 2;
	ASSERT_EQ(0, sim_run(&cfg, &b));
	ASSERT_NE(a.events, b.events);
}

TEST(config_checks)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	ASSERT_EQ(NULL, sim_config_check(&cfg));
	cfg.timeout_ns = cfg.period_ns;	/* the module wants >= 2 periods */
	ASSERT_NE(NULL, sim_config_check(&cfg));
	sim_config_default(&cfg);
	cfg.quorum = cfg.k + 1;
	ASSERT_NE(NULL, sim_config_check(&cfg));
	sim_config_default(&cfg);
	cfg.scenario = SIM_SC_PARTITION;
	cfg.cut = cfg.nodes / 2;	/* an even split: the partition rule decides */
	ASSERT_EQ(NULL, sim_config_check(&cfg));
	cfg.cut = cfg.nodes;
	ASSERT_NE(NULL, sim_config_check(&cfg));
}

TEST_HARNESS_MAIN
