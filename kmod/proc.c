// SPDX-License-Identifier: GPL-2.0
#include <linux/cred.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include "proc.h"
#include "peer.h"
#include "dissem.h"
#include "stab.h"
#include "scope.h"

static void emit_proc_event(struct ftd_reader *r, enum ftd_event_type type)
{
	struct ftd_net *fn = r->fn;
	struct ftd_event ev = ftd_event_new(type);

	ev.node = READ_ONCE(fn->cfg.node);
	ev.incarnation = READ_ONCE(fn->incarnation);
	ev.origin = ev.node;
	ev.job = r->job;
	ev.rank = r->rank;
	ev.uid = r->uid;
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
		self = ftd_peer_lock_current(self);
		t = ftd_peer_ranks(self);
		if (t && how)
			ftd_ranks_end(t, r->job, r->rank, r->regid, r->uid, how, false);
		else if (t)
			ftd_ranks_register(t, r->job, r->rank, r->regid, r->uid);
		spin_unlock_bh(&self->lock);
	}
	rcu_read_unlock();
}

/*
 * Publish r's registration unless another uid holds a live registration of
 * the same job on this node ("Rank ownership" in the uapi header): checked
 * and published under readers_lock, so two users racing for one job cannot
 * both win. O(openers), which max_openers bounds.
 */
static int publish_if_job_free(struct ftd_reader *r)
{
	struct ftd_net *fn = r->fn;
	struct ftd_reader *o;
	int ret = 0;

	spin_lock_bh(&fn->readers_lock);
	list_for_each_entry(o, &fn->readers, entry) {
		if (o != r && o->registered && o->job == r->job && o->uid != r->uid) {
			ret = -EPERM;
			goto out;
		}
	}
	smp_store_release(&r->registered, true);	/* see struct ftd_reader */
out:
	spin_unlock_bh(&fn->readers_lock);
	return ret;
}

/* A scoped rank's end, to its scope's nodes (scope.h), which takes the scope. */
static void tell_scope(struct ftd_reader *r, u8 kind)
{
	struct ftd_net *fn = r->fn;
	struct ftd_notice n = {
		.kind = kind,
		.subject = READ_ONCE(fn->cfg.node),
		.subject_incarnation = r->reg_inc,
		.origin = READ_ONCE(fn->cfg.node),
		.job = r->job,
		.rank = r->rank,
		.regid = r->regid,
		.uid = r->uid,
	};

	ftd_scope_tell(fn, r->scope, &n);
	r->scope = NULL;
}

/*
 * The rank ended: here at once, and everywhere by broadcast (a scoped
 * one: to its scope, or everywhere while it has none). Not if it was
 * registered in an incarnation of ours that a fence ended since: the
 * others told its end with that incarnation's (RANKS_DEAD), and it is
 * none of the new one's registrations (net.c fence): told again, its end
 * would be delivered twice there.
 */
static void rank_ended(struct ftd_reader *r, enum ftd_event_type type, u8 notice)
{
	bool ours = r->reg_inc == READ_ONCE(r->fn->incarnation);

	if (ours && !r->scoped)
		note_local(r, type);
	emit_proc_event(r, type);
	if (ours && r->scope)
		tell_scope(r, notice);
	else if (ours)
		ftd_dissem_proc(r->fn, notice, r->job, r->rank, r->regid, r->uid);
	ftd_scope_free(r->scope);
	r->scope = NULL;
	put_pid(r->owner);
	WRITE_ONCE(r->owner, NULL);
}

/* May the calling task act for uid (register as it, end its rank)? */
static bool acts_for(struct ftd_net *fn, kuid_t uid)
{
	return uid_eq(current_euid(), uid) || ns_capable(fn->net->user_ns, CAP_SETUID);
}

/* The owner a registration asks for: the caller, or another uid if allowed. */
static int owner_of(struct ftd_reader *r, const struct ftd_rank_reg *reg, kuid_t *kuid)
{
	struct user_namespace *ns = r->fn->net->user_ns;

	if (!(reg->flags & FTD_REG_F_OWNER)) {
		if (reg->owner)
			return -EINVAL;
		*kuid = current_euid();
		return 0;
	}
	*kuid = make_kuid(ns, reg->owner);
	if (!uid_valid(*kuid))
		return -EINVAL;
	return acts_for(r->fn, *kuid) ? 0 : -EPERM;
}

int ftd_proc_register(struct ftd_reader *r, const struct ftd_rank_reg *reg)
{
	struct ftd_stab_ref ref = { .local = true };
	kuid_t kuid;
	int ret;

	if (reg->flags & ~__FTD_REG_F_ALL)
		return -EINVAL;
	ret = owner_of(r, reg, &kuid);
	if (ret)
		return ret;
	mutex_lock(&r->reg_lock);
	mutex_lock(&r->read_lock);
	if (r->registered) {
		mutex_unlock(&r->read_lock);
		mutex_unlock(&r->reg_lock);
		return -EBUSY;
	}
	r->job = reg->job;
	r->rank = reg->rank;
	r->kuid = kuid;
	r->uid = from_kuid_munged(r->fn->net->user_ns, kuid);
	r->regid = atomic_inc_return(&r->fn->regid);	/* before publishing */
	r->reg_inc = READ_ONCE(r->fn->incarnation);
	r->owner = get_pid(task_tgid(current));
	r->scoped = reg->flags & FTD_REG_F_SCOPED;
	ret = publish_if_job_free(r);
	if (ret) {
		put_pid(r->owner);
		r->owner = NULL;
		mutex_unlock(&r->read_lock);
		mutex_unlock(&r->reg_lock);
		return ret;
	}
	mutex_unlock(&r->read_lock);
	if (!r->scoped)
		note_local(r, 0);
	ref.regid = r->regid;
	ref.uid = r->uid;
	ftd_status_rank_reg(r->fn, READ_ONCE(r->fn->cfg.node), READ_ONCE(r->fn->incarnation),
			    r->job, r->rank, &ref);
	if (!r->scoped)
		ftd_dissem_proc(r->fn, FTD_NOTICE_PROC_REG, r->job, r->rank, r->regid, r->uid);
	mutex_unlock(&r->reg_lock);
	return 0;
}

int ftd_proc_scope(struct ftd_reader *r, const struct ftd_scope *arg)
{
	struct ftd_scope_end *s;
	int ret = 0;

	/* Checked before anything is taken: a bad scope changes nothing. */
	s = ftd_scope_from_user(arg, READ_ONCE(r->fn->cfg.node));
	if (IS_ERR(s))
		return PTR_ERR(s);
	mutex_lock(&r->reg_lock);
	if (!r->registered)
		ret = -ENOENT;
	else if (!r->scoped)
		ret = -EINVAL;
	else if (!acts_for(r->fn, r->kuid))
		ret = -EPERM;
	if (!ret)
		swap(r->scope, s);
	mutex_unlock(&r->reg_lock);
	ftd_scope_free(s);
	return ret;
}

/*
 * End the registration if there is one: how = PROC_EXIT (deregistered) or
 * PROC_DEAD. reg_lock is held until the end is announced: a registration
 * racing in on the same file from another thread must not lend us its job
 * and rank.
 */
static int end_registration(struct ftd_reader *r, bool clean)
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
	if (clean)
		rank_ended(r, FTD_EV_PROC_EXIT, FTD_NOTICE_PROC_EXIT);
	else
		rank_ended(r, FTD_EV_PROC_DEAD, FTD_NOTICE_PROC_DEAD);
	mutex_unlock(&r->reg_lock);
	return 0;
}

int ftd_proc_deregister(struct ftd_reader *r)
{
	/* The file may have reached another user: only the owner ends it. */
	if (READ_ONCE(r->registered) && !acts_for(r->fn, r->kuid))
		return -EPERM;
	return end_registration(r, true);
}

void ftd_proc_flush(struct ftd_reader *r)
{
	/*
	 * Called at every close of a descriptor of the file, by whoever
	 * closes it, and for every descriptor of a process that exits: the
	 * registering process closing one (dead or not) ends the rank; a
	 * forked child's copy does not keep it alive nor end it.
	 */
	if (READ_ONCE(r->registered) && READ_ONCE(r->owner) == task_tgid(current))
		end_registration(r, false);
}

void ftd_proc_release(struct ftd_reader *r)
{
	/* The last reference went some other way (a passed descriptor). */
	if (r->registered)
		rank_ended(r, FTD_EV_PROC_DEAD, FTD_NOTICE_PROC_DEAD);
	ftd_scope_free(r->scope);
	put_pid(r->owner);
}
