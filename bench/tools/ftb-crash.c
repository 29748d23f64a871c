// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark tool: a registered rank that crashes, with the crash stamped.
 *
 *   ftb-crash [-b] [-w SECONDS] JOB:RANK
 *
 * Forks a child that registers (JOB, RANK) on this network namespace's
 * /dev/ftdetect and then sleeps (or, with -b, spins as a computing rank
 * does), waits SECONDS (default 1) so that the registration reaches every
 * node, then kills it with SIGKILL. Prints one JSON line:
 *
 *   {"pid":N,"kill_ns":T,"reaped_ns":T}
 *
 * kill_ns is CLOCK_REALTIME right before kill(2), the same clock as the
 * events' time_ns, so that PROC_DEAD latency is measured from the signal and
 * not from a shell's fork of date(1), which takes milliseconds under TCG.
 * reaped_ns is when waitpid(2) returned: after the child's files were
 * released, i.e. after the kernel's part of the notice began.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "lib/ftdetect.h"

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The rank: registers, says so on the pipe, and never returns. */
static void rank_main(int ready_fd, unsigned int job, unsigned int rank, int busy)
{
	struct ftd_handle *h = ftd_open(NULL);
	volatile uint64_t x = 0;
	int ret;

	if (!h) {
		fprintf(stderr, "ftb-crash: %s: %s\n", FTD_DEVICE_PATH, ftd_strerror(-errno));
		_exit(1);
	}
	ret = ftd_register(h, job, rank);
	if (ret) {
		fprintf(stderr, "ftb-crash: register %u:%u: %s\n", job, rank, ftd_strerror(ret));
		_exit(1);
	}
	if (write(ready_fd, "r", 1) != 1)
		_exit(1);
	for (;;) {
		if (busy)
			x++;
		else
			pause();
	}
}

int main(int argc, char **argv)
{
	unsigned int job, rank, wait_s = 1;
	int opt, busy = 0, fds[2], status;
	uint64_t kill_ns, reaped_ns;
	pid_t pid;
	char c;

	while ((opt = getopt(argc, argv, "bw:")) != -1) {
		switch (opt) {
		case 'b':
			busy = 1;
			break;
		case 'w':
			wait_s = strtoul(optarg, NULL, 10);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || sscanf(argv[optind], "%u:%u", &job, &rank) != 2)
		goto usage;
	if (pipe(fds))
		return perror("pipe"), 1;
	pid = fork();
	if (pid < 0)
		return perror("fork"), 1;
	if (pid == 0) {
		close(fds[0]);
		rank_main(fds[1], job, rank, busy);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1) {
		fprintf(stderr, "ftb-crash: the rank did not register\n");
		waitpid(pid, NULL, 0);
		return 1;
	}
	sleep(wait_s);
	kill_ns = realtime_ns();
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	reaped_ns = realtime_ns();
	printf("{\"pid\":%d,\"kill_ns\":%llu,\"reaped_ns\":%llu}\n", pid,
	       (unsigned long long)kill_ns, (unsigned long long)reaped_ns);
	return 0;
usage:
	fprintf(stderr, "usage: ftb-crash [-b] [-w SECONDS] JOB:RANK\n");
	return 2;
}
