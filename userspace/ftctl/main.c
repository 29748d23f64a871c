// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftctl: configure the ftdetect instance of the current network namespace.
 * Command-line handling only; each command lives in its own file.
 *
 * Exit status: 0 success, 1 runtime or kernel error, 2 usage or config error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/ftdetect.h>

#include "ftctl/apply.h"
#include "ftctl/config.h"
#include "ftctl/ebpf.h"
#include "ftctl/keys.h"
#include "ftctl/local.h"
#include "ftctl/show.h"

enum { EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;	/* synopsis and options, shown by --help */
};

static const struct command *find_command(const char *name);

static const char main_usage[] =
	"Usage: ftctl COMMAND [OPTIONS]\n"
	"       ftctl help [COMMAND]\n"
	"\n"
	"Configure the ftdetect failure detector of this network namespace.\n"
	"\n"
	"Commands:\n"
	"  apply [--node ID] [--dry-run] [--restart] [--force] [-v] FILE\n"
	"                 apply a cluster config file (nodes, period, timeout, key)\n"
	"  show [-j]      show the configuration and the node list\n"
	"  stats [-j]     show the instance's frame and event counters\n"
	"  down           stop heartbeats (configuration and nodes are kept)\n"
	"  genkey         print a new random cluster key\n"
	"  keyid          print the id of each key read on standard input\n"
	"  xdp attach|detach DEV, xdp status [-j]\n"
	"                 the XDP program: driver-level arrival stamps, early filter\n"
	"  tc attach|detach DEV, tc status [-j]\n"
	"                 the TC egress program: transmit stamps\n"
	"  help [COMMAND] show this help, or a command's\n"
	"\n"
	"Exit status: 0 success, 1 runtime or kernel error, 2 usage or config error.\n"
	"See ftdetect.conf(5) for the config file format.\n";

static const char apply_usage[] =
	"Usage: ftctl apply [--node ID] [--dry-run] [--restart] [--force] [-v] FILE\n"
	"\n"
	"Make the instance match FILE: set cluster id, local node, port, period,\n"
	"timeout and keys, add or replace the listed nodes, remove the others, and\n"
	"start heartbeats. A running instance stays up unless the cluster id, the\n"
	"local node or the port change; keys change live (see ftdetect.conf(5),\n"
	"KEYS, for changing a cluster's key without a false suspicion).\n"
	"\n"
	"The local node is --node ID, else 'node =' in FILE, else the one node\n"
	"whose address is configured on this host (in this network namespace).\n"
	"A node given by --node or 'node =' must have an address on this host.\n"
	"\n"
	"Options:\n"
	"  -n, --node ID   this host is node ID\n"
	"  -d, --dry-run   check FILE, resolve the local node, print the steps;\n"
	"                  do not touch the instance\n"
	"  -r, --restart   take the instance down first even if not needed\n"
	"  -v, --verbose   print each request as it is sent\n"
	"  -f, --force     apply even if this host has no address of the node\n"
	"                  (its interfaces are not configured yet)\n"
	"  -h, --help      show this help\n";

static const char show_usage[] =
	"Usage: ftctl show [-j]\n"
	"\n"
	"Show the instance's configuration (cluster, local node, port, period,\n"
	"timeout, state, incarnation) and its nodes with their addresses.\n"
	"For liveness and latency figures use ftstat(8).\n"
	"\n"
	"Options:\n"
	"  -j, --json   one JSON object (durations in nanoseconds)\n"
	"  -h, --help   show this help\n";

static const char stats_usage[] =
	"Usage: ftctl stats [-j]\n"
	"\n"
	"Show the instance's counters: frames sent (tx), failed sends (tx_err),\n"
	"frames accepted (rx), frames dropped as malformed, foreign (another\n"
	"cluster or an unknown sender) or with a bad MAC, events emitted, and\n"
	"heartbeat timer ticks: all, late by more than a period, latest (ns).\n"
	"\n"
	"Options:\n"
	"  -j, --json   one JSON object\n"
	"  -h, --help   show this help\n";

static const char down_usage[] =
	"Usage: ftctl down\n"
	"\n"
	"Stop heartbeats. The configuration and the node list are kept; 'ftctl\n"
	"apply' starts the instance again. The other nodes are told that this\n"
	"node left: they report NODE_LEFT, never NODE_DEAD.\n";

static const char help_usage[] =
	"Usage: ftctl help [COMMAND]\n";

__attribute__((format(printf, 2, 3)))
static int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ftctl %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

/* getopt_long() returned '?' or ':' (opterr is 0: we word the message). */
static int bad_option(const char *cmd, char **argv, int c)
{
	char opt[3] = { '-', (char)optopt, '\0' };
	const char *name = optopt ? opt : argv[optind - 1];

	if (c == ':')
		return usage_error(cmd, "option '%s' needs an argument", name);
	return usage_error(cmd, "unknown option '%s'", name);
}

/*
 * Options of the read-only commands: -j (if json is not NULL) and -h.
 * getopt_long() is reset for each command (optind = 0 re-initialises
 * glibc's state).
 */
static int parse_json_opt(const char *cmd, const char *usage, int argc, char **argv,
			  bool *json, bool *help)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const struct option help_only[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, json ? "+:jh" : "+:h", json ? opts : help_only,
				NULL)) != -1) {
		switch (c) {
		case 'j':
			if (!json)	/* not in the optstring then; for the analyzer */
				return bad_option(cmd, argv, c);
			*json = true;
			break;
		case 'h':
			*help = true;
			fputs(usage, stdout);
			return 0;
		default:
			return bad_option(cmd, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	return 0;
}

static int cmd_show(int argc, char **argv)
{
	bool json = false, help = false;
	int ret = parse_json_opt("show", show_usage, argc, argv, &json, &help);

	return ret || help ? ret : ftctl_show(json);
}

static int cmd_stats(int argc, char **argv)
{
	bool json = false, help = false;
	int ret = parse_json_opt("stats", stats_usage, argc, argv, &json, &help);

	return ret || help ? ret : ftctl_stats(json);
}

static int cmd_down(int argc, char **argv)
{
	bool help = false;
	int ret = parse_json_opt("down", down_usage, argc, argv, NULL, &help);

	return ret || help ? ret : ftctl_down();
}

static int parse_node_opt(const char *s, uint32_t *id)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v >= FTD_NODE_NONE)
		return -1;
	*id = (uint32_t)v;
	return 0;
}

/* The key must stay secret: say so if the file does not keep it. */
static void check_key_perms(const char *path, const struct ftctl_conf *conf)
{
	struct stat st;

	if (conf->keyfile)
		return;	/* the parser checked the keyfile's owner and mode */
	/* As strict as for a keyfile, but a warning: such files exist. */
	if ((conf->has_key || conf->n_accepted) && !stat(path, &st) &&
	    (st.st_mode & (S_IRWXG | S_IRWXO)))
		fprintf(stderr, "%s: warning: %s holds the cluster key and other users "
			"can read or write it (chmod go-rwx %s, or move the key to a "
			"keyfile)\n", program_invocation_short_name, path, path);
}

static int cmd_apply(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "node", required_argument, NULL, 'n' },
		{ "dry-run", no_argument, NULL, 'd' },
		{ "restart", no_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct ftctl_apply_opts ao = { 0 };
	bool force = false;
	struct ftu_addr *host = NULL;
	char err[FTCTL_CONF_ERRSZ];
	struct ftctl_local local;
	struct ftctl_conf conf;
	bool has_node = false;
	const char *path;
	size_t nhost = 0;
	uint32_t node = 0;
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n:drvfh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_node_opt(optarg, &node))
				return usage_error("apply", "bad node id '%s' (expected 0..4294967294)",
						   optarg);
			has_node = true;
			break;
		case 'd':
			ao.dry_run = true;
			break;
		case 'r':
			ao.restart = true;
			break;
		case 'v':
			ao.verbose = true;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			fputs(apply_usage, stdout);
			return 0;
		default:
			return bad_option("apply", argv, c);
		}
	}
	if (optind == argc)
		return usage_error("apply", "missing config FILE");
	if (optind < argc - 1)
		return usage_error("apply", "unexpected argument '%s'", argv[optind + 1]);
	path = argv[optind];

	if (ftctl_conf_load(path, &conf, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", program_invocation_short_name, err);
		return EXIT_USAGE;
	}
	check_key_perms(path, &conf);

	/* Who we are (unless said), and that we own an address of that node. */
	if (!force || (!has_node && !conf.has_node)) {
		int e = ftctl_host_addrs(&host, &nhost);

		if (e) {
			fprintf(stderr, "%s: cannot list this host's addresses: %s\n",
				program_invocation_short_name, strerror(-e));
			ret = EXIT_RUNTIME;
			goto out;
		}
	}
	if (ftctl_local_resolve(&conf, path, has_node ? &node : NULL, host, nhost, &local,
				err, sizeof(err)) ||
	    (!force && ftctl_local_check_owned(&conf, local.id, local.how, host, nhost, err,
					       sizeof(err)))) {
		fprintf(stderr, "%s: %s\n", program_invocation_short_name, err);
		ret = EXIT_USAGE;
		goto out;
	}
	if (ao.dry_run) {
		printf("# %s: cluster %u, %zu nodes\n", path, conf.cluster, conf.nr_nodes);
		printf("# local node %u: %s\n", local.id, local.how);
	}
	ret = ftctl_apply(&conf, local.id, &ao);
out:
	free(host);
	ftctl_conf_free(&conf);
	return ret;
}

static int cmd_help(int argc, char **argv)
{
	const struct command *cmd;

	if (argc > 2)
		return usage_error("help", "unexpected argument '%s'", argv[2]);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(main_usage, stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage_error(NULL, "unknown command '%s'", argv[1]);
	fputs(cmd->usage, stdout);
	return 0;
}

static const struct command commands[] = {
	{ "apply", cmd_apply, apply_usage },
	{ "show", cmd_show, show_usage },
	{ "stats", cmd_stats, stats_usage },
	{ "down", cmd_down, down_usage },
	{ "genkey", ftctl_cmd_genkey, ftctl_genkey_usage },
	{ "keyid", ftctl_cmd_keyid, ftctl_keyid_usage },
	{ "xdp", ftctl_cmd_xdp, ftctl_xdp_usage },
	{ "tc", ftctl_cmd_tc, ftctl_tc_usage },
	{ "help", cmd_help, help_usage },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		fputs(main_usage, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(main_usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("ftctl (ftdetect), generic netlink family '%s' version %d\n",
		       FTDETECT_GENL_NAME, FTDETECT_GENL_VERSION);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage_error(NULL, "unknown command '%s'", argv[1]);
	return cmd->run(argc - 1, argv + 1);
}
