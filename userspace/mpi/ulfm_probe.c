// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * The ULFM probe (userspace/mpi/mpi-probe): does this MPI have working
 * ULFM, so that libftdetect_mpi may call MPIX_Comm_revoke?
 *
 * Compiled: it must declare the calls, and be an MPI known to implement
 * them (Open MPI with its ftmpi extension, MPICH from FTD_ULFM_MPICH_MIN).
 * Run as a singleton (no launcher): revoke a duplicate of MPI_COMM_SELF, a
 * barrier on it must fail with MPIX_ERR_REVOKED, shrink must give a
 * communicator of one, agree must succeed on it. Exit 0 when all holds;
 * otherwise say what went wrong. Debian 12's MPICH 4.0.2 declares the
 * calls and aborts inside them; its Open MPI 4.1.4 has no ftmpi extension.
 */
#include <stdio.h>
#include <mpi.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#if !defined(OMPI_HAVE_MPI_EXT_FTMPI) || !OMPI_HAVE_MPI_EXT_FTMPI
#error "ftd-ulfm: Open MPI without the ftmpi extension (no OMPI_HAVE_MPI_EXT_FTMPI in mpi-ext.h)"
#endif
#elif defined(MPICH_NUMVERSION)
#ifndef FTD_ULFM_MPICH_MIN
#define FTD_ULFM_MPICH_MIN 40100000
#endif
#if MPICH_NUMVERSION < FTD_ULFM_MPICH_MIN
#error "ftd-ulfm: MPICH older than FTD_ULFM_MPICH_MIN (4.0.x declares the ULFM calls but aborts inside them)"
#endif
#else
#error "ftd-ulfm: neither Open MPI nor MPICH: ULFM support unknown"
#endif

int main(int argc, char **argv)
{
	MPI_Comm dup, shrunk;
	int rc, cls, size, flag = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_dup(MPI_COMM_SELF, &dup);
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
	if (MPIX_Comm_revoke(dup) != MPI_SUCCESS) {
		puts("MPIX_Comm_revoke failed");
		return 2;
	}
	rc = MPI_Barrier(dup);
	MPI_Error_class(rc, &cls);
	if (cls != MPIX_ERR_REVOKED) {
		printf("a barrier on a revoked communicator gave error class %d, not MPIX_ERR_REVOKED\n", cls);
		return 3;
	}
	if (MPIX_Comm_shrink(dup, &shrunk) != MPI_SUCCESS || MPI_Comm_size(shrunk, &size) != MPI_SUCCESS ||
	    size != 1) {
		puts("MPIX_Comm_shrink of a revoked communicator failed");
		return 4;
	}
	if (MPIX_Comm_agree(shrunk, &flag) != MPI_SUCCESS || flag != 1) {
		puts("MPIX_Comm_agree failed");
		return 5;
	}
	MPI_Comm_free(&shrunk);
	MPI_Comm_free(&dup);
	MPI_Finalize();
	puts("ok");
	return 0;
}
