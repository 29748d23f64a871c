// SPDX-License-Identifier: GPL-2.0
#include "proc.h"
#include "peer.h"
#include "dissem.h"
#include "stab.h"

static void emit_proc_event(struct ftd_reader *r, enum ftd_event_type type)
{
	struct ftd_net *fn = r->fn;
	struct ftd_event ev = ftd_event_new(type);

	ev.node = READ_ONCE(fn->cfg.node);
	ev.incarnation = READ_ONCE(fn->incarnation);
	ev.origin = ev.node;
	ev.job = r->job;
	ev.rank = r->rank;
	ftd_event_emit_rank(fn, &ev, r->regid, true);
}

/*
 * Keep our own node's entry current: the views we send carry it. how: 0 for
 * a registration, else the event that ended it.
 */
static void note_local(struct ftd_reader *r, u8 how)
{
	struct ftd_net *fn = r->fn;
	struct ftd_rank_table *t;
	struct ftd_peer *self;

	rcu_read_lock();
	self = ftd_peer_find(fn, READ_ONCE(fn->cfg.node));
	if (self) {
		spin_lock_bh(&self->lock);
		t = ftd_peer_ranks(self);
		if (t && how)
			ftd_ranks_end(t, r->job, r->rank, r->regid, how);
		else if (t)
			ftd_ranks_register(t, r->job, r->rank, r->regid);
		spin_unlock_bh(&self->lock);
	}
	rcu_read_unlock();
}

/* The rank ended: here at once, and everywhere by broadcast. */
static void rank_ended(struct ftd_reader *r, enum ftd_event_type type, u8 notice)
{
	note_local(r, type);
	emit_proc_event(r, type);
	ftd_dissem_proc(r->fn, notice, r->job, r->rank, r->regid);
}

int ftd_proc_register(struct ftd_reader *r, const struct ftd_rank_reg *reg)
{
	struct ftd_stab_ref ref = { .local = true };

	if (reg->flags || reg->reserved)
		return -EINVAL;
	mutex_lock(&r->reg_lock);
	mutex_lock(&r->read_lock);
	if (r->registered) {
		mutex_unlock(&r->read_lock);
		mutex_unlock(&r->reg_lock);
		return -EBUSY;
	}
	r->job = reg->job;
	r->rank = reg->rank;
	r->regid = atomic_inc_return(&r->fn->regid);
	smp_store_release(&r->registered, true);	/* see struct ftd_reader */
	mutex_unlock(&r->read_lock);
	note_local(r, 0);
	ref.regid = r->regid;
	ftd_status_rank_reg(r->fn, READ_ONCE(r->fn->cfg.node), READ_ONCE(r->fn->incarnation),
			    r->job, r->rank, &ref);
	ftd_dissem_proc(r->fn, FTD_NOTICE_PROC_REG, r->job, r->rank, r->regid);
	mutex_unlock(&r->reg_lock);
	return 0;
}

/*
 * reg_lock is held until the end is announced: a registration racing in on
 * the same file from another thread must not lend us its job and rank.
 */
int ftd_proc_deregister(struct ftd_reader *r)
{
	mutex_lock(&r->reg_lock);
	mutex_lock(&r->read_lock);
	if (!r->registered) {
		mutex_unlock(&r->read_lock);
		mutex_unlock(&r->reg_lock);
		return -ENOENT;
	}
	WRITE_ONCE(r->registered, false);
	mutex_unlock(&r->read_lock);
	rank_ended(r, FTD_EV_PROC_EXIT, FTD_NOTICE_PROC_EXIT);
	mutex_unlock(&r->reg_lock);
	return 0;
}

void ftd_proc_release(struct ftd_reader *r)
{
	/* The kernel closes a dead process's files: no timeout is involved. */
	if (r->registered)
		rank_ended(r, FTD_EV_PROC_DEAD, FTD_NOTICE_PROC_DEAD);
}
