// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftctl show / stats / down. The text output is for people (aligned
 * "name value" lines, then a node table); -j is for programs and has the
 * same content with raw numbers (nanoseconds, not "10ms").
 */
#define _GNU_SOURCE
#include "ftctl/show.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"
#include "common/keyid.h"
#include "common/names.h"
#include "common/nl.h"
#include "common/print.h"
#include "common/query.h"

static void show_nodes(struct ftu_print *p, const struct ftu_node *nodes, size_t n)
{
	static const struct ftu_column cols[] = { { "ID", false }, { "ADDRESSES", false } };
	char buf[FTU_ADDR_BUFSZ];

	ftu_print_table_begin(p, "nodes", cols, 2);
	for (size_t i = 0; i < n; i++) {
		ftu_print_row(p);
		ftu_print_object_begin(p, NULL);
		ftu_print_u64(p, "id", "%" PRIu64, nodes[i].id);
		ftu_print_cell(p, 1);
		ftu_print_array_begin(p, "addresses");
		for (unsigned int r = 0; r < nodes[i].nr_rails; r++)
			ftu_print_string(p, NULL, r ? " %s" : "%s",
					 ftu_addr_format(&nodes[i].rails[r].addr, buf, sizeof(buf)));
		ftu_print_array_end(p);
		ftu_print_object_end(p);
	}
	ftu_print_table_end(p, NULL);
}

void ftctl_show_print(FILE *f, const struct ftu_config *cfg,
		      const struct ftu_node *nodes, size_t n, bool json)
{
	struct ftu_print p;

	ftu_print_init(&p, f, json);
	ftu_print_object_begin(&p, NULL);
	ftu_print_u64(&p, "cluster", "cluster      %" PRIu64 "\n", cfg->cluster);
	if (FTU_HAS(cfg, FTDETECT_A_LOCAL_NODE) && cfg->node != FTD_NODE_NONE)
		ftu_print_u64(&p, "node", "node         %" PRIu64 "\n", cfg->node);
	else
		ftu_print_null(&p, "node", "node         (not set)\n");
	ftu_print_u64(&p, "port", "port         %" PRIu64 "\n", cfg->port);
	ftu_print_duration(&p, "period_ns", "period       %s\n", cfg->period_ns);
	ftu_print_duration(&p, "timeout_ns", "timeout      %s\n", cfg->timeout_ns);
	if (FTU_HAS(cfg, FTDETECT_A_OBSERVERS))
		ftu_print_u64(&p, "observers", "observers    %" PRIu64 "\n", cfg->observers);
	if (FTU_HAS(cfg, FTDETECT_A_QUORUM))
		ftu_print_u64(&p, "quorum", "quorum       %" PRIu64 "\n", cfg->quorum);
	if (FTU_HAS(cfg, FTDETECT_A_RDMA_RAILS)) {
		char rails[FTU_RAILS_BUFSZ];

		/* JSON: the rails, none included; text: a line if there are any. */
		ftu_print_array_begin(&p, "rdma_rails");
		for (unsigned int r = 0; r < FTD_MAX_RAILS; r++)
			if (cfg->rdma_rails & (1U << r))
				ftu_print_u64(&p, NULL, NULL, r);
		ftu_print_array_end(&p);
		if (cfg->rdma_rails)
			ftu_print_text(&p, "rdma rails   %s (heartbeats over RDMA)\n",
				       ftu_rails_format(cfg->rdma_rails, rails, sizeof(rails)));
	}
	ftu_print_bool(&p, "up", "state        %s\n", cfg->up, "up", "down");
	ftu_print_u64(&p, "incarnation", "incarnation  %" PRIu64 "\n", cfg->incarnation);
	ftu_print_key_ids(&p, cfg, false);
	ftu_print_text(&p, "\n");
	show_nodes(&p, nodes, n);
	ftu_print_object_end(&p);
	ftu_print_done(&p);
}

/* The silence histograms: by whom the death was found, and their attributes. */
static const struct {
	const char *name;
	int hist;
	size_t off;
} latencies[] = {
	{ "declared", FTDETECT_A_STATS_DECLARED_HIST, offsetof(struct ftu_stats, declared) },
	{ "told", FTDETECT_A_STATS_TOLD_HIST, offsetof(struct ftu_stats, told) },
};

static const struct ftu_latency *latency_of(const struct ftu_stats *st, size_t i)
{
	return (const struct ftu_latency *)((const char *)st + latencies[i].off);
}

/*
 * JSON: count, sum and the buckets as an array (index = bucket, as the
 * uapi); text: "count, sum S, mean M; [lo,hi):n ..." for the buckets that
 * hold something.
 */
static void print_latency(struct ftu_print *p, const char *name, const struct ftu_latency *l)
{
	uint64_t count = ftu_latency_count(l);
	char lo[32], hi[32];

	ftu_print_object_begin(p, name);
	ftu_print_text(p, "%-18s", name);
	ftu_print_u64(p, "count", "%" PRIu64, count);
	ftu_print_duration(p, "sum_ns", count ? ", sum %s" : NULL, l->sum_ns);
	if (count)
		ftu_print_duration(p, NULL, ", mean %s;", l->sum_ns / count);
	ftu_print_array_begin(p, "hist");
	for (unsigned int b = 0; b < FTD_LATENCY_BUCKETS; b++) {
		ftu_print_u64(p, NULL, NULL, l->hist[b]);
		if (!l->hist[b])
			continue;
		if (b == 0)
			ftu_print_text(p, " <1us:%" PRIu64, l->hist[b]);
		else if (b == FTD_LATENCY_BUCKETS - 1)
			ftu_print_text(p, " >=%s:%" PRIu64,
				       ftu_duration_format((1ULL << (b - 1)) * 1000, lo, sizeof(lo)),
				       l->hist[b]);
		else
			ftu_print_text(p, " [%s,%s):%" PRIu64,
				       ftu_duration_format((1ULL << (b - 1)) * 1000, lo, sizeof(lo)),
				       ftu_duration_format((1ULL << b) * 1000, hi, sizeof(hi)),
				       l->hist[b]);
	}
	ftu_print_array_end(p);
	ftu_print_object_end(p);
	ftu_print_text(p, "\n");
}

void ftctl_stats_print(FILE *f, const struct ftu_stats *st, bool json)
{
	struct ftu_print p;

	ftu_print_init(&p, f, json);
	ftu_print_object_begin(&p, NULL);
#define X(attr, name, kind)							\
	if (FTU_HAS(st, FTDETECT_A_STATS_##attr)) {				\
		ftu_print_text(&p, "%-18s", #name);				\
		ftu_print_u64(&p, #name, "%" PRIu64 "\n", st->name);		\
	}
	FTDETECT_STATS_U64(X)
#undef X
	if (FTU_HAS(st, FTDETECT_A_STATS_EVENTS_BY_TYPE)) {
		/* JSON: every type this build names, 0 included (scripts need no default); text: those that happened. */
		ftu_print_object_begin(&p, "events_by_type");
		ftu_print_text(&p, "%-18s", "events_by_type");
		for (unsigned int t = 1, sep = 0; t < __FTD_EV_MAX; t++) {
			const char *name = ftu_event_name(t);

			if (!name)
				continue;
			ftu_print_u64(&p, name, NULL, st->events_by_type[t]);
			if (st->events_by_type[t])
				ftu_print_text(&p, "%s%s=%" PRIu64, sep++ ? " " : "", name,
					       st->events_by_type[t]);
		}
		ftu_print_object_end(&p);
		ftu_print_text(&p, "\n");
	}
	for (size_t i = 0; i < sizeof(latencies) / sizeof(latencies[0]); i++)
		if (FTU_HAS(st, latencies[i].hist))
			print_latency(&p, latencies[i].name, latency_of(st, i));
	ftu_print_object_end(&p);
	ftu_print_done(&p);
}

int ftctl_show(bool json)
{
	struct ftu_node *nodes = NULL;
	struct ftu_config cfg;
	struct ftu_nl nl;
	size_t n = 0;
	int err;

	if (ftu_nl_open(&nl, FTDETECT_GENL_NAME))
		return 1;
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
	ftctl_show_print(stdout, &cfg, nodes, n, json);
out:
	free(nodes);
	ftu_nl_close(&nl);
	return err ? 1 : 0;
}

int ftctl_stats(bool json)
{
	struct ftu_stats st;
	struct ftu_nl nl;
	int err;

	if (ftu_nl_open(&nl, FTDETECT_GENL_NAME))
		return 1;
	err = ftu_get_stats(&nl, &st);
	if (err)
		ftu_nl_perror(&nl, "get-stats", err);
	else
		ftctl_stats_print(stdout, &st, json);
	ftu_nl_close(&nl);
	return err ? 1 : 0;
}

int ftctl_down(void)
{
	struct nl_msg *msg;
	struct ftu_nl nl;
	int err;

	if (ftu_nl_open(&nl, FTDETECT_GENL_NAME))
		return 1;
	msg = ftu_nl_msg(&nl, FTDETECT_CMD_DOWN, 0);
	err = msg ? ftu_nl_call(&nl, msg, NULL, NULL) : -ENOMEM;
	if (err)
		ftu_nl_perror(&nl, "down", err);
	ftu_nl_close(&nl);
	return err ? 1 : 0;
}
