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
#include "common/json.h"
#include "common/keyid.h"
#include "common/names.h"
#include "common/table.h"

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

#define CELL 64

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

static void duration_cell(char *cell, bool present, uint64_t ns)
{
	if (present)
		ftu_duration_format(ns, cell, CELL);
	else
		strcpy(cell, "-");
}

static void u64_cell(char *cell, bool present, uint64_t v)
{
	if (present)
		snprintf(cell, CELL, "%" PRIu64, v);
	else
		strcpy(cell, "-");
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

static void rail_stamp_cell(char *cell, const struct ftu_rail *r)
{
	char tmp[8];

	if (!FTU_HAS(r, FTDETECT_A_ADDR_STAMP) || r->stamp == FTD_STAMP_NONE)
		strcpy(cell, "-");
	else
		snprintf(cell, CELL, "%s", stamp_name(r->stamp, tmp, sizeof(tmp)));
}

static bool any_stamp(const struct ftu_node *nodes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned int r = 0; r < nodes[i].nr_rails; r++)
			if (FTU_HAS(&nodes[i].rails[r], FTDETECT_A_ADDR_STAMP))
				return true;
	return false;
}

static void add_node_row(struct ftu_table *t, const struct ftu_node *n)
{
	char cells[NCOLS][CELL], addr[FTU_ADDR_BUFSZ], st[8];
	const char *row[NCOLS];
	/* An inter-arrival time needs two arrivals; before that it reads 0. */
	bool iat = n->rx >= 2;

	for (int c = 0; c < NCOLS; c++)
		row[c] = cells[c];
	snprintf(cells[C_ID], CELL, "%" PRIu32, n->id);
	if (!n->nr_rails)
		strcpy(cells[C_ADDR], "-");
	else if (n->nr_rails == 1)
		snprintf(cells[C_ADDR], CELL, "%s",
			 ftu_addr_format(&n->rails[0].addr, addr, sizeof(addr)));
	else
		snprintf(cells[C_ADDR], CELL, "%s (+%u)",
			 ftu_addr_format(&n->rails[0].addr, addr, sizeof(addr)), n->nr_rails - 1);
	snprintf(cells[C_STATE], CELL, "%s%s", FTU_HAS(n, FTDETECT_A_NODE_STATE) ?
		 state_name(n->state, st, sizeof(st)) : "-", ftstat_node_bad_key(n) ? " (bad key)" : "");
	duration_cell(cells[C_HEARD], FTU_HAS(n, FTDETECT_A_NODE_AGE_NS), n->age_ns);
	duration_cell(cells[C_IAT], iat && FTU_HAS(n, FTDETECT_A_NODE_IAT_MEAN_NS), n->iat_mean_ns);
	duration_cell(cells[C_JITTER], iat && FTU_HAS(n, FTDETECT_A_NODE_IAT_JITTER_NS),
		      n->iat_jitter_ns);
	u64_cell(cells[C_LOST], FTU_HAS(n, FTDETECT_A_NODE_LOST), n->lost);
	u64_cell(cells[C_RX], FTU_HAS(n, FTDETECT_A_NODE_RX), n->rx);
	snprintf(cells[C_STAMP], CELL, "%s", node_stamp(n, st, sizeof(st)));
	ftu_table_add(t, row);
}

static void add_rail_row(struct ftu_table *t, const struct ftu_rail *r, unsigned int idx)
{
	char cells[NCOLS][CELL] = { { 0 } }, addr[FTU_ADDR_BUFSZ];
	const char *row[NCOLS];

	for (int c = 0; c < NCOLS; c++)
		row[c] = cells[c];
	snprintf(cells[C_ADDR], CELL, "  rail %u: %s", idx,
		 ftu_addr_format(&r->addr, addr, sizeof(addr)));
	duration_cell(cells[C_HEARD], FTU_HAS(r, FTDETECT_A_ADDR_AGE_NS), r->age_ns);
	u64_cell(cells[C_LOST], FTU_HAS(r, FTDETECT_A_ADDR_LOST), r->lost);
	u64_cell(cells[C_RX], FTU_HAS(r, FTDETECT_A_ADDR_RX), r->rx);
	rail_stamp_cell(cells[C_STAMP], r);
	ftu_table_add(t, row);
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
 * "rdma: rail 1 (198.51.100.2) rxe0 port 1 active, heartbeats over udp" (or
 * "over rdma, queue pair 17"):
 * the RDMA ports behind the local node's rails, one line each.
 */
static void print_rdma(FILE *f, const struct ftu_node *nodes, size_t n)
{
	char addr[FTU_ADDR_BUFSZ], st[8];

	for (size_t i = 0; i < n; i++) {
		if (nodes[i].state != FTD_NODE_SELF)
			continue;
		for (unsigned int r = 0; r < nodes[i].nr_rails; r++) {
			const struct ftu_rail *rl = &nodes[i].rails[r];

			if (!FTU_HAS(rl, FTDETECT_A_ADDR_RDMA))
				continue;
			fprintf(f, "rdma: rail %u (%s) %s port %" PRIu32 " %s, heartbeats over ",
				r, ftu_addr_format(&rl->addr, addr, sizeof(addr)), rl->rdma.device,
				rl->rdma.port, ftstat_rdma_state_name(rl->rdma.state, st, sizeof(st)));
			if (!rl->rdma.heartbeats)
				fputs("udp\n", f);
			else if (rl->rdma.qpn)
				fprintf(f, "rdma, queue pair %" PRIu32 "\n", rl->rdma.qpn);
			else
				fputs("rdma, no queue pair yet (see the kernel log)\n", f);
		}
	}
}

static void print_instance(FILE *f, const struct ftu_config *cfg)
{
	char p[FTU_DURATION_BUFSZ], t[FTU_DURATION_BUFSZ];

	fprintf(f, "cluster %" PRIu32 ", ", cfg->cluster);
	if (FTU_HAS(cfg, FTDETECT_A_LOCAL_NODE) && cfg->node != FTD_NODE_NONE)
		fprintf(f, "local node %" PRIu32 ", ", cfg->node);
	else
		fputs("local node not set, ", f);
	fprintf(f, "period %s, timeout %s, ", ftu_duration_format(cfg->period_ns, p, sizeof(p)),
		ftu_duration_format(cfg->timeout_ns, t, sizeof(t)));
	if (FTU_HAS(cfg, FTDETECT_A_KEY_ID)) {
		char id[FTU_KEYID_BUFSZ];

		fprintf(f, "key %s", ftu_key_id_format(cfg->key_id, id));
		if (cfg->n_accepted_ids)
			fprintf(f, " (+%u accepted)", cfg->n_accepted_ids);
		fputs(", ", f);
	}
	if (cfg->up)
		fprintf(f, "up (incarnation %" PRIu32 ")\n", cfg->incarnation);
	else
		fputs("down\n", f);
}

/* Ours, or not known to be another's (the name needs privileges). */
static bool shown_prog(uint32_t id, enum ftd_owner o)
{
	return id && o != FTD_OWNER_OTHER;
}

/* "xdp: n1r0 native, n2r0 generic; tc egress: n1r0", if anything is attached. */
static void print_ebpf(FILE *f, const struct ftd_ebpf_status *eb)
{
	const char *sep = "xdp: ";
	bool any = false;

	if (!eb)
		return;
	for (size_t i = 0; i < eb->nr_ifaces; i++) {
		const struct ftd_ebpf_iface *e = &eb->ifaces[i];

		if (!shown_prog(e->xdp_prog_id, e->xdp_owner))
			continue;
		fprintf(f, "%s%s %s", sep, e->name, ftd_xdp_attach_name(e->xdp_mode));
		sep = ", ";
		any = true;
	}
	sep = any ? "; tc egress: " : "tc egress: ";
	for (size_t i = 0; i < eb->nr_ifaces; i++) {
		const struct ftd_ebpf_iface *e = &eb->ifaces[i];

		if (!shown_prog(e->tc_prog_id, e->tc_owner))
			continue;
		fprintf(f, "%s%s", sep, e->name);
		sep = ", ";
		any = true;
	}
	if (any)
		fputc('\n', f);
}

void ftstat_print_nodes(FILE *f, const struct ftu_config *cfg,
			const struct ftu_node *nodes, size_t n, bool rails,
			const struct ftd_ebpf_status *eb)
{
	struct ftu_table t;

	if (!n) {
		fputs("no nodes (configure them with 'ftctl apply')\n", f);
	} else {
		ftu_table_init(&t, columns, any_stamp(nodes, n) ? NCOLS : NCOLS - 1);
		for (size_t i = 0; i < n; i++) {
			add_node_row(&t, &nodes[i]);
			for (unsigned int r = 0; rails && nodes[i].nr_rails > 1 &&
			     r < nodes[i].nr_rails; r++)
				add_rail_row(&t, &nodes[i].rails[r], r);
		}
		ftu_table_print(&t, f);
		ftu_table_free(&t);
	}
	print_instance(f, cfg);
	if (rails)
		print_rdma(f, nodes, n);
	print_ebpf(f, eb);
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
	char cells[DCOLS][CELL], hist[FTD_DELAY_BUCKETS * 32], addr[FTU_ADDR_BUFSZ];
	const char *row[DCOLS];
	struct ftu_table t;
	size_t rows = 0;

	for (int c = 0; c < DCOLS; c++)
		row[c] = cells[c];
	row[D_HIST] = hist;
	ftu_table_init(&t, dcols, DCOLS);
	for (size_t i = 0; i < n; i++) {
		if (nodes[i].state == FTD_NODE_SELF)
			continue;
		for (unsigned int r = 0; r < nodes[i].nr_rails; r++) {
			const struct ftu_rail *rl = &nodes[i].rails[r];
			const struct ftu_delay *d = &rl->delay;
			bool has = FTU_HAS(rl, FTDETECT_A_ADDR_DELAY);
			size_t len = 0;

			snprintf(cells[D_ID], CELL, "%" PRIu32, nodes[i].id);
			snprintf(cells[D_RAIL], CELL, "%u", r);
			snprintf(cells[D_ADDR], CELL, "%s",
				 ftu_addr_format(&rl->addr, addr, sizeof(addr)));
			rail_stamp_cell(cells[D_STAMP], rl);
			u64_cell(cells[D_SAMPLES], has && FTU_HAS(d, FTDETECT_A_DELAY_SAMPLES),
				 d->samples);
			duration_cell(cells[D_MIN], has && FTU_HAS(d, FTDETECT_A_DELAY_MIN_NS), d->min_ns);
			duration_cell(cells[D_MEAN], has && FTU_HAS(d, FTDETECT_A_DELAY_MEAN_NS),
				      d->mean_ns);
			duration_cell(cells[D_MAX], has && FTU_HAS(d, FTDETECT_A_DELAY_MAX_NS), d->max_ns);
			hist[0] = '\0';
			for (unsigned int b = 0; has && FTU_HAS(d, FTDETECT_A_DELAY_HIST) &&
			     b < FTD_DELAY_BUCKETS; b++) {
				char label[24];

				if (!d->hist[b])
					continue;
				len += (size_t)snprintf(hist + len, sizeof(hist) - len, "%s%s:%" PRIu64,
							len ? " " : "",
							ftstat_delay_bucket_label(b, label, sizeof(label)),
							d->hist[b]);
				if (len >= sizeof(hist))
					break;
			}
			if (!hist[0])
				strcpy(hist, "-");
			ftu_table_add(&t, row);
			rows++;
		}
	}
	if (rows)
		ftu_table_print(&t, f);
	else
		fputs("no peers (configure them with 'ftctl apply')\n", f);
	ftu_table_free(&t);
	print_instance(f, cfg);
	print_ebpf(f, eb);
}

static void kv_u64_if(struct ftu_json *j, bool present, const char *key, uint64_t v)
{
	if (present)
		ftu_json_kv_u64(j, key, v);
}

static void delay_json(struct ftu_json *j, const struct ftu_delay *d)
{
	ftu_json_key(j, "driver_delay");
	ftu_json_object_begin(j);
	kv_u64_if(j, FTU_HAS(d, FTDETECT_A_DELAY_SAMPLES), "samples", d->samples);
	kv_u64_if(j, FTU_HAS(d, FTDETECT_A_DELAY_MIN_NS), "min_ns", d->min_ns);
	kv_u64_if(j, FTU_HAS(d, FTDETECT_A_DELAY_MEAN_NS), "mean_ns", d->mean_ns);
	kv_u64_if(j, FTU_HAS(d, FTDETECT_A_DELAY_MAX_NS), "max_ns", d->max_ns);
	if (FTU_HAS(d, FTDETECT_A_DELAY_HIST)) {
		ftu_json_key(j, "hist");
		ftu_json_array_begin(j);
		for (unsigned int b = 0; b < FTD_DELAY_BUCKETS; b++)
			ftu_json_u64(j, d->hist[b]);
		ftu_json_array_end(j);
	}
	ftu_json_object_end(j);
}

static void ebpf_json(struct ftu_json *j, const struct ftd_ebpf_status *eb)
{
	ftu_json_key(j, "ebpf");
	ftu_json_object_begin(j);
	ftu_json_key(j, "xdp");
	ftu_json_array_begin(j);
	for (size_t i = 0; i < eb->nr_ifaces; i++) {
		const struct ftd_ebpf_iface *e = &eb->ifaces[i];

		if (!shown_prog(e->xdp_prog_id, e->xdp_owner))
			continue;
		ftu_json_object_begin(j);
		ftu_json_kv_string(j, "ifname", e->name);
		ftu_json_kv_string(j, "mode", ftd_xdp_attach_name(e->xdp_mode));
		ftu_json_kv_u64(j, "prog_id", e->xdp_prog_id);
		ftu_json_object_end(j);
	}
	ftu_json_array_end(j);
	ftu_json_key(j, "tc_egress");
	ftu_json_array_begin(j);
	for (size_t i = 0; i < eb->nr_ifaces; i++) {
		const struct ftd_ebpf_iface *e = &eb->ifaces[i];

		if (!shown_prog(e->tc_prog_id, e->tc_owner))
			continue;
		ftu_json_object_begin(j);
		ftu_json_kv_string(j, "ifname", e->name);
		ftu_json_kv_u64(j, "prog_id", e->tc_prog_id);
		ftu_json_object_end(j);
	}
	ftu_json_array_end(j);
	ftu_json_object_end(j);
}

static void node_json(struct ftu_json *j, const struct ftu_node *n)
{
	char addr[FTU_ADDR_BUFSZ], st[8];

	ftu_json_object_begin(j);
	ftu_json_kv_u64(j, "id", n->id);
	if (n->nr_rails)
		ftu_json_kv_string(j, "address",
				   ftu_addr_format(&n->rails[0].addr, addr, sizeof(addr)));
	ftu_json_key(j, "addresses");
	ftu_json_array_begin(j);
	for (unsigned int r = 0; r < n->nr_rails; r++)
		ftu_json_string(j, ftu_addr_format(&n->rails[r].addr, addr, sizeof(addr)));
	ftu_json_array_end(j);
	if (FTU_HAS(n, FTDETECT_A_NODE_STATE))
		ftu_json_kv_string(j, "state", state_name(n->state, st, sizeof(st)));
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_INCARNATION), "incarnation", n->incarnation);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_AGE_NS), "age_ns", n->age_ns);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_IAT_MEAN_NS), "iat_mean_ns", n->iat_mean_ns);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_IAT_JITTER_NS), "iat_jitter_ns", n->iat_jitter_ns);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_IAT_MAX_NS), "iat_max_ns", n->iat_max_ns);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_LOST), "lost", n->lost);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_RX), "rx", n->rx);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_TX), "tx", n->tx);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_PROVEN), "proven_incarnation", n->proven);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_RX_BADMAC), "rx_badmac", n->rx_badmac);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_RX_STALE), "rx_stale", n->rx_stale);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_RX_REPLAY), "rx_replay", n->rx_replay);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_RX_UNPROVEN), "rx_unproven", n->rx_unproven);
	kv_u64_if(j, FTU_HAS(n, FTDETECT_A_NODE_SLOW_NS), "slow_ns", n->slow_ns);
	if (FTU_HAS(n, FTDETECT_A_NODE_KEY_ID)) {
		char id[FTU_KEYID_BUFSZ];

		ftu_json_kv_string(j, "key_id", ftu_key_id_format(n->key_id, id));
	}
	if (FTU_HAS(n, FTDETECT_A_NODE_BADMAC_AGE_NS)) {
		ftu_json_kv_u64(j, "badmac_age_ns", n->badmac_age_ns);
		ftu_json_kv_bool(j, "bad_key", ftstat_node_bad_key(n));
	}
	ftu_json_key(j, "rails");
	ftu_json_array_begin(j);
	for (unsigned int i = 0; i < n->nr_rails; i++) {
		const struct ftu_rail *r = &n->rails[i];

		ftu_json_object_begin(j);
		ftu_json_kv_u64(j, "rail", i);
		ftu_json_kv_string(j, "address", ftu_addr_format(&r->addr, addr, sizeof(addr)));
		kv_u64_if(j, FTU_HAS(r, FTDETECT_A_ADDR_AGE_NS), "age_ns", r->age_ns);
		kv_u64_if(j, FTU_HAS(r, FTDETECT_A_ADDR_LOST), "lost", r->lost);
		kv_u64_if(j, FTU_HAS(r, FTDETECT_A_ADDR_RX), "rx", r->rx);
		if (FTU_HAS(r, FTDETECT_A_ADDR_STAMP))
			ftu_json_kv_string(j, "stamp", stamp_name(r->stamp, st, sizeof(st)));
		if (FTU_HAS(r, FTDETECT_A_ADDR_DELAY))
			delay_json(j, &r->delay);
		if (FTU_HAS(r, FTDETECT_A_ADDR_RDMA)) {
			ftu_json_key(j, "rdma");
			ftu_json_object_begin(j);
			ftu_json_kv_string(j, "device", r->rdma.device);
			ftu_json_kv_u64(j, "port", r->rdma.port);
			ftu_json_kv_string(j, "port_state", ftstat_rdma_state_name(r->rdma.state, st,
									      sizeof(st)));
			ftu_json_kv_string(j, "heartbeats", r->rdma.heartbeats ? "rdma" : "udp");
			if (r->rdma.heartbeats)
				ftu_json_kv_u64(j, "qpn", r->rdma.qpn);
			ftu_json_object_end(j);
		}
		ftu_json_object_end(j);
	}
	ftu_json_array_end(j);
	ftu_json_object_end(j);
}

void ftstat_print_nodes_json(FILE *f, const struct ftu_config *cfg,
			     const struct ftu_node *nodes, size_t n,
			     const struct ftd_ebpf_status *eb)
{
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
	ftu_json_kv_bool(&j, "up", cfg->up);
	ftu_json_kv_u64(&j, "incarnation", cfg->incarnation);
	ftu_json_key_ids(&j, cfg);
	ftu_json_key(&j, "nodes");
	ftu_json_array_begin(&j);
	for (size_t i = 0; i < n; i++)
		node_json(&j, &nodes[i]);
	ftu_json_array_end(&j);
	if (eb)
		ebpf_json(&j, eb);
	ftu_json_object_end(&j);
	fputc('\n', f);
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

void ftstat_print_event(FILE *f, const struct ftd_event *ev)
{
	char when[FTSTAT_TIME_BUFSZ];

	fputs(ftstat_format_time(ev->time_ns, when, sizeof(when)), f);
	fputc(' ', f);
	ftstat_print_event_text(f, ev);
	fputc('\n', f);
}

void ftstat_print_event_text(FILE *f, const struct ftd_event *ev)
{
	const char *name = ftu_event_name(ev->type);

	if (name)
		fputs(name, f);
	else
		fprintf(f, "EVENT_%u", ev->type);	/* newer than this tool */
	if (ev->node != FTD_NODE_NONE)
		fprintf(f, " node %" PRIu32 " incarnation %" PRIu32, ev->node, ev->incarnation);
	if (has_rail(ev) && ev->rail != FTD_RAIL_NONE)
		fprintf(f, " rail %" PRIu32, ev->rail);
	if (has_rank(ev))
		fprintf(f, " job %" PRIu32 " rank %" PRIu32, ev->job, ev->rank);
	if (has_rank(ev) && ev->uid != FTD_UID_NONE)
		fprintf(f, " uid %" PRIu32, ev->uid);
	if (has_count(ev))
		fprintf(f, " count %" PRIu32, ev->count);
	if (ev->origin != FTD_NODE_NONE)
		fprintf(f, " origin %" PRIu32, ev->origin);
}

void ftstat_print_event_json(FILE *f, const struct ftd_event *ev)
{
	const char *name = ftu_event_name(ev->type);
	char other[24];
	struct ftu_json j;

	if (!name) {
		snprintf(other, sizeof(other), "EVENT_%u", ev->type);
		name = other;
	}
	ftu_json_init(&j, f);
	ftu_json_object_begin(&j);
	ftu_json_kv_string(&j, "event", name);
	ftu_json_kv_u64(&j, "type", ev->type);
	ftu_json_kv_u64(&j, "seq", ev->seq);
	ftu_json_kv_u64(&j, "time_ns", ev->time_ns);
	ftu_json_kv_u64(&j, "mono_ns", ev->mono_ns);
	if (ev->node != FTD_NODE_NONE) {
		ftu_json_kv_u64(&j, "node", ev->node);
		ftu_json_kv_u64(&j, "incarnation", ev->incarnation);
	}
	if (has_rail(ev) && ev->rail != FTD_RAIL_NONE)
		ftu_json_kv_u64(&j, "rail", ev->rail);
	if (has_rank(ev)) {
		ftu_json_kv_u64(&j, "job", ev->job);
		ftu_json_kv_u64(&j, "rank", ev->rank);
		if (ev->uid != FTD_UID_NONE)
			ftu_json_kv_u64(&j, "uid", ev->uid);
	}
	if (has_count(ev))
		ftu_json_kv_u64(&j, "count", ev->count);
	if (ev->origin != FTD_NODE_NONE)
		ftu_json_kv_u64(&j, "origin", ev->origin);
	ftu_json_object_end(&j);
	fputc('\n', f);
}

void ftstat_print_overflow(FILE *f, uint64_t now_ns, bool json)
{
	char when[FTSTAT_TIME_BUFSZ];
	struct ftu_json j;

	if (!json) {
		fprintf(f, "%s OVERFLOW events lost: netlink receive buffer overrun (ENOBUFS); "
			"'ftstat' shows the current state\n",
			ftstat_format_time(now_ns, when, sizeof(when)));
		return;
	}
	ftu_json_init(&j, f);
	ftu_json_object_begin(&j);
	ftu_json_kv_string(&j, "event", "OVERFLOW");
	ftu_json_kv_u64(&j, "type", FTD_EV_OVERFLOW);
	ftu_json_kv_u64(&j, "time_ns", now_ns);
	ftu_json_kv_string(&j, "reason", "ENOBUFS");
	ftu_json_object_end(&j);
	fputc('\n', f);
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
