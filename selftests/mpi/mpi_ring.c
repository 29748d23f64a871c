// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_ring: a small real MPI job for the selftests (selftests/net/mpi_job.sh),
 * built once per MPI found (build/selftests/mpi_ring.openmpi, .mpich).
 *
 *   mpi_ring [-i LAPS | -t SECONDS] [-s BYTES] [-j JOB [-e DIR]]
 *
 * 1. Placement: every rank finds where it runs (its network namespace inode,
 *    its IPv4 address in 192.0.2.0/24, its pid); rank 0 gathers and prints
 *    one line per rank:
 *        mpi_ring: place rank=R size=N pid=P netns=INODE addr=192.0.2.I
 * 2. With -j JOB, every rank registers on /dev/ftdetect as (JOB, rank) and
 *    starts a watcher thread that prints the events concerning the job, or
 *    its node, as they arrive (what the MPI glue will turn into callbacks):
 *        mpi_ring: event rank=R type=PROC_DEAD job=J of=K node=N time_ns=T seen_ns=S
 *    on stdout, or with -e DIR in DIR/events.R, one file per rank (a
 *    launcher may interleave the ranks' output within lines: MPICH's does).
 *    Then rank 0 prints "mpi_ring: ready size=N" once every rank has
 *    registered (a barrier): a test may kill a rank from then on.
 * 3. The ring: a message of BYTES bytes goes round the ranks, LAPS times (-i,
 *    default 20) or until SECONDS have passed (-t); each rank checks the
 *    pattern its predecessor wrote and adds rank+1 to a running sum, which
 *    rank 0 checks after every lap. At the end rank 0 prints
 *        mpi_ring: ring ok size=N laps=L bytes=B ms=M
 *    and every rank deregisters (PROC_EXIT, not PROC_DEAD), exchanges a
 *    message with every other rank (checked), prints (where it prints its
 *    events) "mpi_ring: finalize rank=R" and calls MPI_Finalize.
 *
 * Any check that fails prints "mpi_ring: FAIL ..." and aborts the job.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <mpi.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lib/ftdetect.h"

struct place {
	int32_t rank;
	int32_t pid;
	uint64_t netns;
	char addr[INET_ADDRSTRLEN];
};

struct token {
	uint64_t sum;
	uint64_t lap;
	uint64_t stop;
};

static int rank, size;
static struct ftd_handle *ftd;
static uint32_t job;
static int stop_pipe[2] = { -1, -1 };
static FILE *events;

#define FAIL(...) do {							\
	printf("mpi_ring: FAIL rank=%d: ", rank);			\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	fflush(stdout);							\
	MPI_Abort(MPI_COMM_WORLD, 1);					\
} while (0)

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void where_am_i(struct place *p)
{
	struct ifaddrs *ifa, *i;
	struct stat st;

	memset(p, 0, sizeof(*p));
	p->rank = rank;
	p->pid = getpid();
	if (stat("/proc/self/ns/net", &st) == 0)
		p->netns = st.st_ino;
	strcpy(p->addr, "none");
	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i; i = i->ifa_next) {
		struct sockaddr_in *sin = (struct sockaddr_in *)i->ifa_addr;

		if (!sin || sin->sin_family != AF_INET)
			continue;
		/* rail 0 of selftests/lib.sh: 192.0.2.0/24 */
		if ((ntohl(sin->sin_addr.s_addr) & 0xffffff00) != 0xc0000200)
			continue;
		inet_ntop(AF_INET, &sin->sin_addr, p->addr, sizeof(p->addr));
		break;
	}
	freeifaddrs(ifa);
}

/* The watcher: what the MPI glue's thread will do, minus the MPI calls. */
static void *watch(void *arg)
{
	struct ftd_event ev;
	int ret;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = ftd_fd(ftd), .events = POLLIN },
			{ .fd = stop_pipe[0], .events = POLLIN },
		};

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("mpi_ring: poll");
			return NULL;
		}
		if (pfd[1].revents)
			return NULL;
		while ((ret = ftd_next_event(ftd, &ev, FTD_NONBLOCK)) == 0) {
			switch (ev.type) {
			case FTD_EV_PROC_DEAD:
			case FTD_EV_PROC_EXIT:
			case FTD_EV_RANKS_DEAD:
				if (ev.job != job)
					continue;
				break;
			case FTD_EV_NODE_DEAD:
			case FTD_EV_FENCED:
			case FTD_EV_OVERFLOW:
				break;
			default:
				continue;
			}
			fprintf(events, "mpi_ring: event rank=%d type=%s job=%u of=%d node=%d time_ns=%" PRIu64
			       " seen_ns=%" PRIu64 "\n", rank, ftd_event_name(ev.type), ev.job,
			       (int)ev.rank,
			       ev.node == FTD_NODE_NONE ? -1 : (int)ev.node,
			       (uint64_t)ev.time_ns, now_ns(CLOCK_REALTIME));
			fflush(events);
		}
		if (ret != -EAGAIN) {
			printf("mpi_ring: watcher rank=%d: %s\n", rank, ftd_strerror(ret));
			fflush(stdout);
			return NULL;
		}
	}
}

static void fill(unsigned char *buf, size_t len, uint64_t lap, int from)
{
	size_t i;

	for (i = sizeof(struct token); i < len; i++)
		buf[i] = (unsigned char)(lap * 7 + from * 31 + i);
}

static bool check(const unsigned char *buf, size_t len, uint64_t lap, int from)
{
	size_t i;

	for (i = sizeof(struct token); i < len; i++)
		if (buf[i] != (unsigned char)(lap * 7 + from * 31 + i))
			return false;
	return true;
}

/*
 * Every rank exchanges a message with every other rank, pair by pair, after
 * MPI_Init and before MPI_Finalize: a check that all pairs can talk, and a
 * workaround for a hang of Debian 12's MPICH 4.0.2 (ch4:ucx) on one CPU. Its
 * MPI_Finalize closes every UCX endpoint in flush mode, then waits in a PMI
 * barrier without progressing UCX; closing an endpoint that was never wired
 * up needs a reply from the peer, which may already sit in that barrier.
 * This wires up every endpoint between ranks of different nodes; those
 * between ranks of one node stay unused (MPICH uses shared memory there), so
 * MPICH jobs still hang with more than one rank per node (docs/testing.md).
 */
static void all_pairs(void)
{
	int k, to, from, out, in;

	for (k = 1; k < size; k++) {
		to = (rank + k) % size;
		from = (rank + size - k) % size;
		out = rank * 1000 + to;
		MPI_Sendrecv(&out, 1, MPI_INT, to, 1, &in, 1, MPI_INT, from, 1,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (in != from * 1000 + rank)
			FAIL("pairwise exchange: %d from rank %d, expected %d", in, from,
			     from * 1000 + rank);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: mpi_ring [-i LAPS | -t SECONDS] [-s BYTES] [-j JOB [-e DIR]]\n");
	MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
	long laps = 20, seconds = 0, bytes = 1024;
	bool do_register = false;
	const char *event_dir = NULL;
	struct place me, *all = NULL;
	pthread_t watcher;
	unsigned char *buf;
	uint64_t start, lap, expect;
	int opt, ret, i, next, prev;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	setvbuf(stdout, NULL, _IOLBF, 0);

	while ((opt = getopt(argc, argv, "i:t:s:j:e:")) != -1) {
		switch (opt) {
		case 'i': laps = strtol(optarg, NULL, 10); break;
		case 't': seconds = strtol(optarg, NULL, 10); laps = 0; break;
		case 's': bytes = strtol(optarg, NULL, 10); break;
		case 'j': job = strtoul(optarg, NULL, 10); do_register = true; break;
		case 'e': event_dir = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || (laps <= 0 && seconds <= 0) ||
	    bytes < (long)sizeof(struct token) || bytes > (64 << 20))
		usage();
	if (size < 2)
		FAIL("needs at least 2 ranks, got %d", size);

	all_pairs();

	/* 1. placement */
	where_am_i(&me);
	if (rank == 0)
		all = calloc(size, sizeof(*all));
	MPI_Gather(&me, sizeof(me), MPI_BYTE, all, sizeof(me), MPI_BYTE, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		for (i = 0; i < size; i++)
			printf("mpi_ring: place rank=%d size=%d pid=%d netns=%" PRIu64 " addr=%s\n",
			       all[i].rank, size, all[i].pid, all[i].netns, all[i].addr);
		free(all);
	}

	/* 2. registration */
	events = stdout;
	if (event_dir) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/events.%d", event_dir, rank);
		events = fopen(path, "w");
		if (!events)
			FAIL("%s: %s", path, strerror(errno));
	}
	if (do_register) {
		ftd = ftd_open(NULL);
		if (!ftd)
			FAIL("%s: %s", FTD_DEVICE_PATH, ftd_strerror(-errno));
		ret = ftd_register(ftd, job, rank);
		if (ret)
			FAIL("ftd_register(%u, %d): %s", job, rank, ftd_strerror(ret));
		if (pipe(stop_pipe) || pthread_create(&watcher, NULL, watch, NULL))
			FAIL("watcher thread: %s", strerror(errno));
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("mpi_ring: ready size=%d\n", size);

	/* 3. the ring */
	buf = malloc(bytes);
	if (!buf)
		FAIL("out of memory");
	next = (rank + 1) % size;
	prev = (rank + size - 1) % size;
	expect = (uint64_t)size * (size + 1) / 2;
	start = now_ns(CLOCK_MONOTONIC);
	for (lap = 0;; lap++) {
		struct token t;

		if (rank == 0) {
			t.sum = 1;
			t.lap = lap;
			t.stop = laps ? lap + 1 >= (uint64_t)laps :
				now_ns(CLOCK_MONOTONIC) - start >= (uint64_t)seconds * 1000000000;
			memcpy(buf, &t, sizeof(t));
			fill(buf, bytes, lap, 0);
			MPI_Send(buf, bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			memcpy(&t, buf, sizeof(t));
			if (!check(buf, bytes, lap, prev))
				FAIL("lap %" PRIu64 ": corrupt data from rank %d", lap, prev);
			if (t.sum != expect || t.lap != lap)
				FAIL("lap %" PRIu64 ": sum %" PRIu64 " (expected %" PRIu64 "), lap %" PRIu64,
				     lap, t.sum, expect, t.lap);
		} else {
			MPI_Recv(buf, bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			memcpy(&t, buf, sizeof(t));
			if (t.lap != lap || !check(buf, bytes, lap, prev))
				FAIL("lap %" PRIu64 ": corrupt data from rank %d", lap, prev);
			t.sum += rank + 1;
			memcpy(buf, &t, sizeof(t));
			fill(buf, bytes, lap, rank);
			MPI_Send(buf, bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
		}
		if (t.stop)
			break;
	}
	if (rank == 0)
		printf("mpi_ring: ring ok size=%d laps=%" PRIu64 " bytes=%ld ms=%" PRIu64 "\n",
		       size, lap + 1, bytes, (now_ns(CLOCK_MONOTONIC) - start) / 1000000);
	free(buf);

	if (do_register) {
		/* everyone is done with the ring before anyone deregisters */
		MPI_Barrier(MPI_COMM_WORLD);
		if (write(stop_pipe[1], "x", 1) != 1)
			FAIL("stopping the watcher: %s", strerror(errno));
		pthread_join(watcher, NULL);
		ret = ftd_deregister(ftd);
		if (ret)
			FAIL("ftd_deregister: %s", ftd_strerror(ret));
		ftd_close(ftd);
	}
	/* see all_pairs() */
	all_pairs();
	fprintf(events, "mpi_ring: finalize rank=%d\n", rank);
	fflush(events);
	MPI_Finalize();
	return 0;
}
