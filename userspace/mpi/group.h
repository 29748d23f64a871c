/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * Which events concern which ranks of an attached communicator: the pure
 * decision logic of libftdetect_mpi, with no MPI and no device, so that it
 * is unit-tested on the host (selftests/mpi-host/test_group.c).
 *
 * A group is an attached communicator as this process sees it: for each
 * rank, the node it runs on, the identity (job, rank) its process
 * registered under, and its state. Only members that registered are ever
 * reported, and each at most once:
 *
 *   event               members concerned                  becomes
 *   NODE_DEAD node      ALIVE members on that node, not    FAILED  (cause NODE)
 *                       attached at a later incarnation
 *   RANKS_DEAD job:r    the ALIVE member with that id      FAILED  (cause NODE)
 *   PROC_DEAD job:r     the ALIVE member with that id      FAILED  (cause PROC)
 *   PROC_EXIT job:r     the ALIVE member with that id      EXITED  (a clean exit)
 *   FENCED              this process                       (the process dies)
 *   OVERFLOW            -                                  (events were lost)
 *
 * NODE_DEAD is acted on at once, with the node map the attach exchanged;
 * the RANKS_DEAD records the kernel emits right after it for each
 * registered rank of the node then find those members FAILED already. A
 * member on the dead node that never registered (UNMONITORED, after a
 * partial attach) or that exited cleanly before (EXITED) is not reported:
 * no registration of it was lost. This process is never reported by its
 * own events.
 */
#ifndef FTD_MPI_GROUP_H
#define FTD_MPI_GROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/ftdetect.h>

enum ftd_member_state {
	FTD_MEMBER_ALIVE = 0,		/* registered, watched */
	FTD_MEMBER_UNMONITORED,		/* could not register: never reported */
	FTD_MEMBER_EXITED,		/* deregistered cleanly (PROC_EXIT) */
	FTD_MEMBER_FAILED,		/* reported failed */
};

struct ftd_member {
	uint32_t node;		/* ftdetect node id */
	uint32_t incarnation;	/* the node's when the group was attached */
	uint32_t job;		/* registered identity */
	uint32_t rank;
	uint8_t state;		/* enum ftd_member_state */
};

struct ftd_group {
	uint32_t uid;		/* the job's owner: rank events of other uids are not ours */
	int size;
	int self;		/* this process's rank in the group */
	struct ftd_member *m;	/* by group rank */
	int *by_id;		/* registered group ranks sorted by (job, rank) */
	int nby_id;
};

enum ftd_verdict {
	FTD_VERDICT_NONE = 0,	/* nothing for this group */
	FTD_VERDICT_FAILED,	/* ranks newly failed */
	FTD_VERDICT_EXITED,	/* a member exited cleanly */
	FTD_VERDICT_FENCED,	/* this node was fenced: ranks = { self } */
	FTD_VERDICT_LOST,	/* the kernel dropped events for this reader */
};

/*
 * Copy size members (this process at self) into g. 0; -EINVAL; -ENOMEM;
 * -ENOTUNIQ when two registered members have the same identity.
 */
int ftd_group_init(struct ftd_group *g, int size, int self, const struct ftd_member *members,
		   uint32_t uid);
void ftd_group_free(struct ftd_group *g);

/*
 * Merge the nodes of g's registered members into the sorted set *nodes
 * of *n ids (grown with realloc; FTD_NODE_NONE never in it): the scope of
 * this process's registration (the uapi header's "Scoped registrations").
 * 0 or -ENOMEM (the set unchanged).
 */
int ftd_group_scope_merge(const struct ftd_group *g, uint32_t **nodes, uint32_t *n);

/*
 * Events were lost: is member r's node gone, seen from the status table's
 * entry of it (state, incarnation)? Held dead at the incarnation it had
 * at the attach or a later one, or up again at a later one: its processes
 * are gone either way.
 */
bool ftd_group_node_gone(const struct ftd_group *g, int r, uint8_t state, uint32_t incarnation);

/* The group rank registered as (job, rank), or -1. */
int ftd_group_find(const struct ftd_group *g, uint32_t job, uint32_t rank);

/*
 * Apply one event: the verdict, and in ranks (room for g->size) the ranks
 * it concerns, ascending, *n of them.
 */
enum ftd_verdict ftd_group_apply(struct ftd_group *g, const struct ftd_event *ev, int *ranks,
				 int *n);

/*
 * Is this process one of the first `reporters` ALIVE members, by rank?
 * Those report a failure through PMIx, so that a failure seen by N
 * survivors is not N notifications; a few, in case one of them is dying
 * too. reporters <= 0: every member reports.
 */
bool ftd_group_is_reporter(const struct ftd_group *g, int reporters);

/* The FAILED ranks, ascending: fills up to max, returns how many. */
int ftd_group_failed(const struct ftd_group *g, int *ranks, int max);

#endif /* FTD_MPI_GROUP_H */
