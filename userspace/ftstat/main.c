// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftstat: show who is alive, with latencies and losses, or stream events.
 * Command-line handling only; see nodes.c (table) and watch.c (events).
 *
 * Exit status: 0 success; 1 runtime or kernel error; 2 usage error;
 * 3 --watch --timeout expired before --count events arrived.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ftdetect.h>

#include "common/duration.h"
#include "common/names.h"
#include "ftstat/nodes.h"
#include "ftstat/watch.h"

enum { EXIT_USAGE = 2 };

static const char usage[] =
	"Usage: ftstat [-j] [-r | -d] [-i INTERVAL [-c COUNT] [-t TIMEOUT]]\n"
	"       ftstat -p [-o FILE] [-i INTERVAL [-c COUNT] [-t TIMEOUT]]\n"
	"       ftstat -w [-j | -J] [-e EVENT[,EVENT...]] [-x PROGRAM [-T TIME]] [-c COUNT] [-t TIMEOUT]\n"
	"\n"
	"Show the nodes of this network namespace's ftdetect instance: state,\n"
	"time since last heard, heartbeat inter-arrival mean and jitter, lost and\n"
	"received heartbeats, and where arrival times come from (STAMP: xdp, skb or\n"
	"module). With -w, print the detector's events as they happen.\n"
	"\n"
	"Options:\n"
	"  -j, --json            JSON: one object per table, one object per event\n"
	"  -r, --rails           one extra row per rail (address) of multi-rail nodes\n"
	"  -d, --delays          per rail: timestamp source and the distribution of the\n"
	"                        delay from the XDP stamp to the module (min, mean,\n"
	"                        max, histogram)\n"
	"  -p, --prometheus      the instance's counters and every node in the\n"
	"                        Prometheus text format (metrics ftdetect_*)\n"
	"  -o, --output FILE     with -p: write FILE (replaced atomically, as\n"
	"                        node_exporter's textfile collector needs)\n"
	"  -i, --interval TIME   print the table every TIME (e.g. 1, 0.5, 200ms)\n"
	"  -w, --watch           print events as they happen\n"
	"  -J, --journal         with -w: send each event to the systemd journal,\n"
	"                        not stdout: MESSAGE, PRIORITY and its fields\n"
	"                        (FTD_EVENT, FTD_NODE, ...); at most 500 of a type\n"
	"                        per 10 s, the rest counted (FTD_SUPPRESSED)\n"
	"  -e, --event NAMES     with -w: only these event types (comma-separated,\n"
	"                        e.g. NODE_DEAD,PROC_DEAD); OVERFLOW lines always show\n"
	"  -x, --exec PROGRAM    with -w: run PROGRAM (with sh -c) on each event shown,\n"
	"                        the event as a JSON line on its stdin and as FTD_*\n"
	"                        variables (FTD_EVENT, FTD_NODE, ...); at most 4 at\n"
	"                        once, the others wait in order\n"
	"  -T, --exec-timeout TIME  stop a PROGRAM still running after TIME\n"
	"                        (SIGTERM, then SIGKILL; default 30s)\n"
	"  -c, --count N         stop after N events (-w) or N tables (-i)\n"
	"  -t, --timeout TIME    stop after TIME in all (e.g. 5, 2.5s, 500ms)\n"
	"  -h, --help            show this help\n"
	"  -V, --version         show the version\n"
	"\n"
	"TIME is in seconds unless it has a unit (ns, us, ms, s).\n"
	"\n"
	"Exit status: 0 success (also when stopped by SIGINT/SIGTERM or when\n"
	"--timeout ends a run without --count); 1 runtime or kernel error; 2 usage\n"
	"error; 3 with -w, --timeout expired before --count events arrived.\n"
	"See ftstat(8).\n";

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'ftstat --help'.\n", stderr);
	return EXIT_USAGE;
}

/* "5", "0.5" (seconds) or a duration with a unit ("200ms"); > 0. */
static int parse_time(const char *s, uint64_t *ns)
{
	char buf[64];
	const char *why;

	if (!ftu_duration_parse(s, ns, &why))
		return *ns ? 0 : -1;
	if (snprintf(buf, sizeof(buf), "%ss", s) >= (int)sizeof(buf) ||
	    ftu_duration_parse(buf, ns, &why))
		return -1;
	return *ns ? 0 : -1;
}

static int parse_count(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || !*v ? -1 : 0;
}

/* "NODE_DEAD,PROC_DEAD" -> bit mask of event types. */
static int parse_events(const char *arg, uint32_t *mask)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return usage_error("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int type = ftu_event_type(tok);

		if (type < 0 || type >= 32) {
			fprintf(stderr, "%s: unknown event '%s'; known events:",
				program_invocation_short_name, tok);
			for (unsigned int t = 1; ftu_event_name(t); t++)
				fprintf(stderr, " %s", ftu_event_name(t));
			fputc('\n', stderr);
			ret = EXIT_USAGE;
			break;
		}
		*mask |= 1U << type;
	}
	free(copy);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "rails", no_argument, NULL, 'r' },
		{ "delays", no_argument, NULL, 'd' },
		{ "prometheus", no_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "interval", required_argument, NULL, 'i' },
		{ "watch", no_argument, NULL, 'w' },
		{ "journal", no_argument, NULL, 'J' },
		{ "event", required_argument, NULL, 'e' },
		{ "exec", required_argument, NULL, 'x' },
		{ "exec-timeout", required_argument, NULL, 'T' },
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	struct ftstat_nodes_opts no = { 0 };
	struct ftstat_watch_opts wo = { 0 };
	bool watch = false, json = false;
	uint64_t count = 0, timeout = 0;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jJrdpo:i:we:x:T:c:t:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'J':
			wo.journal = true;
			break;
		case 'r':
			no.rails = true;
			break;
		case 'd':
			no.delays = true;
			break;
		case 'p':
			no.prometheus = true;
			break;
		case 'o':
			no.output = optarg;
			break;
		case 'i':
			if (parse_time(optarg, &no.interval_ns))
				return usage_error("bad interval '%s' (e.g. 1, 0.5, 200ms)", optarg);
			break;
		case 'w':
			watch = true;
			break;
		case 'e':
			ret = parse_events(optarg, &wo.types);
			if (ret)
				return ret;
			break;
		case 'x':
			if (!*optarg)
				return usage_error("--exec needs a program");
			wo.exec = optarg;
			break;
		case 'T':
			if (parse_time(optarg, &wo.exec_timeout_ns))
				return usage_error("bad exec timeout '%s' (e.g. 30, 2.5s, 500ms)", optarg);
			break;
		case 'c':
			if (parse_count(optarg, &count))
				return usage_error("bad count '%s' (a positive integer)", optarg);
			break;
		case 't':
			if (parse_time(optarg, &timeout))
				return usage_error("bad timeout '%s' (e.g. 5, 2.5s, 500ms)", optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'V':
			printf("ftstat (ftdetect), generic netlink family '%s' version %d\n",
			       FTDETECT_GENL_NAME, FTDETECT_GENL_VERSION);
			return 0;
		case ':':
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt)
				return usage_error("unknown option '-%c'", optopt);
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);

	if (wo.journal && !watch)
		return usage_error("--journal needs --watch");
	if (wo.journal && json)
		return usage_error("--journal and --json are two outputs: choose one");
	if ((wo.exec || wo.exec_timeout_ns) && !watch)
		return usage_error("--exec and --exec-timeout need --watch");
	if (wo.exec_timeout_ns && !wo.exec)
		return usage_error("--exec-timeout needs --exec");
	if (!wo.exec_timeout_ns)
		wo.exec_timeout_ns = 30000000000ULL;
	if (no.output && !no.prometheus)
		return usage_error("--output needs --prometheus");
	if (no.prometheus && (watch || json || no.rails || no.delays))
		return usage_error("--prometheus is a format of its own: not with --watch, "
				   "--json, --rails or --delays");
	if (watch) {
		if (no.rails || no.delays || no.interval_ns)
			return usage_error("--rails, --delays and --interval apply to the table, "
					   "not --watch");
		wo.json = json;
		wo.count = count;
		wo.timeout_ns = timeout;
		return ftstat_watch(&wo);
	}
	if (wo.types)
		return usage_error("--event needs --watch");
	if (no.rails && no.delays)
		return usage_error("--rails and --delays are two different tables: choose one");
	if ((count || timeout) && !no.interval_ns)
		return usage_error("--count and --timeout need --watch or --interval");
	no.json = json;
	no.count = count;
	no.timeout_ns = timeout;
	return ftstat_nodes(&no);
}
