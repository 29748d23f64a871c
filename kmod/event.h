/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event emission: one struct ftd_event goes into the instance's event log,
 * which every /dev/ftdetect reader reads from its own position, and to the
 * netlink "events" multicast group. Callable from process and softirq
 * context (not hardirq). An event costs the same however many readers
 * there are: blocked readers are woken from a work item.
 */
#ifndef FTD_EVENT_H
#define FTD_EVENT_H

#include <linux/wait.h>
#include <linux/mutex.h>
#include <linux/uidgid.h>
#include <linux/pid.h>
#include <linux/ftdetect.h>
#include "net.h"

/* A /dev/ftdetect opener. */
struct ftd_reader {
	struct list_head entry;		/* in ftd_net.readers, under readers_lock */
	struct ftd_net *fn;
	struct mutex read_lock;		/* one read(2) at a time per open file */
	struct mutex reg_lock;		/* one register/deregister at a time (proc.c) */
	u64 next_seq;			/* the next record to read; under readers_lock */
	u64 taken_seq;			/* next_seq before the last take, for unread */
	/*
	 * Rank registered through this file, see proc.c: written under
	 * read_lock; registered is set last (release), so that the status
	 * table, which reads it under readers_lock, sees job, rank and regid.
	 */
	bool registered;
	u32 job, rank, regid;
	u32 reg_inc;			/* our incarnation it was made in */
	u32 uid;			/* the owner, as events and the wire carry it */
	kuid_t kuid;			/* the same, for permission checks */
	struct pid *owner;		/* the registering process (thread group) */
	/*
	 * FTD_REG_F_SCOPED: told to nobody; its end to scope's nodes (NULL:
	 * to every node), which the end takes over (scope.h). Under reg_lock.
	 */
	bool scoped;
	struct ftd_scope_end *scope;
};

/* A record with every "none" field preset, for callers to fill in. */
static inline struct ftd_event ftd_event_new(enum ftd_event_type type)
{
	return (struct ftd_event){
		.type = type,
		.node = FTD_NODE_NONE,
		.rail = FTD_RAIL_NONE,
		.origin = FTD_NODE_NONE,
		.uid = FTD_UID_NONE,
	};
}

void ftd_event_emit(struct ftd_net *fn, struct ftd_event *ev);
/*
 * A PROC_DEAD, PROC_EXIT or RANKS_DEAD event about registration regid of
 * ev->node (local: of this node), which the record itself does not carry.
 */
void ftd_event_emit_rank(struct ftd_net *fn, struct ftd_event *ev, u32 regid, bool local);

struct ftd_reader *ftd_reader_create(struct ftd_net *fn);
void ftd_reader_destroy(struct ftd_reader *r);
bool ftd_reader_readable(struct ftd_reader *r);
/* Where readers block until ftd_reader_readable(). */
static inline wait_queue_head_t *ftd_reader_wait(struct ftd_reader *r)
{
	return &r->fn->events_wait;
}
/* Take the next record, or return false when there is none. */
bool ftd_reader_next(struct ftd_reader *r, struct ftd_event *ev);
/* Give back the record ftd_reader_next just returned (copy to user failed). */
void ftd_reader_unread(struct ftd_reader *r);

void ftd_events_init(struct ftd_net *fn);
/* The instance goes: no wake-up may still be queued. */
void ftd_events_exit(struct ftd_net *fn);

#endif
