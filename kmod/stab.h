/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The status table that user space maps read-only from /dev/ftdetect (layout
 * and reader rules in the uapi header; its upkeep is proto/status.c).
 *
 * An instance gets its table when it is first mapped: filled from the node
 * table, the peers' rank tables and the local registrations, then kept
 * current by the hooks below, and freed when the instance's last file is
 * closed (no mapping can outlive the file it was made from). Every hook is
 * a no-op while the instance has no table.
 *
 * Writes happen under ftd_net.readers_lock, the lock that also numbers the
 * events and queues them to readers: an event's change is in the table
 * before any reader can read the event. Lock order: ftd_net.lock, then
 * ftd_peer.lock, then readers_lock.
 */
#ifndef FTD_STAB_H
#define FTD_STAB_H

#include <linux/mm_types.h>
#include "net.h"
#include "peer.h"
#include "proto/status.h"

struct ftd_status;

/* f_op->mmap of a file open on fn (which keeps the table alive). */
int ftd_status_mmap(struct ftd_net *fn, struct vm_area_struct *vma);
/* fn's last file is closing, readers_lock held: take its table away. */
struct ftd_status *ftd_status_detach(struct ftd_net *fn);
/* Free a detached table, outside readers_lock. NULL is fine. */
void ftd_status_free(struct ftd_status *st);

/* An event was just numbered; readers_lock held. ref: for rank events, or NULL. */
void ftd_status_event(struct ftd_net *fn, const struct ftd_event *ev,
		      const struct ftd_stab_ref *ref);

/*
 * peer changed without an event (peer->lock held): copy its state. forget:
 * the kernel no longer holds the node's ranks (added, replaced, restart).
 */
void ftd_status_node(struct ftd_net *fn, struct ftd_peer *peer, bool forget);
/* The node left the node table; fn->lock held. */
void ftd_status_node_del(struct ftd_net *fn, u32 id);
/* The local node id, cluster, incarnation or up changed; fn->lock held. */
void ftd_status_config(struct ftd_net *fn);
/* A rank registered (here, or a PROC_REG notice); any context. */
void ftd_status_rank_reg(struct ftd_net *fn, u32 node, u32 incarnation, u32 job, u32 rank,
			 const struct ftd_stab_ref *ref);

#endif
