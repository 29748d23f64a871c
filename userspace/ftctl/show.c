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
#include "common/json.h"
#include "common/keyid.h"
#include "common/names.h"
#include "common/nl.h"
#include "common/query.h"
#include "common/table.h"

static void show_json(FILE *f, const struct ftu_config *cfg,
		      const struct ftu_node *nodes, size_t n)
{
	char buf[FTU_ADDR_BUFSZ];
	struct ftu_json j;

	ftu_json_init(&j, f);
	ftu_json_object_begin(&j);
	ftu_json_kv_u64(&j, "cluster", cfg->cluster);
	ftu_json_key(&j, "node");
	if (FTU_HAS(cfg, FTDETECT_A_LOCAL_NODE) && cfg->node != FTD_NODE_NONE)
		ftu_json_u64(&j, cfg->node);
	else
		ftu_json_null(&j);
	ftu_json_kv_u64(&j, "port", cfg->port);
	ftu_json_kv_u64(&j, "period_ns", cfg->period_ns);
	ftu_json_kv_u64(&j, "timeout_ns", cfg->timeout_ns);
	if (FTU_HAS(cfg, FTDETECT_A_OBSERVERS))
		ftu_json_kv_u64(&j, "observers", cfg->observers);
	if (FTU_HAS(cfg, FTDETECT_A_QUORUM))
		ftu_json_kv_u64(&j, "quorum", cfg->quorum);
	if (FTU_HAS(cfg, FTDETECT_A_RDMA_RAILS)) {
		ftu_json_key(&j, "rdma_rails");
		ftu_json_array_begin(&j);
		for (unsigned int r = 0; r < FTD_MAX_RAILS; r++)
			if (cfg->rdma_rails & (1U << r))
				ftu_json_u64(&j, r);
		ftu_json_array_end(&j);
	}
	ftu_json_kv_bool(&j, "up", cfg->up);
	ftu_json_kv_u64(&j, "incarnation", cfg->incarnation);
	ftu_json_key_ids(&j, cfg);
	ftu_json_key(&j, "nodes");
	ftu_json_array_begin(&j);
	for (size_t i = 0; i < n; i++) {
		ftu_json_object_begin(&j);
		ftu_json_kv_u64(&j, "id", nodes[i].id);
		ftu_json_key(&j, "addresses");
		ftu_json_array_begin(&j);
		for (unsigned int r = 0; r < nodes[i].nr_rails; r++)
			ftu_json_string(&j, ftu_addr_format(&nodes[i].rails[r].addr, buf, sizeof(buf)));
		ftu_json_array_end(&j);
		ftu_json_object_end(&j);
	}
	ftu_json_array_end(&j);
	ftu_json_object_end(&j);
	fputc('\n', f);
}

static void show_text(FILE *f, const struct ftu_config *cfg,
		      const struct ftu_node *nodes, size_t n)
{
	static const struct ftu_column cols[] = { { "ID", false }, { "ADDRESSES", false } };
	char a[FTU_DURATION_BUFSZ], b[FTU_DURATION_BUFSZ];
	struct ftu_table t;

	fprintf(f, "cluster      %" PRIu32 "\n", cfg->cluster);
	if (FTU_HAS(cfg, FTDETECT_A_LOCAL_NODE) && cfg->node != FTD_NODE_NONE)
		fprintf(f, "node         %" PRIu32 "\n", cfg->node);
	else
		fprintf(f, "node         (not set)\n");
	fprintf(f, "port         %u\n", cfg->port);
	fprintf(f, "period       %s\n", ftu_duration_format(cfg->period_ns, a, sizeof(a)));
	fprintf(f, "timeout      %s\n", ftu_duration_format(cfg->timeout_ns, b, sizeof(b)));
	if (FTU_HAS(cfg, FTDETECT_A_OBSERVERS))
		fprintf(f, "observers    %u\n", cfg->observers);
	if (FTU_HAS(cfg, FTDETECT_A_QUORUM))
		fprintf(f, "quorum       %u\n", cfg->quorum);
	if (FTU_HAS(cfg, FTDETECT_A_RDMA_RAILS) && cfg->rdma_rails) {
		char rails[FTU_RAILS_BUFSZ];

		fprintf(f, "rdma rails   %s (heartbeats over RDMA)\n",
			ftu_rails_format(cfg->rdma_rails, rails, sizeof(rails)));
	}
	fprintf(f, "state        %s\n", cfg->up ? "up" : "down");
	fprintf(f, "incarnation  %" PRIu32 "\n", cfg->incarnation);
	if (FTU_HAS(cfg, FTDETECT_A_KEY_ID)) {
		char id[FTU_KEYID_BUFSZ];

		fprintf(f, "key          %s%s\n", ftu_key_id_format(cfg->key_id, id),
			strcmp(id, "none") ? "" : " (frames are not authenticated)");
		for (unsigned int i = 0; i < cfg->n_accepted_ids; i++)
			fprintf(f, "%s %s\n", i ? "            " : "accepted    ",
				ftu_key_id_format(cfg->accepted_ids[i], id));
	}
	fputc('\n', f);

	ftu_table_init(&t, cols, 2);
	for (size_t i = 0; i < n; i++) {
		char id[16], addrs[FTD_MAX_RAILS * (FTU_ADDR_BUFSZ + 1)] = "";
		const char *cells[2] = { id, addrs };
		size_t len = 0;

		snprintf(id, sizeof(id), "%" PRIu32, nodes[i].id);
		for (unsigned int r = 0; r < nodes[i].nr_rails; r++) {
			char buf[FTU_ADDR_BUFSZ];

			len += (size_t)snprintf(addrs + len, sizeof(addrs) - len, "%s%s", r ? " " : "",
					ftu_addr_format(&nodes[i].rails[r].addr, buf, sizeof(buf)));
		}
		ftu_table_add(&t, cells);
	}
	ftu_table_print(&t, f);
	ftu_table_free(&t);
}

void ftctl_show_print(FILE *f, const struct ftu_config *cfg,
		      const struct ftu_node *nodes, size_t n, bool json)
{
	if (json)
		show_json(f, cfg, nodes, n);
	else
		show_text(f, cfg, nodes, n);
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

/* JSON: the buckets as an array (index = bucket, as the uapi), count and sum. */
static void latency_json(struct ftu_json *j, const char *name, const struct ftu_latency *l)
{
	ftu_json_key(j, name);
	ftu_json_object_begin(j);
	ftu_json_kv_u64(j, "count", ftu_latency_count(l));
	ftu_json_kv_u64(j, "sum_ns", l->sum_ns);
	ftu_json_key(j, "hist");
	ftu_json_array_begin(j);
	for (unsigned int b = 0; b < FTD_LATENCY_BUCKETS; b++)
		ftu_json_u64(j, l->hist[b]);
	ftu_json_array_end(j);
	ftu_json_object_end(j);
}

/* Text: "count, sum S; [lo,hi):n ..." for the buckets that hold something. */
static void latency_text(FILE *f, const char *name, const struct ftu_latency *l)
{
	uint64_t count = ftu_latency_count(l);
	char lo[32], hi[32];

	fprintf(f, "%-18s%" PRIu64, name, count);
	if (count)
		fprintf(f, ", sum %s, mean %s;", ftu_duration_format(l->sum_ns, lo, sizeof(lo)),
			ftu_duration_format(l->sum_ns / count, hi, sizeof(hi)));
	for (unsigned int b = 0; b < FTD_LATENCY_BUCKETS; b++) {
		if (!l->hist[b])
			continue;
		if (b == 0)
			fprintf(f, " <1us:%" PRIu64, l->hist[b]);
		else if (b == FTD_LATENCY_BUCKETS - 1)
			fprintf(f, " >=%s:%" PRIu64,
				ftu_duration_format((1ULL << (b - 1)) * 1000, lo, sizeof(lo)),
				l->hist[b]);
		else
			fprintf(f, " [%s,%s):%" PRIu64,
				ftu_duration_format((1ULL << (b - 1)) * 1000, lo, sizeof(lo)),
				ftu_duration_format((1ULL << b) * 1000, hi, sizeof(hi)), l->hist[b]);
	}
	fputc('\n', f);
}

void ftctl_stats_print(FILE *f, const struct ftu_stats *st, bool json)
{
	struct ftu_json j;

	if (json) {
		ftu_json_init(&j, f);
		ftu_json_object_begin(&j);
#define X(attr, name, kind) \
		if (FTU_HAS(st, FTDETECT_A_STATS_##attr)) \
			ftu_json_kv_u64(&j, #name, st->name);
		FTDETECT_STATS_U64(X)
#undef X
		if (FTU_HAS(st, FTDETECT_A_STATS_EVENTS_BY_TYPE)) {
			/* Every type this build names, 0 included: scripts need no default. */
			ftu_json_key(&j, "events_by_type");
			ftu_json_object_begin(&j);
			for (unsigned int t = 1; t < __FTD_EV_MAX; t++)
				if (ftu_event_name(t))
					ftu_json_kv_u64(&j, ftu_event_name(t),
							st->events_by_type[t]);
			ftu_json_object_end(&j);
		}
		for (size_t i = 0; i < sizeof(latencies) / sizeof(latencies[0]); i++)
			if (FTU_HAS(st, latencies[i].hist))
				latency_json(&j, latencies[i].name, latency_of(st, i));
		ftu_json_object_end(&j);
		fputc('\n', f);
		return;
	}
#define X(attr, name, kind) \
	if (FTU_HAS(st, FTDETECT_A_STATS_##attr)) \
		fprintf(f, "%-18s%" PRIu64 "\n", #name, st->name);
	FTDETECT_STATS_U64(X)
#undef X
	if (FTU_HAS(st, FTDETECT_A_STATS_EVENTS_BY_TYPE)) {
		/* Compact: the types that happened. */
		fprintf(f, "%-18s", "events_by_type");
		for (unsigned int t = 1, sep = 0; t < __FTD_EV_MAX; t++)
			if (st->events_by_type[t] && ftu_event_name(t))
				fprintf(f, "%s%s=%" PRIu64, sep++ ? " " : "", ftu_event_name(t),
					st->events_by_type[t]);
		fputc('\n', f);
	}
	for (size_t i = 0; i < sizeof(latencies) / sizeof(latencies[0]); i++)
		if (FTU_HAS(st, latencies[i].hist))
			latency_text(f, latencies[i].name, latency_of(st, i));
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
