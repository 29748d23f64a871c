// SPDX-License-Identifier: MIT
/*
 * mpi_iterate: an iterative MPI computation that loses ranks, or a whole
 * node, and carries on, with libftdetect_mpi telling it who died.
 *
 *   mpirun -np 8 ./mpi_iterate [--iters N] [--work MS] [--kill RANK@ITER] [--mode M]
 *                              [--no-thread]
 *
 * Two ways to carry on, chosen by what the MPI can do:
 *
 *   --mode farm (every MPI)  Rank 0 farms out the tasks of each iteration
 *      to the other ranks with point-to-point messages only, and sums the
 *      results. The failure callback marks dead ranks; rank 0 stops giving
 *      them work and hands their unfinished tasks to the survivors; the
 *      result is the same as without a failure. Without ULFM a collective
 *      that includes a dead rank fails or hangs, so none is used after the
 *      start; rank 0 itself must survive (if it dies the workers stop).
 *
 *   --mode ulfm (an MPI with working ULFM, the default there)  Every rank
 *      contributes to an MPI_Allreduce per iteration. libftdetect_mpi
 *      revokes the communicator when a member dies, so the collective that
 *      was waiting on it fails at once with MPIX_ERR_REVOKED (or
 *      MPIX_ERR_PROC_FAILED) instead of when the MPI notices by itself;
 *      the survivors shrink the communicator, agree, and redo the
 *      iteration without the dead. Compiled only when FTD_MPI_HAVE_ULFM is
 *      1 (the build's probe decides it; see ftdetect_mpi(3)).
 *
 * --kill RANK@ITER makes RANK kill itself (SIGKILL) at iteration ITER, for a
 * demonstration without a second terminal; a test kills ranks from outside
 * (kill -9, or a whole node). --no-thread runs the library without its
 * watcher thread: the loops call ftd_mpi_progress() while they wait, as a
 * runtime's progress engine would. Every rank ends with one line
 *   mpi_iterate result: {"rank":..,"ok":true,...}
 * and the exit status is 0 when the result is right.
 *
 * The launcher must let the job outlive a rank. Seen with Debian 12's MPIs,
 * 6 ranks on 5 network-namespace nodes over TCP (a rank killed with kill -9,
 * and a node cut off and then fenced):
 *   Open MPI 4.1.4: mpirun --mca orte_enable_recovery 1 (without it, mpirun
 *     kills the job when a rank dies).
 *   MPICH 4.0.2: mpiexec -disable-auto-cleanup (without it, hydra kills
 *     every rank when one dies by a signal; even with it, hydra ends the
 *     other ranks of the dead rank's node about 2 s later, and the callback
 *     reports them as well).
 * The survivors finish with the right result. Without ULFM neither MPI can
 * then finalize a job that lost ranks: Open MPI 4.1.4's MPI_Finalize waits
 * for the dead for ever, MPICH 4.0.2's aborts in UCX ("Endpoint timeout")
 * flushing them. So where the MPI has no ULFM, a rank that knows of a
 * failure detaches (a clean exit for ftdetect) and leaves without
 * MPI_Finalize.
 *
 * Build: mpicc app.c $(pkg-config --cflags --libs ftdetect-mpi-openmpi)
 * (add -DFTD_MPI_HAVE_ULFM=1 with an MPI that has working ULFM).
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
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

enum { TAG_TASK = 1, TAG_RESULT, TAG_STOP };

static struct {
	int iters;
	int work_ms;
	int kill_rank, kill_iter;
	int tasks_per_worker;
	int ulfm;
	int no_thread;
} opt = { .iters = 40, .work_ms = 20, .kill_rank = -1, .tasks_per_worker = 2 };

static int rank, size;

/*
 * What the failure callback shares with the main loop: written by the
 * watcher thread, read by the loop, hence atomics.
 */
static atomic_int *dead;		/* dead[r]: rank r of MPI_COMM_WORLD failed */
static atomic_int ndead;

/* The work: deterministic, so that a result can be checked. */
static long task_value(int iter, int task)
{
	long v = 0;
	int j;

	for (j = 0; j < 1000; j++)
		v += (long)(iter + 1) * (task + 1) * j % 7919;
	return v;
}

static void work(void)
{
	struct timespec t = { .tv_sec = opt.work_ms / 1000,
			      .tv_nsec = (long)(opt.work_ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

static void maybe_die(int iter)
{
	if (rank == opt.kill_rank && iter == opt.kill_iter) {
		printf("mpi_iterate: rank %d: killing myself at iteration %d\n", rank, iter);
		fflush(stdout);
		kill(getpid(), SIGKILL);
	}
}

/* ---------------------------------------------------------------- the callback */

static void on_failure(MPI_Comm comm, const struct ftd_mpi_failure *f, void *arg)
{
	int i;

	/*
	 * Runs on libftdetect_mpi's watcher thread (in ftd_mpi_progress() with
	 * --no-thread): record, print, return.
	 */
	for (i = 0; i < f->nranks; i++)
		if (!atomic_exchange(&dead[f->ranks[i]], 1))
			atomic_fetch_add(&ndead, 1);
	printf("mpi_iterate: rank %d: %s: %d rank(s) failed, first %d, on node %u "
	       "(%.3f ms after this node's kernel knew)\n", rank, ftd_mpi_cause_name(f->cause),
	       f->nranks, f->nranks ? f->ranks[0] : -1, f->node,
	       (f->call_mono_ns - f->event_mono_ns) / 1e6);
	fflush(stdout);
}

/* ---------------------------------------------------------------- farm mode */

/*
 * Rank 0: hand out the tasks of each iteration, one at a time per worker,
 * to workers that are alive; when a worker dies, its task goes back in the
 * queue. Returns the sum over all iterations.
 */
static long farm_master(void)
{
	int ntasks = opt.tasks_per_worker * (size - 1);
	int *owner = malloc(ntasks * sizeof(*owner));	/* worker, -1 queued, -2 done */
	int *busy = calloc(size, sizeof(*busy));	/* task + 1, or 0 */
	long total = 0, task[2], res[3];
	int iter, t, w, left, flag;
	MPI_Request rq;
	MPI_Status st;

	for (iter = 0; iter < opt.iters; iter++) {
		for (t = 0; t < ntasks; t++)
			owner[t] = -1;
		left = ntasks;
		MPI_Irecv(res, 3, MPI_LONG, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &rq);
		while (left) {
			/* requeue the task of every worker that died */
			for (w = 1; w < size; w++)
				if (busy[w] && atomic_load(&dead[w])) {
					printf("mpi_iterate: iteration %d: task %d of dead rank %d "
					       "goes to another rank\n", iter, busy[w] - 1, w);
					owner[busy[w] - 1] = -1;
					busy[w] = 0;
				}
			/* give queued tasks to idle live workers */
			for (w = 1, t = 0; w < size; w++) {
				if (busy[w] || atomic_load(&dead[w]))
					continue;
				while (t < ntasks && owner[t] != -1)
					t++;
				if (t == ntasks)
					break;
				task[0] = iter;
				task[1] = t;
				MPI_Send(task, 2, MPI_LONG, w, TAG_TASK, MPI_COMM_WORLD);
				owner[t] = w;
				busy[w] = t + 1;
			}
			if (atomic_load(&ndead) >= size - 1) {
				fprintf(stderr, "mpi_iterate: no worker left\n");
				exit(2);
			}
			/* a result, or a failure to react to: poll both */
			if (opt.no_thread)
				ftd_mpi_progress();
			MPI_Test(&rq, &flag, &st);
			if (!flag) {
				usleep(200);
				continue;
			}
			/*
			 * A rank may die after sending its result, and its task be
			 * given again: count each task once, whoever computed it.
			 */
			t = (int)res[1];
			if (res[0] == iter && owner[t] != -2) {
				total += res[2];
				owner[t] = -2;
				left--;
			}
			if (busy[st.MPI_SOURCE] == t + 1)
				busy[st.MPI_SOURCE] = 0;
			if (left)
				MPI_Irecv(res, 3, MPI_LONG, MPI_ANY_SOURCE, TAG_RESULT,
					  MPI_COMM_WORLD, &rq);
		}
	}
	for (w = 1; w < size; w++)
		if (!atomic_load(&dead[w]))
			MPI_Send(task, 2, MPI_LONG, w, TAG_STOP, MPI_COMM_WORLD);
	free(owner);
	free(busy);
	return total;
}

/* A worker: compute what rank 0 sends until it says stop, or dies. */
static int farm_worker(void)
{
	long msg[3];
	MPI_Request rq;
	MPI_Status st;
	int flag;

	for (;;) {
		MPI_Irecv(msg, 2, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &rq);
		for (flag = 0; !flag; ) {
			if (opt.no_thread)
				ftd_mpi_progress();
			if (atomic_load(&dead[0])) {
				printf("mpi_iterate: rank %d: rank 0 died, nobody to work for\n", rank);
				return 3;
			}
			MPI_Test(&rq, &flag, &st);
			if (!flag)
				usleep(200);
		}
		if (st.MPI_TAG == TAG_STOP)
			return 0;
		maybe_die((int)msg[0]);
		work();
		msg[2] = task_value((int)msg[0], (int)msg[1]);
		MPI_Send(msg, 3, MPI_LONG, 0, TAG_RESULT, MPI_COMM_WORLD);
	}
}

static int run_farm(void)
{
	long total, expect = 0;
	int iter, t, status = 0;

	if (size < 2) {
		fprintf(stderr, "mpi_iterate: farm mode needs 2 ranks or more\n");
		return 64;
	}
	if (rank != 0) {
		status = farm_worker();
		printf("mpi_iterate result: {\"rank\":%d,\"mode\":\"farm\",\"role\":\"worker\","
		       "\"ok\":%s,\"failed\":%d}\n", rank, status ? "false" : "true",
		       atomic_load(&ndead));
		return status;
	}
	total = farm_master();
	for (iter = 0; iter < opt.iters; iter++)
		for (t = 0; t < opt.tasks_per_worker * (size - 1); t++)
			expect += task_value(iter, t);
	printf("mpi_iterate result: {\"rank\":0,\"mode\":\"farm\",\"role\":\"master\",\"ok\":%s,"
	       "\"total\":%ld,\"expected\":%ld,\"iters\":%d,\"failed\":%d}\n",
	       total == expect ? "true" : "false", total, expect, opt.iters, atomic_load(&ndead));
	return total == expect ? 0 : 1;
}

/* ---------------------------------------------------------------- ULFM mode */

#if FTD_MPI_HAVE_ULFM
/*
 * Every rank adds task_value(iter, its MPI_COMM_WORLD rank); after each
 * iteration every survivor checks the sum against the ranks still in the
 * communicator. A failure: revoke (libftdetect_mpi has usually done it
 * already), shrink, agree, attach the new communicator, redo the iteration.
 */
static int run_ulfm(void)
{
	MPI_Comm comm, shrunk;
	long mine, sum, expect;
	int iter, rc, cls, n, i, flag, *world, bad = 0, repairs = 0;

	MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
	if ((rc = ftd_mpi_attach(comm, on_failure, NULL,
				 opt.no_thread ? FTD_MPI_NO_THREAD : 0)) != 0)
		fprintf(stderr, "mpi_iterate: attach: %s\n", ftd_mpi_strerror(rc));
	world = malloc(size * sizeof(*world));
	for (iter = 0; iter < opt.iters; ) {
		maybe_die(iter);
		work();
		mine = task_value(iter, rank);
		rc = MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, comm);
		/* who contributed, to check the sum: it may fail as well */
		if (rc == MPI_SUCCESS)
			rc = MPI_Allgather(&rank, 1, MPI_INT, world, 1, MPI_INT, comm);
		/* every survivor learns of a failure the same way: agree on it */
		flag = rc == MPI_SUCCESS;
		MPIX_Comm_agree(comm, &flag);
		if (!flag) {
			MPI_Error_class(rc, &cls);
			MPIX_Comm_revoke(comm);
			MPIX_Comm_shrink(comm, &shrunk);
			MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
			/* the new one first: with nothing attached in between, the
			 * process would deregister (a clean exit) and register again */
			ftd_mpi_attach(shrunk, on_failure, NULL, 0);
			ftd_mpi_detach(comm);
			MPI_Comm_free(&comm);
			comm = shrunk;
			repairs++;
			MPI_Comm_size(comm, &n);
			printf("mpi_iterate: rank %d: iteration %d failed (error class %d), "
			       "going on with %d ranks\n", rank, iter, cls, n);
			continue;	/* redo this iteration */
		}
		/* the sum must be over exactly the ranks still here */
		MPI_Comm_size(comm, &n);
		for (i = 0, expect = 0; i < n; i++)
			expect += task_value(iter, world[i]);
		bad += sum != expect;
		iter++;
	}
	MPI_Comm_size(comm, &n);
	printf("mpi_iterate result: {\"rank\":%d,\"mode\":\"ulfm\",\"ok\":%s,\"ranks_left\":%d,"
	       "\"repairs\":%d,\"iters\":%d}\n", rank, bad ? "false" : "true", n, repairs,
	       opt.iters);
	free(world);
	ftd_mpi_detach(comm);
	MPI_Comm_free(&comm);
	return bad ? 1 : 0;
}
#endif

/* ---------------------------------------------------------------- main */

static void usage(void)
{
	fprintf(stderr, "usage: mpi_iterate [--iters N] [--work MS] [--tasks-per-worker N] "
		"[--kill RANK@ITER] [--mode farm%s] [--no-thread]\n", FTD_MPI_HAVE_ULFM ? "|ulfm" : "");
	exit(64);
}

int main(int argc, char **argv)
{
	int provided, i, err, status;

	/* MULTIPLE: so that the library may revoke from its watcher thread */
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	opt.ulfm = FTD_MPI_HAVE_ULFM;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--iters") && i + 1 < argc)
			opt.iters = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--work") && i + 1 < argc)
			opt.work_ms = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--tasks-per-worker") && i + 1 < argc)
			opt.tasks_per_worker = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--kill") && i + 1 < argc &&
			 sscanf(argv[++i], "%d@%d", &opt.kill_rank, &opt.kill_iter) == 2)
			;
		else if (!strcmp(argv[i], "--no-thread"))
			opt.no_thread = 1;
		else if (!strcmp(argv[i], "--mode") && i + 1 < argc &&
			 (!strcmp(argv[i + 1], "farm") || (FTD_MPI_HAVE_ULFM && !strcmp(argv[i + 1], "ulfm"))))
			opt.ulfm = !strcmp(argv[++i], "ulfm");
		else
			usage();
	}
	dead = calloc(size, sizeof(*dead));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

	/* The integration: one call, collective over the communicator. */
	if (!opt.ulfm) {
		err = ftd_mpi_attach(MPI_COMM_WORLD, on_failure, NULL,
				     opt.no_thread ? FTD_MPI_NO_THREAD : 0);
		if (err) {
			if (rank == 0)
				fprintf(stderr, "mpi_iterate: ftd_mpi_attach: %s\n",
					ftd_mpi_strerror(err));
			MPI_Finalize();
			return 2;
		}
	}
	if (rank == 0)
		printf("mpi_iterate: %d ranks, %d iterations, mode %s, ULFM %s\n", size, opt.iters,
		       opt.ulfm ? "ulfm" : "farm", FTD_MPI_HAVE_ULFM ? "available" : "not available");
	MPI_Barrier(MPI_COMM_WORLD);	/* the last collective on MPI_COMM_WORLD in farm mode */

#if FTD_MPI_HAVE_ULFM
	status = opt.ulfm ? run_ulfm() : run_farm();
#else
	status = run_farm();
#endif
	fflush(stdout);
	if (!FTD_MPI_HAVE_ULFM && atomic_load(&ndead)) {
		/* see the top of this file: the MPI cannot finalize without the dead */
		ftd_mpi_detach(MPI_COMM_WORLD);
		printf("mpi_iterate: rank %d: ranks were lost: leaving without MPI_Finalize\n", rank);
		fflush(stdout);
		_exit(status);
	}
	/* detaches: this rank's end is a clean exit, not a failure */
	MPI_Finalize();
	free(dead);
	return status;
}
