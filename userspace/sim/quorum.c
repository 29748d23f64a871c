// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include "sim/sim.h"
#include "sim/mem.h"

int sim_quorum_init(struct sim_quorum *qu, u32 n, u32 cap)
{
	memset(qu, 0, sizeof(*qu));
	qu->n = n;
	qu->cap = cap;
	qu->per_item = sim_zalloc(cap * sizeof(*qu->per_item));
	return qu->per_item ? 0 : -1;
}

void sim_quorum_free(struct sim_quorum *qu)
{
	u32 i;

	for (i = 0; qu->per_item && i < qu->cap; i++)
		sim_release(qu->per_item[i], (size_t)qu->n * sizeof(struct sim_votes));
	sim_release(qu->per_item, qu->cap * sizeof(*qu->per_item));
	memset(qu, 0, sizeof(*qu));
}

bool sim_quorum_record(struct sim *s, u32 v, u32 item, u32 voter, bool own, u32 *fresh)
{
	struct sim_quorum *qu = &s->quorum;
	u64 timeout = s->cfg->timeout_ns, now = s->now;
	struct sim_votes *pv;
	bool send = false;

	*fresh = 0;
	if (!qu->per_item[item]) {
		qu->per_item[item] = sim_zalloc((size_t)qu->n * sizeof(struct sim_votes));
		if (!qu->per_item[item]) {
			if (!s->err)
				fprintf(stderr, "ftdsim: out of memory (votes)\n");
			s->err = -1;
			return false;
		}
		qu->items++;
	}
	pv = &qu->per_item[item][v];
	/* Only about a node we hold live (dissem.c record_vote; one incarnation here). */
	if (ftd_votes_take(sim_view_knows(&s->view, v, item) ? FTD_NODE_DEAD : FTD_NODE_ALIVE,
			   0, 0))
		send = ftd_votes_record(&pv->votes, voter, own, now, timeout);
	*fresh = ftd_votes_fresh(&pv->votes, now, timeout);
	return send;
}

u32 sim_quorum_judge_slot(struct sim_votes *sv, u32 judge)
{
	u32 i, slot = 0;

	for (i = 0; i < FTD_MAX_OBSERVERS; i++) {
		if (sv->judge[i] == judge + 1)
			return i;
		if (!sv->judge[i] || (sv->judge[slot] && sv->probe_ns[i] < sv->probe_ns[slot]))
			slot = i;
	}
	sv->judge[slot] = judge + 1;
	sv->nonce[slot] = 0;
	sv->probe_ns[slot] = 0;
	sv->answered_ns[slot] = 0;
	return slot;
}
