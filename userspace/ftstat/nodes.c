// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include "ftstat/nodes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/ftdetect.h>

#include "common/nl.h"
#include "common/query.h"
#include "ftstat/format.h"
#include "ftstat/loop.h"
#include "ftstat/prom.h"

/*
 * --output FILE: each snapshot goes to a temporary file next to FILE that
 * is renamed over it, so that a reader (node_exporter's textfile
 * collector) never sees half of one.
 */
static FILE *output_open(const char *path, char **tmp)
{
	int fd;
	FILE *f;

	if (asprintf(tmp, "%s.XXXXXX", path) < 0) {
		*tmp = NULL;
		return NULL;
	}
	fd = mkstemp(*tmp);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot create a file next to %s: %s\n",
			program_invocation_short_name, path, strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	fchmod(fd, 0644);	/* metrics are not secret; mkstemp made it 0600 */
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

static int output_close(FILE *f, const char *path, char *tmp)
{
	int ret = 0;

	if (fflush(f) || ferror(f) || fsync(fileno(f))) {
		fprintf(stderr, "%s: cannot write %s: %s\n", program_invocation_short_name,
			tmp, strerror(errno));
		ret = -1;
	}
	if (fclose(f) && !ret) {
		fprintf(stderr, "%s: cannot write %s: %s\n", program_invocation_short_name,
			tmp, strerror(errno));
		ret = -1;
	}
	if (!ret && rename(tmp, path)) {
		fprintf(stderr, "%s: cannot rename %s to %s: %s\n",
			program_invocation_short_name, tmp, path, strerror(errno));
		ret = -1;
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

/* One snapshot: config first, then the nodes, printed together. */
static int snapshot(struct ftu_nl *nl, const struct ftstat_nodes_opts *o, bool clear)
{
	struct ftu_node *nodes = NULL;
	struct ftd_ebpf_status eb;
	struct ftu_stats st = { 0 };
	struct ftu_config cfg;
	FILE *out = stdout;
	char *tmp = NULL;
	bool have_eb;
	size_t n = 0;
	int err;

	err = ftu_get_config(nl, &cfg);
	if (err) {
		ftu_nl_perror(nl, "get-config", err);
		return -1;
	}
	err = ftu_get_nodes(nl, &nodes, &n);
	if (err) {
		ftu_nl_perror(nl, "get-node", err);
		return -1;
	}
	if (o->prometheus) {
		err = ftu_get_stats(nl, &st);
		if (err) {
			ftu_nl_perror(nl, "get-stats", err);
			free(nodes);
			return -1;
		}
		if (o->output && !(out = output_open(o->output, &tmp))) {
			free(nodes);
			return -1;
		}
		ftstat_print_prometheus(out, &cfg, &st, nodes, n);
		free(nodes);
		return o->output ? output_close(out, o->output, tmp) : 0;
	}
	/* Where the eBPF programs are: shown when the listing fails too. */
	have_eb = !ftd_ebpf_status(&eb);
	if (clear)
		fputs("\033[H\033[2J", stdout);	/* like watch(1) */
	if (o->json)
		ftstat_print_nodes_json(stdout, &cfg, nodes, n, have_eb ? &eb : NULL);
	else if (o->delays)
		ftstat_print_delays(stdout, &cfg, nodes, n, have_eb ? &eb : NULL);
	else
		ftstat_print_nodes(stdout, &cfg, nodes, n, o->rails, have_eb ? &eb : NULL);
	if (have_eb)
		ftd_ebpf_status_free(&eb);
	free(nodes);
	return 0;
}

int ftstat_nodes(const struct ftstat_nodes_opts *o)
{
	/* Repeated tables redraw a terminal; into a pipe they are separated
	 * by a blank line (JSON: one object per line, nothing in between). */
	bool tty = o->interval_ns && !o->json && !o->prometheus && isatty(STDOUT_FILENO);
	struct ftstat_loop l;
	enum ftstat_wait w;
	struct ftu_nl nl;
	int ret = 0, err;

	if (ftu_nl_open(&nl, FTDETECT_GENL_NAME))
		return 1;
	if (o->interval_ns) {
		err = ftstat_loop_init(&l, o->timeout_ns);
		if (err) {
			fprintf(stderr, "%s: cannot set up signals: %s\n",
				program_invocation_short_name, strerror(-err));
			ret = 1;
			goto out;
		}
	}
	for (uint64_t i = 1;; i++) {
		if (snapshot(&nl, o, tty)) {
			ret = 1;
			/*
			 * A metrics file rewritten every interval: old numbers
			 * served as current are worse than none (a scraper sees
			 * them vanish), and the next interval may work again.
			 */
			if (!(o->output && o->interval_ns))
				break;
			if (unlink(o->output) && errno != ENOENT)
				fprintf(stderr, "%s: cannot remove the stale %s: %s\n",
					program_invocation_short_name, o->output, strerror(errno));
		}
		fflush(stdout);
		if (!o->interval_ns || (o->count && i >= o->count))
			break;
		w = ftstat_loop_wait(&l, -1, o->interval_ns);
		if (w == FTSTAT_WAIT_ERROR) {
			fprintf(stderr, "%s: ppoll: %s\n", program_invocation_short_name,
				strerror(errno));
			ret = 1;
		}
		if (w != FTSTAT_WAIT_SLEPT)
			break;	/* SIGINT/SIGTERM or the --timeout deadline */
		if (!tty && !o->json && !o->output)
			putchar('\n');
	}
out:
	ftu_nl_close(&nl);
	return ret;
}
