// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output formats of ftstat. Text is for people: durations in short units,
 * "-" where there is nothing to show. JSON is for programs: raw counters
 * and nanoseconds, with a field left out when the module did not report it
 * (e.g. age_ns of a node never heard), never a made-up zero.
 */
#include "ftstat/format.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/duration.h"
#include "common/print.h"
#include "common/keyid.h"
#include "common/names.h"

/* STAMP last: left out (ncols - 1) when no rail reports its source. */
enum { C_ID, C_ADDR, C_STATE, C_HEARD, C_IAT, C_JITTER, C_LOST, C_RX, C_STAMP, NCOLS };

static const struct ftu_column columns[NCOLS] = {
	[C_ID] = { "ID", false },
	[C_ADDR] = { "ADDRESS", false },
	[C_STATE] = { "STATE", false },
	[C_HEARD] = { "LAST HEARD", true },
	[C_IAT] = { "IAT MEAN", true },
	[C_JITTER] = { "JITTER", true },
	[C_LOST] = { "LOST", true },
	[C_RX] = { "RX", true },
	[C_STAMP] = { "STAMP", false },
};

static const char *state_name(uint8_t state, char *buf, size_t len)
{
	const char *name = ftu_node_state_name(state);

	if (name)
		return name;
	snprintf(buf, len, "%u", state);	/* a state newer than this tool */
	return buf;
}

/*
 * Frames from its address carried a MAC none of our keys makes, and none
 * of its frames was accepted since (the module reports BADMAC_AGE_NS only
 * then): it speaks with a key we do not hold, or someone uses its address.
 */
bool ftstat_node_bad_key(const struct ftu_node *n)
{
	return FTU_HAS(n, FTDETECT_A_NODE_BADMAC_AGE_NS);
}

static const char *stamp_name(uint8_t source, char *buf, size_t len)
{
	const char *name = ftu_stamp_name(source);

	if (name)
		return name;
	snprintf(buf, len, "%u", source);	/* a source newer than this tool */
	return buf;
}

/* The rails' common source ("xdp"), "mixed", or "-" before any arrival. */
static const char *node_stamp(const struct ftu_node *n, char *buf, size_t len)
{
	const char *s = NULL;
	char tmp[8];

	for (unsigned int r = 0; r < n->nr_rails; r++) {
		const struct ftu_rail *rl = &n->rails[r];
		const char *name;

		if (!FTU_HAS(rl, FTDETECT_A_ADDR_STAMP) || rl->stamp == FTD_STAMP_NONE)
			continue;
		name = stamp_name(rl->stamp, tmp, sizeof(tmp));
		if (!s) {
			snprintf(buf, len, "%s", name);
			s = buf;
		} else if (strcmp(s, name)) {
			return "mixed";
		}
	}
	return s ? s : "-";
}

/* A rail's source ("xdp"), or "-" before any arrival; text only. */
static void rail_stamp(struct ftu_print *p, const struct ftu_rail *r)
{
	char tmp[8];

	if (!FTU_HAS(r, FTDETECT_A_ADDR_STAMP) || r->stamp == FTD_STAMP_NONE)
		ftu_print_text(p, "-");
	else
		ftu_print_text(p, "%s", stamp_name(r->stamp, tmp, sizeof(tmp)));
}

static bool any_stamp(const struct ftu_node *nodes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned int r = 0; r < nodes[i].nr_rails; r++)
			if (FTU_HAS(&nodes[i].rails[r], FTDETECT_A_ADDR_STAMP))
				return true;
	return false;
}

/* JSON: a rail's driver-to-module delay; text shows it in ftstat -d. */
static void rail_delay(struct ftu_print *p, const struct ftu_delay *d)
{
	ftu_print_object_begin(p, "driver_delay");
	ftu_print_u64_opt(p, FTU_HAS(d, FTDETECT_A_DELAY_SAMPLES), "samples", NULL, d->samples);
	ftu_print_u64_opt(p, FTU_HAS(d, FTDETECT_A_DELAY_MIN_NS), "min_ns", NULL, d->min_ns);
	ftu_print_u64_opt(p, FTU_HAS(d, FTDETECT_A_DELAY_MEAN_NS), "mean_ns", NULL, d->mean_ns);
	ftu_print_u64_opt(p, FTU_HAS(d, FTDETECT_A_DELAY_MAX_NS), "max_ns", NULL, d->max_ns);
	if (FTU_HAS(d, FTDETECT_A_DELAY_HIST)) {
		ftu_print_array_begin(p, "hist");
		for (unsigned int b = 0; b < FTD_DELAY_BUCKETS; b++)
			ftu_print_u64(p, NULL, NULL, d->hist[b]);
		ftu_print_array_end(p);
	}
	ftu_print_object_end(p);
}

/* JSON: the RDMA port behind a rail; text prints the local node's (print_rdma). */
static void rail_rdma(struct ftu_print *p, const struct ftu_rail *r)
{
	char st[8];

	ftu_print_object_begin(p, "rdma");
	ftu_print_string(p, "device", NULL, r->rdma.device);
	ftu_print_u64(p, "port", NULL, r->rdma.port);
	ftu_print_string(p, "port_state", NULL,
			 ftstat_rdma_state_name(r->rdma.state, st, sizeof(st)));
	ftu_print_string(p, "heartbeats", NULL, r->rdma.heartbeats ? "rdma" : "udp");
	if (r->rdma.heartbeats)
		ftu_print_u64(p, "qpn", NULL, r->rdma.qpn);
	ftu_print_object_end(p);
}

/* A rail: JSON always, text a row under its node's (shown: ftstat -r). */
static void print_rail(struct ftu_print *p, const struct ftu_rail *r, unsigned int idx,
		       bool shown)
{
	char addr[FTU_ADDR_BUFSZ], st[8];

	ftu_print_row_if(p, shown);
	ftu_print_object_begin(p, NULL);
	ftu_print_cell(p, C_ADDR);
	ftu_print_u64(p, "rail", "  rail %" PRIu64 ": ", idx);
	ftu_print_string(p, "address", "%s", ftu_addr_format(&r->addr, addr, sizeof(addr)));
	ftu_print_cell(p, C_HEARD);
	ftu_print_duration_opt(p, FTU_HAS(r, FTDETECT_A_ADDR_AGE_NS), "age_ns", "%s", r->age_ns);
	ftu_print_cell(p, C_LOST);
	ftu_print_u64_opt(p, FTU_HAS(r, FTDETECT_A_ADDR_LOST), "lost", "%" PRIu64, r->lost);
	ftu_print_cell(p, C_RX);
	ftu_print_u64_opt(p, FTU_HAS(r, FTDETECT_A_ADDR_RX), "rx", "%" PRIu64, r->rx);
	ftu_print_cell(p, C_STAMP);
	rail_stamp(p, r);
	if (FTU_HAS(r, FTDETECT_A_ADDR_STAMP))
		ftu_print_string(p, "stamp", NULL, stamp_name(r->stamp, st, sizeof(st)));
	if (FTU_HAS(r, FTDETECT_A_ADDR_DELAY))
		rail_delay(p, &r->delay);
	if (FTU_HAS(r, FTDETECT_A_ADDR_RDMA))
		rail_rdma(p, r);
	ftu_print_object_end(p);
}

/*
 * A node: a row of the text table, or a JSON object with every counter
 * the module reported, its rails included. The text shows an
 * inter-arrival time only after two arrivals (before, it reads 0).
 */
static void print_node(struct ftu_print *p, const struct ftu_node *n, bool rails)
{
	bool iat = n->rx >= 2;
	char addr[FTU_ADDR_BUFSZ], st[8];

	ftu_print_row(p);
	ftu_print_object_begin(p, NULL);
	ftu_print_u64(p, "id", "%" PRIu64, n->id);
	ftu_print_cell(p, C_ADDR);
	if (n->nr_rails)
		ftu_print_string(p, "address", "%s",
				 ftu_addr_format(&n->rails[0].addr, addr, sizeof(addr)));
	if (n->nr_rails > 1)
		ftu_print_text(p, " (+%u)", n->nr_rails - 1);
	else if (!n->nr_rails)
		ftu_print_text(p, "-");
	ftu_print_array_begin(p, "addresses");
	for (unsigned int r = 0; r < n->nr_rails; r++)
		ftu_print_string(p, NULL, NULL, ftu_addr_format(&n->rails[r].addr, addr, sizeof(addr)));
	ftu_print_array_end(p);
	ftu_print_cell(p, C_STATE);
	if (FTU_HAS(n, FTDETECT_A_NODE_STATE))
		ftu_print_string(p, "state", "%s", state_name(n->state, st, sizeof(st)));
	else
		ftu_print_text(p, "-");
	if (ftstat_node_bad_key(n))
		ftu_print_text(p, " (bad key)");
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_INCARNATION), "incarnation", NULL,
			  n->incarnation);
	ftu_print_cell(p, C_HEARD);
	ftu_print_duration_opt(p, FTU_HAS(n, FTDETECT_A_NODE_AGE_NS), "age_ns", "%s", n->age_ns);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_IAT_MEAN_NS), "iat_mean_ns", NULL,
			  n->iat_mean_ns);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_IAT_JITTER_NS), "iat_jitter_ns", NULL,
			  n->iat_jitter_ns);
	ftu_print_cell(p, C_IAT);
	ftu_print_duration_opt(p, iat && FTU_HAS(n, FTDETECT_A_NODE_IAT_MEAN_NS), NULL, "%s",
			       n->iat_mean_ns);
	ftu_print_cell(p, C_JITTER);
	ftu_print_duration_opt(p, iat && FTU_HAS(n, FTDETECT_A_NODE_IAT_JITTER_NS), NULL, "%s",
			       n->iat_jitter_ns);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_IAT_MAX_NS), "iat_max_ns", NULL,
			  n->iat_max_ns);
	ftu_print_cell(p, C_LOST);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_LOST), "lost", "%" PRIu64, n->lost);
	ftu_print_cell(p, C_RX);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_RX), "rx", "%" PRIu64, n->rx);
	ftu_print_cell(p, C_STAMP);
	ftu_print_text(p, "%s", node_stamp(n, st, sizeof(st)));
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_TX), "tx", NULL, n->tx);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_PROVEN), "proven_incarnation", NULL,
			  n->proven);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_RX_BADMAC), "rx_badmac", NULL, n->rx_badmac);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_RX_STALE), "rx_stale", NULL, n->rx_stale);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_RX_REPLAY), "rx_replay", NULL, n->rx_replay);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_RX_UNPROVEN), "rx_unproven", NULL,
			  n->rx_unproven);
	ftu_print_u64_opt(p, FTU_HAS(n, FTDETECT_A_NODE_SLOW_NS), "slow_ns", NULL, n->slow_ns);
	if (FTU_HAS(n, FTDETECT_A_NODE_KEY_ID)) {
		char id[FTU_KEYID_BUFSZ];

		ftu_print_string(p, "key_id", NULL, ftu_key_id_format(n->key_id, id));
	}
	if (FTU_HAS(n, FTDETECT_A_NODE_BADMAC_AGE_NS)) {
		ftu_print_u64(p, "badmac_age_ns", NULL, n->badmac_age_ns);
		ftu_print_bool(p, "bad_key", NULL, ftstat_node_bad_key(n), NULL, NULL);
	}
	ftu_print_array_begin(p, "rails");
	for (unsigned int r = 0; r < n->nr_rails; r++)
		print_rail(p, &n->rails[r], r, rails && n->nr_rails > 1);
	ftu_print_array_end(p);
	ftu_print_object_end(p);
}

const char *ftstat_rdma_state_name(uint8_t state, char *buf, size_t len)
{
	static const char *const names[__FTD_RDMA_MAX] = {
		[FTD_RDMA_NONE] = "none", [FTD_RDMA_ACTIVE] = "active",
		[FTD_RDMA_DOWN] = "down", [FTD_RDMA_GONE] = "gone",
	};

	if (state < __FTD_RDMA_MAX)
		return names[state];
	snprintf(buf, len, "%u", state);	/* a state newer than this tool */
	return buf;
}

/*
 * Text: "rdma: rail 1 (198.51.100.2) rxe0 port 1 active, heartbeats over
 * udp" (or "over rdma, queue pair 17"): the RDMA ports behind the local
 * node's rails, a line each (JSON has them in each rail's "rdma").
 */
static void print_rdma(struct ftu_print *p, const struct ftu_node *nodes, size_t n)
{
	char addr[FTU_ADDR_BUFSZ], st[8];

	for (size_t i = 0; i < n; i++) {
		if (nodes[i].state != FTD_NODE_SELF)
			continue;
		for (unsigned int r = 0; r < nodes[i].nr_rails; r++) {
			const struct ftu_rail *rl = &nodes[i].rails[r];

			if (!FTU_HAS(rl, FTDETECT_A_ADDR_RDMA))
				continue;
			ftu_print_text(p, "rdma: rail %u (%s) %s port %" PRIu32 " %s, heartbeats over ",
				       r, ftu_addr_format(&rl->addr, addr, sizeof(addr)),
				       rl->rdma.device, rl->rdma.port,
				       ftstat_rdma_state_name(rl->rdma.state, st, sizeof(st)));
			if (!rl->rdma.heartbeats)
				ftu_print_text(p, "udp\n");
			else if (rl->rdma.qpn)
				ftu_print_text(p, "rdma, queue pair %" PRIu32 "\n", rl->rdma.qpn);
			else
				ftu_print_text(p, "rdma, no queue pair yet (see the kernel log)\n");
		}
	}
}

/*
 * The instance: JSON's first members; text a line under the table
 * ("cluster 42, local node 1, period 10ms, timeout 50ms, up (incarnation 7)").
 */
static void print_instance(struct ftu_print *p, const struct ftu_config *cfg)
{
	ftu_print_u64(p, "cluster", "cluster %" PRIu64 ", ", cfg->cluster);
	if (FTU_HAS(cfg, FTDETECT_A_LOCAL_NODE) && cfg->node != FTD_NODE_NONE)
		ftu_print_u64(p, "node", "local node %" PRIu64 ", ", cfg->node);
	else
		ftu_print_null(p, "node", "local node not set, ");
	ftu_print_u64(p, "port", NULL, cfg->port);
	ftu_print_duration(p, "period_ns", "period %s, ", cfg->period_ns);
	ftu_print_duration(p, "timeout_ns", "timeout %s, ", cfg->timeout_ns);
	/* JSON's order is the other tools' (ftctl show -j): up before the key. */
	ftu_print_bool(p, "up", NULL, cfg->up, NULL, NULL);
	ftu_print_u64(p, "incarnation", NULL, cfg->incarnation);
	ftu_print_key_ids(p, cfg, true);
	if (cfg->up)
		ftu_print_text(p, "up (incarnation %" PRIu32 ")\n", cfg->incarnation);
	else
		ftu_print_text(p, "down\n");
}

/* Ours, or not known to be another's (the name needs privileges). */
static bool shown_prog(uint32_t id, enum ftd_owner o)
{
	return id && o != FTD_OWNER_OTHER;
}

/*
 * The programs attached: JSON "ebpf" with both lists (empty included);
 * text "xdp: n1r0 native, n2r0 generic; tc egress: n1r0", if anything is.
 */
static void print_ebpf(struct ftu_print *p, const struct ftd_ebpf_status *eb)
{
	const char *sep = "xdp: ";
	bool any = false;

	if (!eb)
		return;
	ftu_print_object_begin(p, "ebpf");
	ftu_print_array_begin(p, "xdp");
	for (size_t i = 0; i < eb->nr_ifaces; i++) {
		const struct ftd_ebpf_iface *e = &eb->ifaces[i];

		if (!shown_prog(e->xdp_prog_id, e->xdp_owner))
			continue;
		ftu_print_object_begin(p, NULL);
		ftu_print_text(p, "%s", sep);
		ftu_print_string(p, "ifname", "%s", e->name);
		ftu_print_string(p, "mode", " %s", ftd_xdp_attach_name(e->xdp_mode));
		ftu_print_u64(p, "prog_id", NULL, e->xdp_prog_id);
		ftu_print_object_end(p);
		sep = ", ";
		any = true;
	}
	ftu_print_array_end(p);
	sep = any ? "; tc egress: " : "tc egress: ";
	ftu_print_array_begin(p, "tc_egress");
	for (size_t i = 0; i < eb->nr_ifaces; i++) {
		const struct ftd_ebpf_iface *e = &eb->ifaces[i];

		if (!shown_prog(e->tc_prog_id, e->tc_owner))
			continue;
		ftu_print_object_begin(p, NULL);
		ftu_print_text(p, "%s", sep);
		ftu_print_string(p, "ifname", "%s", e->name);
		ftu_print_u64(p, "prog_id", NULL, e->tc_prog_id);
		ftu_print_object_end(p);
		sep = ", ";
		any = true;
	}
	ftu_print_array_end(p);
	ftu_print_object_end(p);
	if (any)
		ftu_print_text(p, "\n");
}

/*
 * ftstat and ftstat -j. JSON opens with the instance; text puts it under
 * the table, where the eye ends.
 */
static void print_nodes(FILE *f, bool json, const struct ftu_config *cfg,
			const struct ftu_node *nodes, size_t n, bool rails,
			const struct ftd_ebpf_status *eb)
{
	struct ftu_print p;

	ftu_print_init(&p, f, json);
	ftu_print_object_begin(&p, NULL);
	if (json)
		print_instance(&p, cfg);
	ftu_print_table_begin(&p, "nodes", columns, any_stamp(nodes, n) ? NCOLS : NCOLS - 1);
	for (size_t i = 0; i < n; i++)
		print_node(&p, &nodes[i], rails);
	ftu_print_table_end(&p, "no nodes (configure them with 'ftctl apply')");
	if (!json)
		print_instance(&p, cfg);
	if (rails)
		print_rdma(&p, nodes, n);
	print_ebpf(&p, eb);
	ftu_print_object_end(&p);
	ftu_print_done(&p);
}

void ftstat_print_nodes(FILE *f, const struct ftu_config *cfg,
			const struct ftu_node *nodes, size_t n, bool rails,
			const struct ftd_ebpf_status *eb)
{
	print_nodes(f, false, cfg, nodes, n, rails, eb);
}

void ftstat_print_nodes_json(FILE *f, const struct ftu_config *cfg,
			     const struct ftu_node *nodes, size_t n,
			     const struct ftd_ebpf_status *eb)
{
	print_nodes(f, true, cfg, nodes, n, true, eb);
}

const char *ftstat_delay_bucket_label(unsigned int b, char *buf, size_t len)
{
	if (b == 0)
		snprintf(buf, len, "<1us");
	else if (b < FTD_DELAY_BUCKETS - 1)
		snprintf(buf, len, "%llu-%lluus", 1ULL << (b - 1), 1ULL << b);
	else
		snprintf(buf, len, ">=%lluus", 1ULL << (FTD_DELAY_BUCKETS - 2));
	return buf;
}

/* ftstat -d: text alone (JSON has the delays in each rail's "driver_delay"). */
void ftstat_print_delays(FILE *f, const struct ftu_config *cfg,
			 const struct ftu_node *nodes, size_t n,
			 const struct ftd_ebpf_status *eb)
{
	enum { D_ID, D_RAIL, D_ADDR, D_STAMP, D_SAMPLES, D_MIN, D_MEAN, D_MAX, D_HIST, DCOLS };
	static const struct ftu_column dcols[DCOLS] = {
		{ "ID", false }, { "RAIL", true }, { "ADDRESS", false }, { "STAMP", false },
		{ "SAMPLES", true }, { "MIN", true }, { "MEAN", true }, { "MAX", true },
		{ "DRIVER-TO-MODULE DELAY", false },
	};
	char addr[FTU_ADDR_BUFSZ], label[24];
	struct ftu_print p;

	ftu_print_init(&p, f, false);
	ftu_print_table_begin(&p, NULL, dcols, DCOLS);
	for (size_t i = 0; i < n; i++) {
		if (nodes[i].state == FTD_NODE_SELF)
			continue;
		for (unsigned int r = 0; r < nodes[i].nr_rails; r++) {
			const struct ftu_rail *rl = &nodes[i].rails[r];
			const struct ftu_delay *d = &rl->delay;
			bool has = FTU_HAS(rl, FTDETECT_A_ADDR_DELAY), any = false;

			ftu_print_row(&p);
			ftu_print_text(&p, "%" PRIu32, nodes[i].id);
			ftu_print_cell(&p, D_RAIL);
			ftu_print_text(&p, "%u", r);
			ftu_print_cell(&p, D_ADDR);
			ftu_print_text(&p, "%s", ftu_addr_format(&rl->addr, addr, sizeof(addr)));
			ftu_print_cell(&p, D_STAMP);
			rail_stamp(&p, rl);
			ftu_print_cell(&p, D_SAMPLES);
			ftu_print_u64_opt(&p, has && FTU_HAS(d, FTDETECT_A_DELAY_SAMPLES), NULL,
					  "%" PRIu64, d->samples);
			ftu_print_cell(&p, D_MIN);
			ftu_print_duration_opt(&p, has && FTU_HAS(d, FTDETECT_A_DELAY_MIN_NS), NULL,
					       "%s", d->min_ns);
			ftu_print_cell(&p, D_MEAN);
			ftu_print_duration_opt(&p, has && FTU_HAS(d, FTDETECT_A_DELAY_MEAN_NS), NULL,
					       "%s", d->mean_ns);
			ftu_print_cell(&p, D_MAX);
			ftu_print_duration_opt(&p, has && FTU_HAS(d, FTDETECT_A_DELAY_MAX_NS), NULL,
					       "%s", d->max_ns);
			ftu_print_cell(&p, D_HIST);
			for (unsigned int b = 0; has && FTU_HAS(d, FTDETECT_A_DELAY_HIST) &&
			     b < FTD_DELAY_BUCKETS; b++) {
				if (!d->hist[b])
					continue;
				ftu_print_text(&p, "%s%s:%" PRIu64, any ? " " : "",
					       ftstat_delay_bucket_label(b, label, sizeof(label)),
					       d->hist[b]);
				any = true;
			}
			if (!any)
				ftu_print_text(&p, "-");
		}
	}
	ftu_print_table_end(&p, "no peers (configure them with 'ftctl apply')");
	print_instance(&p, cfg);
	print_ebpf(&p, eb);
}

char *ftstat_format_time(uint64_t ns, char *buf, size_t len)
{
	time_t secs = (time_t)(ns / 1000000000ULL);
	struct tm tm;
	char date[24];

	if (!gmtime_r(&secs, &tm) || !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else
		snprintf(buf, len, "%s.%09" PRIu64 "Z", date, (uint64_t)(ns % 1000000000ULL));
	return buf;
}

/* Which optional fields an event type carries (see <linux/ftdetect.h>). */
static bool has_rail(const struct ftd_event *ev)
{
	return ev->type == FTD_EV_IFACE_DEAD || ev->type == FTD_EV_IFACE_RESTORED;
}

static bool has_rank(const struct ftd_event *ev)
{
	return ev->type == FTD_EV_PROC_DEAD || ev->type == FTD_EV_PROC_EXIT ||
	       ev->type == FTD_EV_RANKS_DEAD;
}

static bool has_count(const struct ftd_event *ev)
{
	return ev->type == FTD_EV_OVERFLOW;
}

/*
 * An event's fields, once for both forms: the text line names what JSON
 * gives as members ("NODE_DEAD node 3 incarnation 1 origin 1"), JSON
 * adds the type number, sequence and both clocks.
 */
static void event_fields(struct ftu_print *p, const struct ftd_event *ev)
{
	const char *name = ftu_event_name(ev->type);
	char other[24];

	if (!name) {
		snprintf(other, sizeof(other), "EVENT_%u", ev->type);	/* newer than this tool */
		name = other;
	}
	ftu_print_string(p, "event", "%s", name);
	ftu_print_u64(p, "type", NULL, ev->type);
	ftu_print_u64(p, "seq", NULL, ev->seq);
	ftu_print_u64(p, "time_ns", NULL, ev->time_ns);
	ftu_print_u64(p, "mono_ns", NULL, ev->mono_ns);
	if (ev->node != FTD_NODE_NONE) {
		ftu_print_u64(p, "node", " node %" PRIu64, ev->node);
		ftu_print_u64(p, "incarnation", " incarnation %" PRIu64, ev->incarnation);
	}
	if (has_rail(ev) && ev->rail != FTD_RAIL_NONE)
		ftu_print_u64(p, "rail", " rail %" PRIu64, ev->rail);
	if (has_rank(ev)) {
		ftu_print_u64(p, "job", " job %" PRIu64, ev->job);
		ftu_print_u64(p, "rank", " rank %" PRIu64, ev->rank);
		if (ev->uid != FTD_UID_NONE)
			ftu_print_u64(p, "uid", " uid %" PRIu64, ev->uid);
	}
	if (has_count(ev))
		ftu_print_u64(p, "count", " count %" PRIu64, ev->count);
	if (ev->origin != FTD_NODE_NONE)
		ftu_print_u64(p, "origin", " origin %" PRIu64, ev->origin);
}

/* One event: a line of text after its time, or a JSON document. */
static void print_event(FILE *f, const struct ftd_event *ev, bool json, bool timed)
{
	char when[FTSTAT_TIME_BUFSZ];
	struct ftu_print p;

	ftu_print_init(&p, f, json);
	ftu_print_object_begin(&p, NULL);
	if (timed)
		ftu_print_text(&p, "%s ", ftstat_format_time(ev->time_ns, when, sizeof(when)));
	event_fields(&p, ev);
	ftu_print_object_end(&p);
	ftu_print_done(&p);
}

void ftstat_print_event(FILE *f, const struct ftd_event *ev)
{
	print_event(f, ev, false, true);
	fputc('\n', f);
}

void ftstat_print_event_text(FILE *f, const struct ftd_event *ev)
{
	print_event(f, ev, false, false);
}

void ftstat_print_event_json(FILE *f, const struct ftd_event *ev)
{
	print_event(f, ev, true, false);
}

void ftstat_print_overflow(FILE *f, uint64_t now_ns, bool json)
{
	char when[FTSTAT_TIME_BUFSZ];
	struct ftu_print p;

	ftu_print_init(&p, f, json);
	ftu_print_object_begin(&p, NULL);
	ftu_print_text(&p, "%s ", ftstat_format_time(now_ns, when, sizeof(when)));
	ftu_print_string(&p, "event", "%s", "OVERFLOW");
	ftu_print_u64(&p, "type", NULL, FTD_EV_OVERFLOW);
	ftu_print_u64(&p, "time_ns", NULL, now_ns);
	ftu_print_text(&p, " events lost: netlink receive buffer overrun (");
	ftu_print_string(&p, "reason", "%s", "ENOBUFS");
	ftu_print_text(&p, "); 'ftstat' shows the current state\n");
	ftu_print_object_end(&p);
	ftu_print_done(&p);
}

/*
 * The variables are the event's JSON members (ftstat -w -j), one for one:
 * "node":3 is FTD_NODE=3. Made from that line, so that the JSON, a hook's
 * environment and the journal's fields never disagree about which fields
 * an event has.
 */
int ftstat_event_vars(const struct ftd_event *ev, char *buf, size_t len, char **env, size_t n)
{
	char *json = NULL, *p;
	size_t jlen = 0, used = 0, k = 0;
	FILE *f = open_memstream(&json, &jlen);

	if (!f)
		return -1;
	ftstat_print_event_json(f, ev);
	if (fclose(f))
		return -1;
	json[strcspn(json, "\n")] = '\0';
	/* FTD_EVENT_JSON first: the whole record. */
	if (k + 1 >= n || (used += (size_t)snprintf(buf + used, len - used,
						     "FTD_EVENT_JSON=%s", json) + 1) > len)
		goto full;
	env[k++] = buf;
	/* A flat object of "key":number or "key":"word" members. */
	for (p = json; (p = strchr(p, '"'));) {
		char *key = p + 1, *end = strchr(key, '"'), *val, *start = buf + used;
		size_t klen, vlen;

		if (!end || end[1] != ':')
			break;
		klen = (size_t)(end - key);
		val = end + 2;
		if (*val == '"') {
			val++;
			vlen = strcspn(val, "\"");
			p = val + vlen + 1;
		} else {
			vlen = strcspn(val, ",}");
			p = val + vlen;
		}
		if (k + 1 >= n || used + 4 + klen + 1 + vlen + 1 > len)
			goto full;
		used += (size_t)sprintf(start, "FTD_");
		for (size_t i = 0; i < klen; i++)
			buf[used++] = (char)(key[i] >= 'a' && key[i] <= 'z' ? key[i] - 32 : key[i]);
		buf[used++] = '=';
		memcpy(buf + used, val, vlen);
		used += vlen;
		buf[used++] = '\0';
		env[k++] = start;
	}
	env[k] = NULL;
	free(json);
	return 0;
full:
	free(json);
	return -1;
}
