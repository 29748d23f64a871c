// SPDX-License-Identifier: GPL-2.0
/*
 * Host tool of selftests/vm/guests: the Ethernet hub that joins several
 * guests' NICs. QEMU's socket netdev sends each frame a guest's NIC emits
 * as one UDP datagram to a given port; this hub listens on 127.0.0.1:PORT,
 * and sends every datagram it receives from one guest's port to each other
 * guest's port, as a hub repeats a frame on its other ports. Nothing
 * leaves the loopback interface.
 *
 *   ftd-udphub PORT GUEST_PORT...
 *
 * Runs until killed; prints "ready" on stdout once it listens.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_GUESTS 16

static int port_arg(const char *s)
{
	char *end;
	long p = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || p < 1 || p > 65535) {
		fprintf(stderr, "ftd-udphub: bad port '%s'\n", s);
		exit(2);
	}
	return (int)p;
}

static struct sockaddr_in loopback(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

int main(int argc, char **argv)
{
	struct sockaddr_in me, guests[MAX_GUESTS], from;
	unsigned char frame[65536];
	int fd, n = argc - 2;

	if (argc < 4 || n > MAX_GUESTS) {
		fprintf(stderr, "usage: ftd-udphub PORT GUEST_PORT... (2 to %d guests)\n", MAX_GUESTS);
		return 2;
	}
	me = loopback(port_arg(argv[1]));
	for (int i = 0; i < n; i++)
		guests[i] = loopback(port_arg(argv[i + 2]));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		perror("ftd-udphub: socket");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		socklen_t len = sizeof(from);
		ssize_t got = recvfrom(fd, frame, sizeof(frame), 0, (struct sockaddr *)&from, &len);

		if (got < 0)
			continue;
		for (int i = 0; i < n; i++)
			if (guests[i].sin_port != from.sin_port ||
			    from.sin_addr.s_addr != htonl(INADDR_LOOPBACK))
				sendto(fd, frame, (size_t)got, 0, (struct sockaddr *)&guests[i],
				       sizeof(guests[i]));
	}
}
