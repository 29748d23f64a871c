// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include "sim/net.h"
#include "sim/mem.h"

#define RNG_STREAM_NET	2

int sim_net_init(struct sim_net *net, const struct sim_net_config *cfg, u32 n, u64 seed,
		 struct sim_evq *q)
{
	static const u8 zero_key[FTD_KEY_LEN];
	struct ftd_frame f = { .type = FTD_FRAME_HEARTBEAT };
	u8 buf[SIM_FRAME_SMALL], payload[FTD_WIRE_NOTICE_LEN] = { 0 };

	memset(net, 0, sizeof(*net));
	net->cfg = *cfg;
	net->q = q;
	net->n = n;
	sim_rng_seed(&net->rng, seed, RNG_STREAM_NET);
	net->in_cut = sim_zalloc(n);
	if (!net->in_cut)
		return -1;
	/* The sizes the module puts on the wire, from the module's encoder. */
	net->size[FTD_FRAME_HEARTBEAT] = ftd_wire_encode(buf, sizeof(buf), &f, NULL, 0, zero_key);
	f.type = FTD_FRAME_NOTICE;
	net->size[FTD_FRAME_NOTICE] = ftd_wire_encode(buf, sizeof(buf), &f, payload,
						      sizeof(payload), zero_key);
	net->size[SIM_MSG_PROBE] = net->size[SIM_MSG_ANSWER] = net->size[FTD_FRAME_NOTICE];
	net->size[SIM_MSG_PROBE_REQ] = net->size[SIM_MSG_RELAY_PROBE] = net->size[FTD_FRAME_NOTICE];
	net->size[SIM_MSG_RELAY_ANSWER] = net->size[SIM_MSG_RELAY] = net->size[FTD_FRAME_NOTICE];
	net->size[SIM_MSG_JUDGE_PROBE] = net->size[SIM_MSG_JUDGE_ANSWER] = net->size[FTD_FRAME_NOTICE];
	net->size[SIM_MSG_SPAN_ACK] = net->size[FTD_FRAME_NOTICE];
	return 0;
}

void sim_net_free(struct sim_net *net)
{
	u32 i;

	/* Batches still in flight when the run ended (recycled ones hold none). */
	for (i = 0; i < net->frames_cap; i++)
		if (net->frames[i].big)
			sim_release(net->frames[i].big, net->frames[i].cap);
	sim_release(net->in_cut, net->n);
	sim_release(net->frames, (size_t)net->frames_cap * sizeof(*net->frames));
	sim_release(net->free_frames, (size_t)net->frames_cap * sizeof(*net->free_frames));
	memset(net, 0, sizeof(*net));
}

void sim_net_cut(struct sim_net *net, enum sim_cut_mode mode)
{
	net->cut_mode = mode;
	net->cut_active = true;
}

bool sim_net_reachable(const struct sim_net *net, u32 src, u32 dst)
{
	if (!net->cut_active)
		return true;
	if (net->cut_mode == SIM_CUT_ISOLATED)
		return !net->in_cut[src] && !net->in_cut[dst];
	return net->in_cut[src] == net->in_cut[dst];
}

static bool broken(const struct sim_net_config *cfg, u32 src, u32 dst)
{
	u32 i;

	for (i = 0; i < cfg->n_broken && i < SIM_BROKEN_MAX; i++) {
		const u32 *l = cfg->broken[i];

		if ((src == l[0] && dst == l[1]) || (src == l[1] && dst == l[0]))
			return true;
	}
	return false;
}

static u64 latency(struct sim_net *net)
{
	double mean = (double)net->cfg.latency_ns, j = (double)net->cfg.jitter_ns, d;

	if (!net->cfg.jitter_ns)
		return net->cfg.latency_ns;
	switch (net->cfg.jitter) {
	case SIM_JITTER_NORMAL:
		d = mean + j * sim_rng_normal(&net->rng);
		break;
	case SIM_JITTER_EXP:
		d = mean - j + j * sim_rng_exp(&net->rng);
		break;
	default:
		d = mean + j * (2 * sim_rng_unit(&net->rng) - 1);
		break;
	}
	return d > 0 ? (u64)llround(d) : 0;
}

int sim_net_send(struct sim_net *net, u64 now, const struct sim_msg *m)
{
	struct sim_net_count *c = &net->count[m->type];
	u64 late = 0;

	c->sent++;
	c->bytes += m->type == FTD_FRAME_NOTICE ? net->frames[m->ref].len : net->size[m->type];
	if (net->cfg.fate && now >= net->cfg.fate_from_ns && net->fate_pos < net->cfg.fate_len) {
		u8 b = net->cfg.fate[net->fate_pos++];

		if (b < SIM_FATE_LOST) {
			c->lost++;
			net->fate_lost++;
			return 0;
		}
		late = (b - SIM_FATE_LOST) * SIM_FATE_DELAY_NS;
		net->fate_late += late > 0;
	/* Loss is drawn before the cut, so a partition does not shift the draws. */
	} else if (net->cfg.loss > 0 && sim_rng_unit(&net->rng) < net->cfg.loss) {
		c->lost++;
		return 0;
	}
	if (!sim_net_reachable(net, m->src, m->dst) || broken(&net->cfg, m->src, m->dst)) {
		c->cut++;
		return 0;
	}
	if (sim_evq_push(net->q, now + latency(net) + late, m))
		return -1;
	if (m->type == FTD_FRAME_NOTICE)
		net->frames[m->ref].refs++;
	return 0;
}

static int grow_frames(struct sim_net *net)
{
	u32 cap = net->frames_cap ? 2 * net->frames_cap : 1024, i;
	struct sim_frame *f;
	u32 *fl;

	f = sim_realloc(net->frames, (size_t)net->frames_cap * sizeof(*f), (size_t)cap * sizeof(*f));
	if (!f)
		return -1;
	net->frames = f;
	fl = sim_realloc(net->free_frames, (size_t)net->frames_cap * sizeof(*fl),
			 (size_t)cap * sizeof(*fl));
	if (!fl)
		return -1;	/* frames_cap unchanged: the larger frames[] is just unused */
	net->free_frames = fl;
	for (i = cap; i > net->frames_cap; i--)
		net->free_frames[net->n_free++] = i - 1;
	net->frames_cap = cap;
	return 0;
}

s64 sim_net_frame_new(struct sim_net *net, u16 cap)
{
	struct sim_frame *f;
	u32 idx;

	if (!net->n_free && grow_frames(net))
		return -1;
	f = &net->frames[net->free_frames[net->n_free - 1]];
	f->big = NULL;
	f->cap = SIM_FRAME_SMALL;
	if (cap > SIM_FRAME_SMALL) {
		f->big = sim_zalloc(cap);
		if (!f->big)
			return -1;
		f->cap = cap;
	}
	idx = net->free_frames[--net->n_free];
	f->refs = 0;
	f->len = 0;
	if (++net->frames_live > net->frames_peak)
		net->frames_peak = net->frames_live;
	return idx;
}

void sim_net_frame_put(struct sim_net *net, u32 idx)
{
	struct sim_frame *f = &net->frames[idx];

	if (f->refs && --f->refs)
		return;
	if (f->big)
		sim_release(f->big, f->cap);
	f->big = NULL;
	net->free_frames[net->n_free++] = idx;
	net->frames_live--;
}
