// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: an attacker on the wire, without the key. Records the ftdetect
 * frames a host receives, byte for byte, and sends them again later:
 *
 *   ftd-replay record -i DEV -o FILE [-p PORT] [-t SECONDS] [-s SENDER]
 *   ftd-replay send -f FILE -d DEST [-p PORT] [-s SENDER] [-k KIND] [-x KIND] [-r ROUNDS]
 *   ftd-replay kinds -f FILE
 *
 * record keeps each UDP payload to PORT (default 7061) arriving on DEV
 * (AF_PACKET), optionally only those of node id SENDER, until SECONDS pass
 * (default 5) or it gets SIGTERM or SIGINT; it prints "ready" on stderr
 * once capturing and the count of frames kept on stdout. send sends each kept payload, unchanged, from an
 * ordinary UDP socket of the namespace it runs in (so run it where the
 * captured sender's address is) to DEST:PORT, ROUNDS times (default 1),
 * only those of node id SENDER if -s is given, only notice frames holding a
 * notice of KIND (a number, enum ftd_notice_kind) if -k is given, all but
 * those with -x; it
 * prints the count sent. kinds prints what a file holds, as "hb=N" and
 * "noticeK=N" words (K: enum ftd_notice_kind; each notice of a frame that
 * carries several counts). The file is a sequence of
 * (u16 length, bytes).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/ftdetect.h>

#define HDR(field) FTD_WIRE_HDR_OFF(field)
#define NOTICE(field) FTD_WIRE_NOTICE_OFF(field)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: ftd-replay record -i DEV -o FILE [-p PORT] [-t SECONDS] [-s SENDER]\n"
			"       ftd-replay send -f FILE -d DEST [-p PORT] [-s SENDER] [-k KIND] [-x KIND] [-r ROUNDS]\n"
			"       ftd-replay kinds -f FILE\n");
	exit(2);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The UDP payload of an Ethernet frame to port, or NULL. */
static const uint8_t *udp_payload(const uint8_t *pkt, size_t n, uint16_t proto, uint16_t port,
				  size_t *len)
{
	const uint8_t *l4;
	size_t off;

	if (proto == ETH_P_IP && n >= 20 && pkt[9] == 17) {
		off = (size_t)(pkt[0] & 15) * 4;
	} else if (proto == ETH_P_IPV6 && n >= 40 && pkt[6] == 17) {
		off = 40;
	} else {
		return NULL;
	}
	if (n < off + 8)
		return NULL;
	l4 = pkt + off;
	if ((l4[2] << 8 | l4[3]) != port)
		return NULL;
	*len = n - off - 8;
	return l4 + 8;
}

static int record(const char *dev, const char *file, uint16_t port, double secs, long sender)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	uint8_t buf[2048];
	const uint8_t *p;
	double end = now_s() + secs;
	unsigned long kept = 0;
	FILE *out;
	int fd;

	sll.sll_ifindex = (int)if_nametoindex(dev);
	/* SOCK_DGRAM: the frame from its network header on. */
	fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_ALL));
	if (!sll.sll_ifindex || fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror(dev);
		return 1;
	}
	out = fopen(file, "w");
	if (!out) {
		perror(file);
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	fprintf(stderr, "ready\n");
	while (!stop && now_s() < end) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		size_t len;
		ssize_t n;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (n <= 0 || from.sll_pkttype == PACKET_OUTGOING)
			continue;
		p = udp_payload(buf, (size_t)n, ntohs(from.sll_protocol), port, &len);
		if (!p || len < FTD_WIRE_HDR_LEN || be32(p + HDR(magic)) != FTD_WIRE_MAGIC)
			continue;
		if (sender >= 0 && be32(p + HDR(sender)) != (uint32_t)sender)
			continue;
		fputc(len >> 8, out);
		fputc(len & 0xff, out);
		fwrite(p, 1, len, out);
		kept++;
	}
	fclose(out);
	printf("%lu\n", kept);
	return kept ? 0 : 3;
}

/* Does the notice frame f hold a notice of kind (any of its batch)? */
static bool is_notice(const uint8_t *f, size_t len, long kind)
{
	size_t off;

	if (len <= FTD_WIRE_HDR_LEN || f[HDR(type)] != FTD_FRAME_NOTICE)
		return false;
	for (off = FTD_WIRE_HDR_LEN; off < len; off += FTD_WIRE_NOTICE_LEN)
		if (f[off + NOTICE(kind)] == kind)
			return true;
	return false;
}

static int send_all(const char *file, const char *dest, uint16_t port, long sender, long kind,
		    long skip, int rounds)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sl;
	uint8_t buf[2048];
	unsigned long sent = 0;
	int fd, r, hi, lo;
	FILE *in;

	if (inet_pton(AF_INET, dest, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		ss.ss_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons(port);
		sl = sizeof(struct sockaddr_in);
	} else if (inet_pton(AF_INET6, dest, &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1) {
		ss.ss_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(port);
		sl = sizeof(struct sockaddr_in6);
	} else {
		fprintf(stderr, "ftd-replay: bad address %s\n", dest);
		return 2;
	}
	fd = socket(ss.ss_family, SOCK_DGRAM, 0);
	in = fopen(file, "r");
	if (fd < 0 || !in) {
		perror(file);
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		rewind(in);
		while ((hi = fgetc(in)) != EOF && (lo = fgetc(in)) != EOF) {
			size_t len = (size_t)hi << 8 | (size_t)lo;

			if (len > sizeof(buf) || fread(buf, 1, len, in) != len)
				break;
			if (sender >= 0 && be32(buf + HDR(sender)) != (uint32_t)sender)
				continue;
			if ((kind >= 0 && !is_notice(buf, len, kind)) ||
			    (skip >= 0 && is_notice(buf, len, skip)))
				continue;
			if (sendto(fd, buf, len, 0, (struct sockaddr *)&ss, sl) == (ssize_t)len)
				sent++;
			/*
			 * Paced: a burst past the receiving CPU's backlog
			 * (netdev_max_backlog) is dropped before ftdetect
			 * sees it, and the tests count what ftdetect refused.
			 */
			if (sent % 32 == 0)
				usleep(2000);
		}
	}
	printf("%lu\n", sent);
	return 0;
}

/*
 * Count what frame f holds: count[0] a heartbeat, count[1 + K] each of its
 * notices of kind K (a frame may carry several: the uapi's "Batches").
 */
static void count_kinds(const uint8_t *f, size_t len, unsigned long *count)
{
	size_t off;

	if (len <= FTD_WIRE_HDR_LEN || f[HDR(type)] != FTD_FRAME_NOTICE) {
		count[0]++;
		return;
	}
	for (off = FTD_WIRE_HDR_LEN; off < len; off += FTD_WIRE_NOTICE_LEN)
		count[1 + f[off + NOTICE(kind)]]++;
}

static int kinds(const char *file)
{
	unsigned long count[257] = { 0 };
	uint8_t buf[2048];
	int hi, lo, k;
	FILE *in;

	in = fopen(file, "r");
	if (!in) {
		perror(file);
		return 1;
	}
	while ((hi = fgetc(in)) != EOF && (lo = fgetc(in)) != EOF) {
		size_t len = (size_t)hi << 8 | (size_t)lo;

		if (len > sizeof(buf) || fread(buf, 1, len, in) != len)
			break;
		count_kinds(buf, len, count);
	}
	fclose(in);
	for (k = 0; k < 257; k++) {
		if (!count[k])
			continue;
		if (k)
			printf("notice%d=%lu ", k - 1, count[k]);
		else
			printf("hb=%lu ", count[k]);
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *file = NULL, *dest = NULL, *mode;
	long sender = -1, kind = -1, skip = -1;
	double secs = 5;
	uint16_t port = FTD_DEFAULT_PORT;
	int c, rounds = 1;

	if (argc < 2)
		usage();
	mode = argv[1];
	optind = 2;
	while ((c = getopt(argc, argv, "i:o:f:d:p:t:s:k:x:r:")) != -1) {
		switch (c) {
		case 'i': dev = optarg; break;
		case 'o': case 'f': file = optarg; break;
		case 'd': dest = optarg; break;
		case 'p': port = (uint16_t)atoi(optarg); break;
		case 't': secs = atof(optarg); break;
		case 's': sender = atol(optarg); break;
		case 'k': kind = atol(optarg); break;
		case 'x': skip = atol(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		default: usage();
		}
	}
	if (!strcmp(mode, "record") && dev && file)
		return record(dev, file, port, secs, sender);
	if (!strcmp(mode, "kinds") && file)
		return kinds(file);
	if (!strcmp(mode, "send") && file && dest)
		return send_all(file, dest, port, sender, kind, skip, rounds);
	usage();
	return 2;
}
