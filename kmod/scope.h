/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scoped registrations' ends (the uapi header's "Scoped registrations",
 * proto/scope.h): queued as they happen, and sent a moment later, each
 * node of their scopes getting the ends it is owed in one frame, a share
 * for it alone (span.h).
 */
#ifndef FTD_SCOPE_H
#define FTD_SCOPE_H

#include "net.h"
#include "proto/wire.h"

/* A scope, and once its rank ended, that end waiting to be sent. */
struct ftd_scope_end {
	struct list_head list;			/* in ftd_net.scope_ends */
	u8 notice[FTD_WIRE_NOTICE_LEN];		/* the end, encoded */
	u32 n;					/* nodes to tell */
	u32 nodes[];				/* sorted, no duplicates, not us */
};

/*
 * FTD_IOC_SCOPE's argument, copied in and checked: a new scope for this
 * node (self), NULL for none (count 0), or an ERR_PTR.
 */
struct ftd_scope_end *ftd_scope_from_user(const struct ftd_scope *arg, u32 self);
void ftd_scope_free(struct ftd_scope_end *s);

/* The rank whose scope s is ended (n: PROC_DEAD or PROC_EXIT): tell them. Takes s. */
void ftd_scope_tell(struct ftd_net *fn, struct ftd_scope_end *s, const struct ftd_notice *n);

void ftd_scope_init(struct ftd_net *fn);
/*
 * Forget the ends waiting: they were our old incarnation's (a fence). A
 * send already under way may still get a few out, which their receivers
 * take only while they hold that incarnation.
 */
void ftd_scope_reset(struct ftd_net *fn);
/* Send the ends waiting now, and wait until they went (we are about to leave). */
void ftd_scope_flush(struct ftd_net *fn);
/* The instance went down: nothing is sent any more. */
void ftd_scope_stop(struct ftd_net *fn);

#endif
