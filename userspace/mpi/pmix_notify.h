/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * Failure reports to the MPI runtime through PMIx, with no MPI dependency:
 * libftdetect_mpi calls this from its watcher, and selftests/mpi/ drives it
 * against a real PMIx server.
 *
 * A report is one PMIx_Notify_event(PMIX_ERR_PROC_ABORTED) from this process,
 * the way Open MPI's ULFM layer expects a fault event
 * (ompi/errhandler/errhandler.c, ompi_errhandler_callback):
 *
 *   info                         type                value
 *   PMIX_EVENT_AFFECTED_PROC     PMIX_PROC           {nspace, rank}, one per failed rank
 *   PMIX_EVENT_CUSTOM_RANGE      PMIX_DATA_ARRAY     one PMIX_PROC {nspace, PMIX_RANK_WILDCARD}
 *   PMIX_EVENT_NON_DEFAULT       PMIX_BOOL           true
 *   range PMIX_RANGE_CUSTOM, source this process.
 *
 * Open MPI 5's ULFM layer takes every PMIX_PROC-typed info of such an event
 * as a failed process and ignores other types: hence one
 * PMIX_EVENT_AFFECTED_PROC per rank (the PMIX_EVENT_AFFECTED_PROCS array
 * would be skipped), and the custom range in its documented form, a data
 * array, so that the wildcard proc is not read as a failed process.
 * PMIX_EVENT_NON_DEFAULT keeps the event from default handlers, which in
 * Open MPI abort the job.
 *
 * Open MPI 4's runtime (ORTE) cannot relay such a report: its PMIx glue
 * cannot convert the data array ("PACK-OPAL-VALUE: UNSUPPORTED TYPE 0 FOR
 * KEY pmix.evrange", the event is dropped), and with the range as a single
 * PMIX_PROC instead the notifier's acknowledgement never comes and the job
 * hangs in MPI_Finalize (both seen with Debian 12's Open MPI 4.1.4), while
 * Open MPI 4 has no ULFM layer to use it anyway: libftdetect_mpi built for
 * Open MPI < 5 does not report through PMIx unless told to (ftd_mpi_process.c).
 */
#ifndef FTD_MPI_PMIX_NOTIFY_H
#define FTD_MPI_PMIX_NOTIFY_H

#include <stddef.h>
#include <stdint.h>

#define FTD_PMIX_NSLEN 255	/* PMIX_MAX_NSLEN */

struct ftd_pmix {
	int active;			/* ftd_pmix_open() succeeded */
	char nspace[FTD_PMIX_NSLEN + 1];
	uint32_t rank;
	int status;			/* last pmix_status_t, for messages */
};

/*
 * Become a PMIx client of the server that launched this process, or share
 * the PMIx client the MPI library already initialised (PMIx_Init counts
 * references). 0; -ENOENT: not launched under a PMIx server (PMIx is not
 * initialised and PMIX_NAMESPACE is not set: mpiexec.hydra, singletons; or
 * PMIx_Init finds no server to reach: an Open MPI 5 singleton); -EIO:
 * PMIx_Init failed otherwise; -ENOTSUP: built without PMIx.
 */
int ftd_pmix_open(struct ftd_pmix *p);
void ftd_pmix_close(struct ftd_pmix *p);

/*
 * Report ranks (of this process's namespace) as aborted, as described above,
 * and wait up to timeout_ms for the server to take the event. 0; -EINVAL (no
 * ranks, not open); -ENOMEM; -ETIMEDOUT; -EIO (p->status says why).
 */
int ftd_pmix_notify_failed(struct ftd_pmix *p, const uint32_t *ranks, size_t n,
			   unsigned int timeout_ms);

/* PMIx_Error_string(p->status), or a fixed string without PMIx. */
const char *ftd_pmix_status_string(const struct ftd_pmix *p);

/*
 * The ftdetect job id of a PMIx namespace: 32-bit FNV-1a of its bytes, 1
 * instead of 0 (0 is never a job id). Every process of a namespace computes
 * the same value, so no exchange is needed, and a script can compute it too.
 */
uint32_t ftd_pmix_job_id(const char *nspace);

#endif /* FTD_MPI_PMIX_NOTIFY_H */
