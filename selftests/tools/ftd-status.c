// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: the status table of /dev/ftdetect as libftdetect reads it (no
 * system call once mapped), as one line of JSON, for the shell tests to
 * compare with the event stream (ftd-devwatch) and the netlink dump (ftstat).
 * Linked against the shared libftdetect.so.1 of the tree, so that the tests
 * go through the library's exported ABI.
 *
 *   ftd-status                 everything: header, nodes, ranks
 *   ftd-status -n NODE         one node (ftd_node_status)
 *   ftd-status -r JOB:RANK     one rank (ftd_rank_status)
 *   ftd-status -b [-r J:R]     cost of a read, in ns, over many calls
 *
 * Exit status: 0, 1 on an error (printed with ftd_strerror), 2 on usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/ftdetect.h"

static void print_id(const char *key, uint32_t id)
{
	if (id == FTD_NODE_NONE)
		printf("\"%s\":null", key);
	else
		printf("\"%s\":%" PRIu32, key, id);
}

static void print_node(const struct ftd_node_status *n)
{
	printf("{\"id\":%" PRIu32 ",\"state\":\"%s\",\"incarnation\":%" PRIu32
	       ",\"rails_down\":%u,\"nrails\":%u,\"event_seq\":%" PRIu64 ",\"gen\":%" PRIu64 "}",
	       n->id, ftd_node_state_name(n->state), n->incarnation, n->rails_down, n->nrails,
	       n->event_seq, n->gen);
}

static void print_rank(const struct ftd_rank_status *r)
{
	printf("{\"job\":%" PRIu32 ",\"rank\":%" PRIu32 ",", r->job, r->rank);
	print_id("node", r->node);
	printf(",\"state\":\"%s\",\"cause\":", ftd_rank_state_name(r->state));
	if (r->cause)
		printf("\"%s\"", ftd_event_name(r->cause));
	else
		printf("null");
	printf(",\"local\":%s,\"node_state\":\"%s\",\"incarnation\":%" PRIu32
	       ",\"regid\":%" PRIu32 ",\"event_seq\":%" PRIu64 ",\"gen\":%" PRIu64 "}",
	       r->local ? "true" : "false", ftd_node_state_name(r->node_state), r->incarnation,
	       r->regid, r->event_seq, r->gen);
}

static void print_info(const struct ftd_status_info *i)
{
	printf("\"changes\":%" PRIu64 ",\"event_seq\":%" PRIu64 ",\"up\":%s"
	       ",\"nodes_full\":%s,\"ranks_full\":%s,",
	       i->changes, i->event_seq, i->flags & FTD_STATUS_F_UP ? "true" : "false",
	       i->flags & FTD_STATUS_F_NODES_FULL ? "true" : "false",
	       i->flags & FTD_STATUS_F_RANKS_FULL ? "true" : "false");
	print_id("local_node", i->local_node);
	printf(",\"local_incarnation\":%" PRIu32 ",\"cluster\":%" PRIu32
	       ",\"node_count\":%" PRIu32 ",\"node_cap\":%" PRIu32 ",\"rank_count\":%" PRIu32
	       ",\"rank_cap\":%" PRIu32 ",\"ranks_alive\":%" PRIu32 ",\"nodes_dropped\":%" PRIu64
	       ",\"ranks_dropped\":%" PRIu64 ",\"ranks_recycled\":%" PRIu64 ",\"fenced\":%" PRIu64,
	       i->local_incarnation, i->cluster, i->node_count, i->node_cap, i->rank_count,
	       i->rank_cap, i->ranks_alive, i->nodes_dropped, i->ranks_dropped, i->ranks_recycled,
	       i->fenced);
}

static int dump(struct ftd_handle *h)
{
	struct ftd_status_snapshot *s;
	size_t i;
	int ret = ftd_status_snapshot(h, &s);

	if (ret)
		return ret;
	printf("{");
	print_info(&s->info);
	printf(",\"nodes\":[");
	for (i = 0; i < s->n_nodes; i++) {
		printf(i ? "," : "");
		print_node(&s->nodes[i]);
	}
	printf("],\"ranks\":[");
	for (i = 0; i < s->n_ranks; i++) {
		printf(i ? "," : "");
		print_rank(&s->ranks[i]);
	}
	printf("]}\n");
	ftd_status_snapshot_free(s);
	return 0;
}

static double since_ns(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1e9 + (b.tv_nsec - a->tv_nsec);
}

/* Per-call cost of the three reads a progress loop makes. */
static int bench(struct ftd_handle *h, uint32_t job, uint32_t rank, long n)
{
	struct ftd_status_info info;
	struct ftd_node_status ns;
	struct ftd_rank_status rs;
	struct timespec t;
	double c, nd, rk;
	int64_t sink = 0;
	long i;
	int ret = ftd_status_info(h, &info);

	if (ret)
		return ret;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (i = 0; i < n; i++)
		sink += ftd_status_changes(h);
	c = since_ns(&t) / n;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (i = 0; i < n; i++)
		sink += ftd_node_status(h, info.local_node, &ns);
	nd = since_ns(&t) / n;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (i = 0; i < n; i++)
		sink += ftd_rank_status(h, job, rank, &rs);
	rk = since_ns(&t) / n;
	printf("{\"calls\":%ld,\"status_changes_ns\":%.1f,\"node_status_ns\":%.1f,"
	       "\"rank_status_ns\":%.1f,\"ranks_in_table\":%" PRIu32 ",\"sink\":%" PRId64 "}\n",
	       n, c, nd, rk, info.rank_count, sink);
	return 0;
}

int main(int argc, char **argv)
{
	struct ftd_node_status ns;
	struct ftd_rank_status rs;
	unsigned int job = 0, rank = 0, node = 0;
	bool by_node = false, by_rank = false, do_bench = false;
	long calls = 1000000;
	struct ftd_handle *h;
	int opt, ret;

	while ((opt = getopt(argc, argv, "n:r:bc:")) != -1) {
		switch (opt) {
		case 'n':
			node = (unsigned int)strtoul(optarg, NULL, 10);
			by_node = true;
			break;
		case 'r':
			if (sscanf(optarg, "%u:%u", &job, &rank) != 2) {
				fprintf(stderr, "ftd-status: -r takes JOB:RANK\n");
				return 2;
			}
			by_rank = true;
			break;
		case 'b':
			do_bench = true;
			break;
		case 'c':
			calls = strtol(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: ftd-status [-n NODE | -r JOB:RANK] [-b [-c CALLS]]\n");
			return 2;
		}
	}
	if (calls < 1) {
		fprintf(stderr, "ftd-status: -c takes a positive count\n");
		return 2;
	}

	h = ftd_open(NULL);
	if (!h) {
		fprintf(stderr, "ftd-status: %s: %s\n", FTD_DEVICE_PATH, ftd_strerror(-errno));
		return 1;
	}
	if (do_bench) {
		ret = bench(h, job, rank, calls);
	} else if (by_node) {
		ret = ftd_node_status(h, node, &ns);
		if (!ret) {
			print_node(&ns);
			printf("\n");
		}
	} else if (by_rank) {
		ret = ftd_rank_status(h, job, rank, &rs);
		if (!ret) {
			print_rank(&rs);
			printf("\n");
		}
	} else {
		ret = dump(h);
	}
	if (ret)
		fprintf(stderr, "ftd-status: %s\n", ftd_strerror(ret));
	ftd_close(h);
	return ret ? 1 : 0;
}
