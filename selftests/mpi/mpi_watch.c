// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_watch: an MPI job that only watches, for the tests of libftdetect_mpi
 * in real jobs (selftests/net/mpi_glue.sh), built once per MPI found
 * (build/selftests/mpi_watch.openmpi, .mpich).
 *
 *   mpi_watch --dir DIR [--skip RANK] [--limit SECONDS] [--register JOB] [--no-thread]
 *
 * Every rank but RANK (--skip) joins a communicator that is attached with
 * ftd_mpi_attach(); RANK never attaches, so it never registers on
 * /dev/ftdetect either. After a barrier on MPI_COMM_WORLD the ranks make no
 * MPI call at all: whatever a callback reports comes from ftdetect, not from
 * the MPI noticing a broken connection. Each rank writes one file,
 * DIR/watch.R (R: its MPI_COMM_WORLD rank; a launcher may interleave the
 * ranks' stdout within lines), with one line per fact, in ranks of
 * MPI_COMM_WORLD:
 *
 *   start rank=R pid=P attached=0|1 node=N         N: its ftdetect node (attached)
 *   callback rank=R cause=C ranks=A,B node=N origin=O event_mono_ns=E call_mono_ns=M call_time_ns=T
 *   exit rank=R detach=0                          after DIR/stop appeared
 *
 * With --register JOB every attaching rank first registers explicitly,
 * ftd_mpi_register(JOB, its MPI_COMM_WORLD rank), and says so:
 *
 *   register rank=R rc=E                           E: 0, or the -errno
 *
 * --no-thread attaches with FTD_MPI_NO_THREAD (nothing calls
 * ftd_mpi_progress(): no callback comes).
 *
 * Rank 0 writes "ready size=S" in DIR/watch.0 once every rank has started.
 * When DIR/stop exists (or after SECONDS, 600 by default) each attached rank
 * detaches, a clean end that the other nodes see as PROC_EXIT, and every
 * rank exits without MPI_Finalize: after losing members neither Debian 12
 * MPI finalizes reliably (MPICH 4.0.2 aborts in UCX flushing the dead
 * peers; Open MPI 4.1.4 waits for them in its final fence).
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
#include "ftdetect_mpi.h"

static int world_rank, out_fd = -1;
static int *world_of;	/* world_of[comm rank]: its MPI_COMM_WORLD rank */

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/* One line in one write(): the watcher thread and the main thread both write. */
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
		fprintf(stderr, "mpi_watch: rank %d: write: %s\n", world_rank, strerror(errno));
}

static void on_failure(MPI_Comm comm, const struct ftd_mpi_failure *f, void *arg)
{
	char ranks[512] = "";
	size_t o = 0;
	int i;

	for (i = 0; i < f->nranks && o < sizeof(ranks) - 12; i++)
		o += snprintf(ranks + o, sizeof(ranks) - o, "%s%d", i ? "," : "",
			      world_of[f->ranks[i]]);
	say("callback rank=%d cause=%s ranks=%s node=%u origin=%u event_mono_ns=%llu "
	    "call_mono_ns=%llu call_time_ns=%llu", world_rank, ftd_mpi_cause_name(f->cause),
	    ranks, f->node, f->origin, (unsigned long long)f->event_mono_ns,
	    (unsigned long long)f->call_mono_ns, (unsigned long long)f->call_time_ns);
}

static void usage(void)
{
	fprintf(stderr, "usage: mpi_watch --dir DIR [--skip RANK] [--limit SECONDS] [--register JOB] [--no-thread]\n");
	exit(64);
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	int provided, size, i, skip = -1, limit = 600, rc, me;
	unsigned long job = 0;
	unsigned int flags = 0;
	char path[PATH_MAX], stop[PATH_MAX];
	MPI_Comm comm = MPI_COMM_NULL;
	uint32_t node = FTD_MPI_NODE_NONE;
	uint64_t end;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--skip") && i + 1 < argc)
			skip = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--limit") && i + 1 < argc)
			limit = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--register") && i + 1 < argc)
			job = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--no-thread"))
			flags |= FTD_MPI_NO_THREAD;
		else
			usage();
	}
	if (!dir)
		usage();
	snprintf(path, sizeof(path), "%s/watch.%d", dir, world_rank);
	snprintf(stop, sizeof(stop), "%s/stop", dir);
	out_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (out_fd < 0) {
		fprintf(stderr, "mpi_watch: %s: %s\n", path, strerror(errno));
		MPI_Abort(MPI_COMM_WORLD, 2);
	}

	MPI_Comm_split(MPI_COMM_WORLD, world_rank == skip ? MPI_UNDEFINED : 0, world_rank, &comm);
	if (comm != MPI_COMM_NULL) {
		MPI_Comm_size(comm, &i);
		MPI_Comm_rank(comm, &me);
		world_of = calloc(i, sizeof(*world_of));
		MPI_Allgather(&world_rank, 1, MPI_INT, world_of, 1, MPI_INT, comm);
		if (job)
			say("register rank=%d rc=%d", world_rank, ftd_mpi_register(job, world_rank));
		rc = ftd_mpi_attach(comm, on_failure, NULL, flags);
		if (rc) {
			fprintf(stderr, "mpi_watch: rank %d: ftd_mpi_attach: %s\n", world_rank,
				ftd_mpi_strerror(rc));
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		ftd_mpi_node_of(comm, me, &node);
	}
	say("start rank=%d pid=%d attached=%d node=%u", world_rank, (int)getpid(),
	    comm != MPI_COMM_NULL, node);
	MPI_Barrier(MPI_COMM_WORLD);
	if (world_rank == 0)
		say("ready size=%d", size);

	/* From here on, no MPI call: only ftdetect can report a failure. */
	end = mono_ns() + (uint64_t)limit * 1000000000ULL;
	while (access(stop, F_OK) != 0 && mono_ns() < end)
		usleep(50 * 1000);
	rc = comm != MPI_COMM_NULL ? ftd_mpi_detach(comm) : 0;
	say("exit rank=%d detach=%d", world_rank, rc);
	close(out_fd);
	_exit(rc ? 1 : 0);
}
