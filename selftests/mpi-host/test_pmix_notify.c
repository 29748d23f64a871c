// SPDX-License-Identifier: GPL-2.0
/*
 * The failure report of libftdetect_mpi (userspace/mpi/pmix_notify.c)
 * against a real PMIx server: Debian's libpmix, server side.
 *
 *   this test (PMIx server)                 pmix-notify-client (PMIx client)
 *   PMIx_server_init(module)
 *   PMIx_server_register_nspace(ns, job of 8)
 *   PMIx_server_register_client(ns:0)
 *   PMIx_server_setup_fork(ns:0) -> env ---> execve ... notify 2 5
 *                                            ftd_pmix_open(): PMIx_Init
 *   module.notify_event() records  <-------  ftd_pmix_notify_failed({2, 5})
 *   waitpid: exit 0                          PMIx_Finalize
 *   check what was recorded
 *
 * The check is what Open MPI's ULFM layer relies on (ompi_errhandler_callback
 * takes every PMIX_PROC-typed info of a PMIX_ERR_PROC_ABORTED event as a
 * failed process): code PMIX_ERR_PROC_ABORTED, range PMIX_RANGE_CUSTOM,
 * PMIX_EVENT_CUSTOM_RANGE = {ns, PMIX_RANK_WILDCARD} (a data array of one
 * proc, its documented type), exactly one PMIX_EVENT_AFFECTED_PROC per
 * failed rank with the right namespace, no PMIX_EVENT_AFFECTED_PROCS, no
 * other PMIX_PROC-typed info, PMIX_EVENT_NON_DEFAULT true, source the
 * client. The checker itself is tested against malformed notifications, so
 * that it is known to fail when it should.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pmix.h>
#include <pmix_server.h>
#include "harness.h"

#define NSPACE "ftd-test-job"
#define JOB_SIZE 128

extern char **environ;

/* ------------------------------------------------------------ checker */

static bool proc_is(const pmix_proc_t *p, const char *ns, pmix_rank_t rank)
{
	return !strncmp(p->nspace, ns, PMIX_MAX_NSLEN) && p->rank == rank;
}

/*
 * Is (code, range, info) the report of exactly ranks[0..n) of namespace ns?
 * false with the first reason in why.
 */
static bool check_report(pmix_status_t code, pmix_data_range_t range, const pmix_info_t *info,
			 size_t ninfo, const char *ns, const uint32_t *ranks, size_t n,
			 char *why, size_t len)
{
	unsigned char seen[JOB_SIZE] = { 0 };
	size_t i, j, custom = 0, nondef = 0;

#define BAD(...) do { snprintf(why, len, __VA_ARGS__); return false; } while (0)
	if (code != PMIX_ERR_PROC_ABORTED)
		BAD("code %d (%s), expected PMIX_ERR_PROC_ABORTED", code, PMIx_Error_string(code));
	if (range != PMIX_RANGE_CUSTOM)
		BAD("range %s, expected PMIX_RANGE_CUSTOM", PMIx_Data_range_string(range));
	for (i = 0; i < ninfo; i++) {
		const pmix_info_t *in = &info[i];

		if (PMIX_CHECK_KEY(in, PMIX_EVENT_AFFECTED_PROCS))
			BAD("PMIX_EVENT_AFFECTED_PROCS present (Open MPI ignores it)");
		if (PMIX_CHECK_KEY(in, PMIX_EVENT_AFFECTED_PROC)) {
			const pmix_proc_t *p = in->value.data.proc;

			if (in->value.type != PMIX_PROC || !p)
				BAD("PMIX_EVENT_AFFECTED_PROC of type %s",
				    PMIx_Data_type_string(in->value.type));
			if (strncmp(p->nspace, ns, PMIX_MAX_NSLEN))
				BAD("affected proc in namespace '%.64s', expected '%.64s'", p->nspace, ns);
			if (p->rank >= JOB_SIZE)
				BAD("affected rank %u outside the job", p->rank);
			if (seen[p->rank]++)
				BAD("rank %u reported twice", p->rank);
			continue;
		}
		if (in->value.type == PMIX_PROC)
			BAD("info '%s' is a PMIX_PROC: Open MPI would take it for a failed process",
			    in->key);
		if (PMIX_CHECK_KEY(in, PMIX_EVENT_CUSTOM_RANGE)) {
			const pmix_data_array_t *d = in->value.data.darray;
			const pmix_proc_t *p;

			custom++;
			if (in->value.type != PMIX_DATA_ARRAY || !d || d->type != PMIX_PROC ||
			    d->size != 1 || !d->array)
				BAD("PMIX_EVENT_CUSTOM_RANGE is not a data array of one proc");
			p = d->array;
			if (!proc_is(p, ns, PMIX_RANK_WILDCARD))
				BAD("custom range {%.64s, %u}, expected {%.64s, PMIX_RANK_WILDCARD}",
				    p->nspace, p->rank, ns);
		} else if (PMIX_CHECK_KEY(in, PMIX_EVENT_NON_DEFAULT)) {
			nondef++;
			if (in->value.type != PMIX_BOOL || !in->value.data.flag)
				BAD("PMIX_EVENT_NON_DEFAULT is not a true PMIX_BOOL");
		}
	}
	if (custom != 1)
		BAD("%zu PMIX_EVENT_CUSTOM_RANGE infos, expected 1", custom);
	if (nondef != 1)
		BAD("%zu PMIX_EVENT_NON_DEFAULT infos, expected 1", nondef);
	for (i = 0; i < n; i++) {
		if (ranks[i] >= JOB_SIZE || !seen[ranks[i]])
			BAD("rank %u not reported", ranks[i]);
		seen[ranks[i]] = 0;
	}
	for (j = 0; j < JOB_SIZE; j++)
		if (seen[j])
			BAD("rank %zu reported, but it did not fail", j);
	return true;
#undef BAD
}

/* ------------------------------------------------------------ server */

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int count;			/* notify_event upcalls */
	pmix_status_t code;
	pmix_proc_t source;
	pmix_data_range_t range;
	pmix_info_t *info;
	size_t ninfo;
} rec = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

/* The host's notify_event upcall: keep a deep copy of the first event. */
static pmix_status_t record_notify(pmix_status_t code, const pmix_proc_t *source,
				   pmix_data_range_t range, pmix_info_t info[], size_t ninfo,
				   pmix_op_cbfunc_t cbfunc, void *cbdata)
{
	size_t i;

	pthread_mutex_lock(&rec.lock);
	if (!rec.count++) {
		rec.code = code;
		rec.source = *source;
		rec.range = range;
		rec.ninfo = ninfo;
		PMIX_INFO_CREATE(rec.info, ninfo);
		for (i = 0; i < ninfo; i++)
			PMIX_INFO_XFER(&rec.info[i], &info[i]);
	}
	pthread_cond_broadcast(&rec.cond);
	pthread_mutex_unlock(&rec.lock);
	/* Done at once: no callback to run. */
	return PMIX_OPERATION_SUCCEEDED;
}

static pmix_server_module_t module = {
	.notify_event = record_notify,
};

struct op_wait {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	pmix_status_t status;
};

static void op_done(pmix_status_t status, void *cbdata)
{
	struct op_wait *w = cbdata;

	pthread_mutex_lock(&w->lock);
	w->status = status;
	w->done = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* The result of a non-blocking server call: rc, else what its callback said. */
static pmix_status_t op_wait(struct op_wait *w, pmix_status_t rc)
{
	if (rc == PMIX_OPERATION_SUCCEEDED)
		return PMIX_SUCCESS;
	if (rc != PMIX_SUCCESS)
		return rc;
	pthread_mutex_lock(&w->lock);
	while (!w->done)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return w->status;
}

#define OP_WAIT_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0 }

static char tmpdir[64];

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/*
 * Start the server and register the job: JOB_SIZE ranks, rank 0 on this
 * host (the client), the others on a node "ftd-elsewhere". The reason in why
 * on failure.
 */
static bool server_start(char *why, size_t len)
{
	pmix_info_t sinfo[2], jinfo[7];
	uint32_t size = JOB_SIZE, local = 1;
	struct op_wait w = OP_WAIT_INIT;
	char host[256], nodes[300], ppn[8 * JOB_SIZE], *regex = NULL, *procs = NULL;
	bool no = false;
	pmix_nspace_t ns;
	pmix_status_t rc;
	size_t i;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ftd-pmix-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		snprintf(why, len, "mkdtemp: %s", strerror(errno));
		return false;
	}
	PMIX_INFO_LOAD(&sinfo[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
	PMIX_INFO_LOAD(&sinfo[1], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
	rc = PMIx_server_init(&module, sinfo, 2);
	PMIX_INFO_DESTRUCT(&sinfo[0]);
	PMIX_INFO_DESTRUCT(&sinfo[1]);
	if (rc != PMIX_SUCCESS) {
		snprintf(why, len, "PMIx_server_init: %s", PMIx_Error_string(rc));
		return false;
	}
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	snprintf(nodes, sizeof(nodes), "%s,ftd-elsewhere", host);
	/* every rank listed: from "1-127", PMIx 4.2.2 stored rank 1 only */
	strcpy(ppn, "0;1");
	for (i = 2; i < JOB_SIZE; i++)
		snprintf(ppn + strlen(ppn), sizeof(ppn) - strlen(ppn), ",%zu", i);
	if (PMIx_generate_regex(nodes, &regex) != PMIX_SUCCESS ||
	    PMIx_generate_ppn(ppn, &procs) != PMIX_SUCCESS) {
		free(regex);
		snprintf(why, len, "PMIx_generate_regex/ppn failed");
		return false;
	}
	PMIX_INFO_LOAD(&jinfo[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
	PMIX_INFO_LOAD(&jinfo[1], PMIX_UNIV_SIZE, &size, PMIX_UINT32);
	PMIX_INFO_LOAD(&jinfo[2], PMIX_LOCAL_SIZE, &local, PMIX_UINT32);
	PMIX_INFO_LOAD(&jinfo[3], PMIX_LOCAL_PEERS, "0", PMIX_STRING);
	PMIX_INFO_LOAD(&jinfo[4], PMIX_SPAWNED, &no, PMIX_BOOL);
	PMIX_INFO_LOAD(&jinfo[5], PMIX_NODE_MAP, regex, PMIX_STRING);
	PMIX_INFO_LOAD(&jinfo[6], PMIX_PROC_MAP, procs, PMIX_STRING);
	free(regex);
	free(procs);
	PMIX_LOAD_NSPACE(ns, NSPACE);
	rc = op_wait(&w, PMIx_server_register_nspace(ns, 1, jinfo, 7, op_done, &w));
	for (i = 0; i < 7; i++)
		PMIX_INFO_DESTRUCT(&jinfo[i]);
	if (rc != PMIX_SUCCESS) {
		snprintf(why, len, "PMIx_server_register_nspace: %s", PMIx_Error_string(rc));
		return false;
	}
	return true;
}

static void server_stop(void)
{
	PMIx_server_finalize();
	nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The client next to this test binary. */
static void client_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 32);
	char *slash;

	buf[n > 0 ? n : 0] = '\0';
	slash = strrchr(buf, '/');
	strcpy(slash ? slash + 1 : buf, "pmix-notify-client");
}

/* Wait up to limit_s for pid; its wait status, or -1 (then it was killed). */
static int wait_child(pid_t pid, int limit_s)
{
	struct timespec tick = { 0, 10 * 1000000L };
	int status, i;

	for (i = 0; i < limit_s * 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/*
 * Launch the client as rank 0 of the job with argv, as a PMIx server does;
 * its wait status (-1: it hung and was killed).
 */
static int run_client(char *const argv[], char *why, size_t len)
{
	struct op_wait w = OP_WAIT_INIT;
	pmix_proc_t proc;
	pmix_status_t rc;
	char **env;
	size_t n, i;
	pid_t pid;
	int status;

	PMIX_LOAD_PROCID(&proc, NSPACE, 0);
	rc = op_wait(&w, PMIx_server_register_client(&proc, getuid(), getgid(), NULL, op_done, &w));
	if (rc != PMIX_SUCCESS) {
		snprintf(why, len, "PMIx_server_register_client: %s", PMIx_Error_string(rc));
		return -2;
	}
	/* setup_fork appends to a malloc'ed, NULL-terminated array. */
	for (n = 0; environ[n]; n++)
		;
	env = calloc(n + 1, sizeof(*env));
	for (i = 0; i < n; i++)
		env[i] = strdup(environ[i]);
	rc = PMIx_server_setup_fork(&proc, &env);
	if (rc != PMIX_SUCCESS) {
		snprintf(why, len, "PMIx_server_setup_fork: %s", PMIx_Error_string(rc));
		status = -2;
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		execve(argv[0], argv, env);
		fprintf(stderr, "execve %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	status = wait_child(pid, 30);
	if (status == -1)
		snprintf(why, len, "the client did not finish within 30 s");
out:
	for (i = 0; env[i]; i++)
		free(env[i]);
	free(env);
	return status;
}

/* Wait up to 5 s for the first notify_event upcall. */
static bool wait_record(void)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	pthread_mutex_lock(&rec.lock);
	while (!rec.count && pthread_cond_timedwait(&rec.cond, &rec.lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&rec.lock);
	return rec.count > 0;
}

static void dump_record(struct __test_metadata *_metadata)
{
	size_t i, j, same;

	TH_LOG("recorded: code %s, range %s, source %s:%u, %zu infos:",
	       PMIx_Error_string(rec.code), PMIx_Data_range_string(rec.range),
	       rec.source.nspace, rec.source.rank, rec.ninfo);
	for (i = 0; i < rec.ninfo; i += same) {
		for (same = 1, j = i + 1; j < rec.ninfo; j++, same++)
			if (!PMIX_CHECK_KEY(&rec.info[j], rec.info[i].key))
				break;
		TH_LOG("  %zu x %s (%s)", same, rec.info[i].key,
		       PMIx_Data_type_string(rec.info[i].value.type));
	}
}

/* The client reports ranks; the server must see exactly that report. */
static void report_ranks(struct __test_metadata *_metadata, const uint32_t *ranks, size_t n)
{
	char why[256] = "", client[4096], *argv[JOB_SIZE + 3];
	char nums[JOB_SIZE][12];
	size_t i;
	int status;

	if (!server_start(why, sizeof(why))) {
		server_stop();
		SKIP(return, "no working PMIx server here: %s", why);
	}
	client_path(client, sizeof(client));
	argv[0] = client;
	argv[1] = "notify";
	for (i = 0; i < n; i++) {
		snprintf(nums[i], sizeof(nums[i]), "%u", ranks[i]);
		argv[2 + i] = nums[i];
	}
	argv[2 + n] = NULL;
	status = run_client(argv, why, sizeof(why));
	ASSERT_TRUE(status >= 0) TH_LOG("%s", why);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("the client failed (wait status %#x): see its message above", status);
	ASSERT_TRUE(wait_record()) TH_LOG("the server never got a notify_event upcall");
	dump_record(_metadata);
	EXPECT_EQ(1, rec.count) TH_LOG("one report, one notification");
	EXPECT_TRUE(proc_is(&rec.source, NSPACE, 0)) TH_LOG("source %s:%u, expected %s:0",
							   rec.source.nspace, rec.source.rank,
							   NSPACE);
	EXPECT_TRUE(check_report(rec.code, rec.range, rec.info, rec.ninfo, NSPACE, ranks, n,
				 why, sizeof(why))) TH_LOG("%s", why);
	PMIX_INFO_FREE(rec.info, rec.ninfo);
	server_stop();
}

TEST(report_ranks_2_and_5)
{
	static const uint32_t ranks[] = { 2, 5 };

	report_ranks(_metadata, ranks, 2);
}

TEST(report_100_ranks)
{
	uint32_t ranks[100];
	int i;

	for (i = 0; i < 100; i++)
		ranks[i] = JOB_SIZE - 1 - i;
	report_ranks(_metadata, ranks, 100);
}

/* Without a PMIx server in its environment, the client must not initialise. */
TEST(no_server_is_enoent)
{
	char client[4096], *argv[] = { client, "no-server", NULL };
	char *env[] = { "PATH=/usr/bin:/bin", NULL };
	pid_t pid;
	int status;

	client_path(client, sizeof(client));
	pid = fork();
	if (pid == 0) {
		execve(client, argv, env);
		_exit(127);
	}
	status = wait_child(pid, 30);
	ASSERT_TRUE(status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("wait status %#x", status);
}

/* ------------------------------------------------------------ the checker fails when it should */

struct fake {
	pmix_info_t info[8];
	size_t n;
};

static void add_proc(struct fake *f, const char *key, const char *ns, pmix_rank_t rank)
{
	pmix_proc_t p;

	PMIX_LOAD_PROCID(&p, ns, rank);
	PMIX_INFO_LOAD(&f->info[f->n++], key, &p, PMIX_PROC);
}

static void add_range(struct fake *f, const char *ns)
{
	pmix_proc_t p;
	pmix_data_array_t d = { .type = PMIX_PROC, .size = 1, .array = &p };

	PMIX_LOAD_PROCID(&p, ns, PMIX_RANK_WILDCARD);
	PMIX_INFO_LOAD(&f->info[f->n++], PMIX_EVENT_CUSTOM_RANGE, &d, PMIX_DATA_ARRAY);
}

static void add_bool(struct fake *f, const char *key, bool v)
{
	PMIX_INFO_LOAD(&f->info[f->n++], key, &v, PMIX_BOOL);
}

/* A well-formed report of ranks 2 and 5, then one defect. */
static void good(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	add_proc(f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 2);
	add_proc(f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 5);
	add_range(f, NSPACE);
	add_bool(f, PMIX_EVENT_NON_DEFAULT, true);
}

static void fake_free(struct fake *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		PMIX_INFO_DESTRUCT(&f->info[i]);
}

TEST(checker_rejects_malformed_reports)
{
	static const uint32_t r25[] = { 2, 5 }, r2[] = { 2 }, r257[] = { 2, 5, 7 };
	struct fake f;
	char why[256];
	pmix_proc_t procs[2];
	pmix_data_array_t arr = { .type = PMIX_PROC, .size = 2, .array = procs };

#define CHECK(expect, code_, range_, ranks_, nranks_) do {				\
	bool ok = check_report(code_, range_, f.info, f.n, NSPACE, ranks_, nranks_,		\
			       why, sizeof(why));						\
	EXPECT_EQ(expect, ok) TH_LOG("line %d: %s", __LINE__, ok ? "accepted" : why);	\
	fake_free(&f);									\
} while (0)
	good(&f);
	CHECK(true, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);
	good(&f);	/* wrong code */
	CHECK(false, PMIX_ERR_PROC_ABORTED_BY_SIG, PMIX_RANGE_CUSTOM, r25, 2);
	good(&f);	/* wrong range */
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_NAMESPACE, r25, 2);
	good(&f);	/* a rank too many, a rank missing */
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r2, 1);
	good(&f);
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r257, 3);
	good(&f);	/* a rank twice */
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 5);
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);
	good(&f);	/* the array form alongside */
	PMIX_LOAD_PROCID(&procs[0], NSPACE, 2);
	PMIX_LOAD_PROCID(&procs[1], NSPACE, 5);
	PMIX_INFO_LOAD(&f.info[f.n++], PMIX_EVENT_AFFECTED_PROCS, &arr, PMIX_DATA_ARRAY);
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);

	memset(&f, 0, sizeof(f));	/* another namespace */
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, "other", 2);
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 5);
	add_range(&f, NSPACE);
	add_bool(&f, PMIX_EVENT_NON_DEFAULT, true);
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);

	memset(&f, 0, sizeof(f));	/* non-default missing, then false */
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 2);
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 5);
	add_range(&f, NSPACE);
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);
	memset(&f, 0, sizeof(f));
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 2);
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 5);
	add_range(&f, NSPACE);
	add_bool(&f, PMIX_EVENT_NON_DEFAULT, false);
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);

	memset(&f, 0, sizeof(f));	/* custom range missing, as a bare proc, or of a rank */
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 2);
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 5);
	add_bool(&f, PMIX_EVENT_NON_DEFAULT, true);
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);
	good(&f);
	PMIX_INFO_DESTRUCT(&f.info[2]);
	add_proc(&f, PMIX_EVENT_CUSTOM_RANGE, NSPACE, PMIX_RANK_WILDCARD);
	f.info[2] = f.info[--f.n];
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);
	memset(&f, 0, sizeof(f));
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 2);
	add_proc(&f, PMIX_EVENT_AFFECTED_PROC, NSPACE, 5);
	PMIX_LOAD_PROCID(&procs[0], NSPACE, 0);
	arr.size = 1;
	PMIX_INFO_LOAD(&f.info[f.n++], PMIX_EVENT_CUSTOM_RANGE, &arr, PMIX_DATA_ARRAY);
	add_bool(&f, PMIX_EVENT_NON_DEFAULT, true);
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);

	good(&f);	/* another PMIX_PROC-typed info */
	add_proc(&f, "ftd.extra", NSPACE, 0);
	CHECK(false, PMIX_ERR_PROC_ABORTED, PMIX_RANGE_CUSTOM, r25, 2);
#undef CHECK
}

TEST_HARNESS_MAIN
