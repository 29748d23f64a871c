// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/ftdetect: the record format, the error contract of read and ioctl,
 * poll, rank registration (PROC_EXIT on deregister, PROC_DEAD when the
 * registered process dies), per-namespace isolation, and the overflow record
 * of a reader that falls behind.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/ftdetect.h>
#include "harness.h"
#include "util.h"

#define DEV "/dev/ftdetect"

static int open_dev(void)
{
	return open(DEV, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

static int reg(int fd, uint32_t job, uint32_t rank)
{
	struct ftd_rank_reg r = { .job = job, .rank = rank };

	return ioctl(fd, FTD_IOC_REGISTER, &r) ? -errno : 0;
}

static int read_one(int fd, struct ftd_event *ev, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (poll(&pfd, 1, timeout_ms) != 1)
		return -ETIMEDOUT;
	n = read(fd, ev, sizeof(*ev));
	if (n < 0)
		return -errno;
	return n == sizeof(*ev) ? 0 : -EPROTO;
}

FIXTURE(dev) {
	int watcher;
};

FIXTURE_SETUP(dev)
{
	ASSERT_EQ(0, ftd_test_new_netns());
	self->watcher = open_dev();
	ASSERT_LE(0, self->watcher) TH_LOG("open %s: %s", DEV, strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	close(self->watcher);
}

TEST_F(dev, empty_nonblocking_read_is_eagain)
{
	struct ftd_event ev;

	EXPECT_EQ(-1, read(self->watcher, &ev, sizeof(ev)));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_F(dev, buffer_smaller_than_a_record_is_einval)
{
	char buf[sizeof(struct ftd_event) - 1];

	EXPECT_EQ(-1, read(self->watcher, buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * A stream of records has no offsets. The module has no llseek method (6.12
 * removed no_llseek): the open clears the seek and pread modes instead, and
 * every kernel from 6.1 on then answers ESPIPE.
 */
TEST_F(dev, seek_and_pread_are_espipe)
{
	struct ftd_event ev;

	EXPECT_EQ(-1, lseek(self->watcher, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
	EXPECT_EQ(-1, lseek(self->watcher, 0, SEEK_CUR));
	EXPECT_EQ(ESPIPE, errno);
	EXPECT_EQ(-1, pread(self->watcher, &ev, sizeof(ev), 0));
	EXPECT_EQ(ESPIPE, errno);
}

TEST_F(dev, unknown_ioctl_is_enotty)
{
	EXPECT_EQ(-1, ioctl(self->watcher, _IO(FTD_IOC_MAGIC, 99)));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->watcher, _IO('x', 1)));
	EXPECT_EQ(ENOTTY, errno);
}

TEST_F(dev, known_ioctl_with_wrong_size_is_einval)
{
	uint64_t small = 0;
	char big[64] = {};

	EXPECT_EQ(-1, ioctl(self->watcher, _IOW(FTD_IOC_MAGIC, 1, uint64_t), &small));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->watcher, _IOR(FTD_IOC_MAGIC, 3, char[64]), big));
	EXPECT_EQ(EINVAL, errno);
	/* Nothing was registered by the malformed request. */
	EXPECT_EQ(-1, ioctl(self->watcher, FTD_IOC_DEREGISTER));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(dev, info_reports_an_unconfigured_instance)
{
	struct ftd_info info;

	ASSERT_EQ(0, ioctl(self->watcher, FTD_IOC_INFO, &info));
	EXPECT_EQ(FTD_EVENT_VERSION, info.version);
	EXPECT_EQ(sizeof(struct ftd_event), info.event_size);
	EXPECT_EQ(FTD_NODE_NONE, info.node);
	EXPECT_EQ(0, info.up);
}

TEST_F(dev, register_rules)
{
	struct ftd_rank_reg bad = { .job = 1, .rank = 1, .flags = 1U << 31 };
	struct ftd_rank_reg owner_without_flag = { .job = 1, .rank = 1, .owner = 5 };
	int fd = open_dev();

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(fd, FTD_IOC_REGISTER, &bad));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, FTD_IOC_REGISTER, &owner_without_flag));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-ENOENT, ioctl(fd, FTD_IOC_DEREGISTER) ? -errno : 0);
	EXPECT_EQ(0, reg(fd, 1, 1));
	EXPECT_EQ(-EBUSY, reg(fd, 1, 2));
	EXPECT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	close(fd);
}

static int scope(int fd, const uint32_t *nodes, uint32_t count)
{
	struct ftd_scope sc = { .count = count, .nodes = (uintptr_t)nodes };

	return ioctl(fd, FTD_IOC_SCOPE, &sc) ? -errno : 0;
}

static int reg_scoped(int fd, uint32_t job, uint32_t rank)
{
	struct ftd_rank_reg r = { .job = job, .rank = rank, .flags = FTD_REG_F_SCOPED };

	return ioctl(fd, FTD_IOC_REGISTER, &r) ? -errno : 0;
}

/*
 * FTD_IOC_SCOPE's error contract (the uapi header's "Scoped
 * registrations"): each bad request fails with its errno and ends
 * nothing; the rank's end is still delivered here, once. (Where the end
 * goes, and that a refused scope changed nothing, net/scope.sh sees.)
 */
TEST_F(dev, scope_rules)
{
	static uint32_t many[FTD_SCOPE_MAX + 1];
	uint32_t nodes[] = { 3, 1, 2, 3, 1 }, none[] = { 4, FTD_NODE_NONE };
	struct ftd_scope bad_flags = { .count = 1, .flags = 1, .nodes = (uintptr_t)nodes };
	struct ftd_scope bad_reserved = { .count = 1, .reserved = 1, .nodes = (uintptr_t)nodes };
	struct ftd_scope bad_address = { .count = 2, .nodes = 8 };
	char big[40] = {};
	struct ftd_event ev;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	EXPECT_EQ(-ENOENT, scope(fd, nodes, 5));	/* nothing registered */
	ASSERT_EQ(0, reg(fd, 30, 1));
	EXPECT_EQ(-EINVAL, scope(fd, nodes, 5));	/* registered unscoped: told everywhere */
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EV_PROC_EXIT, ev.type);

	ASSERT_EQ(0, reg_scoped(fd, 30, 2));
	EXPECT_EQ(-1, ioctl(fd, FTD_IOC_SCOPE, &bad_flags));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, FTD_IOC_SCOPE, &bad_reserved));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, FTD_IOC_SCOPE, &bad_address));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-EINVAL, scope(fd, none, 2));
	EXPECT_EQ(-E2BIG, scope(fd, many, FTD_SCOPE_MAX + 1));
	EXPECT_EQ(-1, ioctl(fd, _IOW(FTD_IOC_MAGIC, 4, char[40]), big));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, scope(fd, nodes, 5));		/* unsorted, duplicates: fine */
	EXPECT_EQ(0, scope(fd, many, FTD_SCOPE_MAX));	/* replaced; node 0 is no node here */
	EXPECT_EQ(0, scope(fd, NULL, 0));		/* taken away */
	EXPECT_EQ(0, scope(fd, nodes, 1));
	/* Nothing of the bad requests ended or changed the rank. */
	EXPECT_EQ(-ETIMEDOUT, read_one(self->watcher, &ev, 100));
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EV_PROC_EXIT, ev.type);
	EXPECT_EQ(30, ev.job);
	EXPECT_EQ(2, ev.rank);
	EXPECT_EQ(-ETIMEDOUT, read_one(self->watcher, &ev, 100));
	/* A new registration on the file starts without a scope, and may be unscoped. */
	EXPECT_EQ(0, reg(fd, 30, 3));
	EXPECT_EQ(-EINVAL, scope(fd, nodes, 1));
	close(fd);
}

TEST_F(dev, deregister_is_proc_exit)
{
	struct ftd_event ev;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg(fd, 7, 3));
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	close(fd);

	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EVENT_VERSION, ev.version);
	EXPECT_EQ(sizeof(ev), ev.size);
	EXPECT_EQ(FTD_EV_PROC_EXIT, ev.type);
	EXPECT_EQ(7, ev.job);
	EXPECT_EQ(3, ev.rank);
	EXPECT_EQ(0, ev.uid);		/* root's */
	EXPECT_NE(0, ev.time_ns);
	EXPECT_NE(0, ev.mono_ns);
	/* A clean exit is never followed by a death notice. */
	EXPECT_EQ(-ETIMEDOUT, read_one(self->watcher, &ev, 200));
}

TEST_F(dev, close_while_registered_is_proc_dead)
{
	struct ftd_event ev;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg(fd, 9, 4));
	close(fd);
	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EV_PROC_DEAD, ev.type);
	EXPECT_EQ(9, ev.job);
	EXPECT_EQ(4, ev.rank);
}

TEST_F(dev, sigkill_of_a_registered_process_is_proc_dead)
{
	int ready[2];
	struct ftd_event ev;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = open_dev();

		if (fd < 0 || reg(fd, 11, 5))
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EV_PROC_DEAD, ev.type);
	EXPECT_EQ(11, ev.job);
	EXPECT_EQ(5, ev.rank);
}

TEST_F(dev, one_read_returns_several_whole_records)
{
	struct ftd_event evs[3];
	int fd = open_dev(), i;

	ASSERT_LE(0, fd);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, reg(fd, 1, i));
		ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	}
	close(fd);
	/* A buffer of 2.5 records gets two. */
	EXPECT_EQ(2 * sizeof(evs[0]), read(self->watcher, evs, 2 * sizeof(evs[0]) + 32));
	EXPECT_EQ(0, evs[0].rank);
	EXPECT_EQ(1, evs[1].rank);
	EXPECT_EQ(evs[0].seq + 1, evs[1].seq);
	EXPECT_EQ(sizeof(evs[0]), read(self->watcher, evs, sizeof(evs)));
	EXPECT_EQ(2, evs[0].rank);
}

struct blocked_read {
	int fd;
	ssize_t n;
	struct ftd_event ev;
};

static void *blocking_reader(void *arg)
{
	struct blocked_read *b = arg;

	b->n = read(b->fd, &b->ev, sizeof(b->ev));
	return NULL;
}

TEST_F(dev, blocking_read_wakes_on_an_event)
{
	struct blocked_read b = {};
	pthread_t t;
	int fd;

	b.fd = open(DEV, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, b.fd);
	ASSERT_EQ(0, pthread_create(&t, NULL, blocking_reader, &b));
	usleep(100 * 1000);
	fd = open_dev();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg(fd, 2, 2));
	close(fd);
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(sizeof(b.ev), b.n);
	EXPECT_EQ(FTD_EV_PROC_DEAD, b.ev.type);
	close(b.fd);
}

TEST_F(dev, poll_reports_readable_only_with_a_record)
{
	struct pollfd pfd = { .fd = self->watcher, .events = POLLIN };
	int fd;

	EXPECT_EQ(0, poll(&pfd, 1, 0));
	fd = open_dev();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg(fd, 1, 1));
	close(fd);
	EXPECT_EQ(1, poll(&pfd, 1, 2000));
	EXPECT_TRUE(pfd.revents & POLLIN);
}

TEST_F(dev, events_stay_in_their_namespace)
{
	struct ftd_event ev;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd;

		if (ftd_test_new_netns())
			_exit(1);
		fd = open_dev();
		if (fd < 0 || reg(fd, 1, 1))
			_exit(1);
		close(fd);	/* PROC_DEAD in the child's namespace only */
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	EXPECT_EQ(-ETIMEDOUT, read_one(self->watcher, &ev, 300));
}

static int open_and_register(void *arg)
{
	int fd = open_dev();

	if (fd < 0)
		return 1;
	return reg(fd, 3, 3) ? 2 : 0;
}

TEST_F(dev, unprivileged_open_and_register_are_allowed)
{
	EXPECT_EQ(0, ftd_test_unprivileged(open_and_register, NULL));
}

/*
 * A reader that never reads finds its oldest records overwritten once the
 * instance's log of FTD_EVENT_QUEUE_LEN records has gone past them: one
 * OVERFLOW record stands where they were (seq: the first lost), then come
 * the records the log still holds, in order, and the stream goes on
 * normally after them.
 */
TEST_F(dev, a_reader_that_falls_behind_gets_an_overflow_record)
{
	const unsigned int held = FTD_EVENT_QUEUE_LEN, extra = 77;
	struct ftd_event ev;
	uint64_t first_seq;
	unsigned int i;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	for (i = 0; i < held + extra; i++) {
		ASSERT_EQ(0, reg(fd, 5, i));
		ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	}
	ASSERT_EQ(0, read_one(self->watcher, &ev, 1000));
	ASSERT_EQ(FTD_EV_OVERFLOW, ev.type);
	EXPECT_EQ(extra, ev.count);
	first_seq = ev.seq;	/* the first record lost: rank 0's */
	for (i = 0; i < held; i++) {
		ASSERT_EQ(0, read_one(self->watcher, &ev, 1000));
		ASSERT_EQ(FTD_EV_PROC_EXIT, ev.type);
		ASSERT_EQ(extra + i, ev.rank);
		ASSERT_EQ(first_seq + extra + i, ev.seq);
	}

	ASSERT_EQ(0, reg(fd, 5, 999));
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	ASSERT_EQ(0, read_one(self->watcher, &ev, 1000));
	EXPECT_EQ(FTD_EV_PROC_EXIT, ev.type);
	EXPECT_EQ(999, ev.rank);
	EXPECT_EQ(first_seq + held + extra, ev.seq);
	close(fd);
}

/*
 * Readers share the log but not their positions: one that keeps up reads
 * everything while another falls behind, and a reader opened later starts
 * with what comes after its open.
 */
TEST_F(dev, readers_keep_their_own_positions)
{
	struct ftd_event ev;
	unsigned int i;
	int fd = open_dev(), late;

	ASSERT_LE(0, fd);
	for (i = 0; i < FTD_EVENT_QUEUE_LEN + 10; i++) {
		ASSERT_EQ(0, reg(fd, 6, i));
		ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
		ASSERT_EQ(0, read_one(self->watcher, &ev, 1000));
		ASSERT_EQ(FTD_EV_PROC_EXIT, ev.type);
		ASSERT_EQ(i, ev.rank);
	}
	late = open_dev();
	ASSERT_LE(0, late);
	EXPECT_EQ(-ETIMEDOUT, read_one(late, &ev, 100));
	ASSERT_EQ(0, reg(fd, 6, 5000));
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	ASSERT_EQ(0, read_one(late, &ev, 1000));
	EXPECT_EQ(5000, ev.rank);
	ASSERT_EQ(0, read_one(self->watcher, &ev, 1000));
	EXPECT_EQ(5000, ev.rank);
	/* fd itself never read: it lost the oldest, and says so first. */
	ASSERT_EQ(0, read_one(fd, &ev, 1000));
	EXPECT_EQ(FTD_EV_OVERFLOW, ev.type);
	EXPECT_EQ(11, ev.count);
	close(late);
	close(fd);
}

/* ---------------------------------------------------------- ownership */

/* Fork a child that drops to nobody and returns fn(arg) as its status. */
static pid_t fork_nobody(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(ftd_test_drop_privileges() ? 99 : fn(arg));
	return pid;
}

static int exit_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int take_job_7(void *arg)
{
	int fd = open_dev();

	if (fd < 0)
		return 1;
	if (reg(fd, 7, 4) != -EPERM)	/* root's job */
		return 2;
	if (reg(fd, 8, 0))		/* a job of its own */
		return 3;
	return 0;			/* exits registered: PROC_DEAD, uid 65534 */
}

/*
 * Another user on the same node cannot join (and so cannot end) a job that
 * root's ranks hold; what it registers of its own carries its uid.
 */
TEST_F(dev, another_uid_cannot_take_a_job)
{
	struct ftd_event ev;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg(fd, 7, 3));
	EXPECT_EQ(0, exit_status(fork_nobody(take_job_7, NULL)));
	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EV_PROC_DEAD, ev.type);
	EXPECT_EQ(8, ev.job);
	EXPECT_EQ(65534, ev.uid);
	/* Nothing about job 7: root's rank is untouched. */
	EXPECT_EQ(-ETIMEDOUT, read_one(self->watcher, &ev, 200));
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EV_PROC_EXIT, ev.type);
	EXPECT_EQ(7, ev.job);
	EXPECT_EQ(0, ev.uid);
	close(fd);
}

static int deregister_inherited(void *arg)
{
	int fd = *(int *)arg;

	if (!ioctl(fd, FTD_IOC_DEREGISTER) || errno != EPERM)
		return 1;
	close(fd);		/* its copy: not the rank's process */
	return 0;
}

/* A descriptor that reached another user does not let it end the rank. */
TEST_F(dev, another_uid_cannot_end_a_rank)
{
	struct ftd_event ev;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg(fd, 21, 1));
	EXPECT_EQ(0, exit_status(fork_nobody(deregister_inherited, &fd)));
	EXPECT_EQ(-ETIMEDOUT, read_one(self->watcher, &ev, 300));
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EV_PROC_EXIT, ev.type);
	EXPECT_EQ(21, ev.job);
	close(fd);
}

static int scope_of_root_rank(void *arg)
{
	uint32_t node = 1;

	/* The rank's descriptor reached another user: it may not redirect its end. */
	return scope(*(int *)arg, &node, 1) == -EPERM ? 0 : 1;
}

TEST_F(dev, another_uid_cannot_scope_a_rank)
{
	int fd = open_dev();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg_scoped(fd, 31, 1));
	EXPECT_EQ(0, exit_status(fork_nobody(scope_of_root_rank, &fd)));
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	close(fd);
}

static int register_for_root(void *arg)
{
	struct ftd_rank_reg r = { .job = 30, .rank = 0, .flags = FTD_REG_F_OWNER, .owner = 0 };
	int fd = open_dev();

	if (fd < 0)
		return 1;
	return !ioctl(fd, FTD_IOC_REGISTER, &r) || errno != EPERM;
}

/* Registering on behalf of another uid takes CAP_SETUID. */
TEST_F(dev, registering_for_another_uid_needs_cap_setuid)
{
	struct ftd_rank_reg r = { .job = 31, .rank = 2, .flags = FTD_REG_F_OWNER, .owner = 1234 };
	struct ftd_event ev;
	int fd = open_dev();

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, exit_status(fork_nobody(register_for_root, NULL)));
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_REGISTER, &r));
	close(fd);
	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EV_PROC_DEAD, ev.type);
	EXPECT_EQ(31, ev.job);
	EXPECT_EQ(1234, ev.uid);
	EXPECT_EQ(-ETIMEDOUT, read_one(self->watcher, &ev, 200));
}

/*
 * The registered process forks a helper (as system(3) or Python's
 * multiprocessing would) that inherits the descriptor and the status table
 * mapping, then dies: its death is reported at once, while the helper still
 * runs; the helper's own exit reports nothing.
 */
TEST_F(dev, a_forked_child_does_not_hide_a_crash)
{
	int ready[2], helper_pid[2];
	struct ftd_event ev;
	pid_t rank, helper;
	char c;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(helper_pid));
	rank = fork();
	ASSERT_LE(0, rank);
	if (rank == 0) {
		int fd = open_dev();
		void *table;
		pid_t h;

		if (fd < 0 || reg(fd, 41, 7))
			_exit(1);
		table = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		if (table == MAP_FAILED)
			_exit(2);
		h = fork();
		if (h == 0) {
			for (;;)
				pause();
		}
		if (write(helper_pid[1], &h, sizeof(h)) != sizeof(h) ||
		    write(ready[1], "r", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(sizeof(helper), read(helper_pid[0], &helper, sizeof(helper)));
	ASSERT_EQ(0, kill(rank, SIGKILL));
	ASSERT_EQ(rank, waitpid(rank, NULL, 0));
	ASSERT_EQ(0, kill(helper, 0)) TH_LOG("the helper should still run");
	ASSERT_EQ(0, read_one(self->watcher, &ev, 2000));
	EXPECT_EQ(FTD_EV_PROC_DEAD, ev.type);
	EXPECT_EQ(41, ev.job);
	EXPECT_EQ(7, ev.rank);
	ASSERT_EQ(0, kill(helper, SIGKILL));
	EXPECT_EQ(-ETIMEDOUT, read_one(self->watcher, &ev, 300));
}

TEST_HARNESS_MAIN
