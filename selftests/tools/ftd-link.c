// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: set an interface of the current network namespace down or up
 * and print when, as {"before_ns":...,"after_ns":...} (CLOCK_REALTIME, the
 * clock of event records' time_ns). Process start-up costs, large in an
 * emulated guest, fall before "before_ns", so the two stamps bracket the
 * change itself: tens of microseconds, up to ~15 ms in an emulated guest.
 * Frames may cross until "after_ns": a detection bound runs from it.
 *
 *   ftd-link IFNAME down|up
 *   ftd-link IFNAME flap DOWN_MS COUNT GAP_MS
 *
 * flap: COUNT times, down for DOWN_MS then up, GAP_MS apart, from this one
 * process (a shell's sleep between two commands would add a process
 * start-up to every flap); one line per flap with the stamps of both
 * changes and how long the link was really down, down_ns.
 */
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_ms(unsigned long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts))
		;
}

/* Set the link up or down; the stamps around the change. */
static int set_link(int fd, struct ifreq *ifr, int up, uint64_t *before, uint64_t *after)
{
	if (up)
		ifr->ifr_flags |= IFF_UP;
	else
		ifr->ifr_flags &= ~IFF_UP;
	*before = realtime_ns();
	if (ioctl(fd, SIOCSIFFLAGS, ifr)) {
		perror("ftd-link: SIOCSIFFLAGS");
		return -1;
	}
	*after = realtime_ns();
	return 0;
}

static int flap(int fd, struct ifreq *ifr, unsigned long down_ms, unsigned long count,
		unsigned long gap_ms)
{
	uint64_t b0, a0, b1, a1;
	unsigned long i;

	for (i = 0; i < count; i++) {
		if (i)
			sleep_ms(gap_ms);
		if (set_link(fd, ifr, 0, &b0, &a0))
			return 1;
		sleep_ms(down_ms);
		if (set_link(fd, ifr, 1, &b1, &a1))
			return 1;
		printf("{\"down_before_ns\":%llu,\"up_after_ns\":%llu,\"down_ns\":%llu}\n",
		       (unsigned long long)b0, (unsigned long long)a1,
		       (unsigned long long)(a1 - b0));
		fflush(stdout);
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: ftd-link IFNAME down|up\n"
			"       ftd-link IFNAME flap DOWN_MS COUNT GAP_MS\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct ifreq ifr = {};
	uint64_t before, after;
	int fd, rc;

	if (argc < 3 || strlen(argv[1]) >= IFNAMSIZ)
		return usage();
	if (!strcmp(argv[2], "flap") ? argc != 6 :
	    argc != 3 || (strcmp(argv[2], "down") && strcmp(argv[2], "up")))
		return usage();
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	strcpy(ifr.ifr_name, argv[1]);
	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		perror("ftd-link: SIOCGIFFLAGS");
		return 1;
	}
	if (!strcmp(argv[2], "flap")) {
		rc = flap(fd, &ifr, strtoul(argv[3], NULL, 10), strtoul(argv[4], NULL, 10),
			  strtoul(argv[5], NULL, 10));
	} else {
		rc = set_link(fd, &ifr, !strcmp(argv[2], "up"), &before, &after) ? 1 : 0;
		if (!rc)
			printf("{\"before_ns\":%llu,\"after_ns\":%llu}\n",
			       (unsigned long long)before, (unsigned long long)after);
	}
	close(fd);
	return rc;
}
