// SPDX-License-Identifier: GPL-2.0
#include "relay.h"
#include "detect.h"
#include "dissem.h"
#include "fresh.h"
#include "members.h"
#include "peer.h"
#include "proto/relay.h"

void ftd_relay_ask(struct ftd_net *fn, struct ftd_peer *suspect, u32 incarnation, u64 nonce,
		   u32 helpers)
{
	struct ftd_notice n = {
		.kind = FTD_NOTICE_PROBE_REQ,
		.subject = suspect->id,
		.subject_incarnation = incarnation,
		.origin = fn->cfg.node,
		.nonce = nonce,
	};
	u32 ids[FTD_RELAY_SAMPLE(FTD_RELAY_HELPERS_MAX)], cnt, i, asked = 0;
	struct ftd_peer *helper;

	helpers = min_t(u32, helpers, FTD_RELAY_HELPERS_MAX);
	cnt = ftd_members_sample(fn, ids, FTD_RELAY_SAMPLE(helpers));
	/* All but the suspect, in order: one removed meanwhile leaves its place to the next. */
	cnt = ftd_relay_pick(ids, cnt, suspect->id, cnt);
	for (i = 0; i < cnt && asked < helpers; i++) {
		helper = ftd_peer_find(fn, ids[i]);
		if (!helper)
			continue;
		ftd_dissem_send_to(fn, helper, &n);
		asked++;
	}
	atomic64_add(asked, &fn->stats.relays_asked);
}

void ftd_relay_request(struct ftd_net *fn, struct ftd_peer *sender, const struct ftd_notice *n)
{
	u64 wait = ftd_relay_wait(READ_ONCE(fn->cfg.period_ns), READ_ONCE(fn->cfg.timeout_ns));
	struct ftd_peer *suspect;
	bool ask;

	if (!ftd_relay_request_ok(READ_ONCE(fn->cfg.node), sender->id, n->origin, n->subject,
				  n->nonce))
		return;
	suspect = ftd_peer_find(fn, n->subject);
	if (!suspect)
		return;
	spin_lock(&suspect->lock);
	ask = ftd_relay_suspect_open(suspect->state, suspect->incarnation, n->subject_incarnation);
	if (ask)
		ftd_relay_record(&suspect->relay, sender->id, n->nonce, ktime_get_ns());
	spin_unlock(&suspect->lock);
	if (ask)
		ftd_fresh_ask(fn, suspect, wait, wait);
}

void ftd_relay_answered(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation, u64 now,
			u64 nonce_ns)
{
	u64 wait = ftd_relay_wait(READ_ONCE(fn->cfg.period_ns), READ_ONCE(fn->cfg.timeout_ns));
	struct ftd_relay_req out[FTD_RELAY_SLOTS];
	struct ftd_notice n = {
		.kind = FTD_NOTICE_PROBE_RELAY,
		.subject = peer->id,
		.subject_incarnation = incarnation,
		.origin = fn->cfg.node,
	};
	struct ftd_peer *requester;
	u32 cnt, i;

	spin_lock(&peer->lock);
	cnt = ftd_relay_take(&peer->relay, now, nonce_ns, wait, out);
	spin_unlock(&peer->lock);
	if (!cnt)
		return;
	rcu_read_lock();
	for (i = 0; i < cnt; i++) {
		requester = ftd_peer_find(fn, out[i].requester);
		if (!requester)
			continue;
		n.nonce = out[i].nonce;
		ftd_dissem_send_to(fn, requester, &n);
		atomic64_inc(&fn->stats.relays_sent);
	}
	rcu_read_unlock();
}

void ftd_relay_heard(struct ftd_net *fn, const struct ftd_notice *n)
{
	struct ftd_peer *suspect = ftd_peer_find(fn, n->subject);
	bool vouched;

	if (!suspect || suspect->self)
		return;
	spin_lock(&suspect->lock);
	vouched = ftd_detect_in_ring(suspect->state) &&
		  ftd_relay_vouches(n->nonce, n->subject_incarnation, suspect->fresh.ask.nonce,
				    suspect->incarnation);
	spin_unlock(&suspect->lock);
	if (!vouched)
		return;
	atomic64_inc(&fn->stats.relays_heard);
	ftd_detect_answered(fn, suspect, n->subject_incarnation, ktime_get_ns(), 0, 0);
}
