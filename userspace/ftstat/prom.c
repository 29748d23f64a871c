// SPDX-License-Identifier: GPL-2.0-only
/*
 * Metric names follow Prometheus's conventions: base units (seconds),
 * counters end in _total, one family per quantity with labels for what
 * differs (a node, a refusal reason). A node's state is one series with
 * the state as a label (value 1), and the count of nodes in each state is
 * a gauge with every state present, so that a dashboard needs no
 * absent() to see a state empty.
 */
#define _GNU_SOURCE
#include "ftstat/prom.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>

#include <linux/ftdetect.h>

#include "common/keyid.h"
#include "common/names.h"
#include "ftstat/format.h"

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP ftdetect_%s %s\n# TYPE ftdetect_%s %s\n", name, help, name, type);
}

static void seconds(FILE *f, const char *name, const char *labels, uint64_t ns)
{
	fprintf(f, "ftdetect_%s%s %" PRIu64 ".%09" PRIu64 "\n", name, labels,
		ns / 1000000000, ns % 1000000000);
}

/* A u64 of the instance (FTDETECT_A_STATS_*) as its own family, if the module reports it. */
static void stat_u64(FILE *f, const struct ftu_stats *st, int attr, const char *name,
		     const char *type, const char *help, uint64_t v)
{
	if (!FTU_HAS(st, attr))
		return;
	family(f, name, type, help);
	fprintf(f, "ftdetect_%s %" PRIu64 "\n", name, v);
}

static void stat_counter(FILE *f, const struct ftu_stats *st, int attr, const char *name,
			 const char *help, uint64_t v)
{
	stat_u64(f, st, attr, name, "counter", help, v);
}

/* The node table's kernel memory, by part: one family, a sample per part reported. */
static void memory(FILE *f, const struct ftu_stats *st)
{
	static const struct { int attr; const char *part; size_t off; } parts[] = {
		{ FTDETECT_A_STATS_MEM_NODES, "nodes", offsetof(struct ftu_stats, mem_nodes) },
		{ FTDETECT_A_STATS_MEM_RANKS, "ranks", offsetof(struct ftu_stats, mem_ranks) },
	};
	bool declared = false;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!FTU_HAS(st, parts[i].attr))
			continue;
		if (!declared)
			family(f, "memory_bytes", "gauge",
			       "Kernel memory the node table holds now, by part: the nodes, their rank tables.");
		declared = true;
		fprintf(f, "ftdetect_memory_bytes{part=\"%s\"} %" PRIu64 "\n", parts[i].part,
			*(const uint64_t *)((const char *)st + parts[i].off));
	}
	stat_u64(f, st, FTDETECT_A_STATS_ROUTE_CACHES, "route_caches", "gauge",
		 "Route caches held (an entry per CPU each): only for the nodes sent to every tick.",
		 st->route_caches);
}

/*
 * Events emitted: by type where the module counts them (one series per type
 * this build names, 0 included, so that rate() has a series from the
 * start), else the one total an older module reports. Never both: the
 * labelled series add up to the total, and sum() must not count it twice.
 */
static void events(FILE *f, const struct ftu_stats *st)
{
	if (!FTU_HAS(st, FTDETECT_A_STATS_EVENTS_BY_TYPE)) {
		stat_counter(f, st, FTDETECT_A_STATS_EVENTS, "events_total", "Events emitted.",
			     st->events);
		return;
	}
	family(f, "events_total", "counter", "Events emitted, by type.");
	for (unsigned int t = 1; t < __FTD_EV_MAX; t++)
		if (ftu_event_name(t))
			fprintf(f, "ftdetect_events_total{event=\"%s\"} %" PRIu64 "\n",
				ftu_event_name(t), st->events_by_type[t]);
}

/*
 * A bucket's upper edge, 2^b us, in seconds as Prometheus's own clients
 * write a float: the shortest form that reads back the same ("1e-06",
 * "0.000128", "1.048576"), so that le values match what tools expect.
 */
static const char *le_of(unsigned int b, char *buf, size_t len)
{
	double v = (double)(1ULL << b) / 1e6;

	for (int p = 1; p <= 17; p++) {
		snprintf(buf, len, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/*
 * The silence of a dead node when its death was declared here or told
 * here: one histogram family, by="declared" / by="told". The module's
 * buckets are half-open, [2^(i-1), 2^i) us, while le is inclusive: a
 * silence of exactly 2^i us lands one bucket up, which at a resolution of
 * a nanosecond on timeouts of milliseconds never matters. An older module
 * reports neither: the family is left out, not shown as zeros.
 */
static void death_silence(FILE *f, const struct ftu_stats *st)
{
	static const struct { const char *by; int attr; size_t off; } hists[] = {
		{ "declared", FTDETECT_A_STATS_DECLARED_HIST, offsetof(struct ftu_stats, declared) },
		{ "told", FTDETECT_A_STATS_TOLD_HIST, offsetof(struct ftu_stats, told) },
	};
	bool any = false;

	for (size_t i = 0; i < sizeof(hists) / sizeof(hists[0]); i++)
		any |= FTU_HAS(st, hists[i].attr);
	if (!any)
		return;
	family(f, "death_silence_seconds", "histogram",
	       "Time since a node was last heard when its death was declared by this node "
	       "(by=declared) or told to it (by=told). Buckets are log2 microseconds, "
	       "half-open [2^(i-1), 2^i) us: le is their upper edge.");
	for (size_t i = 0; i < sizeof(hists) / sizeof(hists[0]); i++) {
		const struct ftu_latency *l =
			(const struct ftu_latency *)((const char *)st + hists[i].off);
		uint64_t cum = 0;
		char le[32], lab[32];

		if (!FTU_HAS(st, hists[i].attr))
			continue;
		for (unsigned int b = 0; b < FTD_LATENCY_BUCKETS; b++) {
			cum += l->hist[b];
			fprintf(f, "ftdetect_death_silence_seconds_bucket{by=\"%s\",le=\"%s\"} %"
				PRIu64 "\n", hists[i].by,
				b < FTD_LATENCY_BUCKETS - 1 ? le_of(b, le, sizeof(le)) : "+Inf",
				cum);
		}
		snprintf(lab, sizeof(lab), "{by=\"%s\"}", hists[i].by);
		seconds(f, "death_silence_seconds_sum", lab, l->sum_ns);
		fprintf(f, "ftdetect_death_silence_seconds_count%s %" PRIu64 "\n", lab, cum);
	}
}

static void instance(FILE *f, const struct ftu_config *cfg, const struct ftu_stats *st)
{
	char id[FTU_KEYID_BUFSZ] = "";

	if (FTU_HAS(cfg, FTDETECT_A_KEY_ID))
		ftu_key_id_format(cfg->key_id, id);
	family(f, "info", "gauge", "The instance: cluster id, local node, key id (value 1).");
	fprintf(f, "ftdetect_info{cluster=\"%" PRIu32 "\",node=\"", cfg->cluster);
	if (FTU_HAS(cfg, FTDETECT_A_LOCAL_NODE) && cfg->node != FTD_NODE_NONE)
		fprintf(f, "%" PRIu32, cfg->node);
	fprintf(f, "\",key_id=\"%s\"} 1\n", id);
	family(f, "up", "gauge", "1 while the instance sends heartbeats, else 0.");
	fprintf(f, "ftdetect_up %d\n", cfg->up ? 1 : 0);
	family(f, "incarnation", "gauge", "This node's incarnation (grows at every start).");
	fprintf(f, "ftdetect_incarnation %" PRIu32 "\n", cfg->incarnation);
	family(f, "period_seconds", "gauge", "Heartbeat period.");
	seconds(f, "period_seconds", "", cfg->period_ns);
	family(f, "timeout_seconds", "gauge", "Silence after which a node is declared dead.");
	seconds(f, "timeout_seconds", "", cfg->timeout_ns);

	stat_counter(f, st, FTDETECT_A_STATS_TX, "frames_sent_total", "Frames sent.", st->tx);
	stat_counter(f, st, FTDETECT_A_STATS_TX_ERR, "frames_send_errors_total",
		     "Frames that could not be sent.", st->tx_err);
	stat_counter(f, st, FTDETECT_A_STATS_RX, "frames_received_total",
		     "Frames accepted.", st->rx);
	family(f, "frames_dropped_total", "counter", "Frames dropped, by reason.");
	static const struct { int attr; const char *reason; size_t off; } drops[] = {
		{ FTDETECT_A_STATS_RX_MALFORMED, "malformed", offsetof(struct ftu_stats, rx_malformed) },
		{ FTDETECT_A_STATS_RX_FOREIGN, "foreign", offsetof(struct ftu_stats, rx_foreign) },
		{ FTDETECT_A_STATS_RX_BADMAC, "badmac", offsetof(struct ftu_stats, rx_badmac) },
		{ FTDETECT_A_STATS_RX_STALE, "stale", offsetof(struct ftu_stats, rx_stale) },
		{ FTDETECT_A_STATS_RX_REPLAY, "replay", offsetof(struct ftu_stats, rx_replay) },
		{ FTDETECT_A_STATS_RX_UNPROVEN, "unproven", offsetof(struct ftu_stats, rx_unproven) },
	};
	for (size_t i = 0; i < sizeof(drops) / sizeof(drops[0]); i++)
		if (FTU_HAS(st, drops[i].attr))
			fprintf(f, "ftdetect_frames_dropped_total{reason=\"%s\"} %" PRIu64 "\n",
				drops[i].reason,
				*(const uint64_t *)((const char *)st + drops[i].off));
	events(f, st);
	stat_counter(f, st, FTDETECT_A_STATS_TICKS, "ticks_total", "Heartbeat timer ticks.",
		     st->ticks);
	stat_counter(f, st, FTDETECT_A_STATS_TICKS_LATE, "ticks_late_total",
		     "Ticks that fired more than a period late.", st->ticks_late);
	stat_counter(f, st, FTDETECT_A_STATS_TICKS_RX_BEHIND, "ticks_rx_behind_total",
		     "Ticks at which the receive path lagged by more than a period.",
		     st->ticks_rx_behind);
	stat_counter(f, st, FTDETECT_A_STATS_TICKS_RX_DROPPED, "ticks_rx_dropped_total",
		     "Ticks that held verdicts: the machine had dropped received frames within a timeout.",
		     st->ticks_rx_dropped);
	stat_counter(f, st, FTDETECT_A_STATS_RELAYS_ASKED, "relays_asked_total",
		     "Members asked to probe a node this node suspects (PROBE_REQ sent).",
		     st->relays_asked);
	stat_counter(f, st, FTDETECT_A_STATS_RELAYS_SENT, "relays_sent_total",
		     "Suspects' answers relayed to the observers that asked (PROBE_RELAY sent).",
		     st->relays_sent);
	stat_counter(f, st, FTDETECT_A_STATS_RELAYS_HEARD, "relays_heard_total",
		     "Suspects heard through another member (PROBE_RELAY accepted).",
		     st->relays_heard);
	stat_counter(f, st, FTDETECT_A_STATS_NOTICE_ITEMS_TX, "notice_items_sent_total",
		     "Notices the notice frames sent carried (several to a frame).",
		     st->notice_items_tx);
	stat_counter(f, st, FTDETECT_A_STATS_NOTICE_ITEMS_RX, "notice_items_received_total",
		     "Notices the notice frames received carried.", st->notice_items_rx);
	stat_counter(f, st, FTDETECT_A_STATS_TICKS_RX_STUCK, "ticks_rx_stuck_total",
		     "Ticks at which received frames waited on a CPU that processed none for a period, at least 1 ms (verdicts and the lease held).",
		     st->ticks_rx_stuck);
	stat_counter(f, st, FTDETECT_A_STATS_SHARES_RESENT, "shares_resent_total",
		     "Shares of a spanning broadcast sent again, unacknowledged.",
		     st->shares_resent);
	stat_counter(f, st, FTDETECT_A_STATS_SHARES_HANDED_OVER, "shares_handed_over_total",
		     "Shares handed over to their holder's own shares (unacknowledged, or the holder held dead).",
		     st->shares_handed_over);
	stat_counter(f, st, FTDETECT_A_STATS_SHARES_DROPPED, "shares_dropped_total",
		     "Shares given up (the digests repair what they carried).", st->shares_dropped);
	if (FTU_HAS(st, FTDETECT_A_STATS_TICK_LATE_MAX_NS)) {
		family(f, "tick_late_max_seconds", "gauge", "The latest a tick has fired.");
		seconds(f, "tick_late_max_seconds", "", st->tick_late_max_ns);
	}
	stat_counter(f, st, FTDETECT_A_STATS_NOTICES_TX, "notices_sent_total",
		     "Notice frames sent (originated or forwarded).", st->notices_tx);
	stat_counter(f, st, FTDETECT_A_STATS_NOTICES_RX, "notices_received_total",
		     "Notice frames received.", st->notices_rx);
	stat_counter(f, st, FTDETECT_A_STATS_NOTICES_DUP, "notices_duplicate_total",
		     "Received notices that were no news.", st->notices_dup);
	stat_counter(f, st, FTDETECT_A_STATS_FENCED, "fenced_total",
		     "Times this node was fenced.", st->fenced);
	stat_counter(f, st, FTDETECT_A_STATS_REPAIRS, "repairs_total",
		     "Views exchanged because a member's digest differed.", st->repairs);
	stat_counter(f, st, FTDETECT_A_STATS_VIEWS_ASKED, "views_asked_total",
		     "Views asked of a member at a first contact (its digest differed).",
		     st->views_asked);
	if (FTU_HAS(st, FTDETECT_A_STATS_MINORITY)) {
		family(f, "minority", "gauge", "1 while this node is in the minority of a "
		       "partition (it applies no death), else 0.");
		fprintf(f, "ftdetect_minority %d\n", st->minority ? 1 : 0);
	}
	memory(f, st);
}

static void nodes_by_state(FILE *f, const struct ftu_node *nodes, size_t n)
{
	family(f, "nodes", "gauge", "Configured nodes, by state as this node sees them.");
	for (unsigned int s = 0; s < __FTD_NODE_STATE_MAX; s++) {
		size_t count = 0;

		for (size_t i = 0; i < n; i++)
			count += FTU_HAS(&nodes[i], FTDETECT_A_NODE_STATE) && nodes[i].state == s;
		fprintf(f, "ftdetect_nodes{state=\"%s\"} %zu\n", ftu_node_state_name(s), count);
	}
}

/* One family over every node: each node's line, where it has the value. */
#define PER_NODE(name, type, help, attr, print)					\
	do {									\
		family(f, name, type, help);					\
		for (size_t i = 0; i < n; i++) {				\
			const struct ftu_node *nd = &nodes[i];			\
			char l[48];						\
										\
			if (!FTU_HAS(nd, attr))					\
				continue;					\
			snprintf(l, sizeof(l), "{node=\"%" PRIu32 "\"}", nd->id); \
			print;							\
		}								\
	} while (0)

static void per_node(FILE *f, const struct ftu_node *nodes, size_t n)
{
	family(f, "node_state", "gauge", "Each node's state as this node sees it (value 1).");
	for (size_t i = 0; i < n; i++) {
		const char *s = ftu_node_state_name(nodes[i].state);

		if (FTU_HAS(&nodes[i], FTDETECT_A_NODE_STATE) && s)
			fprintf(f, "ftdetect_node_state{node=\"%" PRIu32 "\",state=\"%s\"} 1\n",
				nodes[i].id, s);
	}
	PER_NODE("node_last_heard_seconds", "gauge", "Time since its last heartbeat.",
		 FTDETECT_A_NODE_AGE_NS, seconds(f, "node_last_heard_seconds", l, nd->age_ns));
	PER_NODE("node_heartbeats_received_total", "counter", "Frames accepted from it.",
		 FTDETECT_A_NODE_RX,
		 fprintf(f, "ftdetect_node_heartbeats_received_total%s %" PRIu64 "\n", l, nd->rx));
	PER_NODE("node_heartbeats_lost_total", "counter",
		 "Its heartbeats lost (sequence gaps).", FTDETECT_A_NODE_LOST,
		 fprintf(f, "ftdetect_node_heartbeats_lost_total%s %" PRIu64 "\n", l, nd->lost));
	PER_NODE("node_interarrival_mean_seconds", "gauge",
		 "Mean time between its heartbeats (0 before two arrived).",
		 FTDETECT_A_NODE_IAT_MEAN_NS,
		 seconds(f, "node_interarrival_mean_seconds", l, nd->iat_mean_ns));
	PER_NODE("node_interarrival_max_seconds", "gauge",
		 "Longest gap between two of its heartbeats.", FTDETECT_A_NODE_IAT_MAX_NS,
		 seconds(f, "node_interarrival_max_seconds", l, nd->iat_max_ns));
	family(f, "node_frames_refused_total", "counter", "Its frames refused, by reason.");
	for (size_t i = 0; i < n; i++) {
		const struct ftu_node *nd = &nodes[i];
		static const struct { int attr; const char *reason; size_t off; } why[] = {
			{ FTDETECT_A_NODE_RX_BADMAC, "badmac", offsetof(struct ftu_node, rx_badmac) },
			{ FTDETECT_A_NODE_RX_STALE, "stale", offsetof(struct ftu_node, rx_stale) },
			{ FTDETECT_A_NODE_RX_REPLAY, "replay", offsetof(struct ftu_node, rx_replay) },
			{ FTDETECT_A_NODE_RX_UNPROVEN, "unproven",
			  offsetof(struct ftu_node, rx_unproven) },
		};

		for (size_t w = 0; w < sizeof(why) / sizeof(why[0]); w++)
			if (FTU_HAS(nd, why[w].attr))
				fprintf(f, "ftdetect_node_frames_refused_total{node=\"%" PRIu32
					"\",reason=\"%s\"} %" PRIu64 "\n", nd->id, why[w].reason,
					*(const uint64_t *)((const char *)nd + why[w].off));
	}
	PER_NODE("node_bad_key", "gauge",
		 "1 while its frames come under a key this node does not hold.",
		 FTDETECT_A_NODE_BADMAC_AGE_NS,
		 fprintf(f, "ftdetect_node_bad_key%s %d\n", l, ftstat_node_bad_key(nd)));
	PER_NODE("node_slow_seconds", "gauge",
		 "Extra silence it is given because its own ticks ran late.",
		 FTDETECT_A_NODE_SLOW_NS, seconds(f, "node_slow_seconds", l, nd->slow_ns));
}

void ftstat_print_prometheus(FILE *f, const struct ftu_config *cfg,
			     const struct ftu_stats *st, const struct ftu_node *nodes,
			     size_t n)
{
	instance(f, cfg, st);
	death_silence(f, st);
	nodes_by_state(f, nodes, n);
	per_node(f, nodes, n);
}
