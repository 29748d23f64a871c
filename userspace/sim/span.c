// SPDX-License-Identifier: GPL-2.0-only
#include "sim/sim.h"
#include "sim/mem.h"
#include "sim/span.h"

int sim_span_init(struct sim_span *sp, u32 nodes, u32 words)
{
	u32 i;

	memset(sp, 0, sizeof(*sp));
	sp->free = SIM_SPAN_NONE;
	sp->head = sim_zalloc((size_t)nodes * sizeof(*sp->head));
	sp->timer_at = sim_zalloc((size_t)nodes * sizeof(*sp->timer_at));
	sp->words = words;
	sp->forwarded = sim_zalloc((size_t)nodes * words * sizeof(*sp->forwarded));
	if (!sp->head || !sp->timer_at || !sp->forwarded)
		return -1;
	for (i = 0; i < nodes; i++)
		sp->head[i] = SIM_SPAN_NONE;
	return 0;
}

void sim_span_free(struct sim_span *sp, u32 nodes)
{
	sim_release(sp->w, (size_t)sp->cap * sizeof(*sp->w));
	sim_release(sp->head, (size_t)nodes * sizeof(*sp->head));
	sim_release(sp->timer_at, (size_t)nodes * sizeof(*sp->timer_at));
	sim_release(sp->forwarded, (size_t)nodes * sp->words * sizeof(*sp->forwarded));
	memset(sp, 0, sizeof(*sp));
}

static u32 wait_new(struct sim *s)
{
	struct sim_span *sp = &s->span;
	struct sim_span_wait *w;
	u32 cap, i;

	if (sp->free == SIM_SPAN_NONE) {
		cap = sp->cap ? 2 * sp->cap : 1024;
		w = sim_realloc(sp->w, (size_t)sp->cap * sizeof(*w), (size_t)cap * sizeof(*w));
		if (!w) {
			sim_fail(s, "out of memory (shares waiting)");
			return SIM_SPAN_NONE;
		}
		for (i = cap; i > sp->cap; i--) {
			w[i - 1].next = sp->free;
			sp->free = i - 1;
		}
		sp->w = w;
		sp->cap = cap;
	}
	i = sp->free;
	sp->free = sp->w[i].next;
	return i;
}

bool sim_span_forwarded(struct sim *s, u32 v, u32 item)
{
	u64 *w = &s->span.forwarded[(size_t)v * s->span.words + item / 64], bit = 1ULL << (item % 64);
	bool was = *w & bit;

	*w |= bit;
	return was;
}

static u64 resend_after(struct sim *s, u32 v)
{
	return ftd_span_resend_after(s->cfg->period_ns, s->nodes[v].probe_rtt_ns);
}

/* v's share timer fires at t, unless it is armed to fire sooner. */
static void arm(struct sim *s, u32 v, u64 t)
{
	struct sim_msg m = { .src = v, .dst = v, .ref = t, .type = SIM_MSG_SPAN_TIMER };

	if (s->span.timer_at[v] && s->span.timer_at[v] <= t)
		return;
	s->span.timer_at[v] = t;
	if (sim_evq_push(&s->q, t, &m))
		sim_fail(s, "out of memory (event queue)");
}

/* The len bytes of notices to the holder of [to, end) in a share, waiting for its acknowledgement. */
static void send_share(struct sim *s, u32 v, const u8 *payload, u16 len, u32 to, u32 end,
		       u16 hops)
{
	struct sim_span *sp = &s->span;
	s64 frame = sim_notice_frame(s, v, payload, len, true, end);
	struct sim_msg m = {
		.src = v,
		.dst = to,
		.hops = hops,
		.type = FTD_FRAME_NOTICE,
	};
	u32 i;

	if (frame < 0)
		return;
	i = wait_new(s);
	if (i == SIM_SPAN_NONE) {
		sim_net_frame_put(&s->net, (u32)frame);
		return;
	}
	m.ref = (u64)frame;
	sp->w[i] = (struct sim_span_wait){
		.first_ns = s->now, .sent_ns = s->now, .frame = (u32)frame, .to = to, .end = end,
		.next = sp->head[v], .hops = hops, .sends = 1,
	};
	sp->head[v] = i;
	sim_net_frame(&s->net, frame)->refs++;	/* the waiting share's */
	s->rep.notice_items += len / FTD_WIRE_NOTICE_LEN;
	if (sim_net_send(&s->net, s->now, &m))
		sim_fail(s, "out of memory (event queue)");
	arm(s, v, s->now + resend_after(s, v));
}

/* The len bytes of notices from v to the shares of the arc (from, end), from left out. */
static u32 split(struct sim *s, u32 v, const u8 *payload, u16 len, u32 from, u32 end, u16 hops)
{
	struct ftd_span_share sh[FTD_MAX_FINGERS];
	u32 n, i;

	n = sim_view_span(&s->view, v, from, end, sh, FTD_MAX_FINGERS);
	for (i = 0; i < n; i++)
		send_share(s, v, payload, len, sh[i].to, sh[i].end, hops);
	return n;
}

void sim_span_send(struct sim *s, u32 v, u32 end, const u8 *payload, u16 len, u16 hops)
{
	split(s, v, payload, len, v, end, hops);
}

void sim_span_ack(struct sim *s, u32 v, const struct sim_msg *m)
{
	struct sim_msg ack = {
		.src = v,
		.dst = m->src,
		.ref = m->ref,
		.type = SIM_MSG_SPAN_ACK,
	};

	if (sim_net_send(&s->net, s->now, &ack))
		sim_fail(s, "out of memory (event queue)");
}

static void unlink_wait(struct sim *s, u32 v, u32 prev, u32 i)
{
	struct sim_span *sp = &s->span;

	if (prev == SIM_SPAN_NONE)
		sp->head[v] = sp->w[i].next;
	else
		sp->w[prev].next = sp->w[i].next;
	sim_net_frame_put(&s->net, sp->w[i].frame);
	sp->w[i].next = sp->free;
	sp->free = i;
}

void sim_span_acked(struct sim *s, const struct sim_msg *m)
{
	struct sim_span *sp = &s->span;
	u32 v = m->dst, prev = SIM_SPAN_NONE, i;

	for (i = sp->head[v]; i != SIM_SPAN_NONE; prev = i, i = sp->w[i].next)
		if (sp->w[i].to == m->src && sp->w[i].frame == m->ref) {
			unlink_wait(s, v, prev, i);
			return;
		}
	/* Acknowledged already (a copy sent again), or handed over: nothing waits. */
}

void sim_span_timer(struct sim *s, const struct sim_msg *m)
{
	struct sim_span *sp = &s->span;
	u32 v = m->dst, i = sp->head[v], next, kept = SIM_SPAN_NONE, n, j;
	u64 after = resend_after(s, v), due = 0, t;
	u8 payload[FTD_WIRE_NOTICES_MAX * FTD_WIRE_NOTICE_LEN];
	struct ftd_span_share sh[FTD_MAX_FINGERS];
	struct sim_span_wait w;
	struct sim_frame *fr;
	bool dead, keep;
	s64 frame;
	u16 len;

	if (m->ref != sp->timer_at[v])
		return;		/* armed again to fire sooner: that one counts */
	sp->timer_at[v] = 0;
	if (!s->nodes[v].up)
		return;
	/* Taken off the list while walked: what a handover adds waits for the next tick. */
	sp->head[v] = SIM_SPAN_NONE;
	for (; i != SIM_SPAN_NONE; i = next) {
		w = sp->w[i];
		next = w.next;
		keep = true;
		if (ftd_span_due(s->now, w.sent_ns, w.sends, after, s->cfg->timeout_ns)) {
			dead = sim_view_holds_dead(&s->view, v, w.to);
			n = sim_view_span(&s->view, v, w.to, w.end, sh, FTD_MAX_FINGERS);
			switch (ftd_span_step(s->now, w.first_ns, w.sends, s->cfg->timeout_ns, dead,
					      !n)) {
			case FTD_SPAN_RESEND:
				sp->w[i].sent_ns = s->now;
				sp->w[i].sends++;
				sp->resends++;
				if (sim_net_send(&s->net, s->now, &(struct sim_msg){
							.src = v, .dst = w.to, .ref = w.frame,
							.hops = w.hops, .type = FTD_FRAME_NOTICE }))
					sim_fail(s, "out of memory (event queue)");
				break;
			case FTD_SPAN_HAND_OVER:
				sp->handovers++;
				/* A copy: sim_notice_frame() may move the frames. */
				fr = sim_net_frame(&s->net, w.frame);
				len = fr->len - FTD_WIRE_HDR_LEN;
				memcpy(payload, sim_frame_buf(fr) + FTD_WIRE_HDR_LEN, len);
				/* send_share() may move the table: entries by index only. */
				for (j = 0; j < n; j++)
					send_share(s, v, payload, len, sh[j].to, sh[j].end, w.hops);
				keep = !dead;
				if (!keep)
					break;
				/* The holder, alone: its share's frame names the new end. */
				frame = sim_notice_frame(s, v, payload, len, true, sh[0].to);
				if (frame < 0)
					break;
				sim_net_frame(&s->net, frame)->refs++;
				sim_net_frame_put(&s->net, w.frame);
				w.frame = (u32)frame;
				sp->w[i].frame = (u32)frame;
				sp->w[i].end = sh[0].to;
				sp->w[i].sent_ns = s->now;
				break;
			case FTD_SPAN_DROP:
				sp->drops++;
				keep = false;
				break;
			}
		}
		if (keep) {
			sp->w[i].next = kept;
			kept = i;
		} else {
			sim_net_frame_put(&s->net, w.frame);
			sp->w[i].next = sp->free;
			sp->free = i;
		}
	}
	while (kept != SIM_SPAN_NONE) {
		next = sp->w[kept].next;
		sp->w[kept].next = sp->head[v];
		sp->head[v] = kept;
		t = ftd_span_due_at(sp->w[kept].sent_ns, sp->w[kept].sends, after,
				    s->cfg->timeout_ns);
		if (!due || t < due)
			due = t;
		kept = next;
	}
	if (due)
		arm(s, v, due > s->now ? due : s->now + 1);
}
