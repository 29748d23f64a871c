// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the checksum arithmetic the XDP program runs (ebpf/csum.h):
 * the incremental UDP checksum update after the rx_ns stamp must give what a
 * full recomputation gives, over IPv4 and IPv6 pseudo-headers, for any
 * payload and any old and new slot contents; an IPv4 "no checksum" zero must
 * stay zero; a result of zero must be written as 0xffff.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include <linux/ftdetect.h>
#include "csum.h"

#define UDP_HDR 8

/* RFC 1071 sum of `len` bytes (odd tail padded with zero), not folded. */
static uint32_t sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

struct dgram {
	int ipv4;
	uint8_t src[16], dst[16];
	uint8_t udp[UDP_HDR + FTD_MAX_FRAME];
	size_t len;		/* UDP header + payload */
};

static uint32_t pseudo(const struct dgram *d)
{
	uint32_t s = 0;
	size_t alen = d->ipv4 ? 4 : 16;

	s = sum16(d->src, alen, s);
	s = sum16(d->dst, alen, s);
	s += 17;		/* IPPROTO_UDP */
	s += (uint32_t)d->len;	/* fits 16 bits here */
	return s;
}

/* The checksum as a sender computes it (big-endian value). */
static uint16_t full_csum(const struct dgram *d)
{
	uint8_t tmp[sizeof(d->udp)];
	uint16_t c;

	memcpy(tmp, d->udp, d->len);
	tmp[6] = tmp[7] = 0;
	c = (uint16_t)~fold(sum16(tmp, d->len, pseudo(d)));
	return c ? c : 0xffff;
}

/* A receiver's check: the sum over pseudo-header and datagram is all ones. */
static int verifies(const struct dgram *d)
{
	return fold(sum16(d->udp, d->len, pseudo(d))) == 0xffff;
}

static void random_dgram(struct dgram *d, int ipv4, size_t payload)
{
	memset(d, 0, sizeof(*d));
	d->ipv4 = ipv4;
	for (int i = 0; i < 16; i++) {
		d->src[i] = (uint8_t)random();
		d->dst[i] = (uint8_t)random();
	}
	d->len = UDP_HDR + payload;
	for (size_t i = 0; i < d->len; i++)
		d->udp[i] = (uint8_t)random();
	d->udp[4] = (uint8_t)(d->len >> 8);
	d->udp[5] = (uint8_t)d->len;
	memset(d->udp + UDP_HDR + FTD_WIRE_RX_OFF, 0, 8);	/* the sender's zero slot */
	d->udp[6] = (uint8_t)(full_csum(d) >> 8);
	d->udp[7] = (uint8_t)full_csum(d);
}

/* What ftd_xdp.bpf.c does: native loads of packet bytes, update, store. */
static void stamp(struct dgram *d, size_t off, uint64_t now)
{
	uint64_t old, new = htobe64(now);
	uint16_t check;

	memcpy(&old, d->udp + UDP_HDR + off, 8);
	memcpy(&check, d->udp + 6, 2);
	memcpy(d->udp + UDP_HDR + off, &new, 8);
	check = ftd_udp_csum_replace64(check, old, new, d->ipv4);
	memcpy(d->udp + 6, &check, 2);
}

TEST(fold_carries_around)
{
	EXPECT_EQ(0xffff, ftd_csum_fold(0xffff));
	EXPECT_EQ(0x0001, ftd_csum_fold(0x10000));
	EXPECT_EQ(0xffff, ftd_csum_fold(0x1fffe));
	EXPECT_EQ(0xfffe, ftd_csum_fold(0xfffeffff));
	EXPECT_EQ(0x0000, ftd_csum_fold(0));
}

TEST(replace_equals_recompute_random)
{
	struct dgram d;

	srandom(4242);
	for (int i = 0; i < 200000; i++) {
		int ipv4 = i & 1;
		size_t payload = FTD_WIRE_HDR_LEN + (size_t)(random() % 64) * (i % 3 == 0);
		uint64_t now = (uint64_t)random() << 33 ^ (uint64_t)random();

		random_dgram(&d, ipv4, payload);
		ASSERT_TRUE(verifies(&d));
		stamp(&d, FTD_WIRE_RX_OFF, now);
		ASSERT_TRUE(verifies(&d)) {
			TH_LOG("iteration %d: stamp %llu broke the checksum", i,
			       (unsigned long long)now);
		}
		/* A second stamp over a non-zero slot (a resent or relayed frame). */
		stamp(&d, FTD_WIRE_RX_OFF, now * 7 + 1);
		ASSERT_TRUE(verifies(&d));
		/* And the tx_ns slot, as the TC program's kernel helper does it. */
		stamp(&d, FTD_WIRE_TX_OFF, now ^ 0x5555);
		ASSERT_TRUE(verifies(&d));
	}
}

TEST(ipv4_zero_checksum_stays_zero)
{
	struct dgram d;

	random_dgram(&d, 1, FTD_WIRE_HDR_LEN);
	d.udp[6] = d.udp[7] = 0;	/* "no checksum" */
	stamp(&d, FTD_WIRE_RX_OFF, 123456789);
	EXPECT_EQ(0, d.udp[6]);
	EXPECT_EQ(0, d.udp[7]);
}

TEST(ipv6_zero_is_not_special)
{
	/* Over IPv6 a zero checksum is invalid, not "none": it is updated. */
	EXPECT_NE(0, ftd_udp_csum_replace64(0, 0, 0x0100000000000000ULL, 0));
}

TEST(result_zero_is_sent_as_all_ones)
{
	uint16_t check = 0x1234;
	uint64_t from = 0, to;

	/*
	 * A new slot value that makes the updated checksum compute to zero:
	 * ~(~c + t) == 0 when t == c. The field must then read 0xffff (RFC
	 * 768), which verifies the same, and never 0 (IPv4's "none").
	 */
	to = 0x1234;
	EXPECT_EQ(0xffff, ftd_udp_csum_replace64(check, from, to, 1));
	EXPECT_EQ(0xffff, ftd_udp_csum_replace64(check, from, to, 0));
}

TEST(unchanged_field_keeps_checksum)
{
	for (uint32_t c = 1; c < 0x10000; c += 97)
		EXPECT_EQ(c, ftd_udp_csum_replace64((uint16_t)c, 0xdeadbeefcafef00dULL,
						    0xdeadbeefcafef00dULL, 1));
}

TEST_HARNESS_MAIN
