/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * libftdetect_mpi's insides, shared by its files (not installed):
 *   ftd_mpi.c          the process-wide state and its locks, the list of
 *                      attached communicators, the API
 *   ftd_mpi_process.c  the process: device, registration, PMIx client,
 *                      MPI hooks, the clean exit
 *   ftd_mpi_watch.c    the watcher: reading events, dispatching them
 *   ftd_mpi_act.c      what a failure makes the library do: PMIx report,
 *                      revoke, callback; fencing
 *   ftd_mpi_log.c      diagnostics (FTD_MPI_DEBUG, FTD_MPI_JSON), the environment
 *   ftd_mpi_names.c    names and messages of the API's enums and errors
 *   ftd_mpi_auto.c     MPI_Init, MPI_Init_thread: FTD_MPI_AUTO attaches
 *                      MPI_COMM_WORLD for programs that do not attach
 * Compiled with -fvisibility=hidden: only the API of ftdetect_mpi.h (and
 * the two MPI_Init wrappers) is exported, and the static archive localises the rest (userspace/mpi/mpi.mk).
 */
#ifndef FTD_MPI_INTERNAL_H
#define FTD_MPI_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <mpi.h>
#include "ftd_mpi_config.h"
/* Built with -fvisibility=hidden: the API alone is exported. */
#pragma GCC visibility push(default)
#include "ftdetect_mpi.h"
#pragma GCC visibility pop
#if FTD_MPI_HAVE_ULFM && defined(OPEN_MPI)
#include <mpi-ext.h>
#endif
#include "common/json.h"
#include "lib/ftdetect.h"
#include "group.h"
#include "pmix_notify.h"


struct attachment {
	struct attachment *next;
	MPI_Comm comm;
	char name[MPI_MAX_OBJECT_NAME];
	struct ftd_group group;
	ftd_mpi_callback_fn cb;
	void *arg;
	unsigned int flags;
	bool revoke_pending;
	bool gone;		/* its communicator was freed during a callback */
	/* the current event's verdict for this group */
	enum ftd_verdict verdict;
	int n;
	int *ranks;		/* room for group.size */
	enum ftd_mpi_action pmix, revoke;
};

/*
 * The process-wide state, in parts, each defined and written by one file
 * (read by the others); ftd_mpi.c says which lock guards what.
 */

/* ftd_mpi.c: the lock and the attached communicators. */
struct ftdm_core {
	pthread_mutex_t lock;
	int depth;			/* the lock's recursion depth */
	struct attachment *list;
};
extern struct ftdm_core ftdm;

/* ftd_mpi_log.c (ftdm_env_read): the environment, read at the first attach. */
struct ftdm_env {
	bool read, debug, no_thread;
	int pmix;			/* FTD_MPI_PMIX: -1 unset, 0, 1 */
	int revoke;			/* FTD_MPI_REVOKE: -1 unset, 0, 1 */
	bool keep_sigpipe;		/* FTD_MPI_SIGPIPE=keep */
	bool scope;			/* FTD_MPI_SCOPE (default 1): register scoped */
	int json_fd;			/* -1: no JSON lines (closed at the clean exit) */
	int reporters;
	unsigned int pmix_timeout_ms, fence_grace_ms, revoke_wait_ms;
	const char *device;
};
extern struct ftdm_env ftdm_env;

/* ftd_mpi_process.c: this process, from its first attach to its exit. */
struct ftdm_process {
	bool open;
	struct ftd_handle *dev;		/* NULL: no device (a partial attach) */
	struct ftd_info info;
	bool registered, explicit_id;
	uint32_t job, rank;
	int world_rank, thread_level;
	struct ftd_pmix pmix;
	int pmix_err;			/* 0: active */
	const char *no_ulfm_why;	/* NULL: the job has ULFM (ftdm_ulfm_decide) */
	const char *no_revoke_why;	/* NULL: revokes (ftdm_revoke_decide) */
	int comm_keyval, self_keyval;
	int open_err;			/* ftdm_process_open()'s verdict, kept */
	bool closing;
	bool no_thread;			/* no watcher: the application drains */
};
extern struct ftdm_process ftdm_proc;

/* ftd_mpi_watch.c: the watcher thread and who dispatches. */
struct ftdm_watcher {
	bool running, stop;
	pthread_t thread;
	int wake_fd;
	bool zombie;			/* a stopped watcher, joined by ftdm_unlock() */
	pthread_t zombie_thread;
	int zombie_fd;
	bool dispatching;
	pthread_t dispatcher;
};
extern struct ftdm_watcher ftdm_watch;

/* ftd_mpi.c: ftdm.lock (recursive) and the attachments, under it */
void ftdm_lock(void);
void ftdm_unlock(void);
struct attachment *ftdm_find(MPI_Comm comm);
bool ftdm_in_callback(void);
void ftdm_attachment_free(struct attachment *a);
void ftdm_detach_all(void);
struct attachment *ftdm_unlink(MPI_Comm comm);
void ftdm_sweep(void);

/* ftd_mpi_log.c */
void ftdm_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * One FTD_MPI_JSON line, "ftd_mpi WHAT: {...}": begin gives the writer with
 * the object open and the process's own members in it (NULL when
 * FTD_MPI_JSON is off), the caller adds its members, end writes the line at
 * once (one write: ranks and threads share the file).
 */
struct ftdm_json_line {
	struct ftu_json j;
	FILE *f;
	char *buf;
	size_t len;
};
/* A callback line lists at most this many of its ranks. */
#define FTDM_JSON_RANKS 64
struct ftu_json *ftdm_json_begin(struct ftdm_json_line *l, const char *what);
void ftdm_json_end(struct ftdm_json_line *l);
void ftdm_json_close(void);
uint64_t ftdm_clock_ns(clockid_t id);
void ftdm_env_read(void);
unsigned long ftdm_env_ulong(const char *name, unsigned long def);

/* ftd_mpi_process.c */
int ftdm_hooks_init(void);
int ftdm_process_open(bool no_thread);
void ftdm_process_registered(uint32_t job, uint32_t rank, bool explicit_id);

/* ftd_mpi_scope.c, under ftdm.lock: where this process's end goes. */
/* Register (job, rank), scoped unless FTD_MPI_SCOPE=0 or the module has none. */
int ftdm_scope_register(uint32_t job, uint32_t rank);
/* A group attached: its nodes join the scope. */
void ftdm_scope_add(const struct ftd_group *g);
/* The attach line's "scoped" and "scope_nodes" (-1: every node told). */
void ftdm_scope_json(struct ftu_json *j);
/* The registration ended. */
void ftdm_scope_forget(void);
void ftdm_process_close_if_idle(void);

/* ftd_mpi_watch.c */
int ftdm_drain(bool app_thread);
int ftdm_watcher_start(void);
void ftdm_watcher_stop(void);
bool ftdm_watcher_take_zombie(pthread_t *thread, int *wake_fd);

/* ftd_mpi_act.c */
void ftdm_report_pmix(void);
void ftdm_reported_forget(void);
enum ftd_mpi_action ftdm_revoke(struct attachment *a, bool app_thread);
const char *ftdm_ulfm_decide(void);
const char *ftdm_revoke_decide(void);
void ftdm_call(struct attachment *a, enum ftd_mpi_cause cause, const struct ftd_event *ev);
void ftdm_fence(const struct ftd_event *ev);

#endif /* FTD_MPI_INTERNAL_H */
