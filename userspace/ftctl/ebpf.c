// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftctl xdp / ftctl tc, and the eBPF step of ftctl apply.
 *
 * The maps always say what the instance (or the file being applied) says:
 * `attach` reads port, cluster and members from the running instance;
 * `apply` writes the file's. A member filter is only switched on when there
 * are members to let through, so an XDP program attached to a node that is
 * not configured yet drops nothing but junk.
 */
#define _GNU_SOURCE
#include "ftctl/ebpf.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"
#include "common/nl.h"
#include "common/query.h"
#include "common/print.h"
#include "ftctl/local.h"
#include "loader.h"

enum { EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

const char ftctl_xdp_usage[] =
	"Usage: ftctl xdp attach DEV [--mode auto|native|generic]\n"
	"       ftctl xdp detach DEV\n"
	"       ftctl xdp status [-j]\n"
	"\n"
	"The XDP program stamps heartbeat arrivals at the driver (the rx_ns slot of\n"
	"each frame) and drops junk aimed at the heartbeat port before the stack\n"
	"sees it: frames too short, with a bad magic, version or length, of another\n"
	"cluster, or from an address that is no member's, counted by reason.\n"
	"\n"
	"  attach   load and attach it to DEV (replacing ftdetect's own); port,\n"
	"           cluster and members come from the running instance\n"
	"  detach   detach it from DEV; the module goes back to skb timestamps\n"
	"  status   interfaces carrying it, their mode and counters\n"
	"\n"
	"Options:\n"
	"  -m, --mode MODE   native (in the driver), generic (on skbs, any device),\n"
	"                    or auto (native, else generic; the default)\n"
	"  -j, --json        status as one JSON object\n"
	"  -h, --help        show this help\n"
	"\n"
	"Maps are pinned under /sys/fs/bpf/ftdetect/net-<netns inode>/. The config\n"
	"file's 'xdp =' key makes 'ftctl apply' do this for the heartbeat interfaces.\n";

const char ftctl_tc_usage[] =
	"Usage: ftctl tc attach DEV\n"
	"       ftctl tc detach DEV\n"
	"       ftctl tc status [-j]\n"
	"\n"
	"The TC egress program rewrites the tx_ns field of outgoing frames with the\n"
	"sender's CLOCK_TAI as they leave through DEV (clsact egress), so that the\n"
	"time a frame spent in the sender is behind the stamp.\n"
	"\n"
	"  attach   load and attach it to DEV's egress (a clsact qdisc is added if\n"
	"           needed, and stays after detach)\n"
	"  detach   remove ftdetect's egress filter from DEV\n"
	"  status   interfaces carrying it, frames stamped, and the delay between\n"
	"           the module's build time and the stamp\n"
	"\n"
	"Options:\n"
	"  -j, --json   status as one JSON object\n"
	"  -h, --help   show this help\n"
	"\n"
	"The config file's 'tc = on' key makes 'ftctl apply' do this for the\n"
	"heartbeat interfaces.\n";

__attribute__((format(printf, 2, 3)))
static int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", program_invocation_short_name, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ftctl %s --help'.\n", cmd);
	return EXIT_USAGE;
}

static int runtime_error(const char *cmd, const char *msg)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, cmd, msg);
	return EXIT_RUNTIME;
}

/* ---------------------------------------------------------------- parameters */

struct members {
	struct ftd_ebpf_member *m;
	uint32_t *nodes;
	size_t n;
};

static void members_free(struct members *mb)
{
	free(mb->m);
	free(mb->nodes);
	*mb = (struct members){ 0 };
}

static int members_add(struct members *mb, size_t cap, const struct ftu_addr *a, uint32_t node)
{
	if (!mb->m) {
		mb->m = calloc(cap ? cap : 1, sizeof(*mb->m));
		mb->nodes = calloc(cap ? cap : 1, sizeof(*mb->nodes));
		if (!mb->m || !mb->nodes)
			return -ENOMEM;
	}
	if (a->family == AF_INET)
		ftd_ebpf_member_v4(&mb->m[mb->n], &a->in);
	else
		ftd_ebpf_member_v6(&mb->m[mb->n], &a->in6);
	mb->nodes[mb->n++] = node;
	return 0;
}

static void params_set_members(struct ftd_ebpf_params *p, struct members *mb)
{
	ftd_ebpf_members_sort(mb->m, mb->nodes, mb->n);
	p->members = mb->m;
	p->member_nodes = mb->nodes;
	p->nr_members = mb->n;
	p->has_members = mb->n > 0;
}

static int params_from_conf(const struct ftctl_conf *c, struct ftd_ebpf_params *p,
			    struct members *mb)
{
	*p = (struct ftd_ebpf_params){ .port = c->port, .has_cluster = true, .cluster = c->cluster };
	for (size_t i = 0; i < c->nr_nodes; i++)
		for (unsigned int r = 0; r < c->nodes[i].nr_addrs; r++)
			if (members_add(mb, c->nr_nodes * FTD_MAX_RAILS, &c->nodes[i].addrs[r],
					c->nodes[i].id))
				return -ENOMEM;
	params_set_members(p, mb);
	return 0;
}

/* What the running instance says; prints why and returns -errno if it cannot. */
static int params_from_kernel(const char *cmd, struct ftd_ebpf_params *p, struct members *mb)
{
	struct ftu_node *nodes = NULL;
	struct ftu_config cfg;
	struct ftu_nl nl;
	size_t n = 0;
	int err;

	*p = (struct ftd_ebpf_params){ .port = FTD_DEFAULT_PORT };
	err = ftu_nl_open(&nl, FTDETECT_GENL_NAME);
	if (err)
		return err;	/* printed: the module is not loaded */
	err = ftu_get_config(&nl, &cfg);
	if (err) {
		ftu_nl_perror(&nl, "get-config", err);
		goto out;
	}
	err = ftu_get_nodes(&nl, &nodes, &n);
	if (err) {
		ftu_nl_perror(&nl, "get-node", err);
		goto out;
	}
	if (FTU_HAS(&cfg, FTDETECT_A_PORT) && cfg.port)
		p->port = cfg.port;
	if (FTU_HAS(&cfg, FTDETECT_A_LOCAL_NODE) && cfg.node != FTD_NODE_NONE) {
		p->has_cluster = true;
		p->cluster = cfg.cluster;
	}
	for (size_t i = 0; i < n && !err; i++)
		for (unsigned int r = 0; r < nodes[i].nr_rails && !err; r++)
			err = members_add(mb, n * FTD_MAX_RAILS, &nodes[i].rails[r].addr,
					  nodes[i].id);
	if (err)
		fprintf(stderr, "%s: %s: out of memory\n", program_invocation_short_name, cmd);
	else
		params_set_members(p, mb);
out:
	free(nodes);
	ftu_nl_close(&nl);
	return err;
}

/* ---------------------------------------------------------------- status output */

static const char *owner_name(enum ftd_owner o)
{
	return o == FTD_OWNER_OURS ? "ftdetect" : o == FTD_OWNER_OTHER ? "other" : "?";
}

/*
 * The pinned maps' settings: JSON's first members, the text's last line
 * ("port 7061, cluster 42, 6 member addresses; pins in DIR").
 */
static void print_pins(struct ftu_print *p, const struct ftd_ebpf_status *st)
{
	if (st->dir[0])
		ftu_print_string(p, "pin_dir", NULL, st->dir);
	else
		ftu_print_null(p, "pin_dir", NULL);
	if (!st->has_config) {
		ftu_print_text(p, "no maps pinned%s%s\n", st->dir[0] ? " in " : "", st->dir);
	} else {
		ftu_print_object_begin(p, "config");
		ftu_print_u64(p, "port", "port %" PRIu64, st->config.port);
		ftu_print_bool(p, "filter_cluster", NULL, st->config.flags & FTD_EBPF_F_CLUSTER,
			       NULL, NULL);
		if (st->config.flags & FTD_EBPF_F_CLUSTER)
			ftu_print_u64(p, "cluster", ", cluster %" PRIu64, st->config.cluster);
		else
			ftu_print_text(p, ", any cluster");
		ftu_print_bool(p, "filter_members", NULL, st->config.flags & FTD_EBPF_F_MEMBERS,
			       NULL, NULL);
		ftu_print_object_end(p);
	}
	if (st->has_members)
		ftu_print_u64(p, "members", st->has_config ? ", %" PRIu64 " member address" : NULL,
			      st->nr_members);
	if (st->has_config && st->has_members)
		ftu_print_text(p, "%s%s", st->nr_members == 1 ? "" : "es",
			       st->config.flags & FTD_EBPF_F_MEMBERS ? "" : " (not filtering)");
	if (st->has_config)
		ftu_print_text(p, "; pins in %s\n", st->dir);
}

/* An interface's name and program: JSON members, text the DEV and PROGRAM cells. */
static void print_iface(struct ftu_print *p, const struct ftd_ebpf_iface *e, uint32_t id,
			enum ftd_owner o, unsigned int prog_col)
{
	ftu_print_string(p, "ifname", "%s", e->name);
	ftu_print_u64(p, "ifindex", NULL, e->ifindex);
	ftu_print_bool(p, "attached", NULL, id != 0, NULL, NULL);
	ftu_print_cell(p, prog_col);
	if (id) {
		ftu_print_text(p, "%s (id %" PRIu32 ")", owner_name(o), id);
		ftu_print_u64(p, "prog_id", NULL, id);
		if (o == FTD_OWNER_UNKNOWN)
			ftu_print_null(p, "ftdetect", NULL);
		else
			ftu_print_bool(p, "ftdetect", NULL, o == FTD_OWNER_OURS, NULL, NULL);
	} else {
		ftu_print_text(p, "-");
	}
}

/*
 * A program's n counters: JSON all of them, named, when the maps hold
 * them; text the first shown ones, in the cells from col on ("-" when
 * not held).
 */
static void print_counters(struct ftu_print *p, bool has, const uint64_t *v,
			   const char *const *names, unsigned int n, unsigned int shown,
			   unsigned int col)
{
	if (has)
		ftu_print_object_begin(p, "counters");
	for (unsigned int i = 0; i < n; i++) {
		ftu_print_cell(p, col + i);
		ftu_print_u64_opt(p, has, names[i], i < shown ? "%" PRIu64 : NULL, v[i]);
	}
	if (has)
		ftu_print_object_end(p);
}

/*
 * A status document: JSON opens with the pinned maps' settings and goes
 * on with the interfaces; text puts the table first and the settings
 * under it.
 */
static void status_begin(struct ftu_print *p, FILE *f, bool json,
			 const struct ftd_ebpf_status *st, const struct ftu_column *cols,
			 unsigned int ncols)
{
	ftu_print_init(p, f, json);
	ftu_print_object_begin(p, NULL);
	if (json)
		print_pins(p, st);
	ftu_print_table_begin(p, "interfaces", cols, ncols);
}

/* empty: the text line when no interface has the program. */
static void status_end(struct ftu_print *p, const struct ftd_ebpf_status *st, const char *empty)
{
	ftu_print_table_end(p, empty);
	if (!p->json)
		print_pins(p, st);
	ftu_print_object_end(p);
	ftu_print_done(p);
}

/* ftctl xdp status: the interfaces with the program or its counters. */
void ftctl_xdp_status_print(FILE *f, const struct ftd_ebpf_status *st, bool json)
{
	enum { C_DEV, C_MODE, C_PROG, C_STAMPED, C_NOTP, C_SHORT, C_MAGIC, C_VERSION, C_LENGTH,
	       C_CLUSTER, C_NONMEMBER, NCOLS };
	static const struct ftu_column cols[NCOLS] = {
		{ "DEV", false }, { "MODE", false }, { "PROGRAM", false },
		{ "STAMPED", true }, { "NOT PARSED", true }, { "SHORT", true },
		{ "MAGIC", true }, { "VERSION", true }, { "LENGTH", true },
		{ "CLUSTER", true }, { "NON-MEMBER", true },
	};
	struct ftu_print p;

	status_begin(&p, f, json, st, cols, NCOLS);
	for (size_t i = 0; i < st->nr_ifaces; i++) {
		const struct ftd_ebpf_iface *e = &st->ifaces[i];

		if (!e->xdp_prog_id && !e->has_xdp_stats)
			continue;
		ftu_print_row(&p);
		ftu_print_object_begin(&p, NULL);
		print_iface(&p, e, e->xdp_prog_id, e->xdp_owner, C_PROG);
		ftu_print_cell(&p, C_MODE);
		/* text shows "off" too; JSON the mode of an attached program */
		ftu_print_string(&p, e->xdp_prog_id ? "mode" : NULL, "%s",
				 ftd_xdp_attach_name(e->xdp_mode));
		/* the text has no column for the last counter (unstamped) */
		print_counters(&p, e->has_xdp_stats, e->xdp, ftd_xdp_counter_names, __FTD_XDP_NR,
			       NCOLS - C_STAMPED, C_STAMPED);
		ftu_print_object_end(&p);
	}
	status_end(&p, st, "no XDP program on any interface of this namespace "
		   "(ftctl xdp attach DEV)");
}

/* ftctl tc status: the interfaces with the program or its counters. */
void ftctl_tc_status_print(FILE *f, const struct ftd_ebpf_status *st, bool json)
{
	enum { C_DEV, C_PROG, C_STAMPED, C_NOTP, C_ERRORS, C_MEAN, C_MAX, C_NEG, NCOLS };
	static const struct ftu_column cols[NCOLS] = {
		{ "DEV", false }, { "PROGRAM", false }, { "STAMPED", true },
		{ "NOT PARSED", true }, { "ERRORS", true }, { "DELAY MEAN", true },
		{ "DELAY MAX", true }, { "BACKWARDS", true },
	};
	struct ftu_print p;

	status_begin(&p, f, json, st, cols, NCOLS);
	for (size_t i = 0; i < st->nr_ifaces; i++) {
		const struct ftd_ebpf_iface *e = &st->ifaces[i];
		uint64_t samples = e->tc[FTD_TC_DELAY_SAMPLES];
		bool s = e->has_tc_stats;

		if (!e->tc_prog_id && !s)
			continue;
		ftu_print_row(&p);
		ftu_print_object_begin(&p, NULL);
		print_iface(&p, e, e->tc_prog_id, e->tc_owner, C_PROG);
		/* JSON: the raw counters; text: the first three, then the delays */
		print_counters(&p, s, e->tc, ftd_tc_counter_names, __FTD_TC_NR, C_MEAN - C_STAMPED,
			       C_STAMPED);
		ftu_print_cell(&p, C_MEAN);
		ftu_print_duration_opt(&p, s && samples, "delay_mean_ns", "%s",
				       samples ? e->tc[FTD_TC_DELAY_SUM_NS] / samples : 0);
		ftu_print_cell(&p, C_MAX);
		ftu_print_duration_opt(&p, s && samples, NULL, "%s", e->tc[FTD_TC_DELAY_MAX_NS]);
		ftu_print_cell(&p, C_NEG);
		ftu_print_u64_opt(&p, s, NULL, "%" PRIu64, e->tc[FTD_TC_DELAY_NEGATIVE]);
		ftu_print_object_end(&p);
	}
	status_end(&p, st, "no TC egress program on any interface of this namespace "
		   "(ftctl tc attach DEV)");
}

/* ---------------------------------------------------------------- commands */

static int status(const char *cmd, bool json, bool xdp)
{
	struct ftd_ebpf_status st;
	int err = ftd_ebpf_status(&st);

	if (err) {
		fprintf(stderr, "%s: %s: cannot list the interfaces: %s\n",
			program_invocation_short_name, cmd, strerror(-err));
		return EXIT_RUNTIME;
	}
	if (xdp)
		ftctl_xdp_status_print(stdout, &st, json);
	else
		ftctl_tc_status_print(stdout, &st, json);
	ftd_ebpf_status_free(&st);
	return 0;
}

static int attach(const char *cmd, const char *dev, enum ftd_xdp_want want, bool xdp)
{
	struct ftd_ebpf_params p;
	struct members mb = { 0 };
	char err[768], note[384];
	enum ftd_xdp_attach got;
	int ret;

	if (params_from_kernel(cmd, &p, &mb)) {
		members_free(&mb);
		return EXIT_RUNTIME;
	}
	if (xdp)
		ret = ftd_xdp_attach(dev, want, &p, &got, note, sizeof(note), err, sizeof(err));
	else
		ret = ftd_tc_attach(dev, &p, err, sizeof(err));
	members_free(&mb);
	if (ret)
		return runtime_error(cmd, err);
	if (xdp)
		printf("%s: XDP attached in %s mode%s%s%s\n", dev, ftd_xdp_attach_name(got),
		       note[0] ? " (" : "", note, note[0] ? ")" : "");
	else
		printf("%s: TC egress program attached\n", dev);
	return 0;
}

static int detach(const char *cmd, const char *dev, bool xdp)
{
	char err[768];
	int ret = xdp ? ftd_xdp_detach(dev, err, sizeof(err)) : ftd_tc_detach(dev, err, sizeof(err));

	return ret ? runtime_error(cmd, err) : 0;
}

static int cmd_family(int argc, char **argv, bool xdp)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *cmd = argv[0], *usage = xdp ? ftctl_xdp_usage : ftctl_tc_usage, *sub;
	enum ftd_xdp_want want = FTD_XDP_WANT_AUTO;
	bool json = false, has_mode = false;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, xdp ? ":m:jh" : ":jh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (!xdp)
				return usage_error(cmd, "unknown option '--mode'");
			if (ftd_xdp_want_parse(optarg, &want) || want == FTD_XDP_WANT_OFF)
				return usage_error(cmd, "bad mode '%s' (expected auto, native or generic)",
						   optarg);
			has_mode = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case ':':
			return usage_error(cmd, "option '%s' needs an argument", argv[optind - 1]);
		default:
			return usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error(cmd, "missing subcommand (attach, detach or status)");
	sub = argv[optind++];
	if (!strcmp(sub, "status")) {
		if (optind < argc)
			return usage_error(cmd, "unexpected argument '%s'", argv[optind]);
		if (has_mode)
			return usage_error(cmd, "--mode is for attach");
		return status(cmd, json, xdp);
	}
	if (strcmp(sub, "attach") && strcmp(sub, "detach"))
		return usage_error(cmd, "unknown subcommand '%s' (attach, detach or status)", sub);
	if (optind >= argc)
		return usage_error(cmd, "%s: missing interface DEV", sub);
	if (optind + 1 < argc)
		return usage_error(cmd, "unexpected argument '%s'", argv[optind + 1]);
	if (json)
		return usage_error(cmd, "-j is for status");
	if (!strcmp(sub, "detach")) {
		if (has_mode)
			return usage_error(cmd, "--mode is for attach");
		return detach(cmd, argv[optind], xdp);
	}
	return attach(cmd, argv[optind], want, xdp);
}

int ftctl_cmd_xdp(int argc, char **argv)
{
	return cmd_family(argc, argv, true);
}

int ftctl_cmd_tc(int argc, char **argv)
{
	return cmd_family(argc, argv, false);
}

/* ---------------------------------------------------------------- apply */

static enum ftd_xdp_want want_of(enum ftctl_conf_xdp x)
{
	switch (x) {
	case FTCTL_XDP_AUTO:	return FTD_XDP_WANT_AUTO;
	case FTCTL_XDP_NATIVE:	return FTD_XDP_WANT_NATIVE;
	case FTCTL_XDP_GENERIC:	return FTD_XDP_WANT_GENERIC;
	default:		return FTD_XDP_WANT_OFF;
	}
}

static bool listed(char names[][IF_NAMESIZE], size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Detach ours from every interface that carries it and is not in names. */
static int detach_others(const struct ftd_ebpf_status *st, char names[][IF_NAMESIZE],
			 size_t n, bool xdp, bool verbose)
{
	char err[768];
	int ret = 0;

	for (size_t i = 0; i < st->nr_ifaces; i++) {
		const struct ftd_ebpf_iface *e = &st->ifaces[i];
		bool ours = xdp ? e->xdp_prog_id && e->xdp_owner == FTD_OWNER_OURS :
				  e->tc_prog_id && e->tc_owner == FTD_OWNER_OURS;

		if (!ours || listed(names, n, e->name))
			continue;
		if (verbose)
			printf("%s detach %s\n", xdp ? "xdp" : "tc", e->name);
		if (xdp ? ftd_xdp_detach(e->name, err, sizeof(err)) :
			  ftd_tc_detach(e->name, err, sizeof(err))) {
			fprintf(stderr, "%s: apply: %s\n", program_invocation_short_name, err);
			ret = EXIT_RUNTIME;
		}
	}
	return ret;
}

int ftctl_apply_ebpf(const struct ftctl_conf *conf, uint32_t local, bool dry_run, bool verbose)
{
	const struct ftctl_conf_node *node = ftctl_conf_find(conf, local);
	enum ftd_xdp_want want = want_of(conf->xdp);
	char names[FTD_MAX_RAILS][IF_NAMESIZE], err[768], note[384];
	struct ftctl_ifaddr *host = NULL;
	struct ftd_ebpf_params p;
	struct members mb = { 0 };
	struct ftd_ebpf_status st;
	size_t nhost = 0, n = 0;
	int ret = 0, e;

	if (node && (want != FTD_XDP_WANT_OFF || conf->tc)) {
		e = ftctl_host_ifaddrs(&host, &nhost);
		if (e) {
			fprintf(stderr, "%s: apply: cannot list this host's addresses: %s\n",
				program_invocation_short_name, strerror(-e));
			return EXIT_RUNTIME;
		}
		n = ftctl_rail_ifaces(node, host, nhost, names);
		free(host);
		if (!n && dry_run) {
			printf("# no interface of this host carries an address of node %" PRIu32
			       ": nowhere to attach the eBPF programs\n", local);
		} else if (!n) {
			fprintf(stderr, "%s: apply: no interface of this host carries an address "
				"of node %" PRIu32 ": nowhere to attach the eBPF programs "
				"(xdp/tc in the config)\n", program_invocation_short_name, local);
			return EXIT_RUNTIME;
		}
	}
	if (dry_run) {
		if (want == FTD_XDP_WANT_OFF && !conf->tc) {
			puts("ebpf detach ...       # ftdetect's XDP and TC programs, wherever attached");
			return 0;
		}
		for (size_t i = 0; i < n && want != FTD_XDP_WANT_OFF; i++)
			printf("xdp attach %s mode %s\n", names[i], ftd_xdp_want_name(want));
		printf("xdp detach ...        # ftdetect's XDP program, from %s\n",
		       want != FTD_XDP_WANT_OFF ? "other interfaces" : "every interface");
		for (size_t i = 0; i < n && conf->tc; i++)
			printf("tc attach %s\n", names[i]);
		printf("tc detach ...         # ftdetect's TC program, from %s\n",
		       conf->tc ? "other interfaces" : "every interface");
		return 0;
	}

	if (params_from_conf(conf, &p, &mb)) {
		members_free(&mb);
		return runtime_error("apply", "out of memory");
	}
	e = ftd_ebpf_status(&st);
	if (e) {
		members_free(&mb);
		fprintf(stderr, "%s: apply: cannot list the interfaces: %s\n",
			program_invocation_short_name, strerror(-e));
		return EXIT_RUNTIME;
	}
	ret |= detach_others(&st, names, want != FTD_XDP_WANT_OFF ? n : 0, true, verbose);
	ret |= detach_others(&st, names, conf->tc ? n : 0, false, verbose);
	ftd_ebpf_status_free(&st);

	for (size_t i = 0; i < n && want != FTD_XDP_WANT_OFF; i++) {
		enum ftd_xdp_attach got;

		if (ftd_xdp_attach(names[i], want, &p, &got, note, sizeof(note), err, sizeof(err))) {
			fprintf(stderr, "%s: apply: %s\n", program_invocation_short_name, err);
			ret = EXIT_RUNTIME;
		} else if (verbose) {
			printf("xdp attach %s: %s mode%s%s%s\n", names[i], ftd_xdp_attach_name(got),
			       note[0] ? " (" : "", note, note[0] ? ")" : "");
		}
	}
	for (size_t i = 0; i < n && conf->tc; i++) {
		if (ftd_tc_attach(names[i], &p, err, sizeof(err))) {
			fprintf(stderr, "%s: apply: %s\n", program_invocation_short_name, err);
			ret = EXIT_RUNTIME;
		} else if (verbose) {
			printf("tc attach %s\n", names[i]);
		}
	}
	/* Whatever stays attached (also by hand) learns this file's members. */
	if (ftd_ebpf_sync(&p, err, sizeof(err))) {
		fprintf(stderr, "%s: apply: %s\n", program_invocation_short_name, err);
		ret = EXIT_RUNTIME;
	}
	members_free(&mb);
	return ret;
}
