/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * libftdetect: the MPI-side view of /dev/ftdetect, with no MPI dependency.
 * Manual: libftdetect(3). Build with `pkg-config --cflags --libs libftdetect`.
 *
 *   struct ftd_handle *h = ftd_open(NULL);        // this network namespace's instance
 *   ftd_register(h, job, rank);                   // this process is (job, rank)
 *   poll on ftd_fd(h), then ftd_next_event(h, &ev, FTD_NONBLOCK) until -EAGAIN
 *   ftd_deregister(h); ftd_close(h);              // clean exit: PROC_EXIT, not PROC_DEAD
 *
 * Without a system call, from the read-only status table the kernel keeps
 * (mapped on first use):
 *
 *   int64_t c = ftd_status_changes(h);            // did anything change since last time?
 *   ftd_rank_status(h, job, rank, &rs);           // rs.state == FTD_RANK_ALIVE ...
 *   ftd_node_status(h, node, &ns);                // ns.state == FTD_NODE_DEAD ...
 *
 * Errors: functions return 0 (or a count) on success and a negative errno on
 * failure, never set errno (except ftd_open, which returns NULL); ftd_strerror()
 * turns the value into a message.
 *
 * Threads: every function may be called from any number of threads at once
 * on the same handle, except ftd_close(), which must be the last call. Status
 * reads take no lock and make no system call once the table is mapped; each
 * returns one consistent snapshot. An event is delivered once, to whichever
 * thread reads it.
 */
#ifndef FTDETECT_LIB_H
#define FTDETECT_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <linux/ftdetect.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FTD_DEVICE_PATH "/dev/ftdetect"

struct ftd_handle;

enum ftd_flags {
	FTD_NONBLOCK = 1 << 0,	/* ftd_next_event: -EAGAIN instead of waiting */
};

/* Open path (NULL: FTD_DEVICE_PATH). Returns NULL with errno set. */
struct ftd_handle *ftd_open(const char *path);
/* Close (a registered rank ends as PROC_DEAD unless deregistered) and unmap. */
void ftd_close(struct ftd_handle *h);
/* For poll/epoll: readable when an event is pending. */
int ftd_fd(const struct ftd_handle *h);

int ftd_register(struct ftd_handle *h, uint32_t job, uint32_t rank);
/*
 * A scoped registration (the uapi header's "Scoped registrations"): told
 * to no other node; ftd_scope() then names the nodes its end goes to
 * (count node ids, at most FTD_SCOPE_MAX; given again, it replaces them).
 * -EINVAL from ftd_register_scoped: a module without scoped
 * registrations (fall back to ftd_register).
 */
int ftd_register_scoped(struct ftd_handle *h, uint32_t job, uint32_t rank);
int ftd_scope(struct ftd_handle *h, const uint32_t *nodes, uint32_t count);
int ftd_deregister(struct ftd_handle *h);
int ftd_info(struct ftd_handle *h, struct ftd_info *info);

/* Next event into ev; flags FTD_NONBLOCK. -EAGAIN when none (non-blocking). */
int ftd_next_event(struct ftd_handle *h, struct ftd_event *ev, unsigned int flags);

/* "NODE_DEAD" etc.; "UNKNOWN" for a type this library does not know. */
const char *ftd_event_name(uint16_t type);

/* A message for err (negative errno) as returned by this library. */
const char *ftd_strerror(int err);

/*
 * ------------------------------------------------------------------------
 * The status table (see "The status table" in <linux/ftdetect.h>)
 * ------------------------------------------------------------------------
 */

struct ftd_node_status {
	uint32_t id;
	uint32_t incarnation;	/* 0 until known */
	uint8_t state;		/* enum ftd_node_state */
	uint8_t rails_down;	/* bit i: rail i reported down */
	uint8_t nrails;
	uint8_t reserved;
	uint64_t event_seq;	/* the last event that changed it, 0: none */
	uint64_t gen;		/* the table's change count when it last changed */
};

struct ftd_rank_status {
	uint32_t job;
	uint32_t rank;
	uint32_t node;		/* where it registered, FTD_NODE_NONE: here, before
				 * the local node id was set */
	uint32_t incarnation;	/* that node's incarnation when it registered */
	uint32_t regid;		/* that node's number for the registration */
	uint8_t state;		/* enum ftd_rank_state */
	uint8_t local;		/* 1: registered on this node */
	uint8_t node_state;	/* its node's enum ftd_node_state, read together with
				 * the rank (FTD_NODE_SELF for a local rank) */
	uint8_t reserved;
	uint16_t cause;		/* the FTD_EV_* that ended it: PROC_DEAD, PROC_EXIT,
				 * RANKS_DEAD; 0 if it has not ended */
	uint16_t reserved2;
	uint32_t uid;		/* its owner (uapi header, "Rank ownership"); this
				 * field took what was padding: same size, same
				 * offsets as before */
	uint64_t event_seq;	/* the seq of that event, 0: none */
	uint64_t gen;		/* the table's change count when it last changed */
};

struct ftd_status_info {
	uint64_t changes;	/* as ftd_status_changes() */
	uint64_t event_seq;	/* the last event the table reflects */
	uint32_t flags;		/* FTD_STATUS_F_* */
	uint32_t local_node;	/* FTD_NODE_NONE if not configured */
	uint32_t local_incarnation;
	uint32_t cluster;
	uint32_t node_count, node_cap;
	uint32_t rank_count, rank_cap;	/* entries in use (any state), capacity */
	uint32_t ranks_alive;
	uint32_t reserved;
	uint64_t nodes_dropped, ranks_dropped, ranks_recycled;
	uint64_t fenced;	/* times this node was fenced */
};

/*
 * Map the status table now rather than on the first status call (which
 * does it otherwise): 0, or -ENODEV when the module has no status table.
 */
int ftd_status_map(struct ftd_handle *h);

/*
 * The number of changes the table has seen, a counter that only grows: a
 * progress loop compares it with the value it saw last and looks further
 * only when it moved. >= 0, or a negative errno. On 64-bit CPUs one load.
 */
int64_t ftd_status_changes(struct ftd_handle *h);

/* The header: counts, flags, the local node, the last event reflected. */
int ftd_status_info(struct ftd_handle *h, struct ftd_status_info *out);

/*
 * One node's entry. -ENOENT: not in the table; -EOVERFLOW: not in the table,
 * which was full at some point (FTD_STATUS_F_NODES_FULL): unknown.
 */
int ftd_node_status(struct ftd_handle *h, uint32_t node, struct ftd_node_status *out);

/*
 * The registration of (job, rank) to believe: the ALIVE one if any, else
 * the one that changed last. -ENOENT: this node knows no registration of
 * it (or the entry of one that ended was recycled, see ranks_recycled);
 * -EOVERFLOW: none found while registrations were dropped
 * (FTD_STATUS_F_RANKS_FULL): unknown.
 */
int ftd_rank_status(struct ftd_handle *h, uint32_t job, uint32_t rank,
		    struct ftd_rank_status *out);
/*
 * The same among the registrations owned by uid only: what a job's rank
 * uses (its uid: geteuid()), so that another user's rank that took the
 * same job and rank numbers on another node is never mistaken for its own.
 */
int ftd_rank_status_of(struct ftd_handle *h, uint32_t job, uint32_t rank, uint32_t uid,
		       struct ftd_rank_status *out);

/* Everything at one instant. Free with ftd_status_snapshot_free(). */
struct ftd_status_snapshot {
	struct ftd_status_info info;
	size_t n_nodes;
	struct ftd_node_status *nodes;	/* sorted by id */
	size_t n_ranks;
	struct ftd_rank_status *ranks;	/* every entry in use, in table order */
};
int ftd_status_snapshot(struct ftd_handle *h, struct ftd_status_snapshot **out);
void ftd_status_snapshot_free(struct ftd_status_snapshot *s);

/* "alive", "dead", ... for enum ftd_node_state and enum ftd_rank_state. */
const char *ftd_node_state_name(unsigned int state);
const char *ftd_rank_state_name(unsigned int state);

#ifdef __cplusplus
}
#endif
#endif
