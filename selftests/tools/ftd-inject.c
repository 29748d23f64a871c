// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: send crafted ftdetect frames, valid or broken in one chosen
 * way, from an ordinary UDP socket, to check that the module drops and
 * counts what it must and changes no state.
 *
 *   ftd-inject -t ADDR -k KIND [-p PORT] [-c CLUSTER] [-s SENDER] [-r RAIL]
 *              [-i INCARNATION] [-q SEQ] [-K KEYHEX] [-n COUNT] [-T TX_NS] [-Z]
 *              [-X] [-P BYTES] [-R RECEIVER] [-V SUBJECT:INCARNATION:ORIGIN]...
 *              [-N NOTICE_KIND]
 *
 * -R names the node id the frame is for (the header's receiver; default 1);
 * -T sets the tx_ns field (zero by default; the MAC does not cover it);
 * -Z sends over IPv4 without a UDP checksum (SO_NO_CHECK: the field is 0);
 * -X sends over IPv6 with a Destination Options header (IPV6_DSTOPTS);
 * -P makes the payload of kind "payload" BYTES long (default 16; more than
 *    the MTU is sent as IP fragments).
 *
 * KIND: valid short badmagic badversion badlength badflags badtype badmac
 *       payload (a heartbeat with trailing bytes)
 *       vote (a SUSPECT notice, well formed and signed: -V names its
 *       subject, the subject's incarnation and the voter it claims; with
 *       the key, the sender's address and incarnation and a seq ahead of
 *       the sender's, a member's vote as the receiver would take it). Up
 *       to 4 -V: each of the COUNT frames is the next one's, in turn
 *       (-n defaults to their number), back to back.
 *       batch (the -V notices together in one frame, the uapi's
 *       "Batches", each of kind -N, a number, enum ftd_notice_kind,
 *       default 1, DEAD; -n defaults to 1)
 *       badbatch (the same with a PROBE after them: a control notice
 *       beside others, which makes the whole frame malformed)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "proto/wire.h"

static int parse_key(const char *hex, u8 key[FTD_KEY_LEN])
{
	unsigned int i, v;

	if (strlen(hex) != 2 * FTD_KEY_LEN)
		return -1;
	for (i = 0; i < FTD_KEY_LEN; i++) {
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -1;
		key[i] = v;
	}
	return 0;
}

/* Build a frame of the requested kind into buf; its length. */
static size_t payload_len = 16;
static struct ftd_notice votes[4];
static unsigned int nvotes, next_vote;
static u8 batch_kind = FTD_NOTICE_DEAD;	/* -N */

static size_t craft(const char *kind, u8 *buf, size_t cap, struct ftd_frame *f, const u8 *key)
{
	static u8 junk[65536];
	size_t len = ftd_wire_encode(buf, FTD_MAX_FRAME, f, NULL, 0, key);

	if (!strcmp(kind, "valid"))
		return len;
	if (!strcmp(kind, "vote")) {
		u8 notice[FTD_WIRE_NOTICE_LEN];

		if (!nvotes)
			return 0;
		f->type = FTD_FRAME_NOTICE;
		ftd_notice_encode(notice, &votes[next_vote++ % nvotes]);
		return ftd_wire_encode(buf, FTD_MAX_FRAME, f, notice, sizeof(notice), key);
	}
	if (!strcmp(kind, "batch") || !strcmp(kind, "badbatch")) {
		u8 notices[5 * FTD_WIRE_NOTICE_LEN];
		struct ftd_notice probe = { .kind = FTD_NOTICE_PROBE, .subject = f->sender,
					    .subject_incarnation = f->incarnation,
					    .origin = f->sender, .nonce = 1 };
		unsigned int i;

		if (!nvotes)
			return 0;
		f->type = FTD_FRAME_NOTICE;
		for (i = 0; i < nvotes; i++) {
			votes[i].kind = batch_kind;
			ftd_notice_encode(notices + i * FTD_WIRE_NOTICE_LEN, &votes[i]);
		}
		if (!strcmp(kind, "badbatch"))
			ftd_notice_encode(notices + i++ * FTD_WIRE_NOTICE_LEN, &probe);
		return ftd_wire_encode(buf, FTD_MAX_FRAME, f, notices,
				       (u16)(i * FTD_WIRE_NOTICE_LEN), key);
	}
	if (!strcmp(kind, "short"))
		return FTD_WIRE_HDR_LEN - 1;
	if (!strcmp(kind, "badmagic"))
		buf[FTD_WIRE_HDR_OFF(magic)] ^= 0xff;
	else if (!strcmp(kind, "badversion"))
		buf[FTD_WIRE_HDR_OFF(version)] = FTD_WIRE_VERSION + 1;
	else if (!strcmp(kind, "badlength"))
		ftd_put_be16(buf + FTD_WIRE_HDR_OFF(length), len + 8);
	else if (!strcmp(kind, "badflags"))
		buf[FTD_WIRE_HDR_OFF(flags)] = 0x80;
	else if (!strcmp(kind, "badtype"))
		buf[FTD_WIRE_HDR_OFF(type)] = 0xee;
	else if (!strcmp(kind, "badmac"))
		buf[FTD_WIRE_MAC_OFF] ^= 1;
	else if (!strcmp(kind, "payload")) {
		/* Longer than a frame may be: encoded by hand, as a sender would. */
		if (payload_len + FTD_WIRE_HDR_LEN > cap)
			return 0;
		memset(junk, 'j', payload_len);
		if (payload_len + FTD_WIRE_HDR_LEN <= FTD_MAX_FRAME)
			return ftd_wire_encode(buf, FTD_MAX_FRAME, f, junk, (u16)payload_len, key);
		memcpy(buf + FTD_WIRE_HDR_LEN, junk, payload_len);
		ftd_put_be16(buf + 8, (u16)(payload_len + FTD_WIRE_HDR_LEN));
		return payload_len + FTD_WIRE_HDR_LEN;
	}
	else
		return 0;
	/* Re-sign structural corruptions: they must fail on structure, not MAC. */
	if (strcmp(kind, "badmac"))
		ftd_put_be64(buf + FTD_WIRE_MAC_OFF, ftd_wire_mac(buf, len, key));
	return len;
}

int main(int argc, char **argv)
{
	struct ftd_frame f = { .type = FTD_FRAME_HEARTBEAT, .incarnation = 1, .seq = 1,
			       .receiver = 1 };
	const char *to = NULL, *kind = NULL;
	static u8 buf[8192];
	u8 key[FTD_KEY_LEN] = {};
	struct sockaddr_storage ss = {};
	unsigned int port = FTD_DEFAULT_PORT, count = 1, count_given = 0, i;
	socklen_t sslen;
	size_t len;
	int opt, fd, no_check = 0, dstopts = 0;

	while ((opt = getopt(argc, argv, "t:k:p:c:s:r:i:q:K:n:T:ZXP:R:V:N:")) != -1) {
		switch (opt) {
		case 't': to = optarg; break;
		case 'k': kind = optarg; break;
		case 'p': port = strtoul(optarg, NULL, 0); break;
		case 'c': f.cluster = strtoul(optarg, NULL, 0); break;
		case 's': f.sender = strtoul(optarg, NULL, 0); break;
		case 'r': f.rail = strtoul(optarg, NULL, 0); break;
		case 'R': f.receiver = strtoul(optarg, NULL, 0); break;
		case 'i': f.incarnation = strtoul(optarg, NULL, 0); break;
		case 'q': f.seq = strtoull(optarg, NULL, 0); break;
		case 'n': count = strtoul(optarg, NULL, 0); count_given = 1; break;
		case 'T': f.tx_ns = strtoull(optarg, NULL, 0); break;
		case 'Z': no_check = 1; break;
		case 'X': dstopts = 1; break;
		case 'P': payload_len = strtoul(optarg, NULL, 0); break;
		case 'N': batch_kind = strtoul(optarg, NULL, 0); break;
		case 'V':
			if (nvotes == 4 ||
			    sscanf(optarg, "%u:%u:%u", &votes[nvotes].subject,
				   &votes[nvotes].subject_incarnation, &votes[nvotes].origin) != 3) {
				fprintf(stderr, "ftd-inject: -V takes SUBJECT:INCARNATION:ORIGIN, at most 4 times\n");
				return 2;
			}
			votes[nvotes++].kind = FTD_NOTICE_SUSPECT;
			break;
		case 'K':
			if (parse_key(optarg, key)) {
				fprintf(stderr, "ftd-inject: -K takes %d hex digits\n", 2 * FTD_KEY_LEN);
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	if (nvotes && !count_given)
		count = kind && strstr(kind, "batch") ? 1 : nvotes;
	if (!to || !kind) {
		fprintf(stderr, "usage: ftd-inject -t ADDR -k KIND [options]\n");
		return 2;
	}
	if (inet_pton(AF_INET, to, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		ss.ss_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons(port);
		sslen = sizeof(struct sockaddr_in);
	} else if (inet_pton(AF_INET6, to, &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1) {
		ss.ss_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(port);
		sslen = sizeof(struct sockaddr_in6);
	} else {
		fprintf(stderr, "ftd-inject: bad address %s\n", to);
		return 2;
	}
	fd = socket(ss.ss_family, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("ftd-inject: socket");
		return 1;
	}
	if (no_check && setsockopt(fd, SOL_SOCKET, SO_NO_CHECK, &no_check, sizeof(no_check))) {
		perror("ftd-inject: SO_NO_CHECK");
		return 1;
	}
	if (dstopts) {
		/* 8 bytes: next header and length (the kernel's), PadN of 4 zeros. */
		static const u8 opts[8] = { 0, 0, 1, 4, 0, 0, 0, 0 };

		if (ss.ss_family != AF_INET6 ||
		    setsockopt(fd, IPPROTO_IPV6, IPV6_DSTOPTS, opts, sizeof(opts))) {
			perror("ftd-inject: IPV6_DSTOPTS (needs an IPv6 target)");
			return 1;
		}
	}
	for (i = 0; i < count; i++) {
		len = craft(kind, buf, sizeof(buf), &f, key);
		if (!len) {
			fprintf(stderr, "ftd-inject: unknown kind %s\n", kind);
			return 2;
		}
		if (sendto(fd, buf, len, 0, (struct sockaddr *)&ss, sslen) != (ssize_t)len) {
			perror("ftd-inject: sendto");
			return 1;
		}
		f.seq++;
	}
	close(fd);
	return 0;
}
