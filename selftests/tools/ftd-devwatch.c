// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: print the records read from /dev/ftdetect as JSON lines, the way
 * an MPI runtime sees them (the netlink view is ftstat -w). Optionally
 * registers a rank first, so that killing this process is a rank crash;
 * -S registers it scoped (told to no other node), -s NODE,NODE,... also
 * gives its scope (the nodes its end goes to).
 *
 *   ftd-devwatch [-r JOB:RANK [-S] [-s NODES]] [-c COUNT] [-t SECONDS] [-q]
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/ftdetect.h"

static void print_event(const struct ftd_event *ev)
{
	printf("{\"event\":\"%s\",\"seq\":%" PRIu64 ",\"time_ns\":%" PRIu64
	       ",\"mono_ns\":%" PRIu64, ftd_event_name(ev->type), (uint64_t)ev->seq,
	       (uint64_t)ev->time_ns, (uint64_t)ev->mono_ns);
	if (ev->node != FTD_NODE_NONE)
		printf(",\"node\":%u", ev->node);
	printf(",\"incarnation\":%u", ev->incarnation);
	if (ev->origin != FTD_NODE_NONE)
		printf(",\"origin\":%u", ev->origin);
	if (ev->rail != FTD_RAIL_NONE)
		printf(",\"rail\":%u", ev->rail);
	printf(",\"job\":%u,\"rank\":%u,\"count\":%u}\n", ev->job, ev->rank, ev->count);
	fflush(stdout);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	unsigned int job = 0, rank = 0;
	long count = -1, timeout_s = -1;
	bool do_register = false, quiet = false, scoped = false;
	uint32_t scope[FTD_SCOPE_MAX];
	uint32_t nscope = 0;
	char *tok;
	struct ftd_handle *h;
	uint64_t deadline = 0;
	struct ftd_event ev;
	int opt, ret;

	while ((opt = getopt(argc, argv, "r:c:t:qSs:")) != -1) {
		switch (opt) {
		case 'r':
			if (sscanf(optarg, "%u:%u", &job, &rank) != 2) {
				fprintf(stderr, "ftd-devwatch: -r takes JOB:RANK\n");
				return 2;
			}
			do_register = true;
			break;
		case 'c':
			count = strtol(optarg, NULL, 10);
			break;
		case 't':
			timeout_s = strtol(optarg, NULL, 10);
			break;
		case 'q':
			quiet = true;
			break;
		case 'S':
			scoped = true;
			break;
		case 's':
			scoped = true;
			for (tok = strtok(optarg, ","); tok && nscope < FTD_SCOPE_MAX;
			     tok = strtok(NULL, ","))
				scope[nscope++] = (uint32_t)strtoul(tok, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: ftd-devwatch [-r JOB:RANK [-S] [-s NODES]] [-c COUNT] "
				"[-t SECONDS] [-q]\n");
			return 2;
		}
	}

	h = ftd_open(NULL);
	if (!h) {
		fprintf(stderr, "ftd-devwatch: %s: %s\n", FTD_DEVICE_PATH, ftd_strerror(-errno));
		return 1;
	}
	if (do_register) {
		ret = scoped ? ftd_register_scoped(h, job, rank) : ftd_register(h, job, rank);
		if (ret) {
			fprintf(stderr, "ftd-devwatch: register: %s\n", ftd_strerror(ret));
			return 1;
		}
		ret = nscope ? ftd_scope(h, scope, nscope) : 0;
		if (ret) {
			fprintf(stderr, "ftd-devwatch: scope: %s\n", ftd_strerror(ret));
			return 1;
		}
	}
	/* Tells a test script the device is open (and the rank registered). */
	fprintf(stderr, "ftd-devwatch: ready\n");
	if (timeout_s >= 0)
		deadline = now_ms() + timeout_s * 1000;

	while (count) {
		struct pollfd pfd = { .fd = ftd_fd(h), .events = POLLIN };
		int wait_ms = -1;

		if (deadline) {
			uint64_t now = now_ms();

			if (now >= deadline)
				break;
			wait_ms = deadline - now;
		}
		ret = poll(&pfd, 1, wait_ms);
		if (ret < 0 && errno != EINTR) {
			perror("ftd-devwatch: poll");
			return 1;
		}
		while (count && (ret = ftd_next_event(h, &ev, FTD_NONBLOCK)) == 0) {
			if (!quiet)
				print_event(&ev);
			if (count > 0)
				count--;
		}
		if (ret && ret != -EAGAIN) {
			fprintf(stderr, "ftd-devwatch: read: %s\n", ftd_strerror(ret));
			return 1;
		}
	}
	if (do_register)
		ftd_deregister(h);
	ftd_close(h);
	return 0;
}
