// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libftdetect_mpi: attach MPI communicators to /dev/ftdetect, and act on the
 * deaths it reports (ftdetect_mpi.h, ftdetect_mpi(3)).
 *
 * One process-wide state: the device handle this process registered on,
 * its identity, the PMIx client, the watcher thread, and the list of
 * attached communicators, each with its group (group.h: who runs where,
 * who is alive). Two locks:
 *   attach_lock   serialises attach, detach and register, which run MPI
 *                 collectives and so must not hold...
 *   g.lock        (recursive, through lock()/unlock()) the list and
 *                 everything the watcher touches; held while events are
 *                 dispatched, callbacks included.
 * Lock order: the MPI library's attribute lock (held while it calls our
 * attribute delete functions), then g.lock; so no MPI attribute call is
 * made under g.lock. A watcher stopped under g.lock is joined by the
 * outermost unlock(), which is also how a callback may end its own thread.
 *
 * Compiled once per MPI (build/mpi/<mpi>/): ftd_mpi_config.h, written by
 * the build's ULFM probe (userspace/mpi/mpi-probe), says whether this
 * MPI's MPIX_Comm_revoke may be called.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>
#include "ftd_mpi_config.h"
/* Built with -fvisibility=hidden: the API alone is exported. */
#pragma GCC visibility push(default)
#include "ftdetect_mpi.h"
#pragma GCC visibility pop
#if FTD_MPI_HAVE_ULFM && defined(OPEN_MPI)
#include <mpi-ext.h>
#endif
#include "lib/ftdetect.h"
#include "group.h"
#include "pmix_notify.h"

#define ALL_FLAGS (FTD_MPI_NO_THREAD | FTD_MPI_NO_PMIX | FTD_MPI_NO_REVOKE | FTD_MPI_PARTIAL)

struct attachment {
	struct attachment *next;
	MPI_Comm comm;
	char name[MPI_MAX_OBJECT_NAME];
	struct ftd_group group;
	ftd_mpi_callback_fn cb;
	void *arg;
	unsigned int flags;
	bool revoke_pending;
	bool gone;		/* its communicator was freed during a callback */
	/* the current event's verdict for this group */
	enum ftd_verdict verdict;
	int n;
	int *ranks;		/* room for group.size */
	enum ftd_mpi_action pmix, revoke;
};

static pthread_mutex_t attach_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	pthread_mutex_t lock;
	/* configuration, from the environment at the first attach */
	bool env_read, debug, env_no_thread;
	int env_pmix;			/* FTD_MPI_PMIX: -1 unset, 0, 1 */
	int json_fd;			/* -1: no JSON lines */
	int reporters;
	unsigned int pmix_timeout_ms, fence_grace_ms;
	const char *device;
	/* the process */
	bool open;
	struct ftd_handle *dev;		/* NULL: no device (a partial attach) */
	struct ftd_info info;
	bool registered, explicit_id;
	uint32_t job, rank;
	int world_rank, thread_level;
	struct ftd_pmix pmix;
	int pmix_err;			/* 0: active */
	int comm_keyval, self_keyval;
	int open_err;			/* process_open()'s verdict, kept */
	bool closing;
	/* the watcher */
	bool no_thread, thread_running, stop;
	pthread_t thread;
	int wake_fd;
	bool zombie;			/* a stopped watcher, joined by unlock() */
	pthread_t zombie_thread;
	int zombie_fd;
	int depth;			/* g.lock's recursion depth */
	/* dispatch */
	bool dispatching;
	pthread_t dispatcher;
	struct attachment *list;
	uint64_t *reported;		/* (job << 32 | rank) reported through PMIx */
	size_t nreported, reported_cap;
} g = {
	.lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP,
	.json_fd = -1,
	.wake_fd = -1,
	.comm_keyval = MPI_KEYVAL_INVALID,
	.self_keyval = MPI_KEYVAL_INVALID,
};

static void lock(void)
{
	pthread_mutex_lock(&g.lock);
	g.depth++;
}

/* The outermost unlock joins a watcher that was stopped under the lock. */
static void unlock(void)
{
	bool reap = --g.depth == 0 && g.zombie;
	pthread_t t = g.zombie_thread;
	int fd = g.zombie_fd;

	if (reap)
		g.zombie = false;
	pthread_mutex_unlock(&g.lock);
	if (!reap)
		return;
	if (pthread_equal(t, pthread_self()))
		pthread_detach(t);	/* a callback ended its own watcher */
	else
		pthread_join(t, NULL);
	close(fd);
}

/* ------------------------------------------------------------ logging */

static void debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void debug(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	if (!g.debug)
		return;
	/* one write per line: ranks and threads share the terminal */
	n = snprintf(buf, sizeof(buf), "ftd_mpi[%d]: ", g.world_rank);
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDERR_FILENO, buf, n) < 0)
		return;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long env_ulong(const char *name, unsigned long def)
{
	const char *v = getenv(name);
	char *end;
	unsigned long x;

	if (!v || !*v)
		return def;
	errno = 0;
	x = strtoul(v, &end, 0);
	if (errno || *end) {
		fprintf(stderr, "ftd_mpi: ignoring %s=%s: not a number\n", name, v);
		return def;
	}
	return x;
}

/* FTD_MPI_JSON: stderr (or 1), stdout, or a file appended to (%p: pid, %r: rank). */
static int json_open(const char *spec)
{
	char path[PATH_MAX];
	size_t o = 0;
	int fd;

	if (!strcmp(spec, "1") || !strcmp(spec, "stderr"))
		return dup(STDERR_FILENO);
	if (!strcmp(spec, "stdout"))
		return dup(STDOUT_FILENO);
	for (; *spec && o < sizeof(path) - 16; spec++) {
		if (spec[0] == '%' && spec[1] == 'p') {
			o += snprintf(path + o, sizeof(path) - o, "%d", (int)getpid());
			spec++;
		} else if (spec[0] == '%' && spec[1] == 'r') {
			o += snprintf(path + o, sizeof(path) - o, "%d", g.world_rank);
			spec++;
		} else {
			path[o++] = *spec;
		}
	}
	path[o] = '\0';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		fprintf(stderr, "ftd_mpi: FTD_MPI_JSON: %s: %s\n", path, strerror(errno));
	return fd;
}

static void env_read(void)
{
	const char *v;

	if (g.env_read)
		return;
	g.env_read = true;
	MPI_Comm_rank(MPI_COMM_WORLD, &g.world_rank);
	v = getenv("FTD_MPI_DEBUG");
	g.debug = v && *v && strcmp(v, "0");
	v = getenv("FTD_MPI_JSON");
	if (v && *v && strcmp(v, "0"))
		g.json_fd = json_open(v);
	g.device = getenv("FTD_MPI_DEVICE");
	v = getenv("FTD_MPI_THREAD");
	g.env_no_thread = v && !strcmp(v, "0");
	v = getenv("FTD_MPI_PMIX");
	g.env_pmix = v && *v ? !!strcmp(v, "0") : -1;
	g.reporters = (int)env_ulong("FTD_MPI_PMIX_REPORTERS", 2);
	g.pmix_timeout_ms = (unsigned int)env_ulong("FTD_MPI_PMIX_TIMEOUT_MS", 5000);
	g.fence_grace_ms = (unsigned int)env_ulong("FTD_MPI_FENCE_GRACE_MS", 1000);
}

/* One JSON line, "ftd_mpi WHAT: {...}", written at once. */
static void json_line(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void json_line(const char *what, const char *fmt, ...)
{
	char *buf = NULL;
	size_t len = 0;
	va_list ap;
	FILE *f;

	if (g.json_fd < 0)
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	fprintf(f, "ftd_mpi %s: {\"pid\":%d,\"world_rank\":%d,\"local_node\":%u,\"job\":%u,"
		"\"id_rank\":%u,", what, (int)getpid(), g.world_rank, g.info.node, g.job, g.rank);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputs("}\n", f);
	if (fclose(f) == 0 && write(g.json_fd, buf, len) < 0)
		debug("FTD_MPI_JSON: write: %s", strerror(errno));
	free(buf);
}

/* ------------------------------------------------------------ names */

const char *ftd_mpi_cause_name(enum ftd_mpi_cause cause)
{
	switch (cause) {
	case FTD_MPI_CAUSE_PROC:
		return "PROC_DEAD";
	case FTD_MPI_CAUSE_NODE:
		return "NODE_DEAD";
	case FTD_MPI_CAUSE_FENCED:
		return "FENCED";
	case FTD_MPI_CAUSE_LOST:
		return "LOST";
	}
	return "UNKNOWN";
}

const char *ftd_mpi_action_name(enum ftd_mpi_action action)
{
	static const char *const names[] = {
		[FTD_MPI_ACT_NONE] = "none",
		[FTD_MPI_ACT_DONE] = "done",
		[FTD_MPI_ACT_DEFERRED] = "deferred",
		[FTD_MPI_ACT_OTHERS] = "others",
		[FTD_MPI_ACT_UNAVAILABLE] = "unavailable",
		[FTD_MPI_ACT_DISABLED] = "disabled",
		[FTD_MPI_ACT_FAILED] = "failed",
	};

	if ((unsigned int)action < sizeof(names) / sizeof(names[0]))
		return names[action];
	return "unknown";
}

const char *ftd_mpi_strerror(int err)
{
	switch (-err) {
	case ENOENT:
		return "no /dev/ftdetect (is the ftdetect module loaded?), or not attached";
	case ENETDOWN:
		return "this node's ftdetect instance is not configured or not up (ftctl apply)";
	case EALREADY:
		return "the communicator is already attached";
	case EBUSY:
		return "this process is already registered";
	case EDEADLK:
		return "not allowed from a failure callback";
	case ENOTUNIQ:
		return "two members registered under the same identity (FTD_MPI_JOB or "
		       "ftd_mpi_register() inconsistent?)";
	case EIO:
		return "an MPI call failed";
	case EINVAL:
		return "invalid argument (flags, an intercommunicator, MPI not initialised?)";
	default:
		return ftd_strerror(err);
	}
}

unsigned int ftd_mpi_features(void)
{
	unsigned int f = 0;

	if (FTD_MPI_HAVE_ULFM)
		f |= FTD_MPI_FEATURE_ULFM;
	if (FTD_HAVE_PMIX)
		f |= FTD_MPI_FEATURE_PMIX;
	lock();
	if (g.open && !g.pmix_err)
		f |= FTD_MPI_FEATURE_PMIX_ACTIVE;
	unlock();
	return f;
}

/* ------------------------------------------------------------ attachments */

static struct attachment *find(MPI_Comm comm)
{
	struct attachment *a;

	for (a = g.list; a; a = a->next)
		if (a->comm == comm && !a->gone)
			return a;
	return NULL;
}

static bool in_callback(void)
{
	return g.dispatching && pthread_equal(g.dispatcher, pthread_self());
}

static void attachment_free(struct attachment *a)
{
	ftd_group_free(&a->group);
	free(a->ranks);
	free(a);
}

/* Take comm's attachment off the list (the caller frees it), or NULL. */
static struct attachment *unlink_attachment(MPI_Comm comm)
{
	struct attachment **p, *a;

	for (p = &g.list; *p && ((*p)->comm != comm || (*p)->gone); p = &(*p)->next)
		;
	a = *p;
	if (a) {
		*p = a->next;
		debug("detached %s", a->name);
	}
	return a;
}

/* Free the attachments whose communicator a callback freed. */
static void sweep(void)
{
	struct attachment **p = &g.list, *a;

	while ((a = *p)) {
		if (a->gone) {
			*p = a->next;
			attachment_free(a);
		} else {
			p = &a->next;
		}
	}
}

/* ------------------------------------------------------------ PMIx */

static bool reported_before(uint64_t id)
{
	size_t i;

	for (i = 0; i < g.nreported; i++)
		if (g.reported[i] == id)
			return true;
	return false;
}

static void remember_reported(uint64_t id)
{
	uint64_t *r;

	if (g.nreported == g.reported_cap) {
		r = realloc(g.reported, (g.reported_cap ? 2 * g.reported_cap : 16) * sizeof(*r));
		if (!r)
			return;	/* it may be reported twice: harmless */
		g.reported = r;
		g.reported_cap = g.reported_cap ? 2 * g.reported_cap : 16;
	}
	g.reported[g.nreported++] = id;
}

/*
 * Step 1 for every group with failures: one PMIx notification for all the
 * processes of our namespace not reported yet, from the groups where this
 * process is one of the first FTD_MPI_PMIX_REPORTERS live members.
 */
static void report_pmix(void)
{
	uint32_t pmix_job = g.pmix_err ? 0 : ftd_pmix_job_id(g.pmix.nspace);
	uint32_t *ranks = NULL;
	size_t n = 0, cap = 0;
	struct attachment *a;
	enum ftd_mpi_action result;
	int i, err;

	for (a = g.list; a; a = a->next) {
		if (a->verdict != FTD_VERDICT_FAILED)
			continue;
		if (a->flags & FTD_MPI_NO_PMIX) {
			a->pmix = FTD_MPI_ACT_DISABLED;
			continue;
		}
		if (g.pmix_err) {
			a->pmix = FTD_MPI_ACT_UNAVAILABLE;
			continue;
		}
		a->pmix = FTD_MPI_ACT_OTHERS;
		if (!ftd_group_is_reporter(&a->group, g.reporters))
			continue;
		for (i = 0; i < a->n; i++) {
			const struct ftd_member *m = &a->group.m[a->ranks[i]];
			uint64_t id = (uint64_t)m->job << 32 | m->rank;
			size_t k;

			if (m->job != pmix_job) {
				/* another namespace (a spawned job): we cannot name it */
				debug("%s rank %d: job %u is not our PMIx namespace's: not reported",
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
		for (a = g.list; a; a = a->next)
			if (a->verdict == FTD_VERDICT_FAILED && a->pmix == FTD_MPI_ACT_DONE)
				a->pmix = FTD_MPI_ACT_OTHERS;
		free(ranks);
		return;
	}
	err = ftd_pmix_notify_failed(&g.pmix, ranks, n, g.pmix_timeout_ms);
	if (err) {
		fprintf(stderr, "ftd_mpi[%d]: PMIx notification of %zu failed process(es): %s (%s)\n",
			g.world_rank, n, strerror(-err), ftd_pmix_status_string(&g.pmix));
		result = FTD_MPI_ACT_FAILED;
	} else {
		debug("reported %zu failed process(es) to the runtime through PMIx", n);
		for (size_t k = 0; k < n; k++)
			remember_reported((uint64_t)pmix_job << 32 | ranks[k]);
		result = FTD_MPI_ACT_DONE;
	}
	for (a = g.list; a; a = a->next)
		if (a->verdict == FTD_VERDICT_FAILED && a->pmix == FTD_MPI_ACT_DONE)
			a->pmix = result;
	free(ranks);
}

/* ------------------------------------------------------------ revoke */

/* Step 2. app_thread: we run in the application's thread (ftd_mpi_progress). */
static enum ftd_mpi_action revoke_comm(struct attachment *a, bool app_thread)
{
	if (a->flags & FTD_MPI_NO_REVOKE)
		return FTD_MPI_ACT_DISABLED;
#if FTD_MPI_HAVE_ULFM
	if (!app_thread && g.thread_level < MPI_THREAD_MULTIPLE) {
		a->revoke_pending = true;
		return FTD_MPI_ACT_DEFERRED;
	}
	a->revoke_pending = false;
	if (MPIX_Comm_revoke(a->comm) != MPI_SUCCESS) {
		fprintf(stderr, "ftd_mpi[%d]: MPIX_Comm_revoke(%s) failed\n", g.world_rank, a->name);
		return FTD_MPI_ACT_FAILED;
	}
	debug("revoked %s", a->name);
	return FTD_MPI_ACT_DONE;
#else
	return FTD_MPI_ACT_UNAVAILABLE;
#endif
}

/* ------------------------------------------------------------ callbacks */

static void call(struct attachment *a, enum ftd_mpi_cause cause, const struct ftd_event *ev)
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
	char ranks[64 * 12] = "";
	size_t o = 0;
	int i;

	f.call_time_ns = clock_ns(CLOCK_REALTIME);
	f.call_mono_ns = clock_ns(CLOCK_MONOTONIC);
	if (g.json_fd >= 0) {
		for (i = 0; i < a->n && o < sizeof(ranks) - 24; i++)
			o += snprintf(ranks + o, sizeof(ranks) - o, "%s%d", i ? "," : "", a->ranks[i]);
		if (i < a->n)
			snprintf(ranks + o, sizeof(ranks) - o, "%s\"...\"", o ? "," : "");
		json_line("callback",
			  "\"comm\":\"%s\",\"comm_rank\":%d,\"comm_size\":%d,\"cause\":\"%s\","
			  "\"ranks\":[%s],\"nranks\":%d,\"node\":%u,\"origin\":%u,\"event_job\":%u,"
			  "\"lost\":%u,\"event_seq\":%llu,\"event_time_ns\":%llu,\"event_mono_ns\":%llu,"
			  "\"call_time_ns\":%llu,\"call_mono_ns\":%llu,\"delay_ns\":%lld,"
			  "\"pmix\":\"%s\",\"revoke\":\"%s\"",
			  a->name, a->group.self, a->group.size, ftd_mpi_cause_name(cause), ranks,
			  a->n, f.node, f.origin, f.job, f.lost, (unsigned long long)f.event_seq,
			  (unsigned long long)f.event_time_ns, (unsigned long long)f.event_mono_ns,
			  (unsigned long long)f.call_time_ns, (unsigned long long)f.call_mono_ns,
			  (long long)(f.call_mono_ns - f.event_mono_ns), ftd_mpi_action_name(f.pmix),
			  ftd_mpi_action_name(f.revoke));
	}
	if (a->cb)
		a->cb(a->comm, &f, a->arg);
}

/* ------------------------------------------------------------ fencing */

static void *fence_deadline(void *unused)
{
	struct timespec t = {
		.tv_sec = g.fence_grace_ms / 1000,
		.tv_nsec = (long)(g.fence_grace_ms % 1000) * 1000000L,
	};

	nanosleep(&t, NULL);
	fprintf(stderr, "ftd_mpi[%d]: fenced: callbacks still running after %u ms, killing now\n",
		g.world_rank, g.fence_grace_ms);
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
static void fence(const struct ftd_event *ev)
{
	struct attachment *a;
	pthread_t t;

	fprintf(stderr, "ftd_mpi[%d]: this node (%u) was declared dead by node %u while alive "
		"(fenced): killing this process (pid %d) so that fail-stop holds\n",
		g.world_rank, ev->node, ev->origin, (int)getpid());
	json_line("fenced", "\"node\":%u,\"origin\":%u,\"event_seq\":%llu,\"event_time_ns\":%llu",
		  ev->node, ev->origin, (unsigned long long)ev->seq,
		  (unsigned long long)ev->time_ns);
	if (pthread_create(&t, NULL, fence_deadline, NULL) == 0) {
		for (a = g.list; a; a = a->next) {
			if (a->gone)
				continue;
			a->verdict = FTD_VERDICT_FENCED;
			a->n = 1;
			a->ranks[0] = a->group.self;
			a->pmix = a->revoke = FTD_MPI_ACT_NONE;
			call(a, FTD_MPI_CAUSE_FENCED, ev);
		}
	}
	kill(getpid(), SIGKILL);
	for (;;)
		pause();
}

/* ------------------------------------------------------------ dispatch */

static void dispatch(const struct ftd_event *ev, bool app_thread)
{
	enum ftd_mpi_cause cause = ev->type == FTD_EV_PROC_DEAD ? FTD_MPI_CAUSE_PROC :
				   FTD_MPI_CAUSE_NODE;
	struct attachment *a;
	bool failed = false;
	int i;

	debug("event %s seq %llu node %u origin %u job %u rank %u", ftd_event_name(ev->type),
	      (unsigned long long)ev->seq, ev->node, ev->origin, ev->job, ev->rank);
	if (ev->type == FTD_EV_FENCED)
		fence(ev);
	for (a = g.list; a; a = a->next) {
		a->verdict = FTD_VERDICT_NONE;
		if (a->gone)
			continue;
		a->verdict = ftd_group_apply(&a->group, ev, a->ranks, &a->n);
		a->pmix = a->revoke = FTD_MPI_ACT_NONE;
		if (a->verdict == FTD_VERDICT_FAILED)
			failed = true;
		else if (a->verdict == FTD_VERDICT_EXITED)
			debug("%s rank %d exited cleanly", a->name, a->ranks[0]);
	}
	if (failed)
		report_pmix();
	g.dispatching = true;
	g.dispatcher = pthread_self();
	for (a = g.list; a; a = a->next) {
		if (a->gone)
			continue;
		switch (a->verdict) {
		case FTD_VERDICT_FAILED:
			a->revoke = revoke_comm(a, app_thread);
			for (i = 0; i < a->n; i++)
				debug("%s rank %d failed (%s)", a->name, a->ranks[i],
				      ftd_mpi_cause_name(cause));
			call(a, cause, ev);
			break;
		case FTD_VERDICT_LOST:
			fprintf(stderr, "ftd_mpi[%d]: %u ftdetect events were lost: failures on %s "
				"are now taken from the status table\n", g.world_rank, ev->count,
				a->name);
			call(a, FTD_MPI_CAUSE_LOST, ev);
			break;
		default:
			break;
		}
	}
	g.dispatching = false;
	sweep();
}

/*
 * The kernel dropped events this process did not read in time (OVERFLOW):
 * the status table it keeps (libftdetect's ftd_rank_status()) still knows
 * which registrations ended. Every member still believed alive is looked
 * up there, and each one found dead or exited is acted on as if its event
 * had come, timed by the OVERFLOW record (the table keeps no time).
 */
static void resync(const struct ftd_event *of, bool app_thread)
{
	struct { uint32_t job, rank; } *ids = NULL;
	struct ftd_rank_status rs;
	struct ftd_event ev;
	struct attachment *a;
	size_t n = 0, cap = 0, i;
	int r, found = 0;

	for (a = g.list; a; a = a->next) {
		for (r = 0; r < a->group.size && !a->gone; r++) {
			const struct ftd_member *m = &a->group.m[r];

			if (r == a->group.self || m->state != FTD_MEMBER_ALIVE)
				continue;
			if (n == cap) {
				void *p = realloc(ids, (cap ? 2 * cap : 16) * sizeof(*ids));

				if (!p)
					break;
				ids = p;
				cap = cap ? 2 * cap : 16;
			}
			ids[n].job = m->job;
			ids[n++].rank = m->rank;
		}
	}
	/* dispatch() may free attachments: act only once the walk is over */
	for (i = 0; i < n; i++) {
		if (ftd_rank_status(g.dev, ids[i].job, ids[i].rank, &rs))
			continue;	/* not known here: still believed alive */
		if (rs.state != FTD_RANK_DEAD && rs.state != FTD_RANK_EXITED)
			continue;
		ev = (struct ftd_event){
			.version = FTD_EVENT_VERSION, .size = sizeof(ev),
			.type = rs.state == FTD_RANK_EXITED ? FTD_EV_PROC_EXIT :
				rs.cause == FTD_EV_RANKS_DEAD ? FTD_EV_RANKS_DEAD : FTD_EV_PROC_DEAD,
			.seq = rs.event_seq, .time_ns = of->time_ns, .mono_ns = of->mono_ns,
			.node = rs.node, .incarnation = rs.incarnation, .origin = FTD_NODE_NONE,
			.rail = FTD_RAIL_NONE, .job = ids[i].job, .rank = ids[i].rank,
		};
		dispatch(&ev, app_thread);
		found++;
	}
	free(ids);
	debug("after %u lost events: %d member(s) found dead or exited in the status table",
	      of->count, found);
}

/* Read and act on every pending event; how many, or a negative errno. */
static int drain(bool app_thread)
{
	struct ftd_event ev;
	int n = 0, err;

	if (!g.dev)
		return 0;
	while ((err = ftd_next_event(g.dev, &ev, FTD_NONBLOCK)) == 0) {
		dispatch(&ev, app_thread);
		if (ev.type == FTD_EV_OVERFLOW)
			resync(&ev, app_thread);
		n++;
	}
	return err == -EAGAIN ? n : err;
}

static void *watcher(void *unused)
{
	struct pollfd p[2] = {
		{ .fd = ftd_fd(g.dev), .events = POLLIN },
		{ .fd = g.wake_fd, .events = POLLIN },
	};
	uint64_t v;
	int err;

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "ftd_mpi[%d]: watcher: poll: %s\n", g.world_rank,
				strerror(errno));
			break;
		}
		if (p[1].revents && read(p[1].fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			break;
		lock();
		if (g.stop) {
			unlock();
			break;
		}
		err = drain(false);
		unlock();
		if (err < 0) {
			fprintf(stderr, "ftd_mpi[%d]: watcher: reading events: %s\n", g.world_rank,
				ftd_strerror(err));
			break;
		}
	}
	return NULL;
}

/* The watcher blocks every signal: they are the application's. */
static int watcher_start(void)
{
	sigset_t all, old;
	int err;

	g.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (g.wake_fd < 0)
		return -errno;
	g.stop = false;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&g.thread, NULL, watcher, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		close(g.wake_fd);
		g.wake_fd = -1;
		return -err;
	}
	g.thread_running = true;
	return 0;
}

/* Under g.lock: tell the watcher to end; the outermost unlock() joins it. */
static void watcher_stop(void)
{
	uint64_t one = 1;

	if (!g.thread_running)
		return;
	g.stop = true;
	if (write(g.wake_fd, &one, sizeof(one)) < 0)
		debug("waking the watcher: %s", strerror(errno));
	g.zombie = true;
	g.zombie_thread = g.thread;
	g.zombie_fd = g.wake_fd;
	g.thread_running = false;
	g.wake_fd = -1;
}

/* ------------------------------------------------------------ the process */

static int comm_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra);
static int self_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra);

/*
 * The MPI hooks, once per process and never under g.lock: an attribute on
 * each attached communicator, so that MPI_Comm_free() detaches it, and one
 * on MPI_COMM_SELF, whose attributes MPI_Finalize() deletes first thing.
 */
static int hooks_init(void)
{
	static bool done;

	if (done)
		return 0;
	if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete_fn, &g.comm_keyval, NULL) ||
	    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete_fn, &g.self_keyval, NULL) ||
	    MPI_Comm_set_attr(MPI_COMM_SELF, g.self_keyval, NULL))
		return -EIO;
	done = true;
	return 0;
}

/*
 * Under g.lock, the process-wide part of the first attach: the device, this
 * node, PMIx. 0, or why this process cannot register; the verdict is kept
 * until process_close().
 */
static int process_open(void)
{
	int err;

	if (g.open)
		return g.open_err;
	g.open = true;
	MPI_Query_thread(&g.thread_level);
	if (g.env_pmix == 0) {
		debug("FTD_MPI_PMIX=0: failures are not reported through PMIx");
		g.pmix_err = -ECANCELED;
	} else if (FTD_MPI_ORTE && g.env_pmix < 0) {
		/* pmix_notify.h: ORTE drops the report, or hangs on it */
		debug("Open MPI < 5: its runtime (ORTE) cannot relay PMIx failure reports, and "
		      "it has no ULFM to use them: not reported through PMIx (FTD_MPI_PMIX=1 "
		      "forces them)");
		g.pmix_err = -EOPNOTSUPP;
	} else {
		g.pmix_err = ftd_pmix_open(&g.pmix);
		if (g.pmix_err == -ENOENT)
			debug("not launched by a PMIx server (PMIx not initialised, PMIX_NAMESPACE "
			      "unset): failures are not reported through PMIx");
		else if (g.pmix_err == -ENOTSUP)
			debug("built without PMIx: failures are not reported through PMIx");
		else if (g.pmix_err)
			fprintf(stderr, "ftd_mpi[%d]: PMIx_Init failed (%s): failures are not "
				"reported through PMIx\n", g.world_rank,
				ftd_pmix_status_string(&g.pmix));
		else
			debug("PMIx client of namespace %s, rank %u", g.pmix.nspace, g.pmix.rank);
	}
	g.dev = ftd_open(g.device);
	if (!g.dev) {
		g.open_err = -errno;
		return g.open_err;
	}
	err = ftd_info(g.dev, &g.info);
	if (!err && (g.info.node == FTD_NODE_NONE || !g.info.up))
		err = -ENETDOWN;
	if (err) {
		/* no device at all: nothing to watch with */
		ftd_close(g.dev);
		g.dev = NULL;
		g.info.node = FTD_NODE_NONE;
		g.open_err = err;
	}
	return g.open_err;
}

/* Under g.lock: undo process_open(), drop every attachment. */
static void process_close(void)
{
	struct attachment *a;

	if (!g.open || g.closing)
		return;
	g.closing = true;
	watcher_stop();
	while ((a = g.list)) {
		/* its attribute stays: its delete function finds nothing */
		g.list = a->next;
		attachment_free(a);
	}
	if (g.registered) {
		/* a clean exit: PROC_EXIT everywhere, not PROC_DEAD */
		if (ftd_deregister(g.dev))
			debug("deregistering failed");
		g.registered = false;
		json_line("deregistered", "\"clean\":true");
	}
	ftd_close(g.dev);
	g.dev = NULL;
	ftd_pmix_close(&g.pmix);
	free(g.reported);
	g.reported = NULL;
	g.nreported = g.reported_cap = 0;
	memset(&g.info, 0, sizeof(g.info));
	g.job = g.rank = 0;
	g.explicit_id = false;
	g.no_thread = false;
	g.open_err = 0;
	g.open = false;
	g.closing = false;
}

/* Nothing attached and no explicit registration: undo process_open(). */
static void process_close_if_idle(void)
{
	if (g.open && !g.list && !g.explicit_id)
		process_close();
}

/* MPI_Comm_free of an attached communicator: detach it. */
static int comm_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra)
{
	struct attachment *a;

	lock();
	if (in_callback()) {
		/* the dispatch loop holds it: freed when the loop is done */
		a = find(comm);
		if (a)
			a->gone = true;
	} else {
		a = unlink_attachment(comm);
		if (a) {
			attachment_free(a);
			process_close_if_idle();
		}
	}
	unlock();
	return MPI_SUCCESS;
}

/* MPI_Finalize: everything goes, and this process exits cleanly. */
static int self_delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra)
{
	lock();
	debug("MPI_Finalize: detaching everything");
	process_close();
	unlock();
	/* as ROMIO does for its own: the keyvals go with MPI */
	MPI_Comm_free_keyval(&g.comm_keyval);
	MPI_Comm_free_keyval(&g.self_keyval);
	if (g.json_fd >= 0) {
		close(g.json_fd);
		g.json_fd = -1;
	}
	return MPI_SUCCESS;
}

/* ------------------------------------------------------------ API */

struct member_msg {
	int32_t err;
	uint32_t node, job, rank;
};

static uint32_t random_job(void)
{
	uint32_t job = 0;

	while (!job)
		if (getrandom(&job, sizeof(job), 0) != sizeof(job))
			job = (uint32_t)(clock_ns(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 16));
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

/* Under g.lock: register with the identity of ftdetect_mpi(3), "Identity". */
static int register_default(uint32_t comm_job, int comm_rank)
{
	unsigned long env_job = env_ulong("FTD_MPI_JOB", 0);
	uint32_t job = comm_job, rank = comm_rank;
	int err;

	if (env_job && env_job <= UINT32_MAX) {
		job = env_job;
		rank = g.world_rank;
	} else if (!g.pmix_err) {
		job = ftd_pmix_job_id(g.pmix.nspace);
		rank = g.pmix.rank;
	}
	err = ftd_register(g.dev, job, rank);
	if (err)
		return err;
	g.registered = true;
	g.job = job;
	g.rank = rank;
	debug("registered as job %u rank %u on node %u", job, rank, g.info.node);
	return 0;
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
	fatal = flags & ~ALL_FLAGS ? -EINVAL : hooks_init();
	lock();
	env_read();
	if (!fatal && find(comm))
		fatal = -EALREADY;
	if (!fatal) {
		if (!g.open)
			g.no_thread = (flags & FTD_MPI_NO_THREAD) || g.env_no_thread;
		member_err = process_open();
	}
	unlock();

	/* 1. Everybody ready? (with FTD_MPI_PARTIAL, a member without the device is not fatal) */
	if (first_error(comm, me, fatal ? fatal : partial ? 0 : member_err, &err))
		goto mpi_failed;
	if (err)
		goto out;

	/* 2. An identity for whoever has none: by default, rank 0's job and the rank here. */
	job = me == 0 ? random_job() : 0;
	if (MPI_Bcast(&job, 1, MPI_UINT32_T, 0, comm) != MPI_SUCCESS)
		goto mpi_failed;
	lock();
	if (!member_err && !g.registered)
		member_err = register_default(job, me);
	mine.err = member_err;
	mine.node = member_err ? FTD_NODE_NONE : g.info.node;
	mine.job = member_err ? 0 : g.job;
	mine.rank = member_err ? 0 : g.rank;
	unlock();

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
	if (MPI_Allgather(&mine, 4, MPI_UINT32_T, all, 4, MPI_UINT32_T, comm) != MPI_SUCCESS)
		goto mpi_failed;
	for (i = 0, first = -1; i < size; i++) {
		members[i].node = all[i].node;
		members[i].job = all[i].job;
		members[i].rank = all[i].rank;
		members[i].state = all[i].err ? FTD_MEMBER_UNMONITORED : FTD_MEMBER_ALIVE;
		if (all[i].err && first < 0)
			first = i;
	}
	if (first >= 0 && !partial) {
		err = all[first].err;
		goto out;
	}
	/* -ENOTUNIQ is decided from the same data everywhere */
	err = ftd_group_init(&a->group, size, me, members);
	if (err)
		goto out;

	/* 4. Watch them. */
	a->comm = comm;
	a->cb = cb;
	a->arg = arg;
	a->flags = flags;
	if (MPI_Comm_get_name(comm, a->name, &i) != MPI_SUCCESS || !a->name[0])
		snprintf(a->name, sizeof(a->name), "comm-%p", (void *)a);
	if (MPI_Comm_set_attr(comm, g.comm_keyval, a) != MPI_SUCCESS) {
		err = -EIO;
		goto out;
	}
	lock();
	a->next = g.list;
	g.list = a;
	if (g.dev && !g.no_thread && !g.thread_running) {
		err = watcher_start();
		if (err)
			fprintf(stderr, "ftd_mpi[%d]: cannot start the watcher thread (%s): call "
				"ftd_mpi_progress()\n", g.world_rank, strerror(-err));
	}
	json_line("attach", "\"comm\":\"%s\",\"comm_rank\":%d,\"comm_size\":%d,\"monitored\":%d,"
		  "\"watching\":%s,\"pmix\":%s,\"ulfm\":%s,\"thread\":%s", a->name, me, size,
		  a->group.nby_id, g.dev ? "true" : "false", g.pmix_err ? "false" : "true",
		  FTD_MPI_HAVE_ULFM ? "true" : "false", g.thread_running ? "true" : "false");
	debug("attached %s: %d of %d members watched", a->name, a->group.nby_id, size);
	unlock();
	free(all);
	free(members);
	return 0;

mpi_failed:
	err = -EIO;
out:
	if (a)
		attachment_free(a);
	free(all);
	free(members);
	lock();
	process_close_if_idle();
	unlock();
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
	lock();
	ok = !in_callback();
	unlock();
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

	lock();
	if (in_callback()) {
		unlock();
		return -EDEADLK;
	}
	unlock();
	pthread_mutex_lock(&attach_lock);
	lock();
	a = unlink_attachment(comm);
	unlock();
	if (a) {
		/* outside g.lock; its delete function finds nothing to do */
		MPI_Comm_delete_attr(comm, g.comm_keyval);
		lock();
		attachment_free(a);
		process_close_if_idle();
		unlock();
	}
	pthread_mutex_unlock(&attach_lock);
	return a ? 0 : -ENOENT;
}

int ftd_mpi_set_callback(MPI_Comm comm, ftd_mpi_callback_fn cb, void *arg)
{
	struct attachment *a;

	lock();
	a = find(comm);
	if (a) {
		a->cb = cb;
		a->arg = arg;
	}
	unlock();
	return a ? 0 : -ENOENT;
}

int ftd_mpi_register(uint32_t job, uint32_t rank)
{
	int ok, err;

	if (!job || MPI_Initialized(&ok) != MPI_SUCCESS || !ok)
		return -EINVAL;
	pthread_mutex_lock(&attach_lock);
	err = hooks_init();
	lock();
	env_read();
	if (!err && g.registered)
		err = -EBUSY;
	if (!err)
		err = process_open();
	if (!err)
		err = ftd_register(g.dev, job, rank);
	if (!err) {
		g.registered = g.explicit_id = true;
		g.job = job;
		g.rank = rank;
		debug("registered as job %u rank %u on node %u (ftd_mpi_register)", job, rank,
		      g.info.node);
	} else if (err != -EBUSY) {
		process_close_if_idle();
	}
	unlock();
	pthread_mutex_unlock(&attach_lock);
	return err;
}

int ftd_mpi_identity(uint32_t *job, uint32_t *rank)
{
	int err = -ENOENT;

	lock();
	if (g.registered) {
		*job = g.job;
		*rank = g.rank;
		err = 0;
	}
	unlock();
	return err;
}

int ftd_mpi_progress(void)
{
	struct attachment *a;
	int n;

	lock();
	if (!g.open)
		n = -ENOENT;
	else if (in_callback())
		n = -EDEADLK;
	else
		n = drain(true);
	if (n >= 0)
		for (a = g.list; a; a = a->next)
			if (a->revoke_pending && !a->gone)
				revoke_comm(a, true);
	unlock();
	return n;
}

int ftd_mpi_fd(void)
{
	int fd;

	lock();
	fd = g.dev ? ftd_fd(g.dev) : -ENOENT;
	unlock();
	return fd;
}

int ftd_mpi_failed(MPI_Comm comm, int *ranks, int max)
{
	struct attachment *a;
	int n;

	if (max < 0 || (max && !ranks))
		return -EINVAL;
	lock();
	a = find(comm);
	n = a ? ftd_group_failed(&a->group, ranks, max) : -ENOENT;
	unlock();
	return n;
}

int ftd_mpi_node_of(MPI_Comm comm, int rank, uint32_t *node)
{
	struct attachment *a;
	int err = 0;

	lock();
	a = find(comm);
	if (!a)
		err = -ENOENT;
	else if (rank < 0 || rank >= a->group.size)
		err = -EINVAL;
	else if (a->group.m[rank].state == FTD_MEMBER_UNMONITORED)
		err = -ENODEV;
	else
		*node = a->group.m[rank].node;
	unlock();
	return err;
}
