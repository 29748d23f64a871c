// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libftdetect_mpi: attach MPI communicators to /dev/ftdetect, and act on the
 * deaths it reports (ftdetect_mpi.h, ftdetect_mpi(3)).
 *
 * One process-wide state, in parts each owned by one file
 * (ftd_mpi_internal.h): the device handle this process registered on, its
 * identity and the PMIx client (ftd_mpi_process.c), the watcher thread
 * (ftd_mpi_watch.c), the environment (ftd_mpi_log.c), and here the list of
 * attached communicators, each with its group (group.h: who runs where,
 * who is alive). Two locks:
 *   attach_lock   serialises attach, detach and register, which run MPI
 *                 collectives and so must not hold...
 *   ftdm.lock     (recursive, through ftdm_lock()/ftdm_unlock()) the list and
 *                 everything the watcher touches; held while events are
 *                 dispatched, callbacks included.
 * Lock order: the MPI library's attribute lock (held while it calls our
 * attribute delete functions), then ftdm.lock; so no MPI attribute call is
 * made under ftdm.lock. A watcher stopped under ftdm.lock is joined by the
 * outermost ftdm_unlock(), which is also how a callback may end its own thread.
 *
 * The library's files: ftd_mpi_internal.h.
 *
 * Compiled once per MPI (build/mpi/<mpi>/): ftd_mpi_config.h, written by
 * the build's ULFM probe (userspace/mpi/mpi-probe), says whether this
 * MPI's MPIX_Comm_revoke may be called.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "ftd_mpi_internal.h"

#define ALL_FLAGS (FTD_MPI_NO_THREAD | FTD_MPI_NO_PMIX | FTD_MPI_NO_REVOKE | FTD_MPI_PARTIAL)

static pthread_mutex_t attach_lock = PTHREAD_MUTEX_INITIALIZER;

struct ftdm_core ftdm = {
	.lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP,
};

void ftdm_lock(void)
{
	pthread_mutex_lock(&ftdm.lock);
	ftdm.depth++;
}

/* The outermost unlock joins a watcher that was stopped under the lock. */
void ftdm_unlock(void)
{
	bool reap;
	pthread_t t;
	int fd;

	reap = --ftdm.depth == 0 && ftdm_watcher_take_zombie(&t, &fd);
	pthread_mutex_unlock(&ftdm.lock);
	if (!reap)
		return;
	if (pthread_equal(t, pthread_self()))
		pthread_detach(t);	/* a callback ended its own watcher */
	else
		pthread_join(t, NULL);
	close(fd);
}

/* ------------------------------------------------------------ attachments */

struct attachment *ftdm_find(MPI_Comm comm)
{
	struct attachment *a;

	for (a = ftdm.list; a; a = a->next)
		if (a->comm == comm && !a->gone)
			return a;
	return NULL;
}

bool ftdm_in_callback(void)
{
	return ftdm_watch.dispatching && pthread_equal(ftdm_watch.dispatcher, pthread_self());
}

void ftdm_attachment_free(struct attachment *a)
{
	ftd_group_free(&a->group);
	free(a->ranks);
	free(a);
}

/*
 * Drop every attachment (the process closes): their attributes stay, and
 * their delete functions find nothing.
 */
void ftdm_detach_all(void)
{
	struct attachment *a;

	while ((a = ftdm.list)) {
		ftdm.list = a->next;
		ftdm_attachment_free(a);
	}
}

/* Take comm's attachment off the list (the caller frees it), or NULL. */
struct attachment *ftdm_unlink(MPI_Comm comm)
{
	struct attachment **p, *a;

	for (p = &ftdm.list; *p && ((*p)->comm != comm || (*p)->gone); p = &(*p)->next)
		;
	a = *p;
	if (a) {
		*p = a->next;
		ftdm_debug("detached %s", a->name);
	}
	return a;
}

/* Free the attachments whose communicator a callback freed. */
void ftdm_sweep(void)
{
	struct attachment **p = &ftdm.list, *a;

	while ((a = *p)) {
		if (a->gone) {
			*p = a->next;
			ftdm_attachment_free(a);
		} else {
			p = &a->next;
		}
	}
}


/* ------------------------------------------------------------ API */

struct member_msg {
	int32_t err;
	uint32_t node, job, rank, incarnation;
};

static uint32_t random_job(void)
{
	uint32_t job = 0;

	while (!job)
		if (getrandom(&job, sizeof(job), 0) != sizeof(job))
			job = (uint32_t)(ftdm_clock_ns(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 16));
	return job;
}

/* The first failing member's error, the same at every member. */
static int first_error(MPI_Comm comm, int me, int err, int *out)
{
	int in[2] = { err ? me : INT_MAX, err }, res[2];

	if (MPI_Allreduce(in, res, 1, MPI_2INT, MPI_MINLOC, comm) != MPI_SUCCESS)
		return -EIO;
	*out = res[0] == INT_MAX ? 0 : res[1];
	return 0;
}

/* Under ftdm.lock: register with the identity of ftdetect_mpi(3), "Identity". */
static int register_default(uint32_t comm_job, int comm_rank)
{
	unsigned long env_job = ftdm_env_ulong("FTD_MPI_JOB", 0);
	uint32_t job = comm_job, rank = comm_rank;
	int err;

	if (env_job && env_job <= UINT32_MAX) {
		job = env_job;
		rank = ftdm_proc.world_rank;
	} else if (!ftdm_proc.pmix_err) {
		job = ftd_pmix_job_id(ftdm_proc.pmix.nspace);
		rank = ftdm_proc.pmix.rank;
	}
	err = ftdm_scope_register(job, rank);
	if (err)
		return err;
	ftdm_process_registered(job, rank, false);
	ftdm_debug("registered as job %u rank %u on node %u", job, rank, ftdm_proc.info.node);
	return 0;
}

/* The FTD_MPI_JSON line of an attach: what the library watches and can do. */
static void json_attached(const struct attachment *a, int me, int size, unsigned int flags)
{
	struct ftdm_json_line line;
	struct ftu_json *j = ftdm_json_begin(&line, "attach");

	if (!j)
		return;
	ftu_json_kv_string(j, "comm", a->name);
	ftu_json_kv_s64(j, "comm_rank", me);
	ftu_json_kv_s64(j, "comm_size", size);
	ftu_json_kv_s64(j, "monitored", a->group.nby_id);
	ftu_json_kv_bool(j, "watching", ftdm_proc.dev);
	ftu_json_kv_bool(j, "pmix", !ftdm_proc.pmix_err);
	ftu_json_kv_bool(j, "ulfm", !ftdm_proc.no_ulfm_why);
	ftu_json_kv_bool(j, "revoke", !ftdm_proc.no_ulfm_why && !ftdm_proc.no_revoke_why &&
				      !(flags & FTD_MPI_NO_REVOKE));
	ftu_json_kv_bool(j, "thread", ftdm_watch.running);
	ftdm_scope_json(j);
	ftdm_json_end(&line);
}

static int attach_locked(MPI_Comm comm, ftd_mpi_callback_fn cb, void *arg, unsigned int flags)
{
	struct member_msg mine = { 0 }, *all = NULL;
	struct ftd_member *members = NULL;
	struct attachment *a = NULL;
	int size, me, i, err, fatal, member_err = 0, first;
	bool partial = flags & FTD_MPI_PARTIAL;
	uint32_t job;

	if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &me) != MPI_SUCCESS)
		return -EIO;
	fatal = flags & ~ALL_FLAGS ? -EINVAL : ftdm_hooks_init();
	ftdm_lock();
	ftdm_env_read();
	if (!fatal && ftdm_find(comm))
		fatal = -EALREADY;
	if (!fatal)
		member_err = ftdm_process_open((flags & FTD_MPI_NO_THREAD) || ftdm_env.no_thread);
	ftdm_unlock();

	/* 1. Everybody ready? (with FTD_MPI_PARTIAL, a member without the device is not fatal) */
	if (first_error(comm, me, fatal ? fatal : partial ? 0 : member_err, &err))
		goto mpi_failed;
	if (err)
		goto out;

	/* 2. An identity for whoever has none: by default, rank 0's job and the rank here. */
	job = me == 0 ? random_job() : 0;
	if (MPI_Bcast(&job, 1, MPI_UINT32_T, 0, comm) != MPI_SUCCESS)
		goto mpi_failed;
	ftdm_lock();
	if (!member_err && !ftdm_proc.registered)
		member_err = register_default(job, me);
	mine.err = member_err;
	mine.node = member_err ? FTD_NODE_NONE : ftdm_proc.info.node;
	mine.job = member_err ? 0 : ftdm_proc.job;
	mine.rank = member_err ? 0 : ftdm_proc.rank;
	/* The node's incarnation now: a fence since the device was opened raised it. */
	if (!member_err && ftd_info(ftdm_proc.dev, &ftdm_proc.info))
		ftdm_debug("cannot read this node's incarnation again: the one of the open stands");
	mine.incarnation = member_err ? 0 : ftdm_proc.info.incarnation;
	ftdm_unlock();

	/* 3. Who runs where, under which identity. */
	all = calloc(size, sizeof(*all));
	members = calloc(size, sizeof(*members));
	a = calloc(1, sizeof(*a));
	if (a)
		a->ranks = calloc(size, sizeof(*a->ranks));
	err = !all || !members || !a || !a->ranks ? -ENOMEM : 0;
	if (first_error(comm, me, err, &err))
		goto mpi_failed;
	if (err)
		goto out;
	if (MPI_Allgather(&mine, 5, MPI_UINT32_T, all, 5, MPI_UINT32_T, comm) != MPI_SUCCESS)
		goto mpi_failed;
	for (i = 0, first = -1; i < size; i++) {
		members[i].node = all[i].node;
		members[i].job = all[i].job;
		members[i].rank = all[i].rank;
		members[i].incarnation = all[i].incarnation;
		members[i].state = all[i].err ? FTD_MEMBER_UNMONITORED : FTD_MEMBER_ALIVE;
		if (all[i].err && first < 0)
			first = i;
	}
	if (first >= 0 && !partial) {
		err = all[first].err;
		goto out;
	}
	/* -ENOTUNIQ is decided from the same data everywhere */
	err = ftd_group_init(&a->group, size, me, members, (uint32_t)geteuid());
	if (err)
		goto out;

	/* 4. Watch them. */
	a->comm = comm;
	a->cb = cb;
	a->arg = arg;
	a->flags = flags;
	if (MPI_Comm_get_name(comm, a->name, &i) != MPI_SUCCESS || !a->name[0])
		snprintf(a->name, sizeof(a->name), "comm-%p", (void *)a);
	if (MPI_Comm_set_attr(comm, ftdm_proc.comm_keyval, a) != MPI_SUCCESS) {
		err = -EIO;
		goto out;
	}
	ftdm_lock();
	ftdm_scope_add(&a->group);
	a->next = ftdm.list;
	ftdm.list = a;
	if (ftdm_proc.dev && !ftdm_proc.no_thread && !ftdm_watch.running) {
		err = ftdm_watcher_start();
		if (err)
			fprintf(stderr, "ftd_mpi[%d]: cannot start the watcher thread (%s): call "
				"ftd_mpi_progress()\n", ftdm_proc.world_rank, strerror(-err));
	}
	json_attached(a, me, size, flags);
	ftdm_debug("attached %s: %d of %d members watched", a->name, a->group.nby_id, size);
	ftdm_unlock();
	free(all);
	free(members);
	return 0;

mpi_failed:
	err = -EIO;
out:
	if (a)
		ftdm_attachment_free(a);
	free(all);
	free(members);
	ftdm_lock();
	ftdm_process_close_if_idle();
	ftdm_unlock();
	return err;
}

int ftd_mpi_attach(MPI_Comm comm, ftd_mpi_callback_fn cb, void *arg, unsigned int flags)
{
	int ok, inter, err;

	if (MPI_Initialized(&ok) != MPI_SUCCESS || !ok || MPI_Finalized(&ok) != MPI_SUCCESS ||
	    ok || comm == MPI_COMM_NULL)
		return -EINVAL;
	if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
		return -EINVAL;
	ftdm_lock();
	ok = !ftdm_in_callback();
	ftdm_unlock();
	if (!ok)
		return -EDEADLK;
	pthread_mutex_lock(&attach_lock);
	err = attach_locked(comm, cb, arg, flags);
	pthread_mutex_unlock(&attach_lock);
	return err;
}

int ftd_mpi_detach(MPI_Comm comm)
{
	struct attachment *a;

	ftdm_lock();
	if (ftdm_in_callback()) {
		ftdm_unlock();
		return -EDEADLK;
	}
	ftdm_unlock();
	pthread_mutex_lock(&attach_lock);
	ftdm_lock();
	a = ftdm_unlink(comm);
	ftdm_unlock();
	if (a) {
		/* outside ftdm.lock; its delete function finds nothing to do */
		MPI_Comm_delete_attr(comm, ftdm_proc.comm_keyval);
		ftdm_lock();
		ftdm_attachment_free(a);
		ftdm_process_close_if_idle();
		ftdm_unlock();
	}
	pthread_mutex_unlock(&attach_lock);
	return a ? 0 : -ENOENT;
}

int ftd_mpi_set_callback(MPI_Comm comm, ftd_mpi_callback_fn cb, void *arg)
{
	struct attachment *a;

	ftdm_lock();
	a = ftdm_find(comm);
	if (a) {
		a->cb = cb;
		a->arg = arg;
	}
	ftdm_unlock();
	return a ? 0 : -ENOENT;
}

int ftd_mpi_register(uint32_t job, uint32_t rank)
{
	int ok, err;

	if (!job || MPI_Initialized(&ok) != MPI_SUCCESS || !ok)
		return -EINVAL;
	pthread_mutex_lock(&attach_lock);
	err = ftdm_hooks_init();
	ftdm_lock();
	ftdm_env_read();
	if (!err && ftdm_proc.registered)
		err = -EBUSY;
	if (!err)
		err = ftdm_process_open(ftdm_env.no_thread);
	if (!err)
		err = ftdm_scope_register(job, rank);
	if (!err) {
		ftdm_process_registered(job, rank, true);
		ftdm_debug("registered as job %u rank %u on node %u (ftd_mpi_register)", job, rank,
		      ftdm_proc.info.node);
	} else if (err != -EBUSY) {
		ftdm_process_close_if_idle();
	}
	ftdm_unlock();
	pthread_mutex_unlock(&attach_lock);
	return err;
}

int ftd_mpi_identity(uint32_t *job, uint32_t *rank)
{
	int err = -ENOENT;

	ftdm_lock();
	if (ftdm_proc.registered) {
		*job = ftdm_proc.job;
		*rank = ftdm_proc.rank;
		err = 0;
	}
	ftdm_unlock();
	return err;
}

int ftd_mpi_progress(void)
{
	struct attachment *a;
	int n;

	ftdm_lock();
	if (!ftdm_proc.open)
		n = -ENOENT;
	else if (ftdm_in_callback())
		n = -EDEADLK;
	else
		n = ftdm_drain(true);
	if (n >= 0)
		for (a = ftdm.list; a; a = a->next)
			if (a->revoke_pending && !a->gone)
				ftdm_revoke(a, true);
	ftdm_unlock();
	return n;
}

int ftd_mpi_fd(void)
{
	int fd;

	ftdm_lock();
	fd = ftdm_proc.dev ? ftd_fd(ftdm_proc.dev) : -ENOENT;
	ftdm_unlock();
	return fd;
}

int ftd_mpi_failed(MPI_Comm comm, int *ranks, int max)
{
	struct attachment *a;
	int n;

	if (max < 0 || (max && !ranks))
		return -EINVAL;
	ftdm_lock();
	a = ftdm_find(comm);
	n = a ? ftd_group_failed(&a->group, ranks, max) : -ENOENT;
	ftdm_unlock();
	return n;
}

int ftd_mpi_node_of(MPI_Comm comm, int rank, uint32_t *node)
{
	struct attachment *a;
	int err = 0;

	ftdm_lock();
	a = ftdm_find(comm);
	if (!a)
		err = -ENOENT;
	else if (rank < 0 || rank >= a->group.size)
		err = -EINVAL;
	else if (a->group.m[rank].state == FTD_MEMBER_UNMONITORED)
		err = -ENODEV;
	else
		*node = a->group.m[rank].node;
	ftdm_unlock();
	return err;
}
