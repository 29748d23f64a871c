// SPDX-License-Identifier: GPL-2.0-only
#include "sim/sim.h"
#include "sim/outbox.h"

s64 sim_notice_frame(struct sim *s, u32 v, const u8 *payload, u16 len, bool share, u32 end)
{
	struct ftd_frame f = {
		.type = FTD_FRAME_NOTICE,
		.flags = share ? FTD_WIRE_F_SHARE : 0,
		.cluster = s->cluster,
		.sender = sim_node_id(v),
		.incarnation = s->nodes[v].incarnation,
		.tx_ns = s->now,
		.span_end = share ? sim_node_id(end) : 0,
	};
	struct sim_frame *fr;
	s64 idx;

	idx = sim_net_frame_new(&s->net, FTD_WIRE_HDR_LEN + len);
	if (idx < 0) {
		sim_fail(s, "out of memory (frames)");
		return -1;
	}
	fr = sim_net_frame(&s->net, idx);
	fr->len = ftd_wire_encode(sim_frame_buf(fr), fr->cap, &f, payload, len, s->key);
	return idx;
}

void sim_send_notices(struct sim *s, u32 v, const u8 *payload, u16 len, const u32 *dst, u32 cnt,
		      u16 hops)
{
	struct sim_frame *fr;
	s64 idx;
	u32 i;

	idx = sim_notice_frame(s, v, payload, len, false, 0);
	if (idx < 0)
		return;
	fr = sim_net_frame(&s->net, idx);
	for (i = 0; i < cnt; i++) {
		struct sim_msg m = {
			.src = v,
			.dst = dst[i],
			.ref = (u64)idx,
			.hops = hops,
			.type = FTD_FRAME_NOTICE,
		};

		if (sim_net_send(&s->net, s->now, &m))
			sim_fail(s, "out of memory (event queue)");
	}
	s->rep.notice_items += (u64)cnt * (len / FTD_WIRE_NOTICE_LEN);
	if (!fr->refs)
		sim_net_frame_put(&s->net, idx);
}

/* The tree's notices, a frame of those of one arc at a time (span.h). */
static void flush_tree(struct sim *s)
{
	struct sim_outbox *o = &s->outbox;
	u8 payload[FTD_WIRE_NOTICES_MAX * FTD_WIRE_NOTICE_LEN];
	u8 sent[SIM_OUTBOX_NOTICES] = { 0 };
	u32 i, j, end;
	u16 len;

	for (i = 0; i < o->n_tree; i++) {
		if (sent[i])
			continue;
		end = o->tree_end[i];
		len = 0;
		for (j = i; j < o->n_tree; j++) {
			if (sent[j] || o->tree_end[j] != end)
				continue;
			sent[j] = 1;
			memcpy(payload + len, o->tree[j], FTD_WIRE_NOTICE_LEN);
			len += FTD_WIRE_NOTICE_LEN;
			if (len == sizeof(payload)) {
				sim_span_send(s, o->src, end, payload, len, o->tree_hops);
				len = 0;
			}
		}
		if (len)
			sim_span_send(s, o->src, end, payload, len, o->tree_hops);
	}
	o->n_tree = 0;
	o->tree_hops = 0;
}

bool sim_outbox_tree(struct sim *s, u32 v, const struct ftd_notice *n, u32 end, u16 hops)
{
	struct sim_outbox *o = &s->outbox;

	if (!o->open || o->src != v)
		return false;
	if (o->n_tree == SIM_OUTBOX_NOTICES)
		flush_tree(s);
	ftd_notice_encode(o->tree[o->n_tree], n);
	o->tree_end[o->n_tree++] = end;
	if (hops > o->tree_hops)
		o->tree_hops = hops;
	return true;
}

static bool same_notices(const struct sim_outbox_dst *a, const struct sim_outbox_dst *b)
{
	return !memcmp(a->has, b->has, sizeof(a->has));
}

/*
 * Every destination's notices, in the order queued: those that get the
 * same ones share each frame of them.
 */
static void flush(struct sim *s)
{
	struct sim_outbox *o = &s->outbox;
	u8 payload[FTD_WIRE_NOTICES_MAX * FTD_WIRE_NOTICE_LEN];
	u32 group[SIM_OUTBOX_DSTS], n_group, i, j;
	u8 sent[SIM_OUTBOX_DSTS] = { 0 };
	u16 len;

	for (i = 0; i < o->n_dsts; i++) {
		if (sent[i])
			continue;
		n_group = 0;
		for (j = i; j < o->n_dsts; j++) {
			if (!sent[j] && same_notices(&o->d[i], &o->d[j])) {
				sent[j] = 1;
				group[n_group++] = o->d[j].dst;
			}
		}
		len = 0;
		for (j = 0; j < o->n_notices; j++) {
			if (!(o->d[i].has[j / 64] & (1ULL << (j % 64))))
				continue;
			memcpy(payload + len, o->notice[j], FTD_WIRE_NOTICE_LEN);
			len += FTD_WIRE_NOTICE_LEN;
			if (len == sizeof(payload)) {
				sim_send_notices(s, o->src, payload, len, group, n_group, o->hops);
				len = 0;
			}
		}
		if (len)
			sim_send_notices(s, o->src, payload, len, group, n_group, o->hops);
	}
	o->n_notices = 0;
	o->n_dsts = 0;
	o->hops = 0;
	flush_tree(s);
}

void sim_outbox_begin(struct sim *s, u32 v)
{
	struct sim_outbox *o = &s->outbox;

	if (o->open)
		sim_fail(s, "an outbox pass inside another");
	o->open = true;
	o->src = v;
	o->n_tree = 0;
	o->tree_hops = 0;
	o->n_notices = 0;
	o->n_dsts = 0;
	o->hops = 0;
}

void sim_outbox_end(struct sim *s)
{
	flush(s);
	s->outbox.open = false;
}

static struct sim_outbox_dst *dst_of(struct sim_outbox *o, u32 dst)
{
	u32 i;

	for (i = 0; i < o->n_dsts; i++)
		if (o->d[i].dst == dst)
			return &o->d[i];
	if (o->n_dsts == SIM_OUTBOX_DSTS)
		return NULL;
	memset(&o->d[o->n_dsts], 0, sizeof(o->d[0]));
	o->d[o->n_dsts].dst = dst;
	return &o->d[o->n_dsts++];
}

bool sim_outbox_add(struct sim *s, u32 v, const struct ftd_notice *n, const u32 *dst, u32 cnt,
		    u16 hops)
{
	struct sim_outbox *o = &s->outbox;
	struct sim_outbox_dst *d;
	u32 i, idx;

	if (!o->open || o->src != v || !ftd_notice_batchable(n->kind))
		return false;
	if (o->n_notices == SIM_OUTBOX_NOTICES)
		flush(s);
	idx = o->n_notices++;
	ftd_notice_encode(o->notice[idx], n);
	if (hops > o->hops)
		o->hops = hops;
	for (i = 0; i < cnt; i++) {
		d = dst_of(o, dst[i]);
		if (!d) {
			/* Full of destinations: send what it has, this notice last. */
			flush(s);
			idx = o->n_notices++;
			ftd_notice_encode(o->notice[idx], n);
			o->hops = hops;
			d = dst_of(o, dst[i]);
		}
		d->has[idx / 64] |= 1ULL << (idx % 64);
	}
	return true;
}
