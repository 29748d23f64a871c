// SPDX-License-Identifier: GPL-2.0-only
#include "sim/sim.h"
#include "sim/mem.h"
#include "sim/ask.h"
#include "sim/minority.h"

bool sim_minority_in(const struct sim *s, u32 v)
{
	return s->nodes[v].part.minority_of != 0;
}

/* fence.c, for the simulator's count: v fenced itself at s->now. */
static void fence_self(struct sim *s, u32 v, enum sim_fence why)
{
	struct sim_node *node = &s->nodes[v];

	if (node->fenced_why)
		return;
	node->fenced_why = why;
	node->fenced_ns = s->now;
	sim_report_fenced(s, v, why);
}

enum ftd_partition_verdict sim_minority_judge(struct sim *s, u32 v, u32 x)
{
	struct sim_node *node = &s->nodes[v];
	enum ftd_partition_verdict pv;
	u64 counted = 0;	/* each death is judged once here (minority.h) */
	u32 live, lowest, from;

	if (sim_minority_in(s, v))
		return FTD_PARTITION_HOLD;	/* the cut never heals (minority.h) */
	from = ftd_partition_count_from(&node->part);
	live = sim_view_live_lowest(&s->view, v, &lowest);
	pv = ftd_partition_judge(&node->part, sim_node_id(x), &counted, live, sim_node_id(lowest),
				 from, s->now, s->cfg->timeout_ns);
	if (pv == FTD_PARTITION_FENCE) {
		ftd_partition_forgot(&node->part);
		fence_self(s, v, SIM_FENCE_MAJORITY);
	}
	return pv;
}

/*
 * reach.c hear_sample: how many of the sample v heard since the check
 * began, and (*held) how many of it v still holds live; asks the others.
 */
static u32 hear_sample(struct sim *s, u32 v, struct sim_reach *c, bool ask, u32 *held)
{
	u64 every = s->cfg->timeout_ns / FTD_REACH_ASKS;
	struct ftd_ask a;
	u32 heard = 0, i;

	*held = 0;
	for (i = 0; i < c->r.asked; i++) {
		if (c->heard_ns[i] >= c->r.since_ns) {
			(*held)++;
			heard++;
			continue;
		}
		if (sim_view_holds_dead(&s->view, v, c->pos[i]))
			continue;	/* declared meanwhile: proto/reach.h */
		(*held)++;
		/* fresh.c ftd_fresh_ping: a young unanswered nonce sent again */
		a = sim_ask_of(c->nonce[i], c->probe_ns[i]);
		if (!ask || !ftd_ask_due(&a, s->now, every, s->cfg->timeout_ns, s->now))
			continue;
		sim_ask_keep(&a, &c->nonce[i], &c->probe_ns[i]);
		s->rep.probes++;
		s->rep.reach_probes++;
		if (sim_net_send(&s->net, s->now, &(struct sim_msg){ .src = v, .dst = c->pos[i],
								     .ref = a.nonce,
								     .type = SIM_MSG_PROBE }))
			sim_fail(s, "out of memory (event queue)");
	}
	return heard;
}

/* members.c ftd_members_sample: random members v holds live, asked from now. */
static void start_check(struct sim *s, u32 v, struct sim_reach *c, u32 members)
{
	u32 rand[FTD_REACH_SAMPLE], i, n;

	for (i = 0; i < FTD_REACH_SAMPLE; i++)
		rand[i] = (u32)sim_rng_u64(&s->reach_rng);
	n = sim_view_sample(&s->view, v, rand, FTD_REACH_SAMPLE, c->pos);
	for (i = 0; i < n; i++) {
		c->r.ids[i] = sim_node_id(c->pos[i]);
		c->heard_ns[i] = 0;
		c->nonce[i] = 0;
		c->probe_ns[i] = 0;
	}
	ftd_reach_start(&c->r, n, members, s->now);
	s->rep.reach_checks++;
}

/*
 * reach.c ftd_reach_tick, with overloaded false and no restart (no CPU
 * model, no rejoin): prompted by a walk over its whole cap, waiting while
 * v hears nobody as detect.c does (starved || isolated).
 */
static void reach_tick(struct sim *s, u32 v)
{
	struct sim_node *node = &s->nodes[v];
	struct ftd_partition *p = &node->part;
	u64 timeout = s->cfg->timeout_ns;
	u32 deaths, lowest, heard, held;
	struct sim_reach *c = node->reach;
	enum ftd_reach_verdict verdict;
	bool prompted = ftd_watch_wants_reach(&node->watch);
	bool alone = node->isolated_since_ns;	/* detect.c: waits as if starved */

	if ((!c || !c->r.since_ns) && !prompted && !ftd_partition_in_burst(p, s->now, timeout))
		return;
	if (!c) {
		c = node->reach = sim_zalloc(sizeof(*c));
		if (!c) {
			sim_fail(s, "out of memory (reach check)");
			return;
		}
		s->rep.reach_nodes++;
	}
	if (!c->r.since_ns) {
		deaths = ftd_partition_in_burst(p, s->now, timeout) ? p->dead : 0;
		if (alone || !ftd_reach_due(&c->r, p->burst, deaths, s->cfg->k, prompted))
			return;
		start_check(s, v, c, deaths ? p->base : sim_view_live_lowest(&s->view, v, &lowest));
	}
	heard = hear_sample(s, v, c, s->now - c->r.since_ns < timeout, &held);
	verdict = ftd_reach_judge(&c->r, heard, held, s->now, timeout, alone);
	if (verdict == FTD_REACH_AGAIN)
		start_check(s, v, c, c->r.members);
	if (verdict != FTD_REACH_FENCE)
		return;
	if (ftd_partition_lost(p, c->r.members)) {
		ftd_partition_forgot(p);
		fence_self(s, v, SIM_FENCE_REACH);
	}
}

void sim_minority_tick(struct sim *s, u32 v, u32 n)
{
	struct sim_node *node = &s->nodes[v];

	/* detect.c: the lease, on time (no CPU model: never starved nor stuck) */
	if (ftd_lease_expired(&node->lease, n >= 2, false, false, NULL, node->last_rx_ns, s->now,
			      s->now, s->cfg->period_ns, s->cfg->timeout_ns))
		fence_self(s, v, SIM_FENCE_LEASE);
	if (sim_minority_in(s, v)) {
		if (node->reach)
			node->reach->r.since_ns = 0;	/* fenced meanwhile: that check is moot */
		return;
	}
	reach_tick(s, v);
}

void sim_minority_heard(struct sim *s, u32 v, u32 src, u64 nonce)
{
	struct sim_reach *c = s->nodes[v].reach;
	struct ftd_ask a;
	u32 i;

	if (!c || !c->r.since_ns)
		return;
	for (i = 0; i < c->r.asked; i++) {
		if (c->pos[i] != src)
			continue;
		if (nonce) {
			a = sim_ask_of(c->nonce[i], c->probe_ns[i]);
			if (!ftd_ask_answered(&a, nonce))
				continue;	/* an answer to no PROBE of the check's */
			sim_ask_keep(&a, &c->nonce[i], &c->probe_ns[i]);
		}
		c->heard_ns[i] = s->now;
	}
}

void sim_minority_free(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->cfg->nodes; i++)
		sim_release(s->nodes[i].reach, sizeof(struct sim_reach));
}
