/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event emission: one struct ftd_event goes to every /dev/ftdetect reader of
 * the instance (each with its own bounded queue) and to the netlink "events"
 * multicast group. Callable from process and softirq context (not hardirq).
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
	wait_queue_head_t wait;
	struct mutex read_lock;		/* one read(2) at a time per open file */
	struct mutex reg_lock;		/* one register/deregister at a time (proc.c) */
	struct ftd_event *ring;		/* FTD_EVENT_QUEUE_LEN records */
	u32 head, tail;			/* free-running; under readers_lock */
	u32 lost;			/* dropped since the last OVERFLOW record */
	u64 lost_first_seq;
	/*
	 * Rank registered through this file, see proc.c: written under
	 * read_lock; registered is set last (release), so that the status
	 * table, which reads it under readers_lock, sees job, rank and regid.
	 */
	bool registered;
	u32 job, rank, regid;
	u32 uid;			/* the owner, as events and the wire carry it */
	kuid_t kuid;			/* the same, for permission checks */
	struct pid *owner;		/* the registering process (thread group) */
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
/* Take the next record, or return false when there is none. */
bool ftd_reader_next(struct ftd_reader *r, struct ftd_event *ev);
/* Give back the record ftd_reader_next just returned (copy to user failed). */
void ftd_reader_unread(struct ftd_reader *r);

#endif
