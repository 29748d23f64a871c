// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftdsim: the command line of the simulator (sim.h). Runs the cross product
 * of the node counts, scenarios and loss rates given, prints a table (or
 * JSON lines), and exits non-zero if any run broke a rule.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "common/duration.h"
#include "sim/sim.h"
#include "sim/scenario.h"

#define MAX_LIST	16

enum {
	EXIT_VIOLATION = 1,
	EXIT_USAGE = 2,
	EXIT_RUN = 3,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: ftdsim [OPTION]...\n"
"Simulate the ftdetect protocol (heartbeats to k ring successors, suspicion,\n"
"declaration, a spanning broadcast of notices over the ring's fingers) for N\n"
"nodes, with the protocol core the kernel module compiles (kmod/proto/). Every run\n"
"checks that each live node delivers each failure exactly once.\n"
"\n"
"Lists (N, scenario, loss, seed) are comma-separated; every combination runs.\n"
"Durations take a unit: ns, us, ms, s (e.g. 10ms, 1.5us).\n"
"\n"
"Cluster and protocol:\n"
"  -n, --nodes LIST        nodes in the ring (default 1000)\n"
"  -p, --period DUR        heartbeat period (default 10ms; 100us..10s)\n"
"  -t, --timeout DUR       silence before a node is declared dead\n"
"                          (default 50ms; at least 2 periods)\n"
"  -k, --observers K       observers per node: heartbeats go to the k live\n"
"                          successors (default 2; 1..8)\n"
"      --quorum Q          votes of distinct observers that declare a node\n"
"                          (default 1: an observer's timeout declares; 1..k)\n"
"      --no-repair         what-if, not the module: no anti-entropy digests\n"
"                          (a notice lost on every path stays lost)\n"
"      --no-relay          what-if, not the module: no indirect probes of suspects,\n"
"                          nor the deaths told to them with each ask\n"
"      --no-tell-preds     what-if, not the module: a declarer does not send\n"
"                          the death to the dead node's predecessors directly\n"
"                          (they learn it last, by the broadcast)\n"
"      --isolated-after DUR  what-if, not the module: the silence after which\n"
"                          a node that observes >= 2 nodes and hears nobody\n"
"                          declares nobody (the module: timeout / 2; before\n"
"                          commit 7faca8f: the timeout)\n"
"      --declare-unproven  what-if, not the module: a silence that ran out is\n"
"                          judged at once, before anyone is heard after it\n"
"                          (the module waits: ftd_detect_silence_proven)\n"
"      --flood             what-if, not the module: notices are flooded, each\n"
"                          node forwarding news to all its fingers (~log2 N\n"
"                          copies a member; the module before wire v7, whose\n"
"                          spanning broadcast sends one, kmod/proto/span.h)\n"
"Network:\n"
"  -l, --latency DUR       mean one-way latency (default 20us)\n"
"  -j, --jitter DUR        jitter around the mean (default 5us)\n"
"      --jitter-dist D     uniform: mean +- jitter (default)\n"
"                          normal: mean + jitter * N(0,1), at least 0\n"
"                          exp: mean - jitter + jitter * Exp(1) (a right tail)\n"
"  -L, --loss LIST         probability a frame is lost, as 0.01 or 1%%\n"
"                          (default 0); independent per frame\n"
"Failures:\n"
"  -s, --scenario LIST     single     one node crashes (default)\n"
"                          adjacent   consecutive nodes in ring order crash\n"
"                          partition  nodes are cut off from the rest\n"
"                          proc       a registered rank crashes (PROC_DEAD)\n"
"      --adjacent R        adjacent: how many consecutive nodes (default 3)\n"
"      --cut M             partition: how many nodes are cut off (default 16),\n"
"                          or a share of N as P%% (33.3%%: 333 of 1000)\n"
"      --cut-layout L      contiguous: consecutive node ids, a rack (default)\n"
"                          random: anywhere in the ring\n"
"      --cut-mode M        isolated: a cut node reaches nobody, not even\n"
"                          another cut node (default); island: the cut\n"
"                          nodes still reach each other\n"
"      --first ID          node id (1..N) of the (first) failing node\n"
"                          (default: drawn from the seed)\n"
"Run:\n"
"      --warmup DUR        time of the failure (default timeout + period)\n"
"      --tail DUR          simulated after every live node knows, to catch\n"
"                          late or repeated deliveries (default timeout + 2\n"
"                          periods)\n"
"      --limit DUR         give up this long after the failure (default\n"
"                          (4 + failures) x (timeout + 2 periods), plus 8\n"
"                          digest rounds of 1.25 x max(1 s, 4 timeouts))\n"
"      --stop-at-false     end a run when a live node is first declared dead\n"
"                          (first_false_ns: the exposure of a false-death rate\n"
"                          estimate, bench/sim-loss.sh)\n"
"      --seed LIST         seed of every random choice (default 1); a run is\n"
"                          a pure function of its options\n"
"Output:\n"
"      --json              one JSON object per run and line, instead of the table\n"
"  -o, --output FILE       also write the runs to FILE as a JSON array\n"
"  -q, --quiet             no table (violations still go to stderr)\n"
"  -h, --help              this text\n"
"\n"
"Table columns: detect = failure until the first node knows (earliest..latest\n"
"failure); overshoot = detect - timeout; all = until the last live node knows\n"
"every failure; hops = broadcast hops to the first copy (max/mean);\n"
"hb/n/s = heartbeats per node per second; ntc/n/fail = notice frames per node\n"
"per failure; B/n/s = frame bytes per node per second (both kinds, over the\n"
"simulated time); check = ok, or FAIL with the reason on stderr.\n"
"\n"
"Exit status: 0 all runs correct, 1 a run broke a rule (a live node delivered\n"
"a failure 0 or 2+ times, a false death, a cut-off node declared someone),\n"
"2 usage error, 3 a run could not complete (memory).\n");
}

static int die_usage(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "ftdsim: %s %s: %s (see ftdsim --help)\n", opt, val, why);
	exit(EXIT_USAGE);
}

static u64 parse_dur(const char *opt, const char *s)
{
	const char *why;
	uint64_t ns;

	if (ftu_duration_parse(s, &ns, &why))
		die_usage(opt, s, why);
	return ns;
}

static u64 parse_u64(const char *opt, const char *s, u64 min, u64 max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < min || v > max) {
		char why[64];

		snprintf(why, sizeof(why), "expected an integer in %" PRIu64 "..%" PRIu64, min, max);
		die_usage(opt, s, why);
	}
	return v;
}

/* --cut P%: the share of each N cut off (0: --cut is a count). */
static double cut_share;

/* --cut M or P%: a count, or a share of N kept in cut_share. */
static u32 parse_cut(const char *s)
{
	size_t len = strlen(s);
	char *end;

	if (len && s[len - 1] == '%') {
		errno = 0;
		cut_share = strtod(s, &end) / 100;
		if (errno || end != s + len - 1 || !(cut_share > 0 && cut_share < 1))
			die_usage("--cut", s, "expected a share in (0%, 100%), e.g. 33.3%");
		return 0;
	}
	cut_share = 0;
	return parse_u64("--cut", s, 1, 1000000);
}

/* The nodes cut off of n: --cut's count, or its share rounded down, at least one. */
static u32 cut_of(const struct sim_config *base, u32 n)
{
	u32 m = (u32)(cut_share * n + 1e-9);

	return !cut_share ? base->cut : m ? m : 1;
}

static double parse_loss(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end != s && *end == '%' && !end[1]) {
		v /= 100;
		end++;
	}
	if (errno || end == s || *end || !(v >= 0 && v < 1))
		die_usage(opt, s, "expected a probability in [0, 1), e.g. 0.01 or 1%");
	return v;
}

/* Split a comma list in place; returns the number of items. */
static int split(char *s, char **out, const char *opt)
{
	int n = 0;
	char *tok, *save;

	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST)
			die_usage(opt, tok, "too many values");
		out[n++] = tok;
	}
	if (!n)
		die_usage(opt, "", "empty list");
	return n;
}

int main(int argc, char **argv)
{
	enum { O_JDIST = 256, O_QUORUM, O_ISOLATED, O_NO_REPAIR, O_NO_RELAY, O_NO_TELL, O_UNPROVEN, O_FLOOD, O_ADJ, O_CUT, O_LAYOUT, O_MODE, O_FIRST, O_WARMUP, O_TAIL,
	       O_LIMIT, O_STOP_FALSE, O_SEED, O_JSON };
	static const struct option opts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "period", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 't' },
		{ "observers", required_argument, NULL, 'k' },
		{ "latency", required_argument, NULL, 'l' },
		{ "jitter", required_argument, NULL, 'j' },
		{ "jitter-dist", required_argument, NULL, O_JDIST },
		{ "quorum", required_argument, NULL, O_QUORUM },
		{ "isolated-after", required_argument, NULL, O_ISOLATED },
		{ "no-repair", no_argument, NULL, O_NO_REPAIR },
		{ "no-relay", no_argument, NULL, O_NO_RELAY },
		{ "no-tell-preds", no_argument, NULL, O_NO_TELL },
		{ "declare-unproven", no_argument, NULL, O_UNPROVEN },
		{ "flood", no_argument, NULL, O_FLOOD },
		{ "loss", required_argument, NULL, 'L' },
		{ "scenario", required_argument, NULL, 's' },
		{ "adjacent", required_argument, NULL, O_ADJ },
		{ "cut", required_argument, NULL, O_CUT },
		{ "cut-layout", required_argument, NULL, O_LAYOUT },
		{ "cut-mode", required_argument, NULL, O_MODE },
		{ "first", required_argument, NULL, O_FIRST },
		{ "warmup", required_argument, NULL, O_WARMUP },
		{ "tail", required_argument, NULL, O_TAIL },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ "stop-at-false", no_argument, NULL, O_STOP_FALSE },
		{ "seed", required_argument, NULL, O_SEED },
		{ "json", no_argument, NULL, O_JSON },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	u32 nodes[MAX_LIST] = { 1000 };
	enum sim_scenario scen[MAX_LIST] = { SIM_SC_SINGLE };
	double loss[MAX_LIST] = { 0 };
	u64 seeds[MAX_LIST] = { 1 };
	int n_nodes = 1, n_scen = 1, n_loss = 1, n_seeds = 1, i, a, b, c, d, o;
	int runs = 0, bad = 0, rc = 0;
	bool json = false, quiet = false;
	const char *output = NULL, *why;
	struct sim_config base, cfg;
	struct sim_result res;
	char *list[MAX_LIST];
	u64 first = 0;
	FILE *out = NULL;

	sim_config_default(&base);
	while ((o = getopt_long(argc, argv, "n:p:t:k:l:j:L:s:o:qh", opts, NULL)) != -1) {
		switch (o) {
		case 'n':
			n_nodes = split(optarg, list, "--nodes");
			for (i = 0; i < n_nodes; i++)
				nodes[i] = parse_u64("--nodes", list[i], 2, 10000000);
			break;
		case 'p':
			base.period_ns = parse_dur("--period", optarg);
			break;
		case 't':
			base.timeout_ns = parse_dur("--timeout", optarg);
			break;
		case 'k':
			base.k = parse_u64("--observers", optarg, 1, FTD_MAX_OBSERVERS);
			break;
		case 'l':
			base.net.latency_ns = parse_dur("--latency", optarg);
			break;
		case 'j':
			base.net.jitter_ns = parse_dur("--jitter", optarg);
			break;
		case O_JDIST:
			if (!strcmp(optarg, "uniform"))
				base.net.jitter = SIM_JITTER_UNIFORM;
			else if (!strcmp(optarg, "normal"))
				base.net.jitter = SIM_JITTER_NORMAL;
			else if (!strcmp(optarg, "exp"))
				base.net.jitter = SIM_JITTER_EXP;
			else
				die_usage("--jitter-dist", optarg, "expected uniform, normal or exp");
			break;
		case 'L':
			n_loss = split(optarg, list, "--loss");
			for (i = 0; i < n_loss; i++)
				loss[i] = parse_loss("--loss", list[i]);
			break;
		case 's':
			n_scen = split(optarg, list, "--scenario");
			for (i = 0; i < n_scen; i++)
				if (sim_scenario_parse(list[i], &scen[i]))
					die_usage("--scenario", list[i],
						  "expected single, adjacent, partition or proc");
			break;
		case O_QUORUM:
			base.quorum = parse_u64("--quorum", optarg, 1, FTD_MAX_OBSERVERS);
			break;
		case O_ISOLATED:
			base.isolated_after_ns = parse_dur("--isolated-after", optarg);
			if (!base.isolated_after_ns)
				die_usage("--isolated-after", optarg, "must be more than 0");
			break;
		case O_NO_REPAIR:
			base.no_repair = true;
			break;
		case O_NO_RELAY:
			base.no_relay = true;
			break;
		case O_NO_TELL:
			base.no_tell_preds = true;
			break;
		case O_UNPROVEN:
			base.declare_unproven = true;
			break;
		case O_FLOOD:
			base.flood = true;
			break;
		case O_ADJ:
			base.adjacent = parse_u64("--adjacent", optarg, 1, 1000000);
			break;
		case O_CUT:
			base.cut = parse_cut(optarg);
			break;
		case O_LAYOUT:
			if (!strcmp(optarg, "contiguous"))
				base.cut_layout = SIM_LAYOUT_CONTIGUOUS;
			else if (!strcmp(optarg, "random"))
				base.cut_layout = SIM_LAYOUT_RANDOM;
			else
				die_usage("--cut-layout", optarg, "expected contiguous or random");
			break;
		case O_MODE:
			if (!strcmp(optarg, "isolated"))
				base.cut_mode = SIM_CUT_ISOLATED;
			else if (!strcmp(optarg, "island"))
				base.cut_mode = SIM_CUT_ISLAND;
			else
				die_usage("--cut-mode", optarg, "expected isolated or island");
			break;
		case O_FIRST:
			first = parse_u64("--first", optarg, 1, 10000000);
			break;
		case O_WARMUP:
			base.warmup_ns = parse_dur("--warmup", optarg);
			break;
		case O_TAIL:
			base.tail_ns = parse_dur("--tail", optarg);
			break;
		case O_LIMIT:
			base.limit_ns = parse_dur("--limit", optarg);
			break;
		case O_STOP_FALSE:
			base.stop_at_false = true;
			break;
		case O_SEED:
			n_seeds = split(optarg, list, "--seed");
			for (i = 0; i < n_seeds; i++)
				seeds[i] = parse_u64("--seed", list[i], 0, UINT64_MAX);
			break;
		case O_JSON:
			json = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		die_usage("argument", argv[optind], "unexpected");
	if (output) {
		out = fopen(output, "w");
		if (!out) {
			fprintf(stderr, "ftdsim: %s: %s\n", output, strerror(errno));
			return EXIT_USAGE;
		}
		fputs("[\n", out);
	}
	/* Check every combination before running any. */
	for (a = 0; a < n_nodes; a++) {
		for (b = 0; b < n_scen; b++) {
			cfg = base;
			cfg.nodes = nodes[a];
			cfg.scenario = scen[b];
			cfg.cut = cut_of(&base, nodes[a]);
			if (first && first > nodes[a])
				die_usage("--first", "", "larger than the number of nodes");
			why = sim_config_check(&cfg);
			if (why) {
				fprintf(stderr, "ftdsim: N=%u %s: %s\n", cfg.nodes,
					sim_scenario_name(cfg.scenario), why);
				return EXIT_USAGE;
			}
		}
	}
	if (!json && !quiet) {
		char per[FTU_DURATION_BUFSZ], to[FTU_DURATION_BUFSZ], lat[FTU_DURATION_BUFSZ],
		     jit[FTU_DURATION_BUFSZ];

		printf("# period %s, timeout %s, k %u, quorum %u, latency %s +- %s (%s), seed %" PRIu64
		       "%s%s%s%s\n",
		       ftu_duration_format(base.period_ns, per, sizeof(per)),
		       ftu_duration_format(base.timeout_ns, to, sizeof(to)), base.k, base.quorum,
		       ftu_duration_format(base.net.latency_ns, lat, sizeof(lat)),
		       ftu_duration_format(base.net.jitter_ns, jit, sizeof(jit)),
		       base.net.jitter == SIM_JITTER_NORMAL ? "normal" :
		       base.net.jitter == SIM_JITTER_EXP ? "exp" : "uniform", seeds[0],
		       n_seeds > 1 ? ".." : "",
		       base.isolated_after_ns ? ", WHAT-IF isolation rule (not the module's)" : "",
		       base.declare_unproven ? ", WHAT-IF unproven silences judged (not the module)" : "",
		       base.flood ? ", WHAT-IF flooded notices (not the module)" : "");
		sim_report_table_header(stdout);
	}
	for (a = 0; a < n_nodes; a++) {
		for (b = 0; b < n_scen; b++) {
			for (c = 0; c < n_loss; c++) {
			for (d = 0; d < n_seeds; d++) {
				cfg = base;
				cfg.nodes = nodes[a];
				cfg.scenario = scen[b];
				cfg.cut = cut_of(&base, nodes[a]);
				cfg.net.loss = loss[c];
				cfg.seed = seeds[d];
				cfg.first = first ? (s64)first - 1 : -1;
				if (sim_run(&cfg, &res))
					rc = EXIT_RUN;
				if (json) {
					sim_report_json(stdout, &res);
					putchar('\n');
				} else if (!quiet) {
					sim_report_table_row(stdout, &res);
				}
				fflush(stdout);
				if (out) {
					fputs(runs ? ",\n" : "", out);
					sim_report_json(out, &res);
				}
				runs++;
				if (sim_report_violations(stderr, &res))
					bad++;
			}
			}
		}
	}
	if (out) {
		fputs("\n]\n", out);
		if (fclose(out)) {
			fprintf(stderr, "ftdsim: %s: %s\n", output, strerror(errno));
			rc = rc ? rc : EXIT_RUN;
		}
	}
	if (bad) {
		fprintf(stderr, "ftdsim: FAILED: %d of %d runs broke a rule (see above)\n", bad, runs);
		return rc ? rc : EXIT_VIOLATION;
	}
	return rc;
}
