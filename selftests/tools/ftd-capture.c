// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: capture ftdetect frames on one interface (AF_PACKET, which sees
 * a received frame after the XDP program and a sent one after the TC egress
 * program) and print one JSON line per frame with its timestamp slots and
 * the state of its UDP checksum, verified here from the bytes:
 *
 *   ftd-capture -i DEV [-p PORT] [-n COUNT] [-t SECONDS] [-d in|out|any] [-s SENDER]
 *
 *   {"dir":"in","src":"192.0.2.2","sender":2,"type":1,"seq":7,
 *    "tx_ns":...,"rx_ns":...,"csum":"ok","mono_ns":...,"tai_ns":...}
 *
 * and, for a notice frame (type 2), what its first notice says: "kind" (enum
 * ftd_notice_kind), "subject", "subject_incarnation", "origin"; and
 * "notices", an array of those four for every notice the frame carries
 * (several: the uapi header's "Batches").
 *
 * csum: "ok" or "bad" (verified over the pseudo-header), "none" (IPv4 zero),
 * "partial" (the kernel marks it CHECKSUM_PARTIAL: the field holds only the
 * pseudo-header sum, the payload is summed by the device later, so the
 * bytes cannot be verified yet). mono_ns and tai_ns are this host's
 * CLOCK_MONOTONIC and CLOCK_TAI when the frame was read. -d keeps only
 * received (in) or sent (out) frames, -s only those of one sender id.
 * Prints "ready" on stderr once capturing; exits 0 after COUNT frames, 3 on
 * timeout.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>
#include <poll.h>
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

static uint64_t now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static uint32_t sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static const char *csum_state(const uint8_t *udp, size_t ulen, const uint8_t *src,
			      const uint8_t *dst, size_t alen, int ipv4, int partial)
{
	uint32_t s;

	if (partial)
		return "partial";
	if (ipv4 && !udp[6] && !udp[7])
		return "none";
	s = sum16(src, alen, 0);
	s = sum16(dst, alen, s);
	s += IPPROTO_UDP + (uint32_t)ulen;
	s = sum16(udp, ulen, s);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s == 0xffff ? "ok" : "bad";
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *want = "any";
	unsigned int port = FTD_DEFAULT_PORT;
	unsigned long count = 0, seen = 0, sender = 0;
	int by_sender = 0;
	double secs = 10;
	uint64_t deadline;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	int fd, opt, one = 1;

	while ((opt = getopt(argc, argv, "i:p:n:t:d:s:")) != -1) {
		switch (opt) {
		case 'i': dev = optarg; break;
		case 'p': port = strtoul(optarg, NULL, 0); break;
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 't': secs = strtod(optarg, NULL); break;
		case 'd': want = optarg; break;
		case 's': sender = strtoul(optarg, NULL, 0); by_sender = 1; break;
		default: return 2;
		}
	}
	if (!dev) {
		fprintf(stderr, "usage: ftd-capture -i DEV [-p PORT] [-n COUNT] [-t SECONDS] "
			"[-d in|out|any] [-s SENDER]\n");
		return 2;
	}
	sll.sll_ifindex = (int)if_nametoindex(dev);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "ftd-capture: no interface %s\n", dev);
		return 1;
	}
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one))) {
		perror("ftd-capture");
		return 1;
	}
	fprintf(stderr, "ready\n");
	setvbuf(stdout, NULL, _IOLBF, 0);
	deadline = now(CLOCK_MONOTONIC) + (uint64_t)(secs * 1e9);

	while (!count || seen < count) {
		uint8_t buf[2048], cbuf[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
		struct sockaddr_ll from;
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = { .msg_name = &from, .msg_namelen = sizeof(from),
				     .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t t = now(CLOCK_MONOTONIC), mono, tai;
		const uint8_t *l3, *udp, *fr, *src, *dst;
		size_t alen, ulen, off = ETH_HLEN;
		char a[INET6_ADDRSTRLEN];
		int partial = 0, ipv4;
		uint16_t proto;
		ssize_t n;

		if (t >= deadline)
			return 3;
		if (poll(&pfd, 1, (int)((deadline - t) / 1000000 + 1)) <= 0)
			continue;
		n = recvmsg(fd, &mh, 0);
		mono = now(CLOCK_MONOTONIC);
		tai = now(CLOCK_TAI);
		if (n < ETH_HLEN)
			continue;
		if (!strcmp(want, "in") && from.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (!strcmp(want, "out") && from.sll_pkttype != PACKET_OUTGOING)
			continue;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			if (c->cmsg_level == SOL_PACKET && c->cmsg_type == PACKET_AUXDATA) {
				struct tpacket_auxdata ad;

				memcpy(&ad, CMSG_DATA(c), sizeof(ad));
				partial = !!(ad.tp_status & TP_STATUS_CSUMNOTREADY);
			}
		}
		proto = (uint16_t)(buf[12] << 8 | buf[13]);
		l3 = buf + off;
		if (proto == ETH_P_IP && (size_t)n >= off + 20 && l3[9] == IPPROTO_UDP &&
		    !(be32(l3 + 4) & 0x3fff)) {
			ipv4 = 1;
			alen = 4;
			src = l3 + 12;
			dst = l3 + 16;
			udp = l3 + (l3[0] & 0xf) * 4;
		} else if (proto == ETH_P_IPV6 && (size_t)n >= off + 40 && l3[6] == IPPROTO_UDP) {
			ipv4 = 0;
			alen = 16;
			src = l3 + 8;
			dst = l3 + 24;
			udp = l3 + 40;
		} else {
			continue;
		}
		if (udp + 8 > buf + n || (udp[2] << 8 | udp[3]) != (int)port)
			continue;
		ulen = (size_t)(udp[4] << 8 | udp[5]);
		fr = udp + 8;
		if (ulen < 8 + FTD_WIRE_HDR_LEN || udp + ulen > buf + n ||
		    be32(fr + HDR(magic)) != FTD_WIRE_MAGIC)
			continue;
		if (by_sender && be32(fr + HDR(sender)) != sender)
			continue;
		inet_ntop(ipv4 ? AF_INET : AF_INET6, src, a, sizeof(a));
		printf("{\"dir\":\"%s\",\"src\":\"%s\",\"sender\":%u,\"type\":%u,\"seq\":%llu,"
		       "\"tx_ns\":%llu,\"rx_ns\":%llu,\"csum\":\"%s\",\"mono_ns\":%llu,"
		       "\"tai_ns\":%llu",
		       from.sll_pkttype == PACKET_OUTGOING ? "out" : "in", a, be32(fr + HDR(sender)),
		       fr[HDR(type)], (unsigned long long)be64(fr + HDR(seq)),
		       (unsigned long long)be64(fr + FTD_WIRE_TX_OFF),
		       (unsigned long long)be64(fr + FTD_WIRE_RX_OFF),
		       csum_state(udp, ulen, src, dst, alen, ipv4, partial),
		       (unsigned long long)mono, (unsigned long long)tai);
		/*
		 * A notice frame: what its first notice says, and about whom
		 * (struct ftd_wire_notice), and in "notices" every one of the
		 * batch (the uapi header's "Batches").
		 */
		if (fr[HDR(type)] == FTD_FRAME_NOTICE && ulen >= 8 + FTD_WIRE_HDR_LEN + FTD_WIRE_NOTICE_LEN) {
			const uint8_t *no = fr + FTD_WIRE_HDR_LEN;
			size_t i, cnt = (ulen - 8 - FTD_WIRE_HDR_LEN) / FTD_WIRE_NOTICE_LEN;

			printf(",\"kind\":%u,\"subject\":%u,\"subject_incarnation\":%u,\"origin\":%u",
			       no[NOTICE(kind)], be32(no + NOTICE(subject)),
			       be32(no + NOTICE(subject_incarnation)), be32(no + NOTICE(origin)));
			printf(",\"notices\":[");
			for (i = 0; i < cnt; i++, no += FTD_WIRE_NOTICE_LEN)
				printf("%s{\"kind\":%u,\"subject\":%u,\"subject_incarnation\":%u,"
				       "\"origin\":%u}", i ? "," : "", no[NOTICE(kind)],
				       be32(no + NOTICE(subject)), be32(no + NOTICE(subject_incarnation)),
				       be32(no + NOTICE(origin)));
			printf("]");
		}
		printf("}\n");
		seen++;
	}
	return 0;
}
