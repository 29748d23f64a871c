// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include "sim/sim.h"
#include "sim/scenario.h"
#include "sim/mem.h"

static size_t delivered_bytes(const struct sim_report *r)
{
	return (size_t)r->n * r->words * sizeof(u64);
}

int sim_report_init(struct sim_report *r, u32 n, u32 cap)
{
	memset(r, 0, sizeof(*r));
	r->n = n;
	r->cap = cap;
	r->words = (cap + 63) / 64;
	r->delivered = sim_zalloc(delivered_bytes(r));
	r->items = sim_zalloc(cap * sizeof(*r->items));
	if (!r->delivered || !r->items) {
		sim_report_free(r);
		return -1;
	}
	return 0;
}

void sim_report_free(struct sim_report *r)
{
	sim_release(r->delivered, delivered_bytes(r));
	sim_release(r->items, r->cap * sizeof(*r->items));
	memset(r, 0, sizeof(*r));
}

void sim_report_deliver(struct sim *s, u32 v, u32 item, u32 hops)
{
	struct sim_report *r = &s->rep;
	struct sim_item_stats *st = &r->items[item];
	u64 *w = &r->delivered[(size_t)v * r->words + item / 64], bit = 1ULL << (item % 64);

	if (*w & bit) {
		if (r->multi++ < 10)
			fprintf(stderr, "ftdsim: VIOLATION: node %u delivered the death of node %u twice\n",
				sim_node_id(v), sim_node_id(s->view.items[item].node));
		return;
	}
	*w |= bit;
	/* A view off the side that goes on is not the group's: counted apart. */
	if (!s->receiver[v]) {
		if (s->net.in_cut[v] && s->cfg->cut_mode == SIM_CUT_ISOLATED)
			st->cut_deliveries++;
		else
			r->minority_deliveries++;
		return;
	}
	if (!st->t_first)
		st->t_first = s->now;
	if (!st->expected && !r->t_false_first && s->view.items[item].kind == SIM_ITEM_NODE_DEAD)
		r->t_false_first = s->now;
	st->delivered++;
	st->t_last = s->now;
	if (st->expected && s->pending)
		s->pending--;
	if (hops) {
		if (hops > st->hops_max)
			st->hops_max = hops;
		st->hops_sum += hops;
		st->hops_n++;
	}
}

void sim_report_fenced(struct sim *s, u32 v, int why)
{
	struct sim_report *r = &s->rep;

	r->fenced_by[why]++;
	if (!s->must_fence[v]) {
		if (r->fenced_wrongly++ < 10)
			fprintf(stderr, "ftdsim: VIOLATION: node %u, on the side that goes on, fenced itself (%s)\n",
				sim_node_id(v), why == SIM_FENCE_MAJORITY ? "partition rule" :
				why == SIM_FENCE_REACH ? "reach check" : "lease");
		return;
	}
	r->t_fenced_last = s->now;
	if (s->unfenced)
		s->unfenced--;
}

static const char *jitter_name(enum sim_jitter j)
{
	switch (j) {
	case SIM_JITTER_NORMAL:	return "normal";
	case SIM_JITTER_EXP:	return "exp";
	default:		return "uniform";
	}
}

void sim_report_finish(struct sim *s, struct sim_result *res)
{
	const struct sim_config *cfg = s->cfg;
	u64 hops_sum = 0, hops_n = 0, cut_deliveries = 0;
	double secs, n = cfg->nodes;
	bool first = true;
	u32 i;

	memset(res, 0, sizeof(*res));
	res->scenario = sim_scenario_name(cfg->scenario);
	res->nodes = cfg->nodes;
	res->k = cfg->k;
	res->quorum = cfg->quorum;
	res->isolated_after_ns = cfg->isolated_after_ns;
	res->declare_unproven = cfg->declare_unproven;
	res->failures = s->failures;
	res->receivers = s->n_receivers;
	res->period_ns = cfg->period_ns;
	res->timeout_ns = cfg->timeout_ns;
	res->latency_ns = cfg->net.latency_ns;
	res->jitter_ns = cfg->net.jitter_ns;
	res->jitter = jitter_name(cfg->net.jitter);
	res->loss = cfg->net.loss;
	res->seed = cfg->seed;
	res->cut_layout = cfg->cut_layout == SIM_LAYOUT_RANDOM ? "random" : "contiguous";
	res->cut_mode = cfg->cut_mode == SIM_CUT_ISLAND ? "island" : "isolated";

	for (i = 0; i < s->view.n_items; i++) {
		const struct sim_item_stats *st = &s->rep.items[i];
		s64 detect;

		cut_deliveries += st->cut_deliveries;
		if (!st->expected) {
			if (s->view.items[i].kind != SIM_ITEM_NODE_DEAD)
				continue;
			res->false_deaths += st->delivered;
			res->false_declared += !!st->t_first;
			continue;
		}
		res->never_delivered += st->receivers - st->delivered;
		hops_sum += st->hops_sum;
		hops_n += st->hops_n;
		if (st->hops_max > res->hops_max)
			res->hops_max = st->hops_max;
		if (st->origins > res->origins_max)
			res->origins_max = st->origins;
		if (!st->t_first)
			continue;
		detect = (s64)(st->t_first - s->t_fail);
		if (first || detect < res->detect_min_ns)
			res->detect_min_ns = detect;
		if (first || detect > res->detect_max_ns)
			res->detect_max_ns = detect;
		first = false;
		if (st->t_last && st->t_last - s->t_fail > res->all_know_ns)
			res->all_know_ns = st->t_last - s->t_fail;
		if (st->t_last && st->t_last - st->t_first > res->spread_max_ns)
			res->spread_max_ns = st->t_last - st->t_first;
	}
	if (cfg->scenario != SIM_SC_PROC) {
		res->overshoot_min_ns = res->detect_min_ns - (s64)cfg->timeout_ns;
		res->overshoot_max_ns = res->detect_max_ns - (s64)cfg->timeout_ns;
	}
	res->hops_mean = hops_n ? (double)hops_sum / hops_n : 0;
	res->cut_declared = cut_deliveries;
	res->minority_delivered = s->rep.minority_deliveries;
	res->unfenced = s->unfenced;
	res->fenced_wrongly = s->rep.fenced_wrongly;
	res->fenced_majority = s->rep.fenced_by[SIM_FENCE_MAJORITY];
	res->fenced_reach = s->rep.fenced_by[SIM_FENCE_REACH];
	res->fenced_lease = s->rep.fenced_by[SIM_FENCE_LEASE];
	res->fence_all_ns = s->rep.t_fenced_last > s->t_fail ? s->rep.t_fenced_last - s->t_fail : 0;
	res->reach_checks = s->rep.reach_checks;
	res->reach_probes = s->rep.reach_probes;
	res->reach_nodes = s->rep.reach_nodes;

	res->sim_ns = s->now;
	secs = s->now / 1e9;
	res->hb_frames = s->net.count[FTD_FRAME_HEARTBEAT].sent;
	res->hb_bytes = s->net.count[FTD_FRAME_HEARTBEAT].bytes;
	res->hb_lost = s->net.count[FTD_FRAME_HEARTBEAT].lost;
	res->hb_cut = s->net.count[FTD_FRAME_HEARTBEAT].cut;
	res->notice_frames = s->net.count[FTD_FRAME_NOTICE].sent;
	res->notice_items = s->rep.notice_items;
	res->notice_bytes = s->net.count[FTD_FRAME_NOTICE].bytes;
	res->notice_lost = s->net.count[FTD_FRAME_NOTICE].lost;
	res->fate_lost = s->net.fate_lost;
	res->fate_late = s->net.fate_late;
	res->notice_cut = s->net.count[FTD_FRAME_NOTICE].cut;
	res->notice_dup = s->rep.notices_dup;
	if (secs > 0) {
		res->hb_per_node_s = res->hb_frames / n / secs;
		res->hb_bytes_per_node_s = res->hb_bytes / n / secs;
		res->notice_per_node_s = res->notice_frames / n / secs;
		res->notice_bytes_per_node_s = res->notice_bytes / n / secs;
	}
	res->notice_per_node_failure = s->failures ? res->notice_frames / n / s->failures : 0;

	res->delivered_again = s->rep.multi;
	res->codec_errors = s->rep.codec_errors;
	res->declarations = s->rep.declarations;
	res->first_false_ns = s->rep.t_false_first;
	res->suspects = s->rep.suspects;
	res->recoveries = s->rep.recoveries;
	res->tell_dead = s->rep.tell_dead;
	res->fenced = s->rep.fenced;
	res->to_dead = s->rep.to_dead;
	res->votes = s->rep.votes;
	res->digests = s->rep.digests;
	res->repairs = s->rep.repairs;
	res->probes = s->rep.probes;
	res->relays_asked = s->rep.relays_asked;
	res->relays_heard = s->rep.relays_heard;
	res->flood = s->cfg->flood;
	res->span_acks = s->net.count[SIM_MSG_SPAN_ACK].sent;
	res->span_resends = s->span.resends;
	res->span_handovers = s->span.handovers;
	res->span_drops = s->span.drops;
	res->repair = !s->cfg->no_repair;
	res->relay = !s->cfg->no_relay;
	res->complete = !s->pending;
	res->ok = !res->never_delivered && !res->delivered_again && !res->false_deaths && !res->cut_declared &&
		  !res->codec_errors && !res->unfenced && !res->fenced_wrongly && res->complete &&
		  !s->err;
}

static double ms(s64 ns)
{
	return ns / 1e6;
}

void sim_report_table_header(FILE *f)
{
	fprintf(f, "%7s %-9s %5s %4s %4s %15s %15s %9s %12s %6s %10s %8s %6s %7s\n",
		"N", "scenario", "loss", "seed", "fail", "detect ms", "overshoot ms", "all ms",
		"hops max/avg", "hb/n/s", "ntc/n/fail", "B/n/s", "check", "wall s");
}

static void range(char *buf, size_t len, s64 lo, s64 hi)
{
	if (lo == hi)
		snprintf(buf, len, "%.2f", ms(lo));
	else
		snprintf(buf, len, "%.2f..%.2f", ms(lo), ms(hi));
}

void sim_report_table_row(FILE *f, const struct sim_result *res)
{
	char detect[32], over[32], hops[24], loss[16];

	range(detect, sizeof(detect), res->detect_min_ns, res->detect_max_ns);
	if (!strcmp(res->scenario, "proc"))
		snprintf(over, sizeof(over), "-");
	else
		range(over, sizeof(over), res->overshoot_min_ns, res->overshoot_max_ns);
	snprintf(hops, sizeof(hops), "%u/%.1f", res->hops_max, res->hops_mean);
	snprintf(loss, sizeof(loss), "%g%%", res->loss * 100);
	fprintf(f, "%7u %-9s %5s %4" PRIu64 " %4u %15s %15s %9.2f %12s %6.0f %10.1f %8.0f %6s %7.2f\n",
		res->nodes, res->scenario, loss, res->seed, res->failures, detect, over,
		ms(res->all_know_ns), hops, res->hb_per_node_s, res->notice_per_node_failure,
		res->hb_bytes_per_node_s + res->notice_bytes_per_node_s,
		res->ok ? "ok" : "FAIL", res->wall_s);
}

#define KU(name, v)	fprintf(f, ",\"%s\":%" PRIu64, name, (u64)(v))
#define KS(name, v)	fprintf(f, ",\"%s\":%" PRId64, name, (s64)(v))
#define KD(name, v)	fprintf(f, ",\"%s\":%.6g", name, (double)(v))
#define KB(name, v)	fprintf(f, ",\"%s\":%s", name, (v) ? "true" : "false")
#define KT(name, v)	fprintf(f, ",\"%s\":\"%s\"", name, v)

void sim_report_json(FILE *f, const struct sim_result *res)
{
	fprintf(f, "{\"scenario\":\"%s\"", res->scenario);
	KU("nodes", res->nodes);
	KU("k", res->k);
	KU("quorum", res->quorum);
	KU("period_ns", res->period_ns);
	KU("timeout_ns", res->timeout_ns);
	KU("latency_ns", res->latency_ns);
	KU("jitter_ns", res->jitter_ns);
	KT("jitter", res->jitter);
	KD("loss", res->loss);
	KU("seed", res->seed);
	KU("failures", res->failures);
	if (!strcmp(res->scenario, "partition")) {
		KT("cut_layout", res->cut_layout);
		KT("cut_mode", res->cut_mode);
	}
	KU("receivers", res->receivers);
	KS("detect_min_ns", res->detect_min_ns);
	KS("detect_max_ns", res->detect_max_ns);
	KS("overshoot_min_ns", res->overshoot_min_ns);
	KS("overshoot_max_ns", res->overshoot_max_ns);
	KU("all_know_ns", res->all_know_ns);
	KU("spread_max_ns", res->spread_max_ns);
	KU("hops_max", res->hops_max);
	KD("hops_mean", res->hops_mean);
	KU("origins_max", res->origins_max);
	KU("sim_ns", res->sim_ns);
	KU("hb_frames", res->hb_frames);
	KU("hb_bytes", res->hb_bytes);
	KU("hb_lost", res->hb_lost);
	KU("hb_cut", res->hb_cut);
	KD("hb_per_node_s", res->hb_per_node_s);
	KD("hb_bytes_per_node_s", res->hb_bytes_per_node_s);
	KU("notice_frames", res->notice_frames);
	KU("notice_items", res->notice_items);
	KU("notice_bytes", res->notice_bytes);
	KU("notice_lost", res->notice_lost);
	KU("notice_cut", res->notice_cut);
	KU("notice_dup", res->notice_dup);
	KD("notice_per_node_s", res->notice_per_node_s);
	KD("notice_bytes_per_node_s", res->notice_bytes_per_node_s);
	KD("notice_per_node_failure", res->notice_per_node_failure);
	KU("never_delivered", res->never_delivered);
	KU("delivered_again", res->delivered_again);
	KU("false_deaths", res->false_deaths);
	KU("cut_declared", res->cut_declared);
	KU("codec_errors", res->codec_errors);
	KU("unfenced", res->unfenced);
	KU("fenced_wrongly", res->fenced_wrongly);
	KU("minority_delivered", res->minority_delivered);
	KU("fenced_majority", res->fenced_majority);
	KU("fenced_reach", res->fenced_reach);
	KU("fenced_lease", res->fenced_lease);
	KU("fence_all_ns", res->fence_all_ns);
	KU("reach_checks", res->reach_checks);
	KU("reach_probes", res->reach_probes);
	KU("reach_nodes", res->reach_nodes);
	KU("declarations", res->declarations);
	KU("false_declared", res->false_declared);
	KU("first_false_ns", res->first_false_ns);
	KU("suspects", res->suspects);
	KU("recoveries", res->recoveries);
	KU("tell_dead", res->tell_dead);
	KU("fenced", res->fenced);
	KU("to_dead", res->to_dead);
	KU("votes", res->votes);
	KB("repair", res->repair);
	KB("relay", res->relay);
	KU("digests", res->digests);
	KU("repairs", res->repairs);
	KU("probes", res->probes);
	KU("relays_asked", res->relays_asked);
	KU("relays_heard", res->relays_heard);
	KU("isolated_after_ns", res->isolated_after_ns);
	KB("declare_unproven", res->declare_unproven);
	KB("flood", res->flood);
	KU("span_acks", res->span_acks);
	KU("span_resends", res->span_resends);
	KU("span_handovers", res->span_handovers);
	KU("span_drops", res->span_drops);
	KB("complete", res->complete);
	KB("ok", res->ok);
	KU("events", res->events);
	KU("ring_flips", res->ring_flips);
	KU("peak_in_flight", res->peak_in_flight);
	KD("wall_s", res->wall_s);
	KU("mem_peak_bytes", res->mem_peak);
	fputc('}', f);
}

int sim_report_violations(FILE *f, const struct sim_result *res)
{
	int kinds = 0;
	char what[96];

	snprintf(what, sizeof(what), "N=%u %s loss %g%% seed %" PRIu64, res->nodes,
		 res->scenario, res->loss * 100, res->seed);
#define V(cond, fmt, ...) do { \
		if (cond) { \
			kinds++; \
			fprintf(f, "ftdsim: VIOLATION (%s): " fmt "\n", what, __VA_ARGS__); \
		} \
	} while (0)
	V(res->never_delivered, "%" PRIu64 " (live node, failure) pairs never delivered", res->never_delivered);
	V(res->delivered_again, "%" PRIu64 " deliveries of a failure already delivered", res->delivered_again);
	V(res->false_deaths, "%" PRIu64 " NODE_DEAD deliveries about nodes that did not fail",
	  res->false_deaths);
	V(res->cut_declared, "%" PRIu64 " deaths delivered by cut-off nodes that hear nobody",
	  res->cut_declared);
	V(res->codec_errors, "%" PRIu64 " simulated frames failed decoding or the MAC",
	  res->codec_errors);
	V(res->unfenced, "%" PRIu64 " nodes off the side that goes on never fenced themselves",
	  res->unfenced);
	V(res->fenced_wrongly, "%" PRIu64 " nodes of the side that goes on fenced themselves",
	  res->fenced_wrongly);
	V(!res->complete && !res->never_delivered && !res->unfenced, "%s",
	  "the run hit its time limit");
#undef V
	return kinds;
}
