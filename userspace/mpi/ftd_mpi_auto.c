// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * FTD_MPI_AUTO: an application that never calls ftd_mpi_attach() gets
 * MPI_COMM_WORLD attached at MPI_Init, so that an unmodified ULFM program
 * learns of deaths from ftdetect (through the PMIx report, which is what
 * Open MPI's ULFM acts on) without a line of code:
 *
 *   mpirun -x LD_PRELOAD=libftdetect_mpi_openmpi5.so.1 -x FTD_MPI_AUTO=1 ./app
 *
 * MPI_Init and MPI_Init_thread are defined here over the MPI profiling
 * interface (PMPI_*), and so they stand in for the MPI's own in every
 * program that loads this library first (LD_PRELOAD) or links it. Without
 * FTD_MPI_AUTO they do nothing but call the MPI's. The attach is partial
 * (a rank on a node without ftdetect is left unmonitored, the job runs)
 * and does not revoke MPI_COMM_WORLD unless FTD_MPI_REVOKE=1: the
 * application did not ask for it, and ULFM already fails its operations
 * with the dead. A failed attach is said on standard error, and the
 * application goes on without ftdetect; MPI_Init's own result is returned
 * either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ftd_mpi_internal.h"

static void auto_attach(void)
{
	const char *v = getenv("FTD_MPI_AUTO");
	const char *revoke = getenv("FTD_MPI_REVOKE");
	unsigned int flags = FTD_MPI_PARTIAL;
	int err, rank = -1;

	if (!v || !*v || !strcmp(v, "0"))
		return;
	if (!revoke || strcmp(revoke, "1"))
		flags |= FTD_MPI_NO_REVOKE;
	err = ftd_mpi_attach(MPI_COMM_WORLD, NULL, NULL, flags);
	if (err) {
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		fprintf(stderr, "ftd_mpi[%d]: FTD_MPI_AUTO: MPI_COMM_WORLD not attached: %s; this job runs without ftdetect\n",
			rank, ftd_mpi_strerror(err));
		return;
	}
	ftdm_debug("FTD_MPI_AUTO: MPI_COMM_WORLD attached%s",
		   flags & FTD_MPI_NO_REVOKE ? " (no revoke)" : "");
}

__attribute__((visibility("default"))) int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);

	if (rc == MPI_SUCCESS)
		auto_attach();
	return rc;
}

__attribute__((visibility("default"))) int MPI_Init_thread(int *argc, char ***argv, int required,
							    int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);

	if (rc == MPI_SUCCESS)
		auto_attach();
	return rc;
}
