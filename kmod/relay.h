/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Indirect probes (proto/relay.h) for one instance: the observer asks
 * helpers to PROBE a suspect for it; a helper relays the suspect's answer.
 */
#ifndef FTD_RELAY_H
#define FTD_RELAY_H

#include "net.h"
#include "peer.h"
#include "proto/wire.h"

/*
 * We just PROBEd suspect (held at incarnation) with nonce: ask `helpers`
 * random live members (ftd_relay_helpers(), at most FTD_RELAY_HELPERS_MAX)
 * to PROBE it too. Under rcu_read_lock; no peer lock held.
 */
void ftd_relay_ask(struct ftd_net *fn, struct ftd_peer *suspect, u32 incarnation, u64 nonce,
		   u32 helpers);

/* A PROBE_REQ from sender, fresh: PROBE its subject for it. Receive softirq. */
void ftd_relay_request(struct ftd_net *fn, struct ftd_peer *sender, const struct ftd_notice *n);

/*
 * peer answered, at now, our PROBE whose nonce we made at nonce_ns, at
 * incarnation: relay that to whoever asked us to probe it. Receive softirq;
 * no peer lock held.
 */
void ftd_relay_answered(struct ftd_net *fn, struct ftd_peer *peer, u32 incarnation, u64 now,
			u64 nonce_ns);

/* A PROBE_RELAY from a helper, fresh: our suspect answered it. Receive softirq. */
void ftd_relay_heard(struct ftd_net *fn, const struct ftd_notice *n);

#endif
