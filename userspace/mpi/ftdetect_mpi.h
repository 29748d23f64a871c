/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * libftdetect_mpi: ftdetect's failure events on MPI communicators.
 *
 *   MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
 *   ftd_mpi_attach(MPI_COMM_WORLD, on_failure, &state, 0);    // collective
 *   ...                                     // on_failure() runs on a failure
 *   MPI_Finalize();                         // detaches: a clean exit, not a failure
 *
 * Attaching a communicator (collective over it) registers this process with
 * /dev/ftdetect, learns the node of every member, and starts one watcher
 * thread per process. When a member's process crashes (PROC_DEAD, no timeout
 * involved) or its node is declared dead (NODE_DEAD, RANKS_DEAD), the
 * library, in this order:
 *   1. reports the failed processes to the runtime through PMIx
 *      (PMIX_ERR_PROC_ABORTED), when a PMIx server launched the job;
 *   2. revokes the communicator (MPIX_Comm_revoke), when this build's MPI
 *      has working ULFM (ftd_mpi_features());
 *   3. calls the communicator's callback with the newly failed ranks.
 * When this node is fenced (declared dead while alive) it calls the
 * callbacks and then kills this process: fail-stop must hold.
 *
 * Functions return 0 (or a count) on success and a negative errno on
 * failure; ftd_mpi_strerror() explains it. ftdetect_mpi(3) has the details.
 */
#ifndef FTDETECT_MPI_H
#define FTDETECT_MPI_H

#include <stdint.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FTD_MPI_VERSION 1
#define FTD_MPI_NODE_NONE 0xffffffffU	/* FTD_NODE_NONE of <linux/ftdetect.h> */

/* Why ranks are reported. */
enum ftd_mpi_cause {
	FTD_MPI_CAUSE_PROC = 1,	/* the process died (PROC_DEAD: its file closed unregistered) */
	FTD_MPI_CAUSE_NODE,	/* its node was declared dead (NODE_DEAD, RANKS_DEAD) */
	FTD_MPI_CAUSE_FENCED,	/* this node was declared dead while alive: this process
				 * is killed when the callbacks return */
	FTD_MPI_CAUSE_LOST,	/* the kernel dropped events this process did not read in
				 * time (OVERFLOW); the failures among them are then
				 * taken from the kernel's status table and reported
				 * as usual, timed by the OVERFLOW record */
};

/* What the library did about a failure, per action. */
enum ftd_mpi_action {
	FTD_MPI_ACT_NONE = 0,		/* not applicable (FENCED, LOST) */
	FTD_MPI_ACT_DONE,		/* done */
	FTD_MPI_ACT_DEFERRED,		/* revoke: left to ftd_mpi_progress() (MPI thread
					 * level below MPI_THREAD_MULTIPLE) */
	FTD_MPI_ACT_OTHERS,		/* PMIx: other members report it (FTD_MPI_PMIX_REPORTERS),
					 * or this process already did */
	FTD_MPI_ACT_UNAVAILABLE,	/* no PMIx server; no working ULFM in this build or job */
	FTD_MPI_ACT_DISABLED,		/* turned off (FTD_MPI_NO_PMIX, FTD_MPI_NO_REVOKE;
					 * revoke: FTD_MPI_REVOKE=0, or Open MPI 5 adding
					 * processes lazily: ftdetect_mpi(3), ULFM) */
	FTD_MPI_ACT_FAILED,		/* tried, and it failed */
};

/*
 * A failure on an attached communicator, passed to its callback. Valid only
 * during the call; the library may append fields in later versions.
 */
struct ftd_mpi_failure {
	enum ftd_mpi_cause cause;
	int nranks;
	const int *ranks;	/* newly failed ranks of the communicator, ascending;
				 * FENCED: this process's rank; LOST: none */
	uint32_t node;		/* NODE: the dead node; PROC: the rank's node;
				 * FENCED: this node */
	uint32_t origin;	/* node that decided (observer), FTD_MPI_NODE_NONE if unknown */
	uint32_t job;		/* ftdetect job id of a PROC/RANKS_DEAD event, else 0 */
	uint32_t lost;		/* LOST: how many events the kernel dropped */
	uint64_t event_seq;	/* the event's sequence number on this node */
	uint64_t event_time_ns;	/* CLOCK_REALTIME when this node's kernel emitted it */
	uint64_t event_mono_ns;	/* CLOCK_MONOTONIC, same instant */
	uint64_t call_time_ns;	/* CLOCK_REALTIME when the callback was called */
	uint64_t call_mono_ns;	/* CLOCK_MONOTONIC, same instant: call_mono_ns -
				 * event_mono_ns is the library's own delay */
	enum ftd_mpi_action pmix;	/* step 1 */
	enum ftd_mpi_action revoke;	/* step 2 */
};

/*
 * Called on the watcher thread (or in ftd_mpi_progress() with
 * FTD_MPI_NO_THREAD), one call at a time, never twice for the same rank.
 * It may call the ftd_mpi_* queries, but not attach or detach; MPI calls
 * need MPI_THREAD_MULTIPLE unless it runs in ftd_mpi_progress().
 */
typedef void (*ftd_mpi_callback_fn)(MPI_Comm comm, const struct ftd_mpi_failure *f, void *arg);

enum ftd_mpi_flags {
	FTD_MPI_NO_THREAD = 1 << 0,	/* no watcher thread: the application calls
					 * ftd_mpi_progress() (at the first attach) */
	FTD_MPI_NO_PMIX = 1 << 1,	/* do not report this communicator's failures
					 * through PMIx */
	FTD_MPI_NO_REVOKE = 1 << 2,	/* do not revoke this communicator */
	FTD_MPI_PARTIAL = 1 << 3,	/* members that cannot register are left
					 * unmonitored, instead of failing the attach */
};

/*
 * Collective over comm: register this process (at its first attach), learn
 * every member's node and identity, watch them. cb (may be NULL) with arg
 * is called on failures. Every member returns the same result: 0, or the
 * error of the first member that failed (-ENOENT: no /dev/ftdetect, the
 * module is not loaded; -ENETDOWN: this node's instance is not configured
 * or not up; -EALREADY: comm is attached; -EINVAL: bad flags, an
 * intercommunicator, MPI not initialised; -ENOTUNIQ: two members claim the
 * same identity; -EIO: an MPI call failed). MPI_Comm_free() of comm
 * detaches it; MPI_Finalize() detaches everything.
 */
int ftd_mpi_attach(MPI_Comm comm, ftd_mpi_callback_fn cb, void *arg, unsigned int flags);

/*
 * Local: stop watching comm. At the last detach this process deregisters,
 * which the other nodes see as a clean exit (PROC_EXIT), never a failure.
 * -ENOENT: not attached; -EDEADLK: called from a callback.
 */
int ftd_mpi_detach(MPI_Comm comm);

/* Replace comm's callback. */
int ftd_mpi_set_callback(MPI_Comm comm, ftd_mpi_callback_fn cb, void *arg);

/*
 * Register this process under an identity of the caller's choice (a
 * runtime's own job id and rank), before its first attach; by default the
 * first attach chooses one (ftdetect_mpi(3), "Identity"). -EBUSY once
 * registered; -EINVAL: job 0.
 */
int ftd_mpi_register(uint32_t job, uint32_t rank);

/* The identity this process registered under: -ENOENT before the first attach. */
int ftd_mpi_identity(uint32_t *job, uint32_t *rank);

/*
 * Read the pending events without blocking and act on them in the calling
 * thread, and run the revocations deferred to it. Returns the number of
 * events read. With FTD_MPI_NO_THREAD, call it from the progress loop (poll
 * ftd_mpi_fd() for readability); with the watcher thread it is optional.
 */
int ftd_mpi_progress(void);

/* The /dev/ftdetect descriptor to poll for POLLIN; -ENOENT before attach. */
int ftd_mpi_fd(void);

/*
 * The failed ranks of comm known so far, ascending: fills up to max and
 * returns how many there are.
 */
int ftd_mpi_failed(MPI_Comm comm, int *ranks, int max);

/* The ftdetect node that rank of comm runs on. */
int ftd_mpi_node_of(MPI_Comm comm, int rank, uint32_t *node);

enum ftd_mpi_feature {
	FTD_MPI_FEATURE_ULFM = 1 << 0,		/* built with working ULFM: revokes */
	FTD_MPI_FEATURE_PMIX = 1 << 1,		/* built with PMIx */
	FTD_MPI_FEATURE_PMIX_ACTIVE = 1 << 2,	/* a PMIx server launched this process
						 * (known after the first attach) */
};
unsigned int ftd_mpi_features(void);

const char *ftd_mpi_strerror(int err);
/* "PROC_DEAD", "NODE_DEAD", "FENCED", "LOST" */
const char *ftd_mpi_cause_name(enum ftd_mpi_cause cause);
/* "none", "done", "deferred", "others", "unavailable", "disabled", "failed" */
const char *ftd_mpi_action_name(enum ftd_mpi_action action);

#ifdef __cplusplus
}
#endif
#endif /* FTDETECT_MPI_H */
