// SPDX-License-Identifier: GPL-2.0
/*
 * ftb-ulfm: how long after a rank's death the survivors' MPI call returns
 * the ULFM error, for bench/ulfm.sh. Built per MPI that make mpi found
 * (build/bench/mpi/ftb-ulfm.FLAVOUR); it measures only where that MPI has
 * working ULFM, and otherwise exits 2 saying so.
 *
 *   ftb-ulfm --dir DIR --victim R [--glue]
 *
 * Every rank works on a duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN;
 * with --glue it is attached with ftd_mpi_attach(), so that ftdetect's
 * failures reach the MPI through libftdetect_mpi, and without it the MPI is
 * on its own. After a barrier:
 * - rank R (the victim) waits in MPI_Recv from any rank for a message that
 *   never comes: it stays in the MPI's progress engine, as a computing rank
 *   in a communication phase does, so that an MPI's own detector hears it;
 * - every other rank waits in MPI_Recv from rank R. When the call returns
 *   it asks the MPI which ranks failed, shrinks the communicator and passes
 *   a barrier on the new one.
 * The benchmark then kills R or cuts its node off.
 *
 * Each rank writes DIR/ulfm.R (R: its rank), one line per fact, each in one
 * write():
 *   start rank=R pid=P glue=0|1
 *   waiting rank=R since_ns=T                       T: CLOCK_REALTIME
 *   returned rank=R class=NAME time_ns=T failed=A,B  the ranks the MPI lists as failed
 *   shrunk rank=R size=S time_ns=T
 * and rank 0 creates DIR/ulfm.ready once every rank has attached (--glue)
 * and passed a barrier.
 * Every rank then waits for DIR/stop and leaves with _exit(0): what is
 * measured is the error, not how an MPI ends a job after a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>
#include <ftdetect/ftdetect_mpi.h>

#ifndef FTD_MPI_HAVE_ULFM
#define FTD_MPI_HAVE_ULFM 0
#endif
#if FTD_MPI_HAVE_ULFM && defined(OPEN_MPI)
#include <mpi-ext.h>
#endif

static int out_fd = -1;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if (len > (int)sizeof(line) - 2)
		len = sizeof(line) - 2;
	line[len++] = '\n';
	if (write(out_fd, line, len) != len)
		_exit(3);
}

static void wait_for_stop(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/stop", dir);
	while (access(path, F_OK) != 0)
		usleep(100 * 1000);
	_exit(0);
}

#if FTD_MPI_HAVE_ULFM
static uint64_t real_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static const char *class_name(int rc)
{
	static char other[32];
	int cls;

	if (rc == MPI_SUCCESS)
		return "MPI_SUCCESS";
	MPI_Error_class(rc, &cls);
	if (cls == MPIX_ERR_PROC_FAILED)
		return "MPIX_ERR_PROC_FAILED";
	if (cls == MPIX_ERR_REVOKED)
		return "MPIX_ERR_REVOKED";
	snprintf(other, sizeof(other), "class_%d", cls);
	return other;
}

/* The ranks of comm the MPI knows to have failed, "A,B", or "-". */
static void failed_ranks(MPI_Comm comm, char *buf, size_t len)
{
	MPI_Group world, failed;
	int n = 0, i, *in, *out;
	size_t at = 0;

	snprintf(buf, len, "-");
#ifdef OMPI_HAVE_MPIX_COMM_GET_FAILED
	if (MPIX_Comm_get_failed(comm, &failed) != MPI_SUCCESS)
		return;
#else
	if (MPIX_Comm_failure_ack(comm) != MPI_SUCCESS ||
	    MPIX_Comm_failure_get_acked(comm, &failed) != MPI_SUCCESS)
		return;
#endif
	MPI_Group_size(failed, &n);
	if (n > 0) {
		in = calloc(n, sizeof(*in));
		out = calloc(n, sizeof(*out));
		if (in && out) {
			MPI_Comm_group(comm, &world);
			for (i = 0; i < n; i++)
				in[i] = i;
			MPI_Group_translate_ranks(failed, n, in, world, out);
			MPI_Group_free(&world);
			for (i = 0; i < n && at + 12 < len; i++)
				at += snprintf(buf + at, len - at, "%s%d", i ? "," : "", out[i]);
		}
		free(in);
		free(out);
	}
	MPI_Group_free(&failed);
}

static void survive(MPI_Comm comm, int rank, int victim)
{
	MPI_Comm shrunk;
	char failed[512];
	int rc, x, size;
	uint64_t t;

	say("waiting rank=%d since_ns=%llu", rank, (unsigned long long)real_ns());
	rc = MPI_Recv(&x, 1, MPI_INT, victim, 1, comm, MPI_STATUS_IGNORE);
	t = real_ns();
	failed_ranks(comm, failed, sizeof(failed));
	say("returned rank=%d class=%s time_ns=%llu failed=%s", rank, class_name(rc),
	    (unsigned long long)t, failed);
	if (rc == MPI_SUCCESS)
		return;
	if (MPIX_Comm_shrink(comm, &shrunk) != MPI_SUCCESS)
		return;
	MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
	if (MPI_Barrier(shrunk) != MPI_SUCCESS)
		return;
	MPI_Comm_size(shrunk, &size);
	say("shrunk rank=%d size=%d time_ns=%llu", rank, size, (unsigned long long)real_ns());
}
#endif

int main(int argc, char **argv)
{
	const char *dir = NULL;
	char path[PATH_MAX];
	int victim = -1, glue = 0, i, provided, rank, size, rc, x;
	MPI_Comm comm;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--victim") && i + 1 < argc)
			victim = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--glue"))
			glue = 1;
		else
			break;
	}
	if (i < argc || !dir || victim < 0) {
		fprintf(stderr, "usage: ftb-ulfm --dir DIR --victim RANK [--glue]\n");
		return 2;
	}
	if (!FTD_MPI_HAVE_ULFM) {
		fprintf(stderr, "ftb-ulfm: built for an MPI without working ULFM: nothing to measure\n");
		return 2;
	}
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	snprintf(path, sizeof(path), "%s/ulfm.%d", dir, rank);
	out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (out_fd < 0) {
		fprintf(stderr, "ftb-ulfm: %s: %s\n", path, strerror(errno));
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	if (victim >= size) {
		fprintf(stderr, "ftb-ulfm: victim %d, but only %d ranks\n", victim, size);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
	if (glue && (rc = ftd_mpi_attach(comm, NULL, NULL, 0)) != 0) {
		fprintf(stderr, "ftb-ulfm: rank %d: ftd_mpi_attach: %s\n", rank, ftd_mpi_strerror(rc));
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	say("start rank=%d pid=%d glue=%d", rank, (int)getpid(), glue);
	MPI_Barrier(comm);
	if (rank == 0) {
		int fd;

		snprintf(path, sizeof(path), "%s/ulfm.ready", dir);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
#if FTD_MPI_HAVE_ULFM
	if (rank == victim)
		MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 1, comm, MPI_STATUS_IGNORE);
	else
		survive(comm, rank, victim);
#else
	(void)x;
#endif
	wait_for_stop(dir);
	return 0;
}
