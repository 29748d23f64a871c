// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: systematic fault injection into the module's requests, for the
 * debug kernel (make test-debug; CONFIG_FAULT_INJECTION_DEBUG_FS, failslab
 * and fail_page_alloc set up by the caller to count sleeping allocations).
 *
 * The requests of `ftctl apply` and a little more (configure, add nodes,
 * start, add and replace a node while up, dump, change the period live,
 * delete a node, open /dev/ftdetect and register a rank, stop) are steps
 * 0..N-1. For each step S and each n = 1, 2, ...: a child process in a new
 * network namespace (a fresh instance) replays steps 0..S-1, which must
 * succeed, then makes the n-th fault-injection point of step S fail
 * (/proc/thread-self/fail-nth), and checks that:
 *   - the step returned (success or an error; the error is printed),
 *   - the instance still answers: config, node dump and counters,
 *   - the step, done again without a fault, succeeds (a failed request left
 *     nothing half done that blocks it),
 *   - the node table is then exactly what it must be after step S.
 * A step is done when its n-th point is beyond its last one (fail-nth still
 * positive afterwards). KASAN, lockdep, kmemleak and the rest check the
 * error paths meanwhile; the caller checks the kernel log.
 *
 * With -r ROUNDS, random faults instead: in each round a child in a fresh
 * network namespace marks only its own thread (make-it-fail; the caller
 * sets failslab's task filter and probability) and runs every step, any of
 * which may fail; then, with no fault, the instance must answer, and the
 * steps done again (after a down) must all succeed and give the node table
 * of a clean run. The faults hit this process's own requests and nothing
 * else: no exec, no other process, while they are on.
 *
 *   ftd-failnth [-m MAX_N] [-s STEP] [-v]
 *   ftd-failnth -r ROUNDS [-v]
 *
 * Prints one TAP-ish comment line per step; exits 0 if every check passed,
 * 1 otherwise, 2 on a usage or setup error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/ftdetect.h>

#include "common/msg.h"
#include "common/nl.h"
#include "common/query.h"

#define MS 1000000ULL

/* A child's exit status. */
enum { CHILD_INJECTED = 0, CHILD_BAD = 1, CHILD_SETUP = 2, CHILD_DONE = 10 };

static bool verbose;
/* The REGISTER step's file: closed before the step is done again. */
static int reg_fd = -1;

struct node {
	uint32_t id;
	const char *addr;
};

enum step_kind { SET_CONFIG, ADD_NODE, DEL_NODE, GET_ALL, REGISTER, DOWN };

struct step {
	const char *name;
	enum step_kind kind;
	struct ftu_config cfg;	/* SET_CONFIG */
	struct node node;	/* ADD_NODE, DEL_NODE (id) */
};

#define BIT FTU_BIT

static const struct step steps[] = {
	{ .name = "set-config (cluster, node, port, period, timeout, key)", .kind = SET_CONFIG,
	  .cfg = { .present = BIT(FTDETECT_A_CLUSTER_ID) | BIT(FTDETECT_A_LOCAL_NODE) |
			      BIT(FTDETECT_A_PORT) | BIT(FTDETECT_A_PERIOD_NS) |
			      BIT(FTDETECT_A_TIMEOUT_NS) | BIT(FTDETECT_A_KEY),
		   .cluster = 42, .node = 1, .port = 7061, .period_ns = 10 * MS,
		   .timeout_ns = 100 * MS, .key = { 1, 2, 3, 4, 5, 6, 7, 8 } } },
	{ .name = "add-node 1 (self)", .kind = ADD_NODE, .node = { 1, "192.0.2.1" } },
	{ .name = "add-node 2", .kind = ADD_NODE, .node = { 2, "192.0.2.2" } },
	{ .name = "set-config up", .kind = SET_CONFIG,
	  .cfg = { .present = BIT(FTDETECT_A_UP), .up = true } },
	{ .name = "add-node 3 while up", .kind = ADD_NODE, .node = { 3, "192.0.2.3" } },
	{ .name = "add-node 2 again, new address (replace)", .kind = ADD_NODE,
	  .node = { 2, "192.0.2.22" } },
	{ .name = "get-config, get-node dump, get-stats", .kind = GET_ALL },
	{ .name = "set-config period, timeout, observers (live)", .kind = SET_CONFIG,
	  .cfg = { .present = BIT(FTDETECT_A_PERIOD_NS) | BIT(FTDETECT_A_TIMEOUT_NS) |
			      BIT(FTDETECT_A_OBSERVERS),
		   .period_ns = 20 * MS, .timeout_ns = 200 * MS, .observers = 1 } },
	{ .name = "del-node 3", .kind = DEL_NODE, .node = { 3, NULL } },
	{ .name = "open /dev/ftdetect, register a rank", .kind = REGISTER },
	{ .name = "down", .kind = DOWN },
};
#define NR_STEPS (sizeof(steps) / sizeof(steps[0]))

static int do_step(struct ftu_nl *nl, const struct step *st)
{
	struct ftu_config cfg;
	struct ftu_stats stats;
	struct ftu_node *nodes;
	struct ftu_addr addr;
	struct nl_msg *msg;
	size_t n;
	int err, fd;

	switch (st->kind) {
	case SET_CONFIG:
		msg = ftu_nl_msg(nl, FTDETECT_CMD_SET_CONFIG, 0);
		if (msg && ftu_msg_put_config(msg, &st->cfg)) {
			nlmsg_free(msg);
			return -ENOBUFS;
		}
		return ftu_nl_call(nl, msg, NULL, NULL);
	case ADD_NODE:
		if (ftu_addr_parse(st->node.addr, &addr))
			return -EINVAL;
		msg = ftu_nl_msg(nl, FTDETECT_CMD_ADD_NODE, 0);
		if (msg && ftu_msg_put_node(msg, st->node.id, &addr, 1)) {
			nlmsg_free(msg);
			return -ENOBUFS;
		}
		return ftu_nl_call(nl, msg, NULL, NULL);
	case DEL_NODE:
		msg = ftu_nl_msg(nl, FTDETECT_CMD_DEL_NODE, 0);
		if (msg && ftu_msg_put_node_id(msg, st->node.id)) {
			nlmsg_free(msg);
			return -ENOBUFS;
		}
		return ftu_nl_call(nl, msg, NULL, NULL);
	case GET_ALL:
		err = ftu_get_config(nl, &cfg);
		if (!err)
			err = ftu_get_nodes(nl, &nodes, &n);
		if (!err) {
			free(nodes);
			err = ftu_get_stats(nl, &stats);
		}
		return err;
	case REGISTER: {
		struct ftd_rank_reg reg = { .job = 7, .rank = 0 };

		/* Left open: the child's exit closes it (and ends the rank). */
		fd = open("/dev/ftdetect", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (reg_fd >= 0)
			close(reg_fd);
		reg_fd = fd;
		if (ioctl(fd, FTD_IOC_REGISTER, &reg))
			return -errno;
		return 0;
	}
	case DOWN:
		return ftu_nl_call(nl, ftu_nl_msg(nl, FTDETECT_CMD_DOWN, 0), NULL, NULL);
	}
	return -EINVAL;
}

/* The nodes there must be after steps 0..last: id and address, by id. */
static int expected_nodes(unsigned int last, struct node *out)
{
	int n = 0;

	for (unsigned int s = 0; s <= last; s++) {
		const struct step *st = &steps[s];
		int i;

		for (i = 0; i < n && out[i].id != st->node.id; i++)
			;
		if (st->kind == ADD_NODE) {
			out[i] = st->node;
			if (i == n)
				n++;
		} else if (st->kind == DEL_NODE && i < n) {
			out[i] = out[--n];
		}
	}
	for (int i = 1; i < n; i++)	/* sort by id */
		for (int j = i; j > 0 && out[j].id < out[j - 1].id; j--) {
			struct node t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

static bool nodes_as_expected(struct ftu_nl *nl, unsigned int last)
{
	struct node want[NR_STEPS];
	struct ftu_node *got;
	size_t n;
	int nwant, err;
	bool ok = true;

	nwant = expected_nodes(last, want);
	err = ftu_get_nodes(nl, &got, &n);
	if (err) {
		printf("#   node dump failed: %s\n", strerror(-err));
		return false;
	}
	if ((int)n != nwant) {
		printf("#   %zu nodes, expected %d\n", n, nwant);
		ok = false;
	}
	for (size_t i = 0; ok && i < n; i++) {
		char buf[FTU_ADDR_BUFSZ];

		if (got[i].id != want[i].id || got[i].nr_rails != 1 ||
		    strcmp(ftu_addr_format(&got[i].rails[0].addr, buf, sizeof(buf)), want[i].addr)) {
			printf("#   node %u: %s, expected node %u %s\n", got[i].id,
			       got[i].nr_rails ? ftu_addr_format(&got[i].rails[0].addr, buf, sizeof(buf)) : "-",
			       want[i].id, want[i].addr);
			ok = false;
		}
	}
	free(got);
	return ok;
}

/* lo up, and 192.0.2.1/24 on it (the local node's address), by ioctl. */
static int setup_netns(void)
{
	struct ifreq ifr = {};
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
	int fd, err = 0;

	if (unshare(CLONE_NEWNET))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strcpy(ifr.ifr_name, "lo");
	ifr.ifr_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr))
		err = -errno;
	strcpy(ifr.ifr_name, "lo:1");
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, "192.0.2.1", &sin->sin_addr);
	if (!err && ioctl(fd, SIOCSIFADDR, &ifr))
		err = -errno;
	close(fd);
	return err;
}

static int set_fail_nth(int fd, unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -errno;
}

static unsigned int get_fail_nth(int fd)
{
	char buf[16] = "";

	if (pread(fd, buf, sizeof(buf) - 1, 0) <= 0)
		return ~0U;
	return strtoul(buf, NULL, 10);
}

/* A child's own instance: a new network namespace, and a socket to it. */
static int fresh_instance(struct ftu_nl *nl)
{
	int err = setup_netns();

	if (err) {
		printf("#   cannot set up a network namespace: %s\n", strerror(-err));
		return CHILD_SETUP;
	}
	return ftu_nl_open(nl, FTDETECT_GENL_NAME) ? CHILD_SETUP : 0;
}

/*
 * After the faults: does the instance still answer, on a new socket (the
 * faulty one may have lost an ACK)? who names the case in what is printed.
 */
static bool still_answers(struct ftu_nl *check, const char *who)
{
	if (ftu_nl_open(check, FTDETECT_GENL_NAME)) {
		printf("#   %s: the family no longer answers\n", who);
		return false;
	}
	if (do_step(check, &(struct step){ .name = "check", .kind = GET_ALL })) {
		printf("#   %s: get-config/get-node/get-stats fail afterwards\n", who);
		return false;
	}
	return true;
}

/* One child: steps 0..s-1, then step s with its n-th point failing. */
static int child(unsigned int s, unsigned int n)
{
	struct ftu_nl nl, check;
	int fnfd, err, again;
	unsigned int left;
	char who[48];

	if (fresh_instance(&nl))
		return CHILD_SETUP;
	for (unsigned int i = 0; i < s; i++) {
		err = do_step(&nl, &steps[i]);
		if (err) {
			printf("#   step %u (%s) failed without a fault: %s%s%s\n", i, steps[i].name,
			       strerror(-err), nl.extack[0] ? ": " : "", nl.extack);
			return CHILD_SETUP;
		}
	}
	fnfd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fnfd < 0) {
		printf("#   /proc/thread-self/fail-nth: %s (CONFIG_FAULT_INJECTION_DEBUG_FS?)\n",
		       strerror(errno));
		return CHILD_SETUP;
	}
	if (set_fail_nth(fnfd, n))
		return CHILD_SETUP;
	err = do_step(&nl, &steps[s]);
	left = get_fail_nth(fnfd);
	set_fail_nth(fnfd, 0);
	if (left != 0) {
		/* Fewer than n points: the step is covered. */
		if (err) {
			printf("#   step %u failed with no fault injected: %s\n", s, strerror(-err));
			return CHILD_BAD;
		}
		return CHILD_DONE;
	}
	if (verbose || err)
		printf("#   step %u, fault %u: %s%s%s\n", s, n, err ? strerror(-err) : "success",
		       nl.extack[0] ? ": " : "", nl.extack);

	snprintf(who, sizeof(who), "step %u, fault %u", s, n);
	if (!still_answers(&check, who))
		return CHILD_BAD;
	again = do_step(&check, &steps[s]);
	/* A delete that went through before its ACK was lost is gone. */
	if (again && !(again == -ENOENT && steps[s].kind == DEL_NODE)) {
		printf("#   step %u, fault %u: done again without a fault, it fails: %s%s%s\n", s, n,
		       strerror(-again), check.extack[0] ? ": " : "", check.extack);
		return CHILD_BAD;
	}
	if (!nodes_as_expected(&check, s)) {
		printf("#   step %u, fault %u: wrong node table afterwards\n", s, n);
		return CHILD_BAD;
	}
	ftu_nl_close(&check);
	ftu_nl_close(&nl);
	return CHILD_INJECTED;
}

/*
 * /proc/thread-self/make-it-fail, opened before the faults begin: an open
 * while they are on could itself fail, and leave them on.
 */
static int set_make_it_fail(int fd, bool on)
{
	return pwrite(fd, on ? "1" : "0", 1, 0) == 1 ? 0 : -errno;
}

/*
 * One random round: every step with this thread's allocations failing at
 * the caller's failslab probability, then the checks without faults.
 * Nothing is printed while faults are on (a failed write would lose it).
 */
static int random_child(unsigned int round, unsigned int unused)
{
	int errs[NR_STEPS], err, mif, failed = 0;
	struct ftu_nl nl, check;
	unsigned int s;
	char who[32];

	if (fresh_instance(&nl))
		return CHILD_SETUP;
	mif = open("/proc/thread-self/make-it-fail", O_WRONLY | O_CLOEXEC);
	err = mif < 0 ? -errno : set_make_it_fail(mif, true);
	if (err) {
		printf("#   /proc/thread-self/make-it-fail: %s\n", strerror(-err));
		return CHILD_SETUP;
	}
	for (s = 0; s < NR_STEPS; s++)
		errs[s] = do_step(&nl, &steps[s]);
	/* Writing to procfs allocates nothing; the loop is for an interrupted write. */
	while (set_make_it_fail(mif, false) == -EINTR)
		;
	close(mif);
	if (reg_fd >= 0)
		close(reg_fd);
	reg_fd = -1;
	for (s = 0; s < NR_STEPS; s++) {
		failed += errs[s] != 0;
		if (verbose && errs[s])
			printf("#   round %u, step %u: %s\n", round, s, strerror(-errs[s]));
	}

	snprintf(who, sizeof(who), "round %u", round);
	if (!still_answers(&check, who))
		return CHILD_BAD;
	/* Start over from a down instance; the last step (down) is left out. */
	err = do_step(&check, &steps[NR_STEPS - 1]);
	for (s = 0; !err && s < NR_STEPS - 1; s++) {
		err = do_step(&check, &steps[s]);
		if (err == -ENOENT && steps[s].kind == DEL_NODE)
			err = 0;	/* the faulted run's delete went through */
	}
	if (err) {
		printf("#   round %u: step %u done again without a fault fails: %s%s%s\n", round,
		       s - 1, strerror(-err), check.extack[0] ? ": " : "", check.extack);
		return CHILD_BAD;
	}
	if (!nodes_as_expected(&check, NR_STEPS - 2)) {
		printf("#   round %u: wrong node table afterwards\n", round);
		return CHILD_BAD;
	}
	ftu_nl_close(&check);
	ftu_nl_close(&nl);
	/* How many of the round's requests failed, for the summary. */
	return CHILD_DONE + failed;
}

/*
 * Run body(a, b) in a child and return its exit status; CHILD_BAD if it
 * died of a signal (who names the case), CHILD_SETUP if it could not run.
 */
static int run_forked(int (*body)(unsigned int, unsigned int), unsigned int a, unsigned int b,
		      const char *who)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return CHILD_SETUP;
	if (pid == 0)
		_exit(body(a, b));
	if (waitpid(pid, &status, 0) < 0)
		return CHILD_SETUP;
	if (WIFSIGNALED(status)) {
		printf("#   %s: the child died of signal %d\n", who, WTERMSIG(status));
		return CHILD_BAD;
	}
	return WEXITSTATUS(status);
}

static int random_rounds(unsigned int rounds)
{
	unsigned int r, bad = 0, failed_steps = 0, clean = 0;
	char who[32];
	int status;

	for (r = 0; r < rounds; r++) {
		snprintf(who, sizeof(who), "round %u", r);
		status = run_forked(random_child, r, 0, who);
		if (status == CHILD_SETUP)
			return 2;
		if (status == CHILD_BAD) {
			bad++;
			continue;
		}
		failed_steps += status - CHILD_DONE;
		clean += status == CHILD_DONE;
	}
	printf("# random: %u rounds of %zu requests, %u requests failed by a fault, %u rounds without one, %u bad\n",
	       rounds, NR_STEPS, failed_steps, clean, bad);
	return bad ? 1 : 0;
}

static int run_child(unsigned int s, unsigned int n)
{
	char who[48];

	snprintf(who, sizeof(who), "step %u, fault %u", s, n);
	return run_forked(child, s, n, who);
}

int main(int argc, char **argv)
{
	unsigned int max = 500, only = ~0U, rounds = 0, s, n, bad = 0;
	int opt, rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "m:r:s:v")) != -1) {
		switch (opt) {
		case 'm':
			max = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 's':
			only = strtoul(optarg, NULL, 0);
			break;
		case 'v':
			verbose = true;
			break;
		default:
			fprintf(stderr, "usage: ftd-failnth [-m MAX_N] [-s STEP] [-v]\n"
					"       ftd-failnth -r ROUNDS [-v]\n");
			return 2;
		}
	}
	if (rounds)
		return random_rounds(rounds);
	for (s = 0; s < NR_STEPS; s++) {
		unsigned int failed = 0;

		if (only != ~0U && s != only)
			continue;
		for (n = 1; n <= max; n++) {
			rc = run_child(s, n);
			if (rc == CHILD_DONE)
				break;
			if (rc == CHILD_SETUP)
				return 2;
			if (rc == CHILD_BAD)
				failed++;
		}
		printf("# step %u (%s): %u fault points%s, %u bad\n", s, steps[s].name, n - 1,
		       n > max ? " (stopped at -m)" : "", failed);
		bad += failed;
	}
	return bad ? 1 : 0;
}
