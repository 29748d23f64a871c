// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <time.h>
#include "sim/sim.h"
#include "sim/scenario.h"
#include "sim/rng.h"
#include "sim/mem.h"
#include "proto/digest.h"

#define RNG_STREAM_PHASE	1
#define RNG_STREAM_KEY		4
#define RNG_STREAM_REPAIR	5
#define RNG_STREAM_RELAY	6
#define RNG_STREAM_REACH	7
#define SIM_CLUSTER		42
/* Room for deaths nobody planned (false deaths, an island's declarations). */
#define SIM_SPARE_ITEMS		256

void sim_config_default(struct sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nodes = 1000;
	cfg->scenario = SIM_SC_SINGLE;
	cfg->period_ns = FTD_DEFAULT_PERIOD_NS;
	cfg->timeout_ns = FTD_DEFAULT_TIMEOUT_NS;
	cfg->k = FTD_DEFAULT_OBSERVERS;
	cfg->quorum = 1;
	cfg->net.latency_ns = 20000;
	cfg->net.jitter_ns = 5000;
	cfg->net.jitter = SIM_JITTER_UNIFORM;
	cfg->adjacent = 3;
	cfg->cut = 16;
	cfg->cut_layout = SIM_LAYOUT_CONTIGUOUS;
	cfg->cut_mode = SIM_CUT_ISOLATED;
	cfg->first = -1;
	cfg->seed = 1;
}

const char *sim_config_check(const struct sim_config *cfg)
{
	u32 failures;

	if (cfg->nodes < 2 || cfg->nodes > 10000000)
		return "nodes must be 2..10000000";
	if (cfg->scenario >= __SIM_SC_MAX)
		return "unknown scenario";
	/* The module's own limits (genl.c). */
	if (cfg->period_ns < FTD_MIN_PERIOD_NS || cfg->period_ns > FTD_MAX_PERIOD_NS)
		return "period must be 100us..10s";
	if (cfg->timeout_ns < 2 * cfg->period_ns || cfg->timeout_ns > FTD_MAX_TIMEOUT_NS)
		return "timeout must be at least 2 periods and at most 10min";
	if (cfg->k < 1 || cfg->k > FTD_MAX_OBSERVERS)
		return "observers (k) must be 1..8";
	if (cfg->quorum < 1 || cfg->quorum > cfg->k)
		return "quorum must be 1..k (the module's rule)";
	if (cfg->net.loss < 0 || cfg->net.loss >= 1)
		return "loss must be in [0, 1)";
	if (cfg->scenario == SIM_SC_ADJACENT && (cfg->adjacent < 1 || cfg->adjacent >= cfg->nodes))
		return "adjacent deaths must be 1..nodes-1";
	if (cfg->scenario == SIM_SC_PARTITION && (cfg->cut < 1 || cfg->cut >= cfg->nodes))
		return "the cut-off set must be 1..nodes-1 nodes";
	failures = sim_scenario_failures(cfg);
	if (failures > 1000000)
		return "too many failures";
	return NULL;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int setup(struct sim *s, const struct sim_config *cfg)
{
	u32 n = cfg->nodes, failures = sim_scenario_failures(cfg), cap, i;
	struct sim_rng rng;
	u64 *phase;
	int ret;

	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->cluster = SIM_CLUSTER;
	sim_rng_seed(&rng, cfg->seed, RNG_STREAM_KEY);
	for (i = 0; i < FTD_KEY_LEN; i++)
		s->key[i] = (u8)sim_rng_u64(&rng);

	s->nodes = sim_zalloc((size_t)n * sizeof(*s->nodes));
	s->obs = sim_zalloc((size_t)n * cfg->k * sizeof(*s->obs));
	s->receiver = sim_zalloc(n);
	s->must_fence = sim_zalloc(n);
	phase = sim_zalloc((size_t)n * sizeof(*phase));
	if (!s->nodes || !s->obs || !s->receiver || !s->must_fence || !phase) {
		sim_release(phase, (size_t)n * sizeof(*phase));
		return -1;
	}
	sim_rng_seed(&s->repair_rng, cfg->seed, RNG_STREAM_REPAIR);
	sim_rng_seed(&s->relay_rng, cfg->seed, RNG_STREAM_RELAY);
	sim_rng_seed(&s->reach_rng, cfg->seed, RNG_STREAM_REACH);
	for (i = 0; i < n; i++) {
		s->nodes[i].up = 1;
		s->nodes[i].incarnation = 1;
		/* Converged start: the module's first sweep PROBEd every member. */
		s->nodes[i].probe_rtt_ns = 2 * cfg->net.latency_ns;
		s->nodes[i].digest_next_ns = ftd_digest_every(cfg->timeout_ns,
							      (u32)sim_rng_u64(&s->repair_rng));
	}
	/* Each node's timer started at its own moment: a uniform phase. */
	sim_rng_seed(&rng, cfg->seed, RNG_STREAM_PHASE);
	for (i = 0; i < n; i++)
		phase[i] = sim_rng_below(&rng, cfg->period_ns);
	ret = sim_evq_init(&s->q, n, phase, cfg->period_ns,
			    cfg->net.latency_ns + 4 * cfg->net.jitter_ns + 1);
	sim_release(phase, (size_t)n * sizeof(*phase));
	if (ret)
		return -1;
	if (sim_net_init(&s->net, &cfg->net, n, cfg->seed, &s->q))
		return -1;
	/* An island and the rest may each declare the other: room for every node. */
	cap = cfg->scenario == SIM_SC_PARTITION && cfg->cut_mode == SIM_CUT_ISLAND ?
	      n + SIM_SPARE_ITEMS :
	      failures + (failures > SIM_SPARE_ITEMS ? failures : SIM_SPARE_ITEMS);
	if (sim_view_init(&s->view, n, cap, cfg->k) || sim_report_init(&s->rep, n, s->view.cap) ||
	    sim_quorum_init(&s->quorum, n, s->view.cap) || (!cfg->flood && sim_span_init(&s->span, n, s->view.words)))
		return -1;
	return sim_scenario_setup(s);
}

static void teardown(struct sim *s)
{
	u32 n = s->cfg->nodes, i;

	if (s->nodes)
		sim_minority_free(s);
	sim_span_free(&s->span, n);
	sim_quorum_free(&s->quorum);
	sim_report_free(&s->rep);
	sim_view_free(&s->view);
	sim_net_free(&s->net);
	sim_evq_free(&s->q);
	for (i = 0; i < n; i++)
		sim_release(s->nodes[i].wide, FTD_WATCH_MAX * sizeof(struct sim_obs));
	sim_release(s->nodes, (size_t)n * sizeof(*s->nodes));
	sim_release(s->obs, (size_t)n * s->cfg->k * sizeof(*s->obs));
	sim_release(s->receiver, n);
	sim_release(s->must_fence, n);
}

void sim_fail(struct sim *s, const char *what)
{
	if (!s->err)
		fprintf(stderr, "ftdsim: %s\n", what);
	s->err = -1;
}

int sim_run(const struct sim_config *cfg, struct sim_result *res)
{
	u64 warmup, tail, limit, t_end, t, events = 0;
	bool injected = false;
	struct sim_msg m;
	struct sim s;
	double t0 = wall_now();
	u32 v;

	sim_mem_reset_peak();
	if (setup(&s, cfg)) {
		fprintf(stderr, "ftdsim: out of memory setting up %u nodes\n", cfg->nodes);
		teardown(&s);
		return -1;
	}
	/* Long enough for every observer to have heard its predecessors. */
	warmup = cfg->warmup_ns ? cfg->warmup_ns : cfg->timeout_ns + cfg->period_ns;
	tail = cfg->tail_ns ? cfg->tail_ns : cfg->timeout_ns + 2 * cfg->period_ns;
	/*
	 * A run of r silent nodes heals about one node per timeout: allow for
	 * it; and for 8 rounds of digests, which repair what the broadcast lost.
	 */
	limit = cfg->limit_ns ? cfg->limit_ns :
		(u64)(4 + s.failures) * (cfg->timeout_ns + 2 * cfg->period_ns) +
		(cfg->no_repair ? 0 : 8 * ftd_digest_every(cfg->timeout_ns, 0xffff));
	s.t_fail = warmup;
	t_end = s.t_fail + limit;

	for (;;) {
		t = sim_evq_next_time(&s.q);
		if (!injected && t >= s.t_fail) {
			s.now = s.t_fail;
			sim_scenario_inject(&s);
			injected = true;
			continue;
		}
		if (t > t_end || s.err)
			break;
		if (sim_evq_pop(&s.q, &s.now, &v, &m) == SIM_EV_TICK)
			sim_node_tick(&s, v);
		else
			sim_node_rx(&s, &m);
		events++;
		if (cfg->stop_at_false && s.rep.t_false_first) {
			t_end = s.now;
			break;
		}
		/* Everyone knows, the minority fenced: a tail to catch anything late or repeated. */
		if (injected && !s.pending && !s.unfenced && t_end == s.t_fail + limit && s.now + tail < t_end)
			t_end = s.now + tail;
	}
	s.now = t_end;
	sim_report_finish(&s, res);
	res->events = events;
	res->ring_flips = s.view.flips;
	res->peak_in_flight = s.q.peak;
	res->wall_s = wall_now() - t0;
	res->mem_peak = sim_mem_peak();
	teardown(&s);
	return s.err;
}
