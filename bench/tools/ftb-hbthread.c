// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark tool: a rank with a user-space failure detector thread, the
 * design ULFM's runtime uses, to compare with ftdetect under CPU load.
 *
 *   ftb-hbthread -i ID -n NODES [-k K] -p PERIOD_US -t TIMEOUT_US
 *                -u UNTIL_NS [-P PORT] [-r JOB:RANK] [-b]
 *
 * Node ID (1..NODES, address 192.0.2.ID, the benchmark clusters' rail 0)
 * runs one process: its main thread is the rank, which optionally registers
 * with ftdetect (-r) and, with -b, computes (spins) without any
 * communication, as a rank between MPI calls does, until UNTIL_NS
 * (CLOCK_REALTIME: every node stops at the same instant, so that the first
 * to stop is not taken for dead by the others); a second thread, an
 * ordinary thread of the same process, is the detector. Ring like
 * ftdetect's: it heartbeats to its K successors every PERIOD_US and
 * observes its K predecessors. An observed node silent for TIMEOUT_US / 2
 * is suspected, for TIMEOUT_US declared failed: ftdetect's rules
 * (docs/detection.md), so the counts compare like with like. A declared
 * node that is heard again is taken back (counted, never hidden).
 *
 * Prints one JSON line: suspicions, declarations, the worst silence seen and
 * how late the thread's own wake-ups were.
 */
#define _GNU_SOURCE	/* ppoll */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "lib/ftdetect.h"

#define MAX_K	8

struct peer {
	unsigned int id;
	uint64_t last_ns;	/* 0: not heard yet; not judged before that */
	int state;		/* 0 alive, 1 suspect, 2 declared */
	uint64_t worst_gap_ns;
};

static struct {
	unsigned int id, nodes, k, port;
	uint64_t period_ns, timeout_ns;
	int fd;
	uint64_t end_ns;	/* CLOCK_MONOTONIC: nothing is judged after it */
	struct peer obs[MAX_K];		/* the K predecessors */
	struct sockaddr_in succ[MAX_K];	/* the K successors */
	uint64_t sent, received, suspicions, declarations, late_max_ns, late_sum_ns, ticks;
} hb;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ring neighbour of node id at distance d (d may be negative) */
static unsigned int ring(int d)
{
	int n = hb.nodes;

	return ((int)hb.id - 1 + d % n + n) % n + 1;
}

static void judge(uint64_t now)
{
	unsigned int i;

	for (i = 0; i < hb.k; i++) {
		struct peer *p = &hb.obs[i];
		uint64_t gap;

		if (!p->last_ns)
			continue;
		gap = now - p->last_ns;
		if (gap > p->worst_gap_ns)
			p->worst_gap_ns = gap;
		if (p->state < 1 && gap >= hb.timeout_ns / 2) {
			p->state = 1;
			hb.suspicions++;
		}
		if (p->state < 2 && gap >= hb.timeout_ns) {
			p->state = 2;
			hb.declarations++;
		}
	}
}

static void heard(unsigned int from, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < hb.k; i++) {
		if (hb.obs[i].id != from)
			continue;
		hb.obs[i].last_ns = now;
		hb.obs[i].state = 0;
		hb.received++;
	}
}

/* The detector thread: send on schedule, receive in between, judge. */
static void *detector(void *arg)
{
	uint64_t next = mono_ns(), now;
	uint32_t msg = htonl(hb.id), in;
	struct pollfd pfd = { .events = POLLIN };
	struct timespec wait;
	unsigned int i;

	for (;;) {
		now = mono_ns();
		if (now >= hb.end_ns)
			break;
		if (now >= next) {
			hb.ticks++;
			hb.late_sum_ns += now - next;
			if (now - next > hb.late_max_ns)
				hb.late_max_ns = now - next;
			for (i = 0; i < hb.k; i++)
				if (sendto(hb.fd, &msg, sizeof(msg), 0, (struct sockaddr *)&hb.succ[i],
					   sizeof(hb.succ[i])) == sizeof(msg))
					hb.sent++;
			next += hb.period_ns;
			if (next < now)		/* missed ticks are not sent in a burst */
				next = now + hb.period_ns;
		}
		judge(now);
		/* ppoll: nanoseconds, as poll's milliseconds would busy-wait at
		 * periods under 1 ms. */
		wait.tv_sec = (next - now) / 1000000000ULL;
		wait.tv_nsec = (next - now) % 1000000000ULL;
		pfd.fd = hb.fd;
		if (ppoll(&pfd, 1, &wait, NULL) > 0)
			while (recv(hb.fd, &in, sizeof(in), MSG_DONTWAIT) == sizeof(in))
				heard(ntohl(in), mono_ns());
	}
	return arg;
}

static void usage(void)
{
	fprintf(stderr, "usage: ftb-hbthread -i ID -n NODES [-k K] -p PERIOD_US -t TIMEOUT_US\n"
		"                    -u UNTIL_NS [-P PORT] [-r JOB:RANK] [-b]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int job = 0, rank = 0, i, worst_peer = 0;
	int opt, busy = 0, do_register = 0, ret;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	uint64_t until = 0, worst = 0;
	struct timespec rt;
	volatile uint64_t x = 0;
	struct ftd_handle *h = NULL;
	pthread_t th;

	hb.k = 2;
	hb.port = 7171;
	while ((opt = getopt(argc, argv, "i:n:k:p:t:u:P:r:b")) != -1) {
		switch (opt) {
		case 'i': hb.id = atoi(optarg); break;
		case 'n': hb.nodes = atoi(optarg); break;
		case 'k': hb.k = atoi(optarg); break;
		case 'p': hb.period_ns = strtoull(optarg, NULL, 10) * 1000; break;
		case 't': hb.timeout_ns = strtoull(optarg, NULL, 10) * 1000; break;
		case 'u': until = strtoull(optarg, NULL, 10); break;
		case 'P': hb.port = atoi(optarg); break;
		case 'r':
			if (sscanf(optarg, "%u:%u", &job, &rank) != 2)
				usage();
			do_register = 1;
			break;
		case 'b': busy = 1; break;
		default: usage();
		}
	}
	if (!hb.id || hb.nodes < 2 || hb.id > hb.nodes || !hb.k || hb.k > MAX_K ||
	    hb.k >= hb.nodes || !hb.period_ns || !hb.timeout_ns || !until)
		usage();

	clock_gettime(CLOCK_REALTIME, &rt);
	if (until <= (uint64_t)rt.tv_sec * 1000000000ULL + rt.tv_nsec) {
		fprintf(stderr, "ftb-hbthread: -u %llu is in the past\n", (unsigned long long)until);
		return 1;
	}
	hb.end_ns = mono_ns() + until - ((uint64_t)rt.tv_sec * 1000000000ULL + rt.tv_nsec);

	if (do_register) {
		h = ftd_open(NULL);
		if (!h || (ret = ftd_register(h, job, rank))) {
			fprintf(stderr, "ftb-hbthread: cannot register %u:%u with ftdetect\n", job, rank);
			return 1;
		}
	}
	hb.fd = socket(AF_INET, SOCK_DGRAM, 0);
	sin.sin_port = htons(hb.port);
	if (hb.fd < 0 || bind(hb.fd, (struct sockaddr *)&sin, sizeof(sin)))
		return perror("ftb-hbthread: socket"), 1;
	for (i = 0; i < hb.k; i++) {
		hb.obs[i].id = ring(-(int)i - 1);
		hb.succ[i].sin_family = AF_INET;
		hb.succ[i].sin_port = htons(hb.port);
		hb.succ[i].sin_addr.s_addr = htonl(0xc0000200 | ring(i + 1));	/* 192.0.2.x */
	}
	if (pthread_create(&th, NULL, detector, NULL))
		return perror("ftb-hbthread: pthread_create"), 1;
	fprintf(stderr, "ready\n");

	/* The rank: computes (or sleeps) and never talks to anyone. */
	while (mono_ns() < hb.end_ns) {
		if (busy)
			for (i = 0; i < 100000; i++)
				x++;
		else
			usleep(10000);
	}
	pthread_join(th, NULL);

	for (i = 0; i < hb.k; i++) {
		if (hb.obs[i].worst_gap_ns > worst) {
			worst = hb.obs[i].worst_gap_ns;
			worst_peer = hb.obs[i].id;
		}
	}
	printf("{\"node\":%u,\"sent\":%llu,\"received\":%llu,\"suspicions\":%llu,"
	       "\"declarations\":%llu,\"worst_gap_ns\":%llu,\"worst_gap_peer\":%u,"
	       "\"ticks\":%llu,\"tick_late_max_ns\":%llu,\"tick_late_mean_ns\":%llu}\n",
	       hb.id, (unsigned long long)hb.sent, (unsigned long long)hb.received,
	       (unsigned long long)hb.suspicions, (unsigned long long)hb.declarations,
	       (unsigned long long)worst, worst_peer, (unsigned long long)hb.ticks,
	       (unsigned long long)hb.late_max_ns,
	       (unsigned long long)(hb.ticks ? hb.late_sum_ns / hb.ticks : 0));
	if (h) {		/* a clean exit: PROC_EXIT, not a crash */
		ftd_deregister(h);
		ftd_close(h);
	}
	return 0;
}
