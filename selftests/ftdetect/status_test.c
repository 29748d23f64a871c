// SPDX-License-Identifier: GPL-2.0
/*
 * The status table of /dev/ftdetect (mmap): read-only for everyone and in
 * every way (no write mapping, no mprotect to one, no growth), offset and
 * length rules, a sane header; what it says of nodes (a configured instance,
 * nodes added and removed, down) and of ranks (registered, deregistered,
 * closed, killed, registered before the table existed); that it agrees with
 * the event stream; its capacity limit, which says so; and its lifetime:
 * freed with the last file and rebuilt, alive after its namespace lost its
 * last process. Raw mmap for the kernel's contract, libftdetect (linked
 * statically) for what an MPI runtime sees.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/ftdetect.h>
#include <netlink/genl/genl.h>
#include "harness.h"
#include "util.h"
#include "common/addr.h"
#include "common/msg.h"
#include "common/nl.h"
#include "lib/ftdetect.h"

#define DEV "/dev/ftdetect"
#define PARAM_RANKS "/sys/module/ftdetect/parameters/status_ranks"

static int open_dev(int flags)
{
	return open(DEV, flags | O_NONBLOCK | O_CLOEXEC);
}

static int reg(int fd, uint32_t job, uint32_t rank)
{
	struct ftd_rank_reg r = { .job = job, .rank = rank };

	return ioctl(fd, FTD_IOC_REGISTER, &r) ? -errno : 0;
}

static long page(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* The whole table, read-only; NULL on failure (errno set). */
static const struct ftd_status_hdr *map_table(int fd, size_t *size)
{
	const struct ftd_status_hdr *h = mmap(NULL, page(), PROT_READ, MAP_SHARED, fd, 0);

	if (h == MAP_FAILED)
		return NULL;
	*size = h->size;
	munmap((void *)h, page());
	h = mmap(NULL, *size, PROT_READ, MAP_SHARED, fd, 0);
	return h == MAP_FAILED ? NULL : h;
}

/* Every record the watcher has, the last one's seq in *last. */
static int drain(int fd, struct ftd_event *evs, int max, uint64_t *last)
{
	int n = 0;

	while (n < max && read(fd, &evs[n], sizeof(evs[n])) == sizeof(evs[n])) {
		*last = evs[n].seq;
		n++;
	}
	return n;
}

/* Poll until the rank's state is `state`, for up to 2 s. */
static int wait_rank(struct ftd_handle *h, uint32_t job, uint32_t rank, uint8_t state,
		     struct ftd_rank_status *rs)
{
	int i, ret = -ETIMEDOUT;

	for (i = 0; i < 200; i++) {
		ret = ftd_rank_status(h, job, rank, rs);
		if (!ret && rs->state == state)
			return 0;
		usleep(10000);
	}
	return ret ? ret : -ETIMEDOUT;
}

/* ------------------------------------------------------------ netlink config */

static int nl_set(struct ftu_nl *nl, int attr, uint32_t v)
{
	struct nl_msg *msg = ftu_nl_msg(nl, FTDETECT_CMD_SET_CONFIG, 0);

	if (attr == FTDETECT_A_UP)
		nla_put_u8(msg, attr, v);
	else
		nla_put_u32(msg, attr, v);
	return ftu_nl_call(nl, msg, NULL, NULL);
}

static int nl_node(struct ftu_nl *nl, uint8_t cmd, uint32_t id, const char *addr)
{
	struct nl_msg *msg = ftu_nl_msg(nl, cmd, 0);
	struct ftu_addr a;

	if (!msg)
		return -ENOMEM;
	if (addr && (ftu_addr_parse(addr, &a) || ftu_msg_put_node(msg, id, &a, 1)))
		return -EINVAL;
	if (!addr && ftu_msg_put_node_id(msg, id))
		return -EINVAL;
	return ftu_nl_call(nl, msg, NULL, NULL);
}

/* This namespace: node 1 of cluster 42, with node 2 configured; up. */
static int configure(void)
{
	struct ftu_nl nl;
	int ret;

	ret = ftu_nl_open(&nl, FTDETECT_GENL_NAME);
	if (ret)
		return ret;
	ret = nl_set(&nl, FTDETECT_A_CLUSTER_ID, 42) ?:
	      nl_set(&nl, FTDETECT_A_LOCAL_NODE, 1) ?:
	      nl_node(&nl, FTDETECT_CMD_ADD_NODE, 1, "192.0.2.1") ?:
	      nl_node(&nl, FTDETECT_CMD_ADD_NODE, 2, "192.0.2.2") ?:
	      nl_set(&nl, FTDETECT_A_UP, 1);
	ftu_nl_close(&nl);
	return ret;
}

static int nl_simple(uint8_t cmd, uint32_t node)
{
	struct ftu_nl nl;
	int ret = ftu_nl_open(&nl, FTDETECT_GENL_NAME);

	if (ret)
		return ret;
	if (cmd == FTDETECT_CMD_DEL_NODE)
		ret = nl_node(&nl, cmd, node, NULL);
	else
		ret = ftu_nl_call(&nl, ftu_nl_msg(&nl, cmd, 0), NULL, NULL);
	ftu_nl_close(&nl);
	return ret;
}

/* ------------------------------------------------------------ fixture */

FIXTURE(st) {
	int watcher;			/* events, never maps */
	struct ftd_handle *h;		/* maps lazily, on its first status call */
};

FIXTURE_SETUP(st)
{
	ASSERT_EQ(0, ftd_test_new_netns());
	self->watcher = open_dev(O_RDONLY);
	ASSERT_LE(0, self->watcher) TH_LOG("open %s: %s", DEV, strerror(errno));
	self->h = ftd_open(NULL);
	ASSERT_NE(NULL, self->h);
}

FIXTURE_TEARDOWN(st)
{
	ftd_close(self->h);
	close(self->watcher);
}

TEST_F(st, header_is_sane)
{
	const struct ftd_status_hdr *h;
	size_t size;

	h = map_table(self->watcher, &size);
	ASSERT_NE(NULL, h) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(FTD_STATUS_MAGIC, h->magic);
	EXPECT_EQ(FTD_STATUS_VERSION, h->version);
	EXPECT_EQ(sizeof(*h), h->hdr_size);
	EXPECT_EQ(0, h->size % page());
	EXPECT_EQ(0, h->seq % 2);
	EXPECT_EQ(FTD_NODE_NONE, h->local_node);
	EXPECT_EQ(0, h->flags);
	EXPECT_EQ(sizeof(struct ftd_status_node), h->node_size);
	EXPECT_EQ(sizeof(struct ftd_status_rank), h->rank_size);
	EXPECT_EQ(FTD_STATUS_DEFAULT_NODES, h->node_cap);
	EXPECT_EQ(FTD_STATUS_DEFAULT_RANKS, h->rank_cap);
	EXPECT_EQ(0, h->node_count);
	EXPECT_EQ(0, h->rank_count);
	EXPECT_LE(h->node_off + (uint64_t)h->node_cap * h->node_size, h->rank_off);
	EXPECT_LE(h->rank_off + (uint64_t)h->rank_cap * h->rank_size, h->bucket_off);
	EXPECT_LE(h->bucket_off + (uint64_t)h->bucket_count * 4, h->size);
	EXPECT_EQ(0, h->bucket_count & (h->bucket_count - 1));
	EXPECT_GE(h->bucket_count, h->rank_cap);
	munmap((void *)h, size);
}

static int map_unprivileged(void *arg)
{
	const struct ftd_status_hdr *h;
	size_t size;
	int fd = open_dev(O_RDONLY);

	if (fd < 0)
		return 1;
	h = map_table(fd, &size);
	if (!h)
		return 2;
	return h->magic == FTD_STATUS_MAGIC ? 0 : 3;
}

TEST_F(st, mapping_needs_no_privilege)
{
	EXPECT_EQ(0, ftd_test_unprivileged(map_unprivileged, NULL));
}

TEST_F(st, write_mappings_are_refused)
{
	int rw = open_dev(O_RDWR);

	ASSERT_LE(0, rw);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page(), PROT_READ | PROT_WRITE, MAP_SHARED, rw, 0));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page(), PROT_WRITE, MAP_SHARED, rw, 0));
	EXPECT_EQ(EPERM, errno);
	/* A private copy would be writable too: refused the same way. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page(), PROT_READ | PROT_WRITE, MAP_PRIVATE, rw, 0));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page(), PROT_READ | PROT_WRITE, MAP_PRIVATE,
				   self->watcher, 0));
	EXPECT_EQ(EPERM, errno);
	/* The VFS already refuses a shared write mapping of a read-only file. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page(), PROT_READ | PROT_WRITE, MAP_SHARED,
				   self->watcher, 0));
	EXPECT_EQ(EACCES, errno);
	close(rw);
}

static sigjmp_buf fault_jmp;

static void on_segv(int sig)
{
	siglongjmp(fault_jmp, 1);
}

TEST_F(st, a_mapping_stays_read_only)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;
	int rw = open_dev(O_RDWR);
	volatile uint32_t *p;
	volatile int faulted;
	void *m;

	ASSERT_LE(0, rw);
	for (int i = 0; i < 2; i++) {
		m = mmap(NULL, page(), PROT_READ, i ? MAP_PRIVATE : MAP_SHARED, rw, 0);
		ASSERT_NE(MAP_FAILED, m);
		EXPECT_EQ(-1, mprotect(m, page(), PROT_READ | PROT_WRITE));
		EXPECT_EQ(EACCES, errno);
		/* And a store faults, it does not reach the kernel's table. */
		p = m;
		ASSERT_EQ(0, sigaction(SIGSEGV, &sa, &old));
		faulted = 1;
		if (!sigsetjmp(fault_jmp, 1)) {
			p[2] = 12345;	/* seq */
			faulted = 0;
		}
		EXPECT_EQ(1, faulted) TH_LOG("a store to the table did not fault");
		sigaction(SIGSEGV, &old, NULL);
		EXPECT_EQ(FTD_STATUS_MAGIC, p[0]);
		EXPECT_EQ(0, p[2] % 2);
		munmap(m, page());
	}
	close(rw);
}

TEST_F(st, bad_offset_or_length_is_einval)
{
	const struct ftd_status_hdr *h;
	size_t size;
	void *m;

	h = map_table(self->watcher, &size);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page(), PROT_READ, MAP_SHARED, self->watcher, page()));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, size + page(), PROT_READ, MAP_SHARED, self->watcher, 0));
	EXPECT_EQ(EINVAL, errno);
	/* Nor can a mapping grow past it later. */
	m = mremap((void *)h, size, size + page(), MREMAP_MAYMOVE);
	EXPECT_EQ(MAP_FAILED, m);
	if (m != MAP_FAILED)
		h = m;
	/* Shorter than the table is fine. */
	m = mmap(NULL, 2 * page(), PROT_READ, MAP_SHARED, self->watcher, 0);
	EXPECT_NE(MAP_FAILED, m);
	munmap(m, 2 * page());
	munmap((void *)h, size);
}

TEST_F(st, a_registered_rank_appears_alive_here)
{
	struct ftd_rank_status rs;
	int64_t before;
	int fd = open_dev(O_RDONLY);

	ASSERT_LE(0, fd);
	before = ftd_status_changes(self->h);
	ASSERT_LE(0, before) TH_LOG("%s", ftd_strerror((int)before));
	EXPECT_EQ(-ENOENT, ftd_rank_status(self->h, 21, 3, &rs));
	ASSERT_EQ(0, reg(fd, 21, 3));
	/* The kernel wrote it before the ioctl returned. */
	ASSERT_EQ(0, ftd_rank_status(self->h, 21, 3, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	EXPECT_EQ(1, rs.local);
	EXPECT_EQ(FTD_NODE_NONE, rs.node);	/* not configured */
	EXPECT_EQ(FTD_NODE_SELF, rs.node_state);
	EXPECT_EQ(0, rs.cause);
	EXPECT_GT(ftd_status_changes(self->h), before);
	close(fd);
}

TEST_F(st, close_without_deregister_says_dead)
{
	struct ftd_rank_status rs;
	struct ftd_status_info info;
	struct ftd_event evs[8];
	uint64_t last = 0;
	int fd = open_dev(O_RDONLY), n;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftd_status_map(self->h));
	ASSERT_EQ(0, reg(fd, 9, 4));
	close(fd);
	ASSERT_EQ(0, ftd_rank_status(self->h, 9, 4, &rs));
	EXPECT_EQ(FTD_RANK_DEAD, rs.state);
	EXPECT_EQ(FTD_EV_PROC_DEAD, rs.cause);
	n = drain(self->watcher, evs, 8, &last);
	ASSERT_EQ(1, n);
	EXPECT_EQ(FTD_EV_PROC_DEAD, evs[0].type);
	EXPECT_EQ(evs[0].seq, rs.event_seq);
	ASSERT_EQ(0, ftd_status_info(self->h, &info));
	EXPECT_EQ(last, info.event_seq);
	EXPECT_EQ(0, info.ranks_alive);
}

TEST_F(st, deregister_says_exited)
{
	struct ftd_rank_status rs;
	int fd = open_dev(O_RDONLY);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg(fd, 7, 3));
	ASSERT_EQ(0, ftd_rank_status(self->h, 7, 3, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	close(fd);
	ASSERT_EQ(0, ftd_rank_status(self->h, 7, 3, &rs));
	EXPECT_EQ(FTD_RANK_EXITED, rs.state);
	EXPECT_EQ(FTD_EV_PROC_EXIT, rs.cause);
}

TEST_F(st, sigkill_of_a_registered_process_says_dead)
{
	struct ftd_rank_status rs;
	int ready[2];
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = open_dev(O_RDONLY);

		if (fd < 0 || reg(fd, 11, 5) || write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, ftd_rank_status(self->h, 11, 5, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	/* The files of a killed process close as it exits: no timeout. */
	ASSERT_EQ(0, wait_rank(self->h, 11, 5, FTD_RANK_DEAD, &rs));
	EXPECT_EQ(FTD_EV_PROC_DEAD, rs.cause);
}

TEST_F(st, a_rank_registered_before_the_table_existed_is_in_it)
{
	struct ftd_rank_status rs;
	int fd = open_dev(O_RDONLY);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg(fd, 30, 1));		/* nobody has mapped yet */
	ASSERT_EQ(0, ftd_rank_status(self->h, 30, 1, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	EXPECT_EQ(1, rs.local);
	ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
	ASSERT_EQ(0, ftd_rank_status(self->h, 30, 1, &rs));
	EXPECT_EQ(FTD_RANK_EXITED, rs.state);
	close(fd);
}

TEST_F(st, a_configured_instance_shows_its_nodes)
{
	struct ftd_status_info info;
	struct ftd_node_status ns;
	struct ftd_rank_status rs;
	int fd;

	ASSERT_EQ(0, ftd_status_info(self->h, &info));
	EXPECT_EQ(0, info.flags & FTD_STATUS_F_UP);
	ASSERT_EQ(0, configure());
	ASSERT_EQ(0, ftd_status_info(self->h, &info));
	EXPECT_TRUE(info.flags & FTD_STATUS_F_UP);
	EXPECT_EQ(1, info.local_node);
	EXPECT_EQ(42, info.cluster);
	EXPECT_NE(0, info.local_incarnation);
	EXPECT_EQ(2, info.node_count);
	ASSERT_EQ(0, ftd_node_status(self->h, 1, &ns));
	EXPECT_EQ(FTD_NODE_SELF, ns.state);
	EXPECT_EQ(info.local_incarnation, ns.incarnation);
	EXPECT_EQ(1, ns.nrails);
	ASSERT_EQ(0, ftd_node_status(self->h, 2, &ns));
	EXPECT_EQ(FTD_NODE_UNKNOWN, ns.state);	/* never heard */
	EXPECT_EQ(-ENOENT, ftd_node_status(self->h, 3, &ns));

	fd = open_dev(O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg(fd, 5, 0));
	ASSERT_EQ(0, ftd_rank_status(self->h, 5, 0, &rs));
	EXPECT_EQ(1, rs.node);
	EXPECT_EQ(info.local_incarnation, rs.incarnation);

	ASSERT_EQ(0, nl_simple(FTDETECT_CMD_DEL_NODE, 2));
	EXPECT_EQ(-ENOENT, ftd_node_status(self->h, 2, &ns));
	ASSERT_EQ(0, nl_simple(FTDETECT_CMD_DOWN, 0));
	ASSERT_EQ(0, ftd_status_info(self->h, &info));
	EXPECT_EQ(0, info.flags & FTD_STATUS_F_UP);
	/* Our rank is still registered: down is not a death. */
	ASSERT_EQ(0, ftd_rank_status(self->h, 5, 0, &rs));
	EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	close(fd);
	ASSERT_EQ(0, ftd_rank_status(self->h, 5, 0, &rs));
	EXPECT_EQ(FTD_RANK_DEAD, rs.state);
}

/*
 * The table is freed with the instance's last file and rebuilt from the
 * kernel's state by the next mapping, ended registrations included (a
 * configured node keeps its own, with how they ended).
 */
TEST_F(st, the_table_is_rebuilt_from_the_kernel_state)
{
	struct ftd_rank_status rs;
	int a = open_dev(O_RDONLY), b = open_dev(O_RDONLY);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, configure());
	ASSERT_EQ(0, reg(a, 8, 1));
	ASSERT_EQ(0, reg(b, 8, 2));
	ASSERT_EQ(0, ioctl(b, FTD_IOC_DEREGISTER));
	ASSERT_EQ(0, ftd_rank_status(self->h, 8, 1, &rs));
	/* Every file closes: the table goes. a's rank dies meanwhile. */
	ftd_close(self->h);
	close(self->watcher);
	close(b);
	close(a);
	self->watcher = open_dev(O_RDONLY);
	self->h = ftd_open(NULL);
	ASSERT_NE(NULL, self->h);
	ASSERT_EQ(0, ftd_rank_status(self->h, 8, 1, &rs));
	EXPECT_EQ(FTD_RANK_DEAD, rs.state);
	EXPECT_EQ(FTD_EV_PROC_DEAD, rs.cause);
	EXPECT_EQ(0, rs.event_seq);		/* before this table: unknown */
	ASSERT_EQ(0, ftd_rank_status(self->h, 8, 2, &rs));
	EXPECT_EQ(FTD_RANK_EXITED, rs.state);
	EXPECT_EQ(FTD_EV_PROC_EXIT, rs.cause);
}

/* Every record read has its change in the table; the table's last event is the last read. */
TEST_F(st, the_table_agrees_with_the_event_stream)
{
	struct ftd_status_snapshot *snap;
	struct ftd_event evs[64];
	struct ftd_rank_status rs;
	uint64_t last = 0;
	int fds[10], i, n;

	ASSERT_EQ(0, ftd_status_map(self->h));
	for (i = 0; i < 10; i++) {
		fds[i] = open_dev(O_RDONLY);
		ASSERT_LE(0, fds[i]);
		ASSERT_EQ(0, reg(fds[i], 40, i));
	}
	for (i = 0; i < 10; i += 2)
		ASSERT_EQ(0, ioctl(fds[i], FTD_IOC_DEREGISTER));
	for (i = 0; i < 10; i++)
		if (i % 3 == 0)
			close(fds[i]);
	n = drain(self->watcher, evs, 64, &last);
	ASSERT_EQ(5 + 2, n);	/* 5 exits; ranks 3 and 9 closed registered */
	ASSERT_EQ(0, ftd_status_snapshot(self->h, &snap));
	EXPECT_EQ(last, snap->info.event_seq);
	EXPECT_EQ(10, snap->n_ranks);
	EXPECT_EQ(3, snap->info.ranks_alive);	/* 1, 5, 7 */
	ftd_status_snapshot_free(snap);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, ftd_rank_status(self->h, 40, evs[i].rank, &rs));
		EXPECT_EQ(evs[i].seq, rs.event_seq);
		EXPECT_EQ(evs[i].type, rs.cause);
		EXPECT_EQ(evs[i].type == FTD_EV_PROC_EXIT ? FTD_RANK_EXITED : FTD_RANK_DEAD,
			  rs.state);
	}
	for (i = 0; i < 10; i++)
		if (i % 3)
			close(fds[i]);
}

struct reader_arg {
	struct ftd_handle *h;
	volatile int *stop;
	int errors;
	long reads;	/* written by the reader only; read with __atomic_load_n */
};

static void *reader(void *p)
{
	struct reader_arg *a = p;
	struct ftd_rank_status rs;
	int ret;

	while (!*a->stop) {
		ret = ftd_rank_status(a->h, 50, (uint32_t)(a->reads % 4), &rs);
		if (ret && ret != -ENOENT)
			a->errors++;
		else if (!ret && (rs.job != 50 || rs.state < FTD_RANK_ALIVE ||
				  rs.state > FTD_RANK_EXITED))
			a->errors++;
		if (ftd_status_changes(a->h) < 0)
			a->errors++;
		__atomic_store_n(&a->reads, a->reads + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/*
 * Until every reader has read more than base[i] times (at most 10 s): a
 * thread just created may not have run yet when the main thread's loop
 * ends, on a loaded machine or an emulated guest's vCPUs (a VM run saw a
 * reader with no read at all). Records the counts in base[].
 */
static bool readers_ran(struct reader_arg *args, long *base, int n)
{
	int i, tries;
	long r;

	for (tries = 0; tries < 1000; tries++) {
		for (i = 0; i < n; i++) {
			r = __atomic_load_n(&args[i].reads, __ATOMIC_RELAXED);
			if (r <= base[i])
				break;
		}
		if (i == n)
			break;
		usleep(10000);
	}
	for (i = 0; i < n; i++)
		base[i] = __atomic_load_n(&args[i].reads, __ATOMIC_RELAXED);
	return tries < 1000;
}

/* Threads share a handle from its first (mapping) call on, while ranks come and go. */
TEST_F(st, threads_share_a_handle)
{
	struct reader_arg args[4];
	long base[4] = { 0 };
	pthread_t t[4];
	volatile int stop = 0;
	int i, fd;

	for (i = 0; i < 4; i++) {
		args[i] = (struct reader_arg){ .h = self->h, .stop = &stop };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, reader, &args[i]));
	}
	/* Every reader in its loop before ranks come and go, and after. */
	ASSERT_TRUE(readers_ran(args, base, 4));
	for (i = 0; i < 200; i++) {
		fd = open_dev(O_RDONLY);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, reg(fd, 50, i % 4));
		if (i % 2)
			ASSERT_EQ(0, ioctl(fd, FTD_IOC_DEREGISTER));
		close(fd);
	}
	EXPECT_TRUE(readers_ran(args, base, 4));
	stop = 1;
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, args[i].errors);
	}
}

static int write_param(const char *path, unsigned int v)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fprintf(f, "%u\n", v) < 0 ? -EIO : 0;
	return fclose(f) ? -errno : ret;
}

/* A table with room for 4 registrations: recycles ended ones, then says it is full. */
TEST_F(st, a_full_table_says_so)
{
	struct ftd_status_info info;
	struct ftd_rank_status rs;
	int fds[6], i, ret;

	ret = write_param(PARAM_RANKS, 4);
	if (ret)
		SKIP(return, "cannot set %s: %s", PARAM_RANKS, strerror(-ret));
	ret = ftd_status_map(self->h);		/* this instance's table: 4 ranks */
	write_param(PARAM_RANKS, FTD_STATUS_DEFAULT_RANKS);
	ASSERT_EQ(0, ret);
	for (i = 0; i < 6; i++) {
		fds[i] = open_dev(O_RDONLY);
		ASSERT_LE(0, fds[i]);
	}
	ASSERT_EQ(0, reg(fds[0], 60, 0));
	ASSERT_EQ(0, ioctl(fds[0], FTD_IOC_DEREGISTER));
	for (i = 1; i < 5; i++)
		ASSERT_EQ(0, reg(fds[i], 60, i));	/* rank 4 takes rank 0's slot */
	ASSERT_EQ(0, ftd_status_info(self->h, &info));
	EXPECT_EQ(4, info.rank_cap);
	EXPECT_EQ(1, info.ranks_recycled);
	EXPECT_EQ(0, info.flags & FTD_STATUS_F_RANKS_FULL);
	EXPECT_EQ(-ENOENT, ftd_rank_status(self->h, 60, 0, &rs));
	ASSERT_EQ(0, reg(fds[5], 60, 5));		/* no room: not recorded, said so */
	ASSERT_EQ(0, ftd_status_info(self->h, &info));
	EXPECT_EQ(1, info.ranks_dropped);
	EXPECT_TRUE(info.flags & FTD_STATUS_F_RANKS_FULL);
	EXPECT_EQ(-EOVERFLOW, ftd_rank_status(self->h, 60, 5, &rs));
	for (i = 1; i < 5; i++) {
		ASSERT_EQ(0, ftd_rank_status(self->h, 60, i, &rs));
		EXPECT_EQ(FTD_RANK_ALIVE, rs.state);
	}
	for (i = 0; i < 6; i++)
		close(fds[i]);
}

/*
 * A process maps an instance through the file its rank registered on, then
 * leaves the namespace, which has no process left. The mapping holds that
 * file, the file the instance: the table stays valid and current after the
 * descriptor is closed. The mapping does not keep the registration alive:
 * the registering process closing its descriptor ends it (PROC_DEAD; see
 * "Rank ownership" in the uapi header). Unmapping and closing the last file
 * then let the namespace go; its exit checks that the table was freed (a
 * leak would WARN, which fails the VM run).
 */
static int outlive(void *arg)
{
	const struct ftd_status_hdr *h;
	struct ftd_handle *lh;
	struct ftd_status_info info;
	struct ftd_rank_status rs;
	int home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC), fd;
	size_t size;

	if (home < 0 || ftd_test_new_netns())
		return 10;
	fd = open_dev(O_RDONLY);
	lh = ftd_open(NULL);
	if (fd < 0 || !lh || reg(fd, 70, 1))
		return 11;
	h = map_table(fd, &size);
	if (!h || ftd_status_map(lh))
		return 12;
	if (setns(home, CLONE_NEWNET))
		return 13;
	/* The namespace has no process now; its instance lives on in our files. */
	close(fd);				/* the rank's process closed it: dead */
	if (ftd_rank_status(lh, 70, 1, &rs) || rs.state != FTD_RANK_DEAD)
		return 14;
	/* The mapping still holds the file: valid, and it saw the death. */
	if (h->magic != FTD_STATUS_MAGIC || h->ranks_alive != 0)
		return 15;
	munmap((void *)h, size);
	if (ftd_status_info(lh, &info) || info.ranks_alive)
		return 17;
	ftd_close(lh);				/* the last file: namespace exit */
	return 0;
}

TEST_F(st, a_mapping_outlives_its_namespace)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(outlive(NULL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
