// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>
#include "sim/scenario.h"
#include "sim/rng.h"

#define RNG_STREAM_SCENARIO	3

/* A rank crash: job 1, rank 0, the node's first registration. */
#define PROC_JOB	1
#define PROC_RANK	0
#define PROC_REGID	1

static const char *const names[__SIM_SC_MAX] = {
	[SIM_SC_SINGLE] = "single",
	[SIM_SC_ADJACENT] = "adjacent",
	[SIM_SC_PARTITION] = "partition",
	[SIM_SC_PROC] = "proc",
};

const char *sim_scenario_name(enum sim_scenario sc)
{
	return sc < __SIM_SC_MAX ? names[sc] : "?";
}

int sim_scenario_parse(const char *name, enum sim_scenario *sc)
{
	int i;

	for (i = 0; i < __SIM_SC_MAX; i++) {
		if (!strcmp(name, names[i])) {
			*sc = i;
			return 0;
		}
	}
	return -1;
}

u32 sim_scenario_failures(const struct sim_config *cfg)
{
	switch (cfg->scenario) {
	case SIM_SC_ADJACENT:
		return cfg->adjacent;
	case SIM_SC_PARTITION:
		return cfg->cut;
	default:
		return 1;
	}
}

/* The failing nodes: marked in fail[] (n bytes). */
static void choose(struct sim *s, u8 *fail)
{
	const struct sim_config *cfg = s->cfg;
	u32 n = cfg->nodes, count = sim_scenario_failures(cfg), first, i, p;
	struct sim_rng rng;

	sim_rng_seed(&rng, cfg->seed, RNG_STREAM_SCENARIO);
	first = cfg->first >= 0 ? (u32)cfg->first % n : (u32)sim_rng_below(&rng, n);
	if (cfg->scenario == SIM_SC_PARTITION && cfg->cut_layout == SIM_LAYOUT_RANDOM) {
		fail[first] = 1;
		for (i = 1; i < count; i++) {
			do
				p = (u32)sim_rng_below(&rng, n);
			while (fail[p]);
			fail[p] = 1;
		}
		return;
	}
	for (i = 0; i < count; i++)
		fail[(first + i) % n] = 1;
}

/*
 * A partition: does the side of `size` nodes go on (proto/partition.h)?
 * A strict majority of the n, or exactly half with node id 1 (position 0).
 */
static bool goes_on(u32 size, u32 n, bool has_lowest)
{
	return 2 * (u64)size > n || (2 * (u64)size == n && has_lowest);
}

/*
 * The partition's failures, marked in fail[]: the nodes off the side
 * that goes on (all of them if none does: an isolated cut of half or more
 * leaves every node in a minority). Each of them must fence itself.
 */
static void partition_sides(struct sim *s, u8 *fail)
{
	const struct sim_config *cfg = s->cfg;
	u32 n = cfg->nodes, i;
	bool cut_goes_on, rest_goes_on;

	for (i = 0; i < n; i++)
		s->net.in_cut[i] = fail[i];	/* takes effect at the cut */
	cut_goes_on = cfg->cut_mode == SIM_CUT_ISLAND && goes_on(cfg->cut, n, fail[0]);
	rest_goes_on = goes_on(n - cfg->cut, n, !fail[0]);
	for (i = 0; i < n; i++) {
		if (cut_goes_on)
			fail[i] = !s->net.in_cut[i];
		s->must_fence[i] = !(s->net.in_cut[i] ? cut_goes_on : rest_goes_on);
		s->unfenced += s->must_fence[i];
	}
	s->no_side_goes_on = !cut_goes_on && !rest_goes_on;
}

/*
 * Crashes that leave the survivors no majority: the same rule, on the
 * deaths that come together (proto/partition.h), fences every survivor
 * (a node cannot tell most of the cluster dying from a cut); nobody is
 * left to deliver to. Without this, a survivor's fence counted as wrong
 * (fuzz_sim, corpus crash-most-crash-survivors-fence: 25 adjacent of 34).
 */
static void crash_leaves_a_minority(struct sim *s, const u8 *fail, u32 failures)
{
	u32 n = s->cfg->nodes, i;

	if (goes_on(n - failures, n, !fail[0]))
		return;
	for (i = 0; i < n; i++) {
		s->must_fence[i] = !fail[i];
		s->unfenced += s->must_fence[i];
	}
	s->no_side_goes_on = true;
}

int sim_scenario_setup(struct sim *s)
{
	const struct sim_config *cfg = s->cfg;
	u32 n = cfg->nodes, i, failures = 0;
	u8 *fail = s->receiver;	/* borrowed: receivers are the complement */
	int32_t item;

	memset(fail, 0, n);
	choose(s, fail);
	if (cfg->scenario == SIM_SC_PARTITION)
		partition_sides(s, fail);
	for (i = 0; i < n; i++) {
		if (!fail[i])
			continue;
		if (cfg->scenario == SIM_SC_PROC)
			item = sim_view_proc_item(&s->view, i, PROC_JOB, PROC_RANK, PROC_REGID);
		else
			item = sim_view_node_item(&s->view, i);
		if (item < 0)
			return -1;
		s->rep.items[item].expected = 1;
		failures++;
	}
	if (cfg->scenario == SIM_SC_SINGLE || cfg->scenario == SIM_SC_ADJACENT)
		crash_leaves_a_minority(s, fail, failures);
	/* A rank crash leaves its node up: every node is a receiver. */
	for (i = 0; i < n; i++)
		s->receiver[i] = cfg->scenario == SIM_SC_PROC ||
				 (!fail[i] && !s->no_side_goes_on);
	s->n_receivers = 0;
	for (i = 0; i < n; i++)
		s->n_receivers += s->receiver[i];
	for (i = 0; i < s->view.n_items; i++)
		if (s->rep.items[i].expected)
			s->rep.items[i].receivers = s->n_receivers;
	s->failures = failures;
	s->pending = failures * s->n_receivers;
	return 0;
}

void sim_scenario_inject(struct sim *s)
{
	const struct sim_config *cfg = s->cfg;
	u32 i;

	switch (cfg->scenario) {
	case SIM_SC_SINGLE:
	case SIM_SC_ADJACENT:
		for (i = 0; i < s->view.n_items; i++)
			if (s->rep.items[i].expected)
				s->nodes[s->view.items[i].node].up = 0;
		break;
	case SIM_SC_PARTITION:
		sim_net_cut(&s->net, cfg->cut_mode);
		break;
	case SIM_SC_PROC:
		for (i = 0; i < s->view.n_items; i++)
			if (s->rep.items[i].expected)
				sim_node_proc_dead(s, s->view.items[i].node, PROC_JOB, PROC_RANK,
						   PROC_REGID);
		break;
	default:
		break;
	}
}
