// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark tool: the latency of plain UDP packets between two network
 * namespaces of one machine, as a yardstick for ftdetect's notices and as a
 * ping-pong whose latency ftdetect's heartbeats may disturb.
 *
 *   ftb-udp recv PORT COUNT                 one-way delays of COUNT packets
 *   ftb-udp send ADDR PORT COUNT GAP_US      send them, GAP_US apart
 *   ftb-udp pong PORT                        echo until killed
 *   ftb-udp ping ADDR PORT COUNT             COUNT round trips, one at a time
 *
 * One-way: the sender writes CLOCK_REALTIME into each packet; both ends
 * share the clock (one kernel). recv prints, as JSON, per packet the delay
 * to the kernel's receive stamp (SO_TIMESTAMPNS, taken as the stack gets the
 * frame: comparable with an event's time_ns) and to recvmsg() returning
 * (what an application sees). ping prints the round-trip times.
 * IPv4 only: the benchmark clusters are IPv4.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define RECV_TIMEOUT_S	5	/* a lost packet ends the run, not hangs it */

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts_ns(&ts);
}

static int udp_socket(const char *addr, unsigned int port, struct sockaddr_in *sin, int do_bind)
{
	struct timeval tv = { .tv_sec = RECV_TIMEOUT_S };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), one = 1;

	if (fd < 0)
		return perror("socket"), -1;
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	if (addr && inet_pton(AF_INET, addr, &sin->sin_addr) != 1) {
		fprintf(stderr, "ftb-udp: not an IPv4 address: %s\n", addr);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (do_bind && bind(fd, (struct sockaddr *)sin, sizeof(*sin)))
		return perror("bind"), -1;
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	return fd;
}

static int do_recv(unsigned int port, long count)
{
	union { char buf[CMSG_SPACE(sizeof(struct timespec))]; struct cmsghdr align; } ctl;
	struct sockaddr_in sin;
	uint64_t sent, kern, app;
	long i;
	int fd = udp_socket(NULL, port, &sin, 1);

	if (fd < 0)
		return 1;
	fprintf(stderr, "ready\n");
	printf("{\"kernel_ns\":[");
	for (i = 0; i < count; i++) {
		struct iovec iov = { .iov_base = &sent, .iov_len = sizeof(sent) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
		struct cmsghdr *cm;

		if (recvmsg(fd, &msg, 0) != sizeof(sent)) {
			fprintf(stderr, "ftb-udp: recv: packet %ld: %s\n", i, strerror(errno));
			break;
		}
		app = now_ns(CLOCK_REALTIME);
		kern = 0;
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
			if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS)
				kern = ts_ns((struct timespec *)CMSG_DATA(cm));
		/* Two arrays interleaved as pairs keep this a single pass. */
		printf("%s[%lld,%lld]", i ? "," : "", kern ? (long long)(kern - sent) : -1LL,
		       (long long)(app - sent));
	}
	printf("],\"count\":%ld}\n", i);
	return i == count ? 0 : 1;
}

static int do_send(const char *addr, unsigned int port, long count, long gap_us)
{
	struct sockaddr_in sin;
	uint64_t t;
	long i;
	int fd = udp_socket(addr, port, &sin, 0);

	if (fd < 0)
		return 1;
	for (i = 0; i < count; i++) {
		t = now_ns(CLOCK_REALTIME);
		if (sendto(fd, &t, sizeof(t), 0, (struct sockaddr *)&sin, sizeof(sin)) < 0)
			return perror("sendto"), 1;
		usleep(gap_us);
	}
	return 0;
}

static int do_pong(unsigned int port)
{
	struct sockaddr_in sin, from;
	socklen_t fl;
	char buf[64];
	ssize_t len;
	int fd = udp_socket(NULL, port, &sin, 1);
	struct timeval tv = { 0 };

	if (fd < 0)
		return 1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));	/* wait forever */
	fprintf(stderr, "ready\n");
	for (;;) {
		fl = sizeof(from);
		len = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (len < 0)
			return perror("recvfrom"), 1;
		sendto(fd, buf, len, 0, (struct sockaddr *)&from, fl);
	}
}

static int do_ping(const char *addr, unsigned int port, long count)
{
	struct sockaddr_in sin;
	uint64_t t, back;
	long i;
	int fd = udp_socket(addr, port, &sin, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		return perror("connect"), 1;
	printf("{\"rtt_ns\":[");
	for (i = 0; i < count; i++) {
		t = now_ns(CLOCK_MONOTONIC);
		if (send(fd, &t, sizeof(t), 0) < 0 || recv(fd, &back, sizeof(back), 0) != sizeof(back)) {
			fprintf(stderr, "ftb-udp: ping %ld: %s\n", i, strerror(errno));
			break;
		}
		printf("%s%llu", i ? "," : "", (unsigned long long)(now_ns(CLOCK_MONOTONIC) - t));
	}
	printf("],\"count\":%ld}\n", i);
	return i == count ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return do_recv(atoi(argv[2]), atol(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "send"))
		return do_send(argv[2], atoi(argv[3]), atol(argv[4]), atol(argv[5]));
	if (argc == 3 && !strcmp(argv[1], "pong"))
		return do_pong(atoi(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "ping"))
		return do_ping(argv[2], atoi(argv[3]), atol(argv[4]));
	fprintf(stderr, "usage: ftb-udp recv PORT COUNT | send ADDR PORT COUNT GAP_US |\n"
		"               pong PORT | ping ADDR PORT COUNT\n");
	return 2;
}
