// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: set an interface of the current network namespace down or up
 * and print when, as {"before_ns":...,"after_ns":...} (CLOCK_REALTIME, the
 * clock of event records' time_ns). Process start-up costs, large in an
 * emulated guest, fall before "before_ns", so the two stamps bracket the
 * change itself within microseconds: what a detection latency is measured from.
 *
 *   ftd-link IFNAME down|up
 */
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
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

int main(int argc, char **argv)
{
	struct ifreq ifr = {};
	uint64_t before, after;
	int fd, up;

	if (argc != 3 || (strcmp(argv[2], "down") && strcmp(argv[2], "up")) ||
	    strlen(argv[1]) >= IFNAMSIZ) {
		fprintf(stderr, "usage: ftd-link IFNAME down|up\n");
		return 2;
	}
	up = !strcmp(argv[2], "up");
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	strcpy(ifr.ifr_name, argv[1]);
	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		perror("ftd-link: SIOCGIFFLAGS");
		return 1;
	}
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	before = realtime_ns();
	if (ioctl(fd, SIOCSIFFLAGS, &ifr)) {
		perror("ftd-link: SIOCSIFFLAGS");
		return 1;
	}
	after = realtime_ns();
	printf("{\"before_ns\":%llu,\"after_ns\":%llu}\n", (unsigned long long)before,
	       (unsigned long long)after);
	close(fd);
	return 0;
}
