// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: hold /dev/ftdetect the ways an MPI runtime does, until killed,
 * so that module unload, namespace deletion and reconfiguration can be
 * tried underneath:
 *
 *   ftd-hold [-o NETNS] read     blocked in read(2)
 *   ftd-hold [-o NETNS] poll     blocked in poll(2) (reading what it reports)
 *   ftd-hold [-o NETNS] map      the status table mapped, the descriptor
 *                                closed: only the mapping holds the file
 *
 * With -o, it moves to network namespace NETNS (a path, e.g. /proc/1/ns/net)
 * once the file is open: the file, not the process, then keeps the opening
 * namespace's instance.
 *
 * It prints "ready" on stderr once it holds the file (for read and poll,
 * just before blocking), and exits 0 when a read or poll returns because
 * the file was torn down, 1 on an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/ftdetect.h>

int main(int argc, char **argv)
{
	const char *move_to = NULL, *how;
	struct ftd_event ev;
	struct pollfd pfd;
	void *table;
	int fd, ns;

	if (argc == 4 && !strcmp(argv[1], "-o")) {
		move_to = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ftd-hold [-o NETNS] read|poll|map\n");
		return 2;
	}
	how = argv[1];
	fd = open("/dev/ftdetect", O_RDONLY);
	if (fd < 0) {
		perror("/dev/ftdetect");
		return 1;
	}
	if (move_to) {
		ns = open(move_to, O_RDONLY);
		if (ns < 0 || setns(ns, CLONE_NEWNET)) {
			perror(move_to);
			return 1;
		}
		close(ns);
	}
	if (!strcmp(how, "map")) {
		/* The first page holds the header: enough to pin the table. */
		table = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		if (table == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		close(fd);
		fprintf(stderr, "ready\n");
		for (;;)
			pause();
	}
	fprintf(stderr, "ready\n");
	if (!strcmp(how, "poll")) {
		pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
		for (;;) {
			if (poll(&pfd, 1, -1) < 0) {
				if (errno == EINTR)
					continue;
				perror("poll");
				return 1;
			}
			/* Drained, or poll would report the same event forever. */
			if ((pfd.revents & POLLIN) && read(fd, &ev, sizeof(ev)) < 0 &&
			    errno != EAGAIN && errno != EINTR) {
				perror("read");
				return 1;
			}
			if (pfd.revents & (POLLERR | POLLHUP))
				return 0;
		}
	}
	for (;;)
		if (read(fd, &ev, sizeof(ev)) < 0 && errno != EINTR) {
			perror("read");
			return 1;
		}
}
