// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the whole protocol, as the simulator runs it (ftdsim's
 * sim_run(): the module's protocol core, kmod/proto/, on every node of a
 * small cluster), with the input choosing the cluster, the failure and the
 * fate of every frame sent after the failure: lost, or delivered late (up
 * to about a period: frames overtake each other). Once the input's bytes
 * run out the network is perfect, so the protocol has to settle.
 *
 * Input: eight header bytes, then one fate byte per frame (net.h:
 * below SIM_FATE_LOST lost, else (b - SIM_FATE_LOST) x 50 us late):
 *   0  nodes, 3..34        3  scenario, cut mode and layout
 *   1  observers k, 1..4   4  the run's length or the cut's size
 *   2  quorum, 1..k        5  the first node to fail (255: drawn)
 *   6..7  the seed of every other random choice
 *
 * Checks, after the run (the simulator's own bookkeeping, report.c):
 *  (a) no frame failed decoding or its MAC;
 *  (b) no live node delivered a failure twice;
 *  (c) accuracy: nothing lost, nothing declared dead that did not fail. A
 *      frame delivered up to 11 ms late never leaves a 25 ms silence (the
 *      suspicion delay at 10 ms / 50 ms); losses may (a live node silent
 *      for a timeout is dead to its observer, which is what fencing is
 *      for, and the simulator heals no false death); nor does a node
 *      fence itself (its partition rule or reach check) where its side
 *      goes on, unless frames were lost: a node whose frames are lost for
 *      timeouts on end cannot tell that from a cut, and fencing is the
 *      rule's answer to a cut (corpus input
 *      crash-lost-frames-fence-a-survivor: 3 nodes, k = 1, one crash,
 *      nearly every frame of the first ~60 lost: a survivor lost the
 *      majority by the partition rule and fenced itself). Where crashes
 *      leave the survivors no majority, each of them must fence (corpus
 *      input crash-most-crash-survivors-fence: 25 adjacent of 34);
 *  (d) completeness: when the survivors are a strict majority (otherwise
 *      the module's partition rule fences them: detection.md,
 *      "Partitions") and nothing was declared
 *      falsely and no survivor fenced itself (the simulator heals neither:
 *      a fenced node stays out), every live node delivered
 *      every failure before the time limit, whatever the input lost (the
 *      repair's job), a rank's crash (PROC_DEAD) too (corpus input
 *      crash-rank-death-lost-on-every-path: it used to stay lost, as the
 *      digests did not count ranks);
 *  (e) with k >= 2, a cut-off node that hears nobody declares nobody.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario.h"
#include "sim/sim.h"

#define HEADER	8

#define CHECK(cond, res) do {							\
	if (!(cond)) {								\
		fprintf(stderr, "fuzz_sim: check failed: %s\n", #cond);	\
		sim_report_violations(stderr, res);				\
		abort();							\
	}									\
} while (0)

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct sim_config cfg;
	struct sim_result res;
	u8 h[HEADER] = { 0 };

	memcpy(h, data, size < HEADER ? size : HEADER);
	sim_config_default(&cfg);
	cfg.nodes = 3 + h[0] % 32;
	cfg.k = 1 + h[1] % 4;
	if (cfg.k >= cfg.nodes)
		cfg.k = cfg.nodes - 1;
	cfg.quorum = 1 + h[2] % cfg.k;
	cfg.scenario = h[3] % __SIM_SC_MAX;
	cfg.cut_mode = (h[3] >> 2) & 1 ? SIM_CUT_ISLAND : SIM_CUT_ISOLATED;
	cfg.cut_layout = (h[3] >> 3) & 1 ? SIM_LAYOUT_RANDOM : SIM_LAYOUT_CONTIGUOUS;
	cfg.adjacent = 1 + h[4] % (cfg.nodes - 1);
	cfg.cut = 1 + h[4] % ((cfg.nodes - 1) / 2);
	cfg.first = h[5] == 255 ? -1 : h[5] % cfg.nodes;
	cfg.seed = 1 + (h[6] | (u64)h[7] << 8);
	cfg.warmup_ns = cfg.timeout_ns + cfg.period_ns;
	if (size > HEADER) {
		cfg.net.fate = data + HEADER;
		cfg.net.fate_len = size - HEADER;
		cfg.net.fate_from_ns = cfg.warmup_ns;
	}
	if (sim_config_check(&cfg))
		return 0;
	if (sim_run(&cfg, &res))
		abort();	/* out of memory in a cluster of 34 nodes: a leak */

	CHECK(!res.codec_errors, &res);
	CHECK(!res.delivered_again, &res);
	CHECK(res.fate_lost || (!res.false_deaths && !res.fenced_wrongly), &res);
	CHECK(2 * sim_scenario_failures(&cfg) >= cfg.nodes || res.false_deaths ||
	      res.fenced_wrongly || (!res.never_delivered && res.complete), &res);
	CHECK(cfg.k < 2 || !res.cut_declared, &res);
	return 0;
}
