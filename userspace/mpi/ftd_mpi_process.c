// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libftdetect_mpi: the process's part of the first attach and of the last
 * detach (the device, this node, the PMIx client, the registration), and
 * the MPI attribute hooks by which MPI_Comm_free() and MPI_Finalize()
 * detach.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftd_mpi_internal.h"

struct ftdm_process ftdm_proc = {
	.comm_keyval = MPI_KEYVAL_INVALID,
	.self_keyval = MPI_KEYVAL_INVALID,
};

/* ------------------------------------------------------------ the process */

static int comm_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra);
static int self_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra);

/*
 * The MPI hooks, once per process and never under ftdm.lock: an attribute on
 * each attached communicator, so that MPI_Comm_free() detaches it, and one
 * on MPI_COMM_SELF, whose attributes MPI_Finalize() deletes first thing.
 */
int ftdm_hooks_init(void)
{
	static bool done;

	if (done)
		return 0;
	if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete_fn, &ftdm_proc.comm_keyval, NULL) ||
	    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete_fn, &ftdm_proc.self_keyval, NULL) ||
	    MPI_Comm_set_attr(MPI_COMM_SELF, ftdm_proc.self_keyval, NULL))
		return -EIO;
	done = true;
	return 0;
}

/*
 * A survivor must not die of its dead peer. Open MPI's TCP transport
 * writes to a connection whose far end has just died before it learns of
 * the death, and on Linux that write raises SIGPIPE, whose default action
 * ends the process without a word: in the project's VM a survivor of a
 * rank killed and a node cut off at once died so, right after the kill,
 * in 1 of 8 runs with the library's revoke on (a revoke writes to every
 * member at once), and 1 of 5 before. With SIGPIPE ignored the write fails
 * with EPIPE and the transport marks the peer failed, which ULFM takes
 * in. So a job with ULFM ignores it, unless the application set its own
 * disposition or FTD_MPI_SIGPIPE=keep.
 */
static void sigpipe_ignore(void)
{
	struct sigaction old, ign = { .sa_handler = SIG_IGN };

	if (ftdm_env.keep_sigpipe) {
		ftdm_debug("FTD_MPI_SIGPIPE=keep: SIGPIPE left as it is (a write to a dead "
			   "peer's connection may end this process)");
		return;
	}
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGPIPE, NULL, &old) || (old.sa_flags & SA_SIGINFO) ||
	    old.sa_handler != SIG_DFL)
		return;	/* the application's own choice */
	if (!sigaction(SIGPIPE, &ign, NULL))
		ftdm_debug("SIGPIPE ignored: a write to a dead peer's connection fails (EPIPE) "
			   "instead of ending this process (FTD_MPI_SIGPIPE=keep leaves it)");
}

/*
 * Under ftdm.lock, the process-wide part of the first attach (or of an
 * explicit registration before it): the device, this node, PMIx. 0, or why
 * this process cannot register; the verdict is kept until process_close().
 * no_thread: no watcher thread; the first attach starts it or not, so
 * whoever comes before that attach has a say, a registration included
 * (FTD_MPI_THREAD=0 is for the whole process).
 */
int ftdm_process_open(bool no_thread)
{
	int err;

	if (!ftdm.list)
		ftdm_proc.no_thread |= no_thread;
	if (ftdm_proc.open)
		return ftdm_proc.open_err;
	ftdm_proc.open = true;
	MPI_Query_thread(&ftdm_proc.thread_level);
	if (ftdm_env.pmix == 0) {
		ftdm_debug("FTD_MPI_PMIX=0: failures are not reported through PMIx");
		ftdm_proc.pmix_err = -ECANCELED;
	} else if (FTD_MPI_ORTE && ftdm_env.pmix < 0) {
		/* pmix_notify.h: ORTE drops the report, or hangs on it */
		ftdm_debug("Open MPI < 5: its runtime (ORTE) cannot relay PMIx failure reports, and "
		      "it has no ULFM to use them: not reported through PMIx (FTD_MPI_PMIX=1 "
		      "forces them)");
		ftdm_proc.pmix_err = -EOPNOTSUPP;
	} else {
		ftdm_proc.pmix_err = ftd_pmix_open(&ftdm_proc.pmix);
		if (ftdm_proc.pmix_err == -ENOENT)
			ftdm_debug("not launched by a PMIx server (PMIx not initialised and PMIX_NAMESPACE "
			      "unset, or no server to reach: a singleton): failures are not reported "
			      "through PMIx");
		else if (ftdm_proc.pmix_err == -ENOTSUP)
			ftdm_debug("built without PMIx: failures are not reported through PMIx");
		else if (ftdm_proc.pmix_err)
			fprintf(stderr, "ftd_mpi[%d]: PMIx_Init failed (%s): failures are not "
				"reported through PMIx\n", ftdm_proc.world_rank,
				ftd_pmix_status_string(&ftdm_proc.pmix));
		else
			ftdm_debug("PMIx client of namespace %s, rank %u", ftdm_proc.pmix.nspace, ftdm_proc.pmix.rank);
	}
	ftdm_proc.no_ulfm_why = ftdm_ulfm_decide();
	ftdm_proc.no_revoke_why = NULL;
	if (FTD_MPI_HAVE_ULFM && ftdm_proc.no_ulfm_why) {
		ftdm_debug("no ULFM in this job: %s; communicators are not revoked", ftdm_proc.no_ulfm_why);
	} else if (FTD_MPI_HAVE_ULFM) {
		sigpipe_ignore();
		ftdm_proc.no_revoke_why = ftdm_revoke_decide();
		if (ftdm_proc.no_revoke_why)
			ftdm_debug("communicators are not revoked: %s (FTD_MPI_REVOKE=1 revokes)",
				   ftdm_proc.no_revoke_why);
	}
	ftdm_proc.dev = ftd_open(ftdm_env.device);
	if (!ftdm_proc.dev) {
		ftdm_proc.open_err = -errno;
		return ftdm_proc.open_err;
	}
	err = ftd_info(ftdm_proc.dev, &ftdm_proc.info);
	if (!err && (ftdm_proc.info.node == FTD_NODE_NONE || !ftdm_proc.info.up))
		err = -ENETDOWN;
	if (err) {
		/* no device at all: nothing to watch with */
		ftd_close(ftdm_proc.dev);
		ftdm_proc.dev = NULL;
		ftdm_proc.info.node = FTD_NODE_NONE;
		ftdm_proc.open_err = err;
	}
	return ftdm_proc.open_err;
}

/* Under ftdm.lock: the registration ftd_register() just made (explicit: ftd_mpi_register). */
void ftdm_process_registered(uint32_t job, uint32_t rank, bool explicit_id)
{
	ftdm_proc.registered = true;
	ftdm_proc.explicit_id |= explicit_id;
	ftdm_proc.job = job;
	ftdm_proc.rank = rank;
}

/* Under ftdm.lock: undo ftdm_process_open(), drop every attachment. */
static void process_close(void)
{
	struct ftdm_json_line line;
	struct ftu_json *j;

	if (!ftdm_proc.open || ftdm_proc.closing)
		return;
	ftdm_proc.closing = true;
	ftdm_watcher_stop();
	ftdm_detach_all();
	if (ftdm_proc.registered) {
		/* a clean exit: PROC_EXIT everywhere, not PROC_DEAD */
		if (ftd_deregister(ftdm_proc.dev))
			ftdm_debug("deregistering failed");
		ftdm_proc.registered = false;
		ftdm_scope_forget();
		if ((j = ftdm_json_begin(&line, "deregistered"))) {
			ftu_json_kv_bool(j, "clean", true);
			ftdm_json_end(&line);
		}
	}
	ftd_close(ftdm_proc.dev);
	ftdm_proc.dev = NULL;
	ftd_pmix_close(&ftdm_proc.pmix);
	ftdm_reported_forget();
	memset(&ftdm_proc.info, 0, sizeof(ftdm_proc.info));
	ftdm_proc.job = ftdm_proc.rank = 0;
	ftdm_proc.explicit_id = false;
	ftdm_proc.no_thread = false;
	ftdm_proc.open_err = 0;
	ftdm_proc.open = false;
	ftdm_proc.closing = false;
}

/* Nothing attached and no explicit registration: undo ftdm_process_open(). */
void ftdm_process_close_if_idle(void)
{
	if (ftdm_proc.open && !ftdm.list && !ftdm_proc.explicit_id)
		process_close();
}

/* MPI_Comm_free of an attached communicator: detach it. */
static int comm_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra)
{
	struct attachment *a;

	ftdm_lock();
	if (ftdm_in_callback()) {
		/* the dispatch loop holds it: freed when the loop is done */
		a = ftdm_find(comm);
		if (a)
			a->gone = true;
	} else {
		a = ftdm_unlink(comm);
		if (a) {
			ftdm_attachment_free(a);
			ftdm_process_close_if_idle();
		}
	}
	ftdm_unlock();
	return MPI_SUCCESS;
}

/* MPI_Finalize: everything goes, and this process exits cleanly. */
static int self_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra)
{
	struct attachment *a;
	MPI_Comm *comms = NULL;
	size_t n = 0, i = 0;

	ftdm_lock();
	ftdm_debug("MPI_Finalize: detaching everything");
	for (a = ftdm.list; a; a = a->next)
		n++;
	if (n)
		comms = calloc(n, sizeof(*comms));
	for (a = ftdm.list; a && comms; a = a->next)
		if (!a->gone)
			comms[i++] = a->comm;
	n = i;
	process_close();
	ftdm_unlock();
	/*
	 * The attributes of communicators still alive (MPI_COMM_WORLD): Open
	 * MPI 5 frees no attribute left at MPI_Finalize. Their delete
	 * function finds nothing to detach now.
	 */
	for (i = 0; i < n; i++)
		MPI_Comm_delete_attr(comms[i], ftdm_proc.comm_keyval);
	free(comms);
	/* as ROMIO does for its own: the keyvals go with MPI */
	MPI_Comm_free_keyval(&ftdm_proc.comm_keyval);
	MPI_Comm_free_keyval(&ftdm_proc.self_keyval);
	ftdm_json_close();
	return MPI_SUCCESS;
}
