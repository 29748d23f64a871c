// SPDX-License-Identifier: GPL-2.0-only
#include "sim/sim.h"
#include "sim/mem.h"
#include "sim/outbox.h"
#include "sim/ask.h"
#include "proto/apply.h"
#include "proto/detect.h"
#include "proto/digest.h"
#include "proto/hearing.h"
#include "proto/relay.h"
#include "proto/view.h"
#include "proto/verdict.h"
#include "proto/vote.h"
#include "proto/wire.h"

static struct sim_obs *obs_of(struct sim *s, u32 v)
{
	return s->nodes[v].wide ? s->nodes[v].wide : &s->obs[(size_t)v * s->cfg->k];
}

/* Room for n watched nodes: past k, the node's own wide table. */
static struct sim_obs *obs_room(struct sim *s, u32 v, u32 n)
{
	struct sim_node *node = &s->nodes[v];

	if (n <= s->cfg->k || node->wide)
		return obs_of(s, v);
	node->wide = sim_zalloc(FTD_WATCH_MAX * sizeof(*node->wide));
	if (!node->wide) {
		sim_fail(s, "out of memory (watch)");
		return NULL;
	}
	memcpy(node->wide, &s->obs[(size_t)v * s->cfg->k], node->n_obs * sizeof(*node->wide));
	return node->wide;
}

static struct sim_obs *find_obs(struct sim *s, u32 v, u32 pos)
{
	struct sim_obs *o = obs_of(s, v);
	u32 i;

	for (i = 0; i < s->nodes[v].n_obs; i++)
		if (o[i].pos == pos)
			return &o[i];
	return NULL;
}

/* v's view changes: it holds item dead (its digest changes with it). */
static void learn(struct sim *s, u32 v, u32 item)
{
	sim_view_learn(&s->view, v, item);
	s->nodes[v].learned_ns = s->now;
}

/*
 * dissem.c send_to / broadcast: n from v to each of dst[0..cnt) but
 * `except` and n's subject; in v's pass (outbox.h) with what else the
 * pass sends them, else alone, one encoding for every copy.
 */
static void send_notice(struct sim *s, u32 v, const struct ftd_notice *n, const u32 *dst,
			u32 cnt, u32 except, u32 hops)
{
	u32 to[FTD_MAX_FINGERS + 2 * FTD_MAX_OBSERVERS], n_to = 0, i;
	u8 payload[FTD_WIRE_NOTICE_LEN];

	for (i = 0; i < cnt && n_to < sizeof(to) / sizeof(to[0]); i++)
		if (dst[i] != except && sim_node_id(dst[i]) != n->subject)
			to[n_to++] = dst[i];
	if (!n_to || sim_outbox_add(s, v, n, to, n_to, (u16)hops))
		return;
	ftd_notice_encode(payload, n);
	sim_send_notices(s, v, payload, sizeof(payload), to, n_to, (u16)hops);
}

/* The item (view.h) a DEAD or PROC_DEAD notice is about, -1 for any other. */
static int32_t notice_item(struct sim *s, const struct ftd_notice *n)
{
	u32 pos = sim_node_pos(n->subject);

	if (n->kind == FTD_NOTICE_DEAD)
		return sim_view_node_item(&s->view, pos);
	if (n->kind == FTD_NOTICE_PROC_DEAD)
		return sim_view_proc_item(&s->view, pos, n->job, n->rank, n->regid);
	return -1;
}

/* n from v to the shares of the arc (v, end) (span.h). */
static void span_out(struct sim *s, u32 v, const struct ftd_notice *n, u32 end, u32 hops)
{
	u8 payload[FTD_WIRE_NOTICE_LEN];

	if (sim_outbox_tree(s, v, n, end, (u16)hops))
		return;
	ftd_notice_encode(payload, n);
	sim_span_send(s, v, end, payload, sizeof(payload), (u16)hops);
}

/*
 * dissem.c broadcast(): n to v's shares of the whole ring; --flood: to
 * v's fingers, except the node it came from.
 */
static void broadcast(struct sim *s, u32 v, const struct ftd_notice *n, u32 except, u32 hops)
{
	u32 fingers[FTD_MAX_FINGERS], cnt;
	int32_t item;

	if (!s->cfg->flood) {
		/* Ours: a copy of another declarer's tree is not forwarded again. */
		item = notice_item(s, n);
		if (item >= 0)
			sim_span_forwarded(s, v, (u32)item);
		span_out(s, v, n, v, hops + 1);
		return;
	}
	cnt = sim_view_fingers(&s->view, v, fingers, FTD_MAX_FINGERS);
	send_notice(s, v, n, fingers, cnt, except, hops + 1);
}

/* dissem.c ftd_dissem_send_to: n from v to one node. */
static void send_to(struct sim *s, u32 v, u32 to, const struct ftd_notice *n, u32 hops)
{
	send_notice(s, v, n, &to, 1, FTD_NODE_NONE, hops);
}

/*
 * proto/digest.h over v's view. Every member the simulator does not track
 * is alive at incarnation 1 in every view, and every rank registered on
 * it is known everywhere, so two views differ exactly in the deaths each
 * holds, of nodes and of ranks: the digest of those (a rank's as the
 * module's sum of live registrations less the ended one, on a node held
 * up) is the module's digest up to a constant.
 */
static struct ftd_digest digest_of(struct sim *s, u32 v)
{
	struct ftd_digest d = {};
	const struct sim_item *it;
	u32 i;

	for (i = 0; i < s->view.n_items; i++) {
		it = &s->view.items[i];
		if (!sim_view_knows(&s->view, v, i))
			continue;
		if (it->kind == SIM_ITEM_NODE_DEAD)
			ftd_digest_add(&d, sim_node_id(it->node), s->nodes[it->node].incarnation,
				       FTD_NODE_DEAD);
		else if (!sim_view_holds_dead(&s->view, v, it->node))
			ftd_digest_add_ranks(&d, sim_node_id(it->node),
					     s->nodes[it->node].incarnation,
					     0 - ftd_digest_rank_word(it->regid));
	}
	return d;
}

/*
 * view.c send_view: a DEAD notice per node v holds dead, and the ended
 * registrations (PROC_DEAD) of the nodes it holds up, to `to`.
 */
static void send_view(struct sim *s, u32 v, u32 to)
{
	const struct sim_item *it;
	struct ftd_notice n;
	u8 node_kind;
	u32 i, x;

	for (i = 0; i < s->view.n_items; i++) {
		it = &s->view.items[i];
		x = it->node;
		if (!sim_view_knows(&s->view, v, i))
			continue;
		n = (struct ftd_notice){
			.subject = sim_node_id(x),
			.subject_incarnation = s->nodes[x].incarnation,
			.origin = sim_node_id(v),
			.job = it->job,
			.rank = it->rank,
			.regid = it->regid,
		};
		/* proto/view.h; a node v does not hold dead it holds up */
		ftd_view_node(sim_view_holds_dead(&s->view, v, x) ? FTD_NODE_DEAD : FTD_NODE_ALIVE,
			      &node_kind);
		if (it->kind == SIM_ITEM_NODE_DEAD)
			n.kind = node_kind;
		else if (!ftd_view_with_ranks(node_kind) ||
			 !ftd_view_rank(FTD_EV_PROC_DEAD, &n.kind, &n.flags))
			continue;
		send_to(s, v, to, &n, 1);
	}
}

/*
 * repair.c's track of v's digest (proto/digest.h): the simulator keeps
 * only when v's view last changed, which it knows exactly (learn()); the
 * digest's value is computed where it is sent or compared. A view never
 * changed counts from 1 ns (0 is "never tracked" there): no digest goes
 * out before ftd_digest_every, three timeouts at least.
 */
static struct ftd_digest_track digest_track(struct sim *s, u32 v)
{
	u64 changed = s->nodes[v].learned_ns;

	return (struct ftd_digest_track){ .changed_ns = changed ? changed : 1 };
}

/* repair.c repair_work, sending side: the digest to one random live member. */
static void repair_tick(struct sim *s, u32 v)
{
	struct ftd_digest_track track = digest_track(s, v);
	struct sim_node *node = &s->nodes[v];
	struct ftd_digest d;
	u32 to, tries;
	int32_t item;

	if (s->cfg->no_repair ||
	    !ftd_digest_send_due(&track, s->now, node->digest_next_ns, s->cfg->timeout_ns) ||
	    sim_minority_in(s, v))
		return;
	node->digest_next_ns = s->now + ftd_digest_every(s->cfg->timeout_ns,
							 (u32)sim_rng_u64(&s->repair_rng));
	/* ftd_members_random: live in v's view, not v */
	for (tries = 0; tries < 16; tries++) {
		to = (u32)sim_rng_below(&s->repair_rng, s->cfg->nodes);
		item = sim_view_find_node(&s->view, to);
		if (to != v && (item < 0 || !sim_view_knows(&s->view, v, item)))
			break;
	}
	if (tries == 16)
		return;
	d = digest_of(s, v);
	s->rep.digests++;
	send_to(s, v, to, &(struct ftd_notice){
			.kind = FTD_NOTICE_DIGEST,
			.subject = sim_node_id(v),
			.subject_incarnation = node->incarnation,
			.origin = sim_node_id(v),
			.nonce = d.sum,
			.regid = d.nodes,
		}, 0);
}

/* repair.c, receiving side: settled and different: views both ways (ours, SYNC). */
static void digest_rx(struct sim *s, u32 v, u32 from, const struct ftd_notice *n)
{
	struct ftd_digest mine, theirs = { .sum = n->nonce, .nodes = n->regid };
	struct ftd_digest_track track = digest_track(s, v);

	mine = digest_of(s, v);
	if (!ftd_digest_exchange(&track, &mine, &theirs, s->now, s->cfg->timeout_ns))
		return;
	s->rep.repairs++;
	send_view(s, v, from);
	send_to(s, v, from, &(struct ftd_notice){
			.kind = FTD_NOTICE_SYNC,
			.subject = sim_node_id(v),
			.subject_incarnation = s->nodes[v].incarnation,
			.origin = sim_node_id(v),
		}, 0);
}

/*
 * proto/apply.h for a death v may hold of item: the simulator holds one
 * incarnation of each node, live until v learns its end.
 */
static enum ftd_apply held_gone(struct sim *s, u32 v, u32 item)
{
	return ftd_apply_gone(sim_view_knows(&s->view, v, item) ? FTD_NODE_DEAD : FTD_NODE_ALIVE,
			      0, 0);
}

/* dissem.c ftd_dissem_last_straw: the death that left v in a minority; its side counts it too. */
static void last_straw(struct sim *s, u32 v, u32 x)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_DEAD,
		.subject = sim_node_id(x),
		.subject_incarnation = s->nodes[x].incarnation,
		.origin = sim_node_id(v),
	};

	broadcast(s, v, &n, FTD_NODE_NONE, 0);
}

/*
 * dissem.c apply_gone, for a death of x that v holds live: only a majority
 * declares (proto/partition.h); the death that leaves v in a minority is
 * passed on as the last straw.
 */
static bool majority_applies(struct sim *s, u32 v, u32 x)
{
	switch (sim_minority_judge(s, v, x)) {
	case FTD_PARTITION_APPLY:
		return true;
	case FTD_PARTITION_FENCE:
		last_straw(s, v, x);
		return false;
	default:
		return false;
	}
}

/*
 * dissem.c ftd_dissem_declare_dead: v declares x dead, as its observer
 * (hops 0) or on a quorum of votes (hops: of the vote that completed it),
 * the partition rule having let it; edges: the live nodes v watches past a
 * silent run.
 */
static void declare_dead(struct sim *s, u32 v, u32 x, u32 item, u32 hops, const u32 *edges,
			 u32 n_edges)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_DEAD,
		.subject = sim_node_id(x),
		.subject_incarnation = s->nodes[x].incarnation,
		.origin = sim_node_id(v),
	};

	u32 preds[FTD_MAX_OBSERVERS], cnt;

	s->rep.declarations++;
	if (s->receiver[v])
		s->rep.items[item].origins++;
	learn(s, v, item);
	sim_report_deliver(s, v, item, hops);
	broadcast(s, v, &n, FTD_NODE_NONE, 0);
	/* Those that sent to x learn it first: their new observers time them. */
	if (!s->cfg->no_tell_preds) {
		cnt = sim_view_predecessors_of(&s->view, v, x, preds);
		send_notice(s, v, &n, preds, cnt, v, 1);
	}
	send_notice(s, v, &n, edges, n_edges, v, 1);
}

static int32_t item_of(struct sim *s, u32 x)
{
	int32_t item = sim_view_node_item(&s->view, x);

	if (item < 0)
		sim_fail(s, "too many distinct nodes declared or suspected (item table full)");
	return item;
}

static void send_msg(struct sim *s, const struct sim_msg *m)
{
	if (sim_net_send(&s->net, s->now, m))
		sim_fail(s, "out of memory (event queue)");
}

/* When v last heard judge j: a node it watches, or an answer to its ask. */
static u64 judge_heard(struct sim *s, u32 v, u32 j, const struct sim_votes *sv)
{
	const struct sim_obs *o = find_obs(s, v, j);
	u32 i;

	if (o)
		return o->last_heard_ns;
	for (i = 0; sv && i < FTD_MAX_OBSERVERS; i++)
		if (sv->judge[i] == j + 1)
			return sv->answered_ns[i];
	return 0;
}

/*
 * dissem.c judges_of: x's observers that v holds alive, v included (every
 * node v does not watch is alive to it, as in the module's view).
 */
static u32 judges_of(struct sim *s, u32 v, u32 x, u32 *out)
{
	u32 succ[FTD_MAX_OBSERVERS], n, i, cnt = 0;
	const struct sim_obs *o;

	n = sim_view_successors_of(&s->view, v, x, succ);
	for (i = 0; i < n; i++) {
		if (succ[i] == x)
			continue;
		o = succ[i] == v ? NULL : find_obs(s, v, succ[i]);
		if (ftd_vote_may_judge(succ[i] == v ? FTD_NODE_SELF :
				       o ? o->state : FTD_NODE_ALIVE))
			out[cnt++] = succ[i];
	}
	return cnt;
}

/* dissem.c judges_counted: of the n judges, those that count (proto/vote.h). */
static u32 judges_counted(struct sim *s, u32 v, const struct sim_votes *sv, const u32 *judges,
			  u32 n)
{
	u32 i, cnt = 0;

	if (!sv)
		return n;
	for (i = 0; i < n; i++)
		cnt += ftd_votes_judge_counts(&sv->votes, sim_node_id(v), sim_node_id(judges[i]),
					      judge_heard(s, v, judges[i], sv), s->now,
					      s->cfg->timeout_ns, false);	/* no CPU model */
	return cnt;
}

/* dissem.c ask_judges: PROBE the judges of x not heard from since v's vote began. */
static void ask_judges(struct sim *s, u32 v, u32 x, struct sim_votes *sv, const u32 *judges,
		       u32 n)
{
	u64 every = ftd_detect_ask_every(s->cfg->period_ns, s->cfg->timeout_ns);
	struct ftd_ask a;
	u32 i, slot;

	if (!ftd_votes_ask_judges(&sv->votes, sim_node_id(v), s->now, s->cfg->timeout_ns))
		return;
	for (i = 0; i < n; i++) {
		if (!ftd_votes_judge_asked(&sv->votes, sim_node_id(v), sim_node_id(judges[i]),
					   judge_heard(s, v, judges[i], sv), s->now,
					   s->cfg->timeout_ns))
			continue;
		slot = sim_quorum_judge_slot(sv, judges[i]);
		a = sim_ask_of(sv->nonce[slot], sv->probe_ns[slot]);
		if (!ftd_ask_due(&a, s->now, every, s->cfg->timeout_ns, s->now))
			continue;
		sim_ask_keep(&a, &sv->nonce[slot], &sv->probe_ns[slot]);
		s->rep.probes++;
		send_msg(s, &(struct sim_msg){ .src = v, .dst = judges[i], .ref = a.nonce,
					       .about = x, .type = SIM_MSG_JUDGE_PROBE });
	}
}

/* dissem.c conclude: enough fresh votes, and news: declare it. */
static void conclude(struct sim *s, u32 v, u32 x, u32 item, u32 fresh, u32 hops)
{
	u32 judges[FTD_MAX_OBSERVERS];

	if (sim_view_knows(&s->view, v, item) ||
	    fresh < ftd_vote_needed(s->cfg->quorum,
				    judges_counted(s, v, sim_quorum_of(&s->quorum, v, item),
						   judges, judges_of(s, v, x, judges))))
		return;
	if (majority_applies(s, v, x))	/* apply_gone: x is held live (above) */
		declare_dead(s, v, x, item, hops, NULL, 0);
}

/* dissem.c ftd_dissem_vote: with a quorum, v's timeout of x is a vote. */
static void vote_against(struct sim *s, u32 v, u32 x)
{
	int32_t item = item_of(s, x);
	struct ftd_notice n = {
		.kind = FTD_NOTICE_SUSPECT,
		.subject = sim_node_id(x),
		.subject_incarnation = s->nodes[x].incarnation,
		.origin = sim_node_id(v),
	};
	u32 judges[FTD_MAX_OBSERVERS], fresh, cnt;
	struct sim_votes *sv;

	if (item < 0)
		return;
	s->rep.votes++;
	/* To x's judges only, counted or not: they count the votes (proto/vote.h). */
	cnt = judges_of(s, v, x, judges);
	if (sim_quorum_record(s, v, item, n.origin, true, &fresh))
		send_notice(s, v, &n, judges, cnt, v, 1);
	sv = sim_quorum_of(&s->quorum, v, item);
	if (sv)
		ask_judges(s, v, x, sv, judges, cnt);
	conclude(s, v, x, item, fresh, 0);
}

/*
 * detect.c note_observed: silence counts from the start of our watch; a
 * node we stop watching while we suspect it is no longer suspected (its
 * state is then ALIVE, as every member the simulator does not track).
 * At its first tick a node has heard its predecessors (converged start).
 */
static void note_observed(struct sim *s, u32 v, const u32 *preds, u32 n)
{
	struct sim_node *node = &s->nodes[v];
	struct sim_obs *old = s->old_obs, *o = obs_room(s, v, n);
	u32 i, j;

	if (!o)
		return;
	memcpy(old, o, node->n_obs * sizeof(*o));
	for (j = 0; j < node->n_obs; j++) {
		for (i = 0; i < n; i++)
			if (preds[i] == old[j].pos)
				break;
		if (i == n && old[j].state == FTD_NODE_SUSPECT)
			s->rep.recoveries++;	/* NODE_ALIVE */
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < node->n_obs; j++)
			if (old[j].pos == preds[i])
				break;
		if (j < node->n_obs) {
			o[i] = old[j];
			continue;
		}
		/* Every member is ALIVE in a converged view: its state starts there. */
		o[i] = (struct sim_obs){
			.pos = preds[i],
			.state = FTD_NODE_ALIVE,
			.baseline_ns = s->now,
			.last_heard_ns = node->started ? 0 : s->now,
		};
	}
	node->n_obs = n;
	node->started = 1;
}

/*
 * fresh.c ftd_fresh_ping: a PROBE, unless one went to it within `every`,
 * with the nonce of one still unanswered and younger than a timeout, else
 * a new one (proto/fresh.h ftd_ask_due; a new nonce is its making time
 * here, unique per observer and suspect). True if sent.
 */
static bool probe(struct sim *s, u32 v, struct sim_obs *o, u64 every)
{
	struct ftd_ask a = sim_ask_of(o->nonce, o->probe_ns);

	if (!ftd_ask_due(&a, s->now, every, s->cfg->timeout_ns, s->now))
		return false;
	sim_ask_keep(&a, &o->nonce, &o->probe_ns);
	s->rep.probes++;
	send_msg(s, &(struct sim_msg){ .src = v, .dst = o->pos, .ref = a.nonce,
				       .type = SIM_MSG_PROBE });
	return true;
}

/*
 * members.c ftd_members_sample for a helper's ask: up to m distinct members
 * v holds live, other than v, each equally likely, as ftd_ring_sample_live
 * draws them; by rejection here, since flipping the shared ring to v's
 * view (sim_view_sample) for each of millions of asks in a long cut costs
 * more than the rest of the run.
 */
static u32 sample_live(struct sim *s, u32 v, u32 m, u32 *out)
{
	u32 n = 0, tries, h, i;
	int32_t item;

	for (tries = 0; n < m && tries < 4 * m; tries++) {
		h = (u32)sim_rng_below(&s->relay_rng, s->cfg->nodes);
		item = sim_view_find_node(&s->view, h);
		if (h == v || (item >= 0 && sim_view_knows(&s->view, v, item)))
			continue;
		for (i = 0; i < n && out[i] != h; i++)
			;
		if (i == n)
			out[n++] = h;
	}
	return n;
}

/*
 * relay.c ftd_relay_ask: `helpers` random members v holds live, other
 * than the suspect (ftd_relay_pick from a sample one larger), asked to
 * probe it with the nonce of v's PROBE.
 */
static void ask_helpers(struct sim *s, u32 v, u32 suspect, u64 nonce, u32 helpers)
{
	u32 pos[FTD_RELAY_SAMPLE(FTD_RELAY_HELPERS_MAX)], i, n;

	helpers = helpers < FTD_RELAY_HELPERS_MAX ? helpers : FTD_RELAY_HELPERS_MAX;
	n = sample_live(s, v, FTD_RELAY_SAMPLE(helpers), pos);
	n = ftd_relay_pick(pos, n, suspect, helpers);
	for (i = 0; i < n; i++) {
		s->rep.relays_asked++;
		send_msg(s, &(struct sim_msg){ .src = v, .dst = pos[i], .ref = nonce,
					       .about = suspect, .type = SIM_MSG_PROBE_REQ });
	}
}

static bool vouched(struct sim *s, u32 v, u32 pos)
{
	struct sim_obs *o = find_obs(s, v, pos);

	return o && ftd_watch_vouched(o->last_heard_ns, s->now, s->cfg->timeout_ns);
}

/* detect.c watch_further: past a silent run, watch more of s->walk. */
static u32 watch_further(struct sim *s, u32 v, u32 n, bool may_extend)
{
	struct sim_node *node = &s->nodes[v];
	u32 k = s->cfg->k, i, span;
	bool near = true;

	for (i = 0; i < n; i++)
		near &= vouched(s, v, s->walk[i]);
	/* (the live count costs a view switch: only when it matters) */
	span = ftd_watch_span(&node->watch, k, near, may_extend, s->now,
			      near || !may_extend ? 0 : sim_view_live(&s->view, v));
	if (span <= n)
		return n;
	n = sim_view_predecessors_far(&s->view, v, span, s->walk);
	for (i = 0; i < n; i++)
		s->vouched[i] = vouched(s, v, s->walk[i]);
	return ftd_watch_trim(&node->watch, s->vouched, n, k, s->now,
			      ftd_watch_grow_every(s->cfg->period_ns, node->probe_rtt_ns),
			      node->reach ? node->reach->r.held_ns : 0);
}

/* detect.c ftd_detect_tick, with starved = false: the simulated timer is never late. */
/*
 * dissem.c ftd_dissem_tell_between: the deaths v knows between suspect p
 * and v, nearest p first, told to p (proto/watch.h).
 */
static void tell_between(struct sim *s, u32 v, u32 p)
{
	struct ftd_notice nt = { .kind = FTD_NOTICE_DEAD, .origin = sim_node_id(v) };
	struct ftd_watch_between b;
	u32 x, sent = 0;
	int32_t item;

	for (ftd_watch_between_start(&b, s->cfg->nodes, v, p); ftd_watch_between_more(&b, sent);
	     ftd_watch_between_next(&b)) {
		x = b.pos;
		item = sim_view_find_node(&s->view, x);
		if (!ftd_watch_tells_of(item >= 0 && sim_view_knows(&s->view, v, item) ?
					FTD_NODE_DEAD : FTD_NODE_ALIVE))
			continue;
		nt.subject = sim_node_id(x);
		nt.subject_incarnation = s->nodes[x].incarnation;
		send_notice(s, v, &nt, &p, 1, v, 1);
		sent++;
	}
}

/* detect.c end_isolation: after a long isolation (proto/detect.h). */
static void end_isolation(struct sim *s, u32 v, const u32 *preds, u32 n)
{
	struct sim_obs *o;
	u32 i;

	for (i = 0; i < n; i++) {
		o = find_obs(s, v, preds[i]);
		if (o && o->baseline_ns < s->now)
			o->baseline_ns = s->now;
	}
}

/* detect.c check_own_reach: hearing nobody, v PROBEs k members in turn (answers are news). */
static void check_own_reach(struct sim *s, u32 v)
{
	u32 some[FTD_MAX_OBSERVERS], n, i;

	n = sim_view_sweep(&s->view, v, &s->nodes[v].reach_cursor, s->cfg->k, some);
	for (i = 0; i < n; i++) {
		s->rep.probes++;
		send_msg(s, &(struct sim_msg){ .src = v, .dst = some[i], .ref = s->now,
					       .type = SIM_MSG_PROBE });
	}
}

static void detect_tick(struct sim *s, u32 v)
{
	u64 timeout = s->cfg->timeout_ns;
	u64 alone = s->cfg->isolated_after_ns ? s->cfg->isolated_after_ns :
		    ftd_detect_suspect_after(timeout);
	struct sim_node *node = &s->nodes[v];
	u32 edges[2 * FTD_MAX_OBSERVERS], n_edges, n, n_near, i;
	struct ftd_tick tick;	/* proto/verdict.h */
	struct sim_obs *o;
	bool isolated, can_tell, fenced = false;
	u32 straw = 0;
	int32_t item;

	/* In a minority, silence is no evidence: it suspects nobody (proto/partition.h). */
	if (sim_minority_in(s, v))
		return;
	n = sim_view_predecessors(&s->view, v, s->walk);
	isolated = ftd_detect_isolated(n, s->now - node->last_rx_ns, alone);
	can_tell = n >= 2 && !s->cfg->declare_unproven;
	n_near = n;
	switch (ftd_detect_isolation(&node->isolated_since_ns, isolated, s->now, timeout)) {
	case FTD_ISOLATION_BEGINS:
		node->reach_cursor = (u32)sim_rng_u64(&s->reach_rng);
		break;
	case FTD_ISOLATION_ENDS_LONG:
		end_isolation(s, v, s->walk, n);
		break;
	default:
		break;
	}
	if (isolated)
		check_own_reach(s, v);
	n = watch_further(s, v, n, !isolated);
	note_observed(s, v, s->walk, n);
	n_edges = ftd_watch_edges(s->vouched, n, s->cfg->k, edges, 2 * FTD_MAX_OBSERVERS);
	for (i = 0; i < n_edges; i++)
		edges[i] = s->walk[edges[i]];
	tick = (struct ftd_tick){
		.now_ns = s->now,
		.due_ns = s->now,	/* no CPU model: never late */
		.period_ns = s->cfg->period_ns,
		.timeout_ns = timeout,
		.ask_every_ns = ftd_detect_ask_every(s->cfg->period_ns, timeout),
		.heard_any_ns = node->last_rx_ns,
		.walk = &node->watch,
		.quorum = s->cfg->quorum,
		.isolated = isolated,
		.can_tell = can_tell,
		.judging = true,	/* a minority ticks not at all (above) */
	};
	o = obs_of(s, v);
	for (i = 0; i < n && !s->err; i++) {
		bool near = i < s->cfg->k;
		struct ftd_watched seen = {
			.state = o[i].state,
			.last_heard_ns = o[i].last_heard_ns,
			.baseline_ns = o[i].baseline_ns,
		};
		struct ftd_verdict vd;

		item = -1;
		ftd_verdict_silence(&tick, near, &seen, &vd);
		/* Only a majority declares (proto/partition.h); the straw goes out last. */
		if (ftd_verdict_declares(&vd)) {
			enum ftd_partition_verdict pv;

			item = item_of(s, o[i].pos);
			/* (a death v holds already is not judged twice: apply_gone) */
			pv = item < 0 || held_gone(s, v, item) == FTD_APPLY_OLD ? FTD_PARTITION_HOLD :
			     sim_minority_judge(s, v, o[i].pos);
			ftd_verdict_partition(&vd, pv);
			if (pv == FTD_PARTITION_FENCE) {
				fenced = true;
				straw = o[i].pos;
			}
		}
		ftd_verdict_finish(&tick, near, &seen, &vd);
		o[i].baseline_ns = seen.baseline_ns;
		o[i].state = vd.state;
		if (vd.event == FTD_EV_NODE_SUSPECT)
			s->rep.suspects++;
		/* (vd.remind: views here agree on who times whom, so never needed) */
		if (vd.ask != FTD_WATCH_ASK_NONE && probe(s, v, &o[i], vd.ask_interval_ns)) {
			/* --no-relay: the protocol before asks through helpers */
			if (vd.ask == FTD_WATCH_ASK_HELPERS && !s->cfg->no_relay)
				ask_helpers(s, v, o[i].pos, o[i].nonce, vd.helpers);
			if (vd.tell_between && !s->cfg->no_relay)
				tell_between(s, v, o[i].pos);
		}
		if (vd.vote)
			vote_against(s, v, o[i].pos);
		/* (a vote above may have concluded it already) */
		if (vd.event == FTD_EV_NODE_DEAD && item >= 0 && !sim_view_knows(&s->view, v, item))
			declare_dead(s, v, o[i].pos, item, 0, edges, n_edges);
	}
	sim_minority_tick(s, v, n_near);
	if (fenced)
		last_straw(s, v, straw);
}

/* timer.c send_heartbeats: one heartbeat to each of the k live successors. */
static void send_heartbeats(struct sim *s, u32 v)
{
	u32 succ[FTD_MAX_OBSERVERS], n, i;

	n = sim_view_successors(&s->view, v, succ);
	for (i = 0; i < n; i++) {
		struct sim_msg m = {
			.src = v,
			.dst = succ[i],
			.ref = ++s->nodes[v].tx_seq,
			.type = FTD_FRAME_HEARTBEAT,
		};

		if (sim_net_send(&s->net, s->now, &m))
			sim_fail(s, "out of memory (event queue)");
	}
}

void sim_node_tick(struct sim *s, u32 v)
{
	if (!s->nodes[v].up)
		return;
	send_heartbeats(s, v);
	/* timer.c: what the tick decides goes out together (outbox.h). */
	sim_outbox_begin(s, v);
	detect_tick(s, v);
	repair_tick(s, v);
	sim_outbox_end(s);
}

/* What a frame of src tells v of it (proto/hearing.h); frames are of its current incarnation. */
static enum ftd_hearing hearing(struct sim *s, u32 v, u32 src)
{
	u32 inc = s->nodes[src].incarnation;

	return ftd_hearing_of(sim_view_holds_dead(&s->view, v, src) ? FTD_NODE_DEAD :
								     FTD_NODE_ALIVE, inc, inc);
}

/*
 * A notice (in the module, PROBE_REQ and SHARE_ACK are notices too) from
 * a node m's receiver holds dead: dropped, as dissem.c ftd_dissem_rx drops
 * the frame (what it concluded while cut off is not believed nor passed
 * on), and counted where the module tells the sender its death.
 */
static bool from_held_dead(struct sim *s, const struct sim_msg *m)
{
	if (hearing(s, m->dst, m->src) != FTD_HEARING_DEAD)
		return false;
	s->rep.tell_dead++;
	return true;
}

/*
 * detect.c ftd_detect_heard (a heartbeat, with its sequence number) and
 * ftd_detect_answered (an answer to our PROBE), for the fields the rules use.
 */
static void heard(struct sim *s, u32 v, const struct sim_msg *m)
{
	enum ftd_node_state old;
	struct sim_obs *o;

	switch (hearing(s, v, m->src)) {
	case FTD_HEARING_NODE:
		break;
	case FTD_HEARING_DEAD:
		s->rep.tell_dead++;	/* fail-stop: the module tells it it is dead */
		return;
	default:
		return;		/* no restarts, no leaves here (simulation.md) */
	}
	o = find_obs(s, v, m->src);
	if (!o)
		return;		/* not observed: its state only matters once it is */
	if (m->type == FTD_FRAME_HEARTBEAT) {
		if (!ftd_hearing_news(o->rx_seq, m->ref))
			return;
		o->rx_seq = m->ref;
	} else if (m->type == SIM_MSG_RELAY) {
		/* relay.c ftd_relay_heard: while our PROBE is outstanding */
		if (!ftd_relay_vouches(m->ref, 0, o->nonce, 0))
			return;
		s->rep.relays_heard++;
	} else {
		struct ftd_ask a = sim_ask_of(o->nonce, o->probe_ns);
		u64 rtt;

		if (!ftd_ask_answered(&a, m->ref))
			return;		/* proto/fresh.c: an answer to no PROBE of ours */
		rtt = ftd_ask_rtt(&a, s->now);
		sim_ask_keep(&a, &o->nonce, &o->probe_ns);
		if (rtt)	/* (a nonce sent once: detect.c ftd_detect_answered) */
			s->nodes[v].probe_rtt_ns = ftd_watch_rtt(s->nodes[v].probe_rtt_ns, rtt);
	}
	if (s->now > o->last_heard_ns)
		o->last_heard_ns = s->now;
	old = o->state;
	o->state = ftd_detect_on_heard(old);
	if (old == FTD_NODE_SUSPECT && o->state == FTD_NODE_ALIVE)
		s->rep.recoveries++;
}

/* dissem.c rx_notice, for DEAD and PROC_DEAD: one notice of m's frame. */
static void rx_notice(struct sim *s, u32 v, const struct sim_msg *m, const struct ftd_notice *nn)
{
	struct sim_node *node = &s->nodes[v];
	struct ftd_notice n = *nn;
	bool news = false;
	u32 subject;
	int32_t item;

	/* about_self: declared dead at our incarnation means we were cut off. */
	if (n.subject == sim_node_id(v)) {
		if (n.kind == FTD_NOTICE_DEAD && n.subject_incarnation == node->incarnation &&
		    !node->fenced) {
			node->fenced = 1;
			s->rep.fenced++;
		}
		return;
	}
	subject = sim_node_pos(n.subject);
	if (subject >= s->cfg->nodes) {
		s->rep.codec_errors++;
		return;
	}
	/* Both from the sender itself, never forwarded; a minority's view is forgotten. */
	if (n.kind == FTD_NOTICE_DIGEST || n.kind == FTD_NOTICE_SYNC) {
		if (subject != m->src || sim_minority_in(s, v))
			return;
		if (n.kind == FTD_NOTICE_DIGEST)
			digest_rx(s, v, m->src, &n);
		else
			send_view(s, v, m->src);
		return;
	}
	switch (n.kind) {
	case FTD_NOTICE_SUSPECT: {
		u32 fresh;

		/* dissem.c: a vote comes from its voter, or is none. */
		if (n.origin != sim_node_id(m->src))
			return;
		item = item_of(s, subject);
		if (item < 0)
			return;
		sim_quorum_record(s, v, item, n.origin, false, &fresh);
		conclude(s, v, subject, item, fresh, m->hops);
		return;
	}
	case FTD_NOTICE_DEAD:
		item = sim_view_node_item(&s->view, subject);
		break;
	case FTD_NOTICE_PROC_DEAD:
		item = sim_view_proc_item(&s->view, subject, n.job, n.rank, n.regid);
		break;
	default:
		s->rep.codec_errors++;	/* the simulation sends no other kind */
		return;
	}
	if (item < 0) {
		sim_fail(s, "too many distinct nodes declared or suspected (item table full)");
		return;
	}
	/*
	 * apply_gone / apply_proc: news only if it changes our state
	 * (proto/apply.h); a death only where a majority judges it.
	 */
	if (n.kind == FTD_NOTICE_DEAD && held_gone(s, v, item) == FTD_APPLY_LIVE &&
	    !majority_applies(s, v, subject))
		return;
	if (!sim_view_knows(&s->view, v, item)) {
		learn(s, v, item);
		sim_report_deliver(s, v, item, m->hops);
		news = true;
	}
	if (!news)
		s->rep.notices_dup++;
	/* A share goes on in notice_rx; a frame sent to v alone stops here (--flood: news goes on). */
	else if (s->cfg->flood)
		broadcast(s, v, &n, m->src, m->hops);
}

/* hb_rx.c ftd_hb_rx (checks) + dissem.c ftd_dissem_rx: every notice of the frame. */
static void notice_rx(struct sim *s, u32 v, const struct sim_msg *m)
{
	struct sim_frame *fr = sim_net_frame(&s->net, m->ref);
	u8 payload[FTD_WIRE_NOTICES_MAX * FTD_WIRE_NOTICE_LEN];
	struct ftd_notice n;
	struct ftd_frame f;
	u16 cnt = 0, i;
	int32_t item;
	bool ok, share;

	ok = ftd_wire_decode(sim_frame_buf(fr), fr->len, &f) == FTD_WIRE_OK &&
	     f.type == FTD_FRAME_NOTICE && f.cluster == s->cluster &&
	     f.sender == sim_node_id(m->src) &&
	     ftd_wire_mac_ok(sim_frame_buf(fr), fr->len, s->key) &&
	     (cnt = ftd_notices_check(f.payload, f.payload_len,
				      f.flags & FTD_WIRE_F_SHARE)) != 0;
	share = ok && (f.flags & FTD_WIRE_F_SHARE);
	/* The frame goes back to the pool now: what is applied is a copy. */
	if (ok)
		memcpy(payload, f.payload, f.payload_len);
	sim_net_frame_put(&s->net, m->ref);
	if (!ok) {
		s->rep.codec_errors++;
		return;
	}
	s->nodes[v].last_rx_ns = s->now;
	s->rep.notices_rx++;
	if (from_held_dead(s, m))
		return;
	if (share)
		sim_span_ack(s, v, m);
	/* What the frame brings as news goes on together (outbox.h). */
	sim_outbox_begin(s, v);
	for (i = 0; i < cnt; i++) {
		ftd_notice_decode(payload + i * FTD_WIRE_NOTICE_LEN, FTD_WIRE_NOTICE_LEN, &n);
		rx_notice(s, v, m, &n);
	}
	/*
	 * A share goes on to v's own shares of it, news or not (v may have
	 * been told directly; the members of its share have this one copy
	 * only), unless v forwarded it in a share already (span.h).
	 */
	for (i = 0; share && i < cnt; i++) {
		ftd_notice_decode(payload + i * FTD_WIRE_NOTICE_LEN, FTD_WIRE_NOTICE_LEN, &n);
		item = notice_item(s, &n);
		if (item >= 0 && !sim_span_forwarded(s, v, (u32)item))
			span_out(s, v, &n, sim_node_pos(f.span_end), m->hops + 1u);
	}
	sim_outbox_end(s);
}

/*
 * Judge j answered v's ask about subject x with nonce: heard, for x's
 * quorum, if it answers the PROBE outstanding (proto/fresh.h).
 */
static void judge_answered(struct sim *s, u32 v, u32 j, u32 x, u64 nonce)
{
	int32_t item = sim_view_find_node(&s->view, x);
	struct sim_votes *sv = item >= 0 ? sim_quorum_of(&s->quorum, v, (u32)item) : NULL;
	struct ftd_ask a;
	u32 slot;

	if (!sv)
		return;
	slot = sim_quorum_judge_slot(sv, j);
	a = sim_ask_of(sv->nonce[slot], sv->probe_ns[slot]);
	if (!ftd_ask_answered(&a, nonce))
		return;
	sim_ask_keep(&a, &sv->nonce[slot], &sv->probe_ns[slot]);
	sv->answered_ns[slot] = s->now;
}

/*
 * For a reach check (reach.c hear_sample): what sets the module's
 * last_heard_ns of a node (detect.c hear_node): its heartbeat, its answer
 * to a PROBE, a relay of its answer. Not a notice, a request or an
 * acknowledgement: they prove only that it sends, not that it hears us.
 */
static void heard_for_reach(struct sim *s, const struct sim_msg *m)
{
	switch (m->type) {
	case FTD_FRAME_HEARTBEAT:
	case SIM_MSG_JUDGE_ANSWER:	/* (its nonce is the voter's: simulation.md) */
		sim_minority_heard(s, m->dst, m->src, 0);
		break;
	case SIM_MSG_ANSWER:
		sim_minority_heard(s, m->dst, m->src, m->ref);
		break;
	case SIM_MSG_RELAY:
		sim_minority_heard(s, m->dst, m->about, 0);
		break;
	}
}

void sim_node_rx(struct sim *s, const struct sim_msg *m)
{
	struct sim_node *node = &s->nodes[m->dst];

	if (m->type == SIM_MSG_SPAN_TIMER) {
		sim_span_timer(s, m);
		return;
	}
	if (!node->up) {
		s->rep.to_dead++;
		if (m->type == FTD_FRAME_NOTICE)
			sim_net_frame_put(&s->net, m->ref);
		return;
	}
	heard_for_reach(s, m);
	if (m->type == FTD_FRAME_NOTICE) {
		notice_rx(s, m->dst, m);
		return;
	}
	switch (m->type) {
	case SIM_MSG_PROBE:		/* fresh.c: answered at once */
	case SIM_MSG_RELAY_PROBE:
		send_msg(s, &(struct sim_msg){
				.src = m->dst, .dst = m->src, .ref = m->ref, .about = m->about,
				.type = m->type == SIM_MSG_PROBE ? SIM_MSG_ANSWER :
								  SIM_MSG_RELAY_ANSWER });
		return;
	case SIM_MSG_PROBE_REQ:
		/*
		 * relay.c ftd_relay_request, without its table: the PROBE
		 * carries the request back (the module keeps it, per suspect).
		 */
		node->last_rx_ns = s->now;
		if (!from_held_dead(s, m) &&
		    ftd_relay_accepts(sim_node_id(m->dst), sim_node_id(m->src), sim_node_id(m->src),
				      sim_node_id(m->about), m->ref,
				      sim_view_holds_dead(&s->view, m->dst, m->about) ?
				      FTD_NODE_DEAD : FTD_NODE_ALIVE, 0, 0))
			send_msg(s, &(struct sim_msg){ .src = m->dst, .dst = m->about, .ref = m->ref,
						       .about = m->src, .type = SIM_MSG_RELAY_PROBE });
		return;
	case SIM_MSG_JUDGE_PROBE:	/* fresh.c: answered at once */
		send_msg(s, &(struct sim_msg){ .src = m->dst, .dst = m->src, .ref = m->ref,
					       .about = m->about, .type = SIM_MSG_JUDGE_ANSWER });
		return;
	case SIM_MSG_SPAN_ACK:
		node->last_rx_ns = s->now;
		if (!from_held_dead(s, m))
			sim_span_acked(s, m);
		return;
	case SIM_MSG_JUDGE_ANSWER:
		node->last_rx_ns = s->now;
		judge_answered(s, m->dst, m->src, m->about, m->ref);
		return;
	case SIM_MSG_RELAY_ANSWER:	/* relay.c ftd_relay_answered */
		node->last_rx_ns = s->now;
		send_msg(s, &(struct sim_msg){ .src = m->dst, .dst = m->about, .ref = m->ref,
					       .about = m->src, .type = SIM_MSG_RELAY });
		return;
	case SIM_MSG_RELAY:		/* relay.c ftd_relay_heard: about the suspect */
		node->last_rx_ns = s->now;
		if (!sim_view_holds_dead(&s->view, m->dst, m->about))	/* in the ring only */
			heard(s, m->dst, &(struct sim_msg){ .src = m->about, .dst = m->dst,
							    .ref = m->ref, .type = SIM_MSG_RELAY });
		return;
	}
	node->last_rx_ns = s->now;
	heard(s, m->dst, m);
}

/* proc.c: a rank died registered; dissem.c ftd_dissem_proc spreads it. */
void sim_node_proc_dead(struct sim *s, u32 v, u32 job, u32 rank, u32 regid)
{
	int32_t item = sim_view_proc_item(&s->view, v, job, rank, regid);
	struct ftd_notice n = {
		.kind = FTD_NOTICE_PROC_DEAD,
		.subject = sim_node_id(v),
		.subject_incarnation = s->nodes[v].incarnation,
		.origin = sim_node_id(v),
		.job = job,
		.rank = rank,
		.regid = regid,
	};

	if (item < 0) {
		sim_fail(s, "too many distinct deaths declared (raise the item table)");
		return;
	}
	s->rep.items[item].origins++;
	learn(s, v, item);
	sim_report_deliver(s, v, item, 0);
	broadcast(s, v, &n, FTD_NODE_NONE, 0);
}
