// SPDX-License-Identifier: GPL-2.0
#include "proc.h"

static void emit_proc_event(struct ftd_reader *r, enum ftd_event_type type)
{
	struct ftd_net *fn = r->fn;
	struct ftd_event ev = ftd_event_new(type);

	ev.node = READ_ONCE(fn->cfg.node);
	ev.incarnation = READ_ONCE(fn->incarnation);
	ev.origin = ev.node;
	ev.job = r->job;
	ev.rank = r->rank;
	ftd_event_emit(fn, &ev);
}

int ftd_proc_register(struct ftd_reader *r, const struct ftd_rank_reg *reg)
{
	if (reg->flags || reg->reserved)
		return -EINVAL;
	mutex_lock(&r->read_lock);
	if (r->registered) {
		mutex_unlock(&r->read_lock);
		return -EBUSY;
	}
	r->job = reg->job;
	r->rank = reg->rank;
	r->registered = true;
	mutex_unlock(&r->read_lock);
	return 0;
}

int ftd_proc_deregister(struct ftd_reader *r)
{
	mutex_lock(&r->read_lock);
	if (!r->registered) {
		mutex_unlock(&r->read_lock);
		return -ENOENT;
	}
	r->registered = false;
	mutex_unlock(&r->read_lock);
	emit_proc_event(r, FTD_EV_PROC_EXIT);
	return 0;
}

void ftd_proc_release(struct ftd_reader *r)
{
	if (r->registered)
		emit_proc_event(r, FTD_EV_PROC_DEAD);
}
