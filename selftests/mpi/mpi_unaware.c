// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_unaware: an MPI program that knows nothing of ftdetect (no header of
 * it, no library of it linked), for FTD_MPI_AUTO (ftdetect_mpi(3)): the
 * glue is preloaded and attaches MPI_COMM_WORLD at MPI_Init.
 *
 *   mpi_unaware plain    a barrier, "PASS rank R", MPI_Finalize
 *   mpi_unaware victim   the last rank waits to be killed or cut off; every
 *                        other rank waits in MPI_Recv from it, errors
 *                        returned. Each rank says "ready rank=R pid=P",
 *                        a survivor "returned rank=R class=C time_ns=T"
 *                        when its receive ends (CLOCK_REALTIME); with ULFM
 *                        (Open MPI's ftmpi extension) it then shrinks
 *                        MPI_COMM_WORLD, passes a barrier on the new
 *                        communicator, says "shrunk rank=R size=N step=S
 *                        class=C" (S: the step that returned C, shrink or
 *                        barrier) and, if both succeeded, finalizes and
 *                        says "finalized rank=R".
 */
#include <mpi.h>
#if defined(OPEN_MPI)
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(OMPI_HAVE_MPI_EXT_FTMPI) && OMPI_HAVE_MPI_EXT_FTMPI
#define HAVE_ULFM 1
#else
#define HAVE_ULFM 0
#endif

static unsigned long long realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static const char *class_name(int err)
{
	int cls = MPI_SUCCESS;

	if (err == MPI_SUCCESS)
		return "MPI_SUCCESS";
	MPI_Error_class(err, &cls);
#if HAVE_ULFM
	if (cls == MPIX_ERR_PROC_FAILED)
		return "MPIX_ERR_PROC_FAILED";
	if (cls == MPIX_ERR_REVOKED)
		return "MPIX_ERR_REVOKED";
#endif
	return "other";
}

static int victim(int rank, int size)
{
	int buf, err;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Barrier(MPI_COMM_WORLD);
	printf("ready rank=%d pid=%d\n", rank, (int)getpid());
	fflush(stdout);
	if (rank == size - 1) {
		for (;;)
			pause();	/* killed, or its node cut off */
	}
	err = MPI_Recv(&buf, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	printf("returned rank=%d class=%s time_ns=%llu\n", rank, class_name(err), realtime_ns());
	fflush(stdout);
#if HAVE_ULFM
	{
		MPI_Comm shrunk = MPI_COMM_NULL;
		const char *step = "shrink";
		int n = 0;

		err = MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk);
		if (err == MPI_SUCCESS) {
			step = "barrier";
			err = MPI_Barrier(shrunk);
			MPI_Comm_size(shrunk, &n);
		}
		printf("shrunk rank=%d size=%d step=%s class=%s\n", rank, n, step, class_name(err));
		fflush(stdout);
		/*
		 * A process that ends without MPI_Finalize has failed, for ULFM
		 * as for ftdetect: a survivor that left the barrier first and
		 * just exited would fail those still in it.
		 */
		if (err == MPI_SUCCESS) {
			MPI_Comm_free(&shrunk);
			MPI_Finalize();
			printf("finalized rank=%d\n", rank);
			fflush(stdout);
		}
	}
#endif
	/* What is left of the job is the launcher's to end. */
	return 0;
}

int main(int argc, char **argv)
{
	int rank, size;

	if (argc != 2 || (strcmp(argv[1], "plain") && strcmp(argv[1], "victim"))) {
		fprintf(stderr, "usage: mpi_unaware plain|victim\n");
		return 2;
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(argv[1], "victim"))
		return victim(rank, size);
	MPI_Barrier(MPI_COMM_WORLD);
	printf("PASS rank %d\n", rank);
	MPI_Finalize();
	return 0;
}
