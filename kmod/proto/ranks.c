// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "ranks.h"
#include "digest.h"

static struct ftd_rank_entry *find(struct ftd_rank_table *t, u32 regid)
{
	u32 i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].regid == regid)
			return &t->e[i];
	return NULL;
}

/*
 * A free slot: a new one while there is room. A table at its most
 * (FTD_RANKS_PER_NODE) takes the oldest tombstone (lowest regid), else
 * the oldest live registration — a node with more ranks than the table
 * holds loses track of its oldest, never of its newest. A smaller full
 * table forgets nothing: it must grow first (ftd_ranks_grow_to), and
 * until it has, it takes nothing (NULL).
 */
static struct ftd_rank_entry *slot(struct ftd_rank_table *t)
{
	struct ftd_rank_entry *best = NULL;
	u32 i;

	if (t->n < t->room)
		return &t->e[t->n++];
	if (t->room < FTD_RANKS_PER_NODE)
		return NULL;
	for (i = 0; i < t->n; i++)
		if (t->e[i].ended && (!best || t->e[i].regid < best->regid))
			best = &t->e[i];
	if (!best) {
		for (i = 0; i < t->n; i++)
			if (!best || t->e[i].regid < best->regid)
				best = &t->e[i];
		t->live_sum -= ftd_digest_rank_word(best->regid);
	}
	if (best->regid > t->forgot_upto)
		t->forgot_upto = best->regid;
	return best;
}

static struct ftd_rank_entry *add(struct ftd_rank_table *t, u32 job, u32 rank, u32 regid,
				  u32 uid, u8 ended)
{
	struct ftd_rank_entry *e = slot(t);

	if (!e)
		return NULL;
	e->job = job;
	e->rank = rank;
	e->regid = regid;
	e->uid = uid;
	e->ended = ended;
	if (!ended)
		t->live_sum += ftd_digest_rank_word(regid);
	return e;
}

bool ftd_ranks_register(struct ftd_rank_table *t, u32 job, u32 rank, u32 regid, u32 uid)
{
	if (find(t, regid) || regid <= t->forgot_upto)
		return false;	/* known, already ended, or forgotten */
	return add(t, job, rank, regid, uid, 0) != NULL;
}

bool ftd_ranks_end(struct ftd_rank_table *t, u32 job, u32 rank, u32 regid, u32 uid, u8 how,
		   bool copy)
{
	struct ftd_rank_entry *e = find(t, regid);

	if (e) {
		if (e->ended)
			return false;
		e->ended = how;
		t->live_sum -= ftd_digest_rank_word(regid);
		return true;
	}
	if (copy || regid <= t->forgot_upto)
		return false;	/* never known here, or ended or evicted long ago */
	/*
	 * The end overtook the registration: remember it as a tombstone, or
	 * it is no news yet (a table that could not grow: the views bring
	 * it again, and the registration alone would make the rank live).
	 */
	return add(t, job, rank, regid, uid, how) != NULL;
}

u32 ftd_ranks_end_some(struct ftd_rank_table *t, struct ftd_rank_entry *out, u32 max)
{
	u32 i, n = 0;

	for (i = 0; i < t->n && n < max; i++) {
		if (t->e[i].ended)
			continue;
		t->e[i].ended = FTD_EV_RANKS_DEAD;
		t->live_sum -= ftd_digest_rank_word(t->e[i].regid);
		out[n++] = t->e[i];
	}
	return n;
}
