// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_smoke: libftdetect_mpi in a real MPI job on the host, where there is
 * no /dev/ftdetect (selftests/mpi-host/run launches it with mpirun/mpiexec).
 *
 *   mpi_smoke errors    attach fails the same way at every rank: rank 0 has
 *                       no device (-ENOENT), the others a device that is not
 *                       ftdetect (/dev/null: -ENOTTY); everyone must return
 *                       rank 0's -ENOENT; bad arguments; nothing left behind
 *   mpi_smoke partial   FTD_MPI_PARTIAL: the attach succeeds everywhere with
 *                       nobody watched; queries, detach, MPI_Comm_free; a
 *                       communicator named ODD_NAME (the run checks that its
 *                       FTD_MPI_JSON line is JSON and names it so)
 *   mpi_smoke pmix      report the last rank failed through PMIx, from rank
 *                       0, while it is alive: under a PMIx server (Open MPI's
 *                       mpirun) the client must get its acknowledgement and
 *                       the job must carry on and finish (Open MPI 4's ORTE
 *                       logs that it cannot relay it: pmix_notify.h); without
 *                       one (MPICH's hydra) ftd_pmix_open() must say -ENOENT
 *   mpi_smoke pmix-auto whether the library reports through PMIx here
 *                       (ftd_mpi_features()) is FTD_EXPECT_PMIX_ACTIVE (0/1)
 *   mpi_smoke pmix-ulfm under an MPI whose ULFM takes PMIx reports (Open MPI
 *                       5, launched --with-ft ulfm): rank 0 reports the last
 *                       rank failed while it is alive; the others' receive
 *                       from it must fail with MPIX_ERR_PROC_FAILED, they
 *                       shrink, agree and finalize, and the MPI ends the
 *                       victim itself (fail-stop), which prints no PASS
 *
 * Every rank prints "PASS rank R" or "FAIL rank R: why"; exit status 1 on
 * any failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#if FTD_MPI_HAVE_ULFM && defined(OPEN_MPI)
#include <mpi-ext.h>
#endif
#include "ftdetect_mpi.h"
#include "mpi/pmix_notify.h"

static int rank, size, failures;

/* Quotes, a backslash, a tab and a newline: each must be escaped in JSON. */
#define ODD_NAME "a \"dup\" \\ of\tthe\nworld"

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		printf("FAIL rank %d: line %d: ", rank, __LINE__);	\
		printf(__VA_ARGS__);					\
		putchar('\n');						\
		failures++;						\
	}								\
} while (0)

static int errors(void)
{
	uint32_t job, r;
	int err;

	setenv("FTD_MPI_DEVICE", rank == 0 ? "/nonexistent/ftdetect" : "/dev/null", 1);
	err = ftd_mpi_attach(MPI_COMM_WORLD, NULL, NULL, 0);
	CHECK(err == -ENOENT, "attach: %d (%s), expected rank 0's -ENOENT", err,
	      ftd_mpi_strerror(err));
	/* nothing stays half open */
	CHECK(ftd_mpi_fd() == -ENOENT, "ftd_mpi_fd after a failed attach: %d", ftd_mpi_fd());
	CHECK(ftd_mpi_identity(&job, &r) == -ENOENT, "an identity after a failed attach");
	CHECK(ftd_mpi_progress() == -ENOENT, "progress after a failed attach");
	/* again: the same answer, not "already attached" */
	err = ftd_mpi_attach(MPI_COMM_WORLD, NULL, NULL, 0);
	CHECK(err == -ENOENT, "second attach: %d", err);
	/* arguments */
	err = ftd_mpi_attach(MPI_COMM_WORLD, NULL, NULL, 1u << 30);
	CHECK(err == -EINVAL, "unknown flag: %d", err);
	err = ftd_mpi_attach(MPI_COMM_NULL, NULL, NULL, 0);
	CHECK(err == -EINVAL, "MPI_COMM_NULL: %d", err);
	CHECK(ftd_mpi_detach(MPI_COMM_WORLD) == -ENOENT, "detach of what is not attached");
	CHECK(ftd_mpi_set_callback(MPI_COMM_WORLD, NULL, NULL) == -ENOENT, "set_callback");
	CHECK(ftd_mpi_failed(MPI_COMM_WORLD, NULL, 0) == -ENOENT, "failed");
	CHECK(ftd_mpi_register(0, 0) == -EINVAL, "register job 0");
	return 0;
}

static int partial(void)
{
	uint32_t node;
	MPI_Comm dup;
	int err, ranks[4];

	setenv("FTD_MPI_DEVICE", "/nonexistent/ftdetect", 1);
	err = ftd_mpi_attach(MPI_COMM_WORLD, NULL, NULL, FTD_MPI_PARTIAL);
	CHECK(err == 0, "partial attach: %d (%s)", err, ftd_mpi_strerror(err));
	err = ftd_mpi_attach(MPI_COMM_WORLD, NULL, NULL, FTD_MPI_PARTIAL);
	CHECK(err == -EALREADY, "attach twice: %d", err);
	err = ftd_mpi_node_of(MPI_COMM_WORLD, size - 1, &node);
	CHECK(err == -ENODEV, "node of an unwatched rank: %d", err);
	CHECK(ftd_mpi_node_of(MPI_COMM_WORLD, size, &node) == -EINVAL, "node of rank size");
	CHECK(ftd_mpi_failed(MPI_COMM_WORLD, ranks, 4) == 0, "failed ranks of a new comm");
	CHECK(ftd_mpi_fd() == -ENOENT, "a device fd without a device");
	CHECK(ftd_mpi_progress() == 0, "progress without a device: %d", ftd_mpi_progress());
	CHECK(ftd_mpi_detach(MPI_COMM_WORLD) == 0, "detach");
	CHECK(ftd_mpi_detach(MPI_COMM_WORLD) == -ENOENT, "detach twice");
	/* MPI_Comm_free detaches; a name that JSON must escape (FTD_MPI_JSON) */
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_name(dup, ODD_NAME);
	err = ftd_mpi_attach(dup, NULL, NULL, FTD_MPI_PARTIAL | FTD_MPI_NO_THREAD);
	CHECK(err == 0, "partial attach of a dup: %d", err);
	CHECK(ftd_mpi_failed(dup, NULL, 0) == 0, "dup attached");
	MPI_Comm_free(&dup);
	/* left attached on purpose: MPI_Finalize detaches it */
	err = ftd_mpi_attach(MPI_COMM_WORLD, NULL, NULL, FTD_MPI_PARTIAL);
	CHECK(err == 0, "attach again: %d", err);
	return 0;
}

static int pmix_auto(void)
{
	const char *expect = getenv("FTD_EXPECT_PMIX_ACTIVE");
	unsigned int f;
	int err;

	setenv("FTD_MPI_DEVICE", "/nonexistent/ftdetect", 1);
	err = ftd_mpi_attach(MPI_COMM_WORLD, NULL, NULL, FTD_MPI_PARTIAL);
	CHECK(err == 0, "partial attach: %d", err);
	f = ftd_mpi_features();
	if (rank == 0)
		printf("rank 0: features %#x (FTD_MPI_PMIX=%s)\n", f,
		       getenv("FTD_MPI_PMIX") ? getenv("FTD_MPI_PMIX") : "unset");
	CHECK(expect && !!(f & FTD_MPI_FEATURE_PMIX_ACTIVE) == (*expect == '1'),
	      "PMIX_ACTIVE is %d, FTD_EXPECT_PMIX_ACTIVE=%s", !!(f & FTD_MPI_FEATURE_PMIX_ACTIVE),
	      expect ? expect : "unset");
	CHECK(!(f & FTD_MPI_FEATURE_ULFM) == !FTD_MPI_HAVE_ULFM, "ULFM feature %#x", f);
	return 0;
}

static int pmix(void)
{
	struct ftd_pmix p;
	uint32_t victim = size - 1;
	int err, open_err;

	open_err = ftd_pmix_open(&p);
	if (rank == 0)
		printf("rank 0: ftd_pmix_open: %s\n", open_err ? strerror(-open_err) : "ok");
	if (getenv("FTD_EXPECT_PMIX")) {
		CHECK(open_err == 0, "ftd_pmix_open under a PMIx server: %d (%s)", open_err,
		      ftd_pmix_status_string(&p));
	} else {
		CHECK(open_err == -ENOENT, "ftd_pmix_open without a PMIx server: %d", open_err);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (!open_err && rank == 0) {
		err = ftd_pmix_notify_failed(&p, &victim, 1, 10000);
		CHECK(err == 0, "notify: %d (%s)", err, ftd_pmix_status_string(&p));
	}
	/* the runtime took it, and the job goes on: a collective with everyone */
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	if (!open_err)
		ftd_pmix_close(&p);
	return 0;
}

#if FTD_MPI_HAVE_ULFM
static void pmix_ulfm(void)
{
	struct ftd_pmix p;
	uint32_t victim = size - 1;
	int err, x, cls = 0, flag = 1;
	MPI_Comm shrunk;

	err = ftd_pmix_open(&p);
	CHECK(err == 0, "ftd_pmix_open under a PMIx server: %d (%s)", err, ftd_pmix_status_string(&p));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == (int)victim) {
		/* a message that never comes: the MPI must end this process */
		err = MPI_Recv(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("FAIL rank %d: the reported rank's receive returned (%d): the MPI did not end it\n",
		       rank, err);
		fflush(stdout);
		_exit(1);
	}
	if (rank == 0) {
		err = ftd_pmix_notify_failed(&p, &victim, 1, 10000);
		CHECK(err == 0, "notify: %d (%s)", err, ftd_pmix_status_string(&p));
	}
	err = MPI_Recv(&x, 1, MPI_INT, victim, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Error_class(err, &cls);
	CHECK(cls == MPIX_ERR_PROC_FAILED, "receive from the reported rank: error class %d, "
	      "expected MPIX_ERR_PROC_FAILED (%d)", cls, MPIX_ERR_PROC_FAILED);
	MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk);
	MPI_Comm_size(shrunk, &x);
	CHECK(x == size - 1, "shrunk to %d ranks, expected %d", x, size - 1);
	MPIX_Comm_agree(shrunk, &flag);
	MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_MAX, shrunk);
	MPI_Comm_free(&shrunk);
	ftd_pmix_close(&p);
	if (!failures)
		printf("PASS rank %d\n", rank);
	fflush(stdout);
	MPI_Finalize();
	exit(failures ? 1 : 0);
}
#endif

int main(int argc, char **argv)
{
	int provided, any;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 2) {
		if (!rank)
			fprintf(stderr, "usage: %s errors|partial|pmix|pmix-auto\n", argv[0]);
		MPI_Finalize();
		return 64;
	}
	if (!strcmp(argv[1], "errors"))
		errors();
	else if (!strcmp(argv[1], "partial"))
		partial();
	else if (!strcmp(argv[1], "pmix"))
		pmix();
	else if (!strcmp(argv[1], "pmix-auto"))
		pmix_auto();
#if FTD_MPI_HAVE_ULFM
	else if (!strcmp(argv[1], "pmix-ulfm"))
		pmix_ulfm();
#endif
	else
		CHECK(0, "unknown mode %s", argv[1]);
	MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (!failures)
		printf("PASS rank %d\n", rank);
	fflush(stdout);
	MPI_Finalize();
	return any ? 1 : 0;
}
