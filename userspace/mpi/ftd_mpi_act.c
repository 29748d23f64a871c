// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libftdetect_mpi: what a failure on an attached communicator makes the
 * library do, in this order: report it to the runtime through PMIx,
 * revoke the communicator (ULFM), call the application back; and when this
 * node was fenced, kill this process so that fail-stop holds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftd_mpi_internal.h"

/* ------------------------------------------------------------ PMIx */

/* (job << 32 | rank) of the processes this one reported through PMIx: each once. */
static struct {
	uint64_t *ids;
	size_t n, cap;
} reported;

static bool reported_before(uint64_t id)
{
	size_t i;

	for (i = 0; i < reported.n; i++)
		if (reported.ids[i] == id)
			return true;
	return false;
}

static void remember_reported(uint64_t id)
{
	size_t cap = reported.cap ? 2 * reported.cap : 16;
	uint64_t *r;

	if (reported.n == reported.cap) {
		r = realloc(reported.ids, cap * sizeof(*r));
		if (!r)
			return;	/* it may be reported twice: harmless */
		reported.ids = r;
		reported.cap = cap;
	}
	reported.ids[reported.n++] = id;
}

/* The process closes: a new one reports afresh. */
void ftdm_reported_forget(void)
{
	free(reported.ids);
	reported.ids = NULL;
	reported.n = reported.cap = 0;
}

/*
 * Step 1 for every group with failures: one PMIx notification for all the
 * processes of our namespace not reported yet, from the groups where this
 * process is one of the first FTD_MPI_PMIX_REPORTERS live members.
 */
void ftdm_report_pmix(void)
{
	uint32_t pmix_job = ftdm_proc.pmix_err ? 0 : ftd_pmix_job_id(ftdm_proc.pmix.nspace);
	uint32_t *ranks = NULL;
	size_t n = 0, cap = 0;
	struct attachment *a;
	enum ftd_mpi_action result;
	int i, err;

	for (a = ftdm.list; a; a = a->next) {
		if (a->verdict != FTD_VERDICT_FAILED)
			continue;
		if (a->flags & FTD_MPI_NO_PMIX) {
			a->pmix = FTD_MPI_ACT_DISABLED;
			continue;
		}
		if (ftdm_proc.pmix_err) {
			a->pmix = FTD_MPI_ACT_UNAVAILABLE;
			continue;
		}
		a->pmix = FTD_MPI_ACT_OTHERS;
		if (!ftd_group_is_reporter(&a->group, ftdm_env.reporters))
			continue;
		for (i = 0; i < a->n; i++) {
			const struct ftd_member *m = &a->group.m[a->ranks[i]];
			uint64_t id = (uint64_t)m->job << 32 | m->rank;
			size_t k;

			if (m->job != pmix_job) {
				/* another namespace (a spawned job): we cannot name it */
				ftdm_debug("%s rank %d: job %u is not our PMIx namespace's: not reported",
				      a->name, a->ranks[i], m->job);
				continue;
			}
			a->pmix = FTD_MPI_ACT_DONE;	/* settled below */
			if (reported_before(id))
				continue;
			for (k = 0; k < n && ranks[k] != m->rank; k++)
				;
			if (k < n)
				continue;
			if (n == cap) {
				uint32_t *r = realloc(ranks, (cap ? 2 * cap : 16) * sizeof(*r));

				if (!r)
					break;
				ranks = r;
				cap = cap ? 2 * cap : 16;
			}
			ranks[n++] = m->rank;
		}
	}
	if (!n) {
		/* nothing new: what was DONE had been reported before */
		for (a = ftdm.list; a; a = a->next)
			if (a->verdict == FTD_VERDICT_FAILED && a->pmix == FTD_MPI_ACT_DONE)
				a->pmix = FTD_MPI_ACT_OTHERS;
		free(ranks);
		return;
	}
	err = ftd_pmix_notify_failed(&ftdm_proc.pmix, ranks, n, ftdm_env.pmix_timeout_ms);
	if (err) {
		fprintf(stderr, "ftd_mpi[%d]: PMIx notification of %zu failed process(es): %s (%s)\n",
			ftdm_proc.world_rank, n, strerror(-err), ftd_pmix_status_string(&ftdm_proc.pmix));
		result = FTD_MPI_ACT_FAILED;
	} else {
		ftdm_debug("reported %zu failed process(es) to the runtime through PMIx", n);
		for (size_t k = 0; k < n; k++)
			remember_reported((uint64_t)pmix_job << 32 | ranks[k]);
		result = FTD_MPI_ACT_DONE;
	}
	for (a = ftdm.list; a; a = a->next)
		if (a->verdict == FTD_VERDICT_FAILED && a->pmix == FTD_MPI_ACT_DONE)
			a->pmix = result;
	free(ranks);
}

/* ------------------------------------------------------------ revoke */

#if FTD_MPI_HAVE_ULFM && defined(OPEN_MPI) && !FTD_MPI_ORTE
/*
 * Open MPI 5 revokes with a reliable broadcast to every member it holds
 * alive. To a member it never talked to, it first looks the member's
 * address up through PMIx (procs are added lazily), and for a member on a
 * dead node that look-up blocks in its progress engine for ever: this
 * process never returns, and the others then hang in MPIX_Comm_shrink
 * (seen in 4 of 18 runs). Members it knows failed are skipped. So the
 * revoke waits until Open MPI lists every newly failed member as failed
 * (through the PMIx report of step 1, or its own detection), driving its
 * progress engine meanwhile, since it takes failure events there; after
 * FTD_MPI_REVOKE_WAIT_MS it is not issued.
 */
static bool ompi_lists_failed(struct attachment *a)
{
	MPI_Group failed, group;
	int *in_failed, i, size = 0;
	bool all = false;

	if (MPIX_Comm_get_failed(a->comm, &failed) != MPI_SUCCESS)
		return false;
	MPI_Group_size(failed, &size);
	in_failed = malloc(a->n * sizeof(*in_failed));
	if (size >= a->n && in_failed && MPI_Comm_group(a->comm, &group) == MPI_SUCCESS) {
		MPI_Group_translate_ranks(group, a->n, a->ranks, failed, in_failed);
		for (all = true, i = 0; i < a->n; i++)
			all = all && in_failed[i] != MPI_UNDEFINED;
		MPI_Group_free(&group);
	}
	free(in_failed);
	MPI_Group_free(&failed);
	return all;
}

static bool ompi_wait_failed(struct attachment *a)
{
	uint64_t end = ftdm_clock_ns(CLOCK_MONOTONIC) + ftdm_env.revoke_wait_ms * 1000000ULL;
	struct timespec ms = { 0, 1000000 };
	int flag;

	for (;;) {
		if (ompi_lists_failed(a))
			return true;
		if (ftdm_clock_ns(CLOCK_MONOTONIC) >= end)
			return false;
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
		nanosleep(&ms, NULL);
	}
}
#elif FTD_MPI_HAVE_ULFM
static bool ompi_wait_failed(struct attachment *a)
{
	return true;	/* MPICH: its revoke waits on nobody */
}
#endif

#if FTD_MPI_HAVE_ULFM && defined(OPEN_MPI) && !FTD_MPI_ORTE
/* An Open MPI control variable, through MPI_T; false if it cannot be read. */
static bool ompi_cvar_read(const char *name, void *buf)
{
	MPI_T_cvar_handle h;
	int provided, idx, count;
	bool ok = false;

	if (MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
		return false;
	if (MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS &&
	    MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) == MPI_SUCCESS) {
		ok = MPI_T_cvar_read(h, buf) == MPI_SUCCESS;
		MPI_T_cvar_handle_free(&h);
	}
	MPI_T_finalize();
	return ok;
}
#endif

/*
 * Whether the running job has ULFM at all, decided once (ftdm_process_open):
 * this build must have it, and Open MPI 5 turns it on only for a job
 * launched with --with-ft ulfm (its mpi_ft_enable); without it, its runtime
 * ends the whole job when a process exits but ignores failure reports
 * (mpi_noft.sh), and revoking would do nothing useful. Returns why not, or
 * NULL.
 */
const char *ftdm_ulfm_decide(void)
{
#if !FTD_MPI_HAVE_ULFM
	return "this build of the library has no ULFM (make mpi says why)";
#else
#if defined(OPEN_MPI) && !FTD_MPI_ORTE
	bool ft[8] = { false };	/* MPI_T writes a C bool; room for any width */

	if (ompi_cvar_read("mpi_ft_enable", ft) && !ft[0])
		return "Open MPI was launched without --with-ft ulfm (mpi_ft_enable is false): its "
		       "runtime ends the whole job when a process exits, and takes no failure "
		       "report in: the callbacks are the application's news";
#endif
	return NULL;
#endif
}

/*
 * Whether this process revokes at all, decided once (ftdm_process_open),
 * where the job has ULFM: FTD_MPI_REVOKE=0 or 1 decides; otherwise yes, but
 * on Open MPI 5 only when every member's address was set up at MPI_Init
 * (the world is smaller than its mpi_add_procs_cutoff): a revoke reaches
 * members through every survivor, and one that has not yet taken the
 * failure in looks the dead member up and hangs (ompi_wait_failed() above
 * covers this process only). Without the revoke, the PMIx report alone is
 * what Open MPI learns the failure from. Returns why not, or NULL.
 */
const char *ftdm_revoke_decide(void)
{
	if (ftdm_env.revoke >= 0)
		return ftdm_env.revoke ? NULL : "FTD_MPI_REVOKE=0";
#if FTD_MPI_HAVE_ULFM && defined(OPEN_MPI) && !FTD_MPI_ORTE
	{
		static char why[160];
		unsigned int cutoff = 0;
		int size;

		ompi_cvar_read("mpi_add_procs_cutoff", &cutoff);
		MPI_Comm_size(MPI_COMM_WORLD, &size);
		if ((unsigned int)size >= cutoff) {
			snprintf(why, sizeof(why), "Open MPI adds processes lazily (world size %d, "
				 "mpi_add_procs_cutoff %u): a revoke could hang", size, cutoff);
			return why;
		}
	}
#endif
	return NULL;
}

/* Step 2. app_thread: we run in the application's thread (ftd_mpi_progress). */
enum ftd_mpi_action ftdm_revoke(struct attachment *a, bool app_thread)
{
	if (a->flags & FTD_MPI_NO_REVOKE)
		return FTD_MPI_ACT_DISABLED;
	if (ftdm_proc.no_ulfm_why)
		return FTD_MPI_ACT_UNAVAILABLE;	/* this build, or this job (ftdm_ulfm_decide) */
	if (ftdm_proc.no_revoke_why)
		return FTD_MPI_ACT_DISABLED;
#if FTD_MPI_HAVE_ULFM
	if (!app_thread && ftdm_proc.thread_level < MPI_THREAD_MULTIPLE) {
		a->revoke_pending = true;
		return FTD_MPI_ACT_DEFERRED;
	}
	a->revoke_pending = false;
	if (!ompi_wait_failed(a)) {
		fprintf(stderr, "ftd_mpi[%d]: %s not revoked: Open MPI did not list its failed "
			"members as failed within %u ms (FTD_MPI_REVOKE_WAIT_MS), and revoking "
			"before it does can hang this process\n", ftdm_proc.world_rank, a->name,
			ftdm_env.revoke_wait_ms);
		return FTD_MPI_ACT_FAILED;
	}
	if (MPIX_Comm_revoke(a->comm) != MPI_SUCCESS) {
		fprintf(stderr, "ftd_mpi[%d]: MPIX_Comm_revoke(%s) failed\n", ftdm_proc.world_rank, a->name);
		return FTD_MPI_ACT_FAILED;
	}
	ftdm_debug("revoked %s", a->name);
	return FTD_MPI_ACT_DONE;
#else
	return FTD_MPI_ACT_UNAVAILABLE;
#endif
}

/* ------------------------------------------------------------ callbacks */

void ftdm_call(struct attachment *a, enum ftd_mpi_cause cause, const struct ftd_event *ev)
{
	struct ftd_mpi_failure f = {
		.cause = cause,
		.nranks = a->n,
		.ranks = a->ranks,
		.node = ev->node,
		.origin = ev->origin,
		.job = (ev->type == FTD_EV_PROC_DEAD || ev->type == FTD_EV_RANKS_DEAD) ? ev->job : 0,
		.lost = ev->type == FTD_EV_OVERFLOW ? ev->count : 0,
		.event_seq = ev->seq,
		.event_time_ns = ev->time_ns,
		.event_mono_ns = ev->mono_ns,
		.pmix = a->pmix,
		.revoke = a->revoke,
	};
	struct ftdm_json_line line;
	struct ftu_json *j;
	int i;

	f.call_time_ns = ftdm_clock_ns(CLOCK_REALTIME);
	f.call_mono_ns = ftdm_clock_ns(CLOCK_MONOTONIC);
	if ((j = ftdm_json_begin(&line, "callback"))) {
		ftu_json_kv_string(j, "comm", a->name);
		ftu_json_kv_s64(j, "comm_rank", a->group.self);
		ftu_json_kv_s64(j, "comm_size", a->group.size);
		ftu_json_kv_string(j, "cause", ftd_mpi_cause_name(cause));
		/* The first FTDM_JSON_RANKS, then "..." if there are more. */
		ftu_json_key(j, "ranks");
		ftu_json_array_begin(j);
		for (i = 0; i < a->n && i < FTDM_JSON_RANKS; i++)
			ftu_json_s64(j, a->ranks[i]);
		if (i < a->n)
			ftu_json_string(j, "...");
		ftu_json_array_end(j);
		ftu_json_kv_s64(j, "nranks", a->n);
		ftu_json_kv_u64(j, "node", f.node);
		ftu_json_kv_u64(j, "origin", f.origin);
		ftu_json_kv_u64(j, "event_job", f.job);
		ftu_json_kv_u64(j, "lost", f.lost);
		ftu_json_kv_u64(j, "event_seq", f.event_seq);
		ftu_json_kv_u64(j, "event_time_ns", f.event_time_ns);
		ftu_json_kv_u64(j, "event_mono_ns", f.event_mono_ns);
		ftu_json_kv_u64(j, "call_time_ns", f.call_time_ns);
		ftu_json_kv_u64(j, "call_mono_ns", f.call_mono_ns);
		ftu_json_kv_s64(j, "delay_ns", (int64_t)(f.call_mono_ns - f.event_mono_ns));
		ftu_json_kv_string(j, "pmix", ftd_mpi_action_name(f.pmix));
		ftu_json_kv_string(j, "revoke", ftd_mpi_action_name(f.revoke));
		ftdm_json_end(&line);
	}
	if (a->cb)
		a->cb(a->comm, &f, a->arg);
}

/* ------------------------------------------------------------ fencing */

static void *fence_deadline(void *unused)
{
	struct timespec t = {
		.tv_sec = ftdm_env.fence_grace_ms / 1000,
		.tv_nsec = (long)(ftdm_env.fence_grace_ms % 1000) * 1000000L,
	};

	nanosleep(&t, NULL);
	fprintf(stderr, "ftd_mpi[%d]: fenced: callbacks still running after %u ms, killing now\n",
		ftdm_proc.world_rank, ftdm_env.fence_grace_ms);
	kill(getpid(), SIGKILL);
	return NULL;
}

/*
 * This node was declared dead while it was alive: the others have already
 * reported our ranks failed and carry on without them. Let the callbacks
 * see it (bounded by FTD_MPI_FENCE_GRACE_MS), then die at once. SIGKILL,
 * not abort(): it cannot be caught, and leaves no core. Our registration
 * ends with the process: PROC_DEAD, which agrees with what the others know.
 */
void ftdm_fence(const struct ftd_event *ev)
{
	struct ftdm_json_line line;
	struct attachment *a;
	struct ftu_json *j;
	pthread_t t;

	fprintf(stderr, "ftd_mpi[%d]: this node (%u) was declared dead by node %u while alive "
		"(fenced): killing this process (pid %d) so that fail-stop holds\n",
		ftdm_proc.world_rank, ev->node, ev->origin, (int)getpid());
	if ((j = ftdm_json_begin(&line, "fenced"))) {
		ftu_json_kv_u64(j, "node", ev->node);
		ftu_json_kv_u64(j, "origin", ev->origin);
		ftu_json_kv_u64(j, "event_seq", ev->seq);
		ftu_json_kv_u64(j, "event_time_ns", ev->time_ns);
		ftdm_json_end(&line);
	}
	if (pthread_create(&t, NULL, fence_deadline, NULL) == 0) {
		for (a = ftdm.list; a; a = a->next) {
			if (a->gone)
				continue;
			a->verdict = FTD_VERDICT_FENCED;
			a->n = 1;
			a->ranks[0] = a->group.self;
			a->pmix = a->revoke = FTD_MPI_ACT_NONE;
			ftdm_call(a, FTD_MPI_CAUSE_FENCED, ev);
		}
	}
	kill(getpid(), SIGKILL);
	for (;;)
		pause();
}
