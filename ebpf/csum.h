/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Internet checksum arithmetic for the XDP program, in plain C so that the
 * very code the program runs is unit-tested on the host
 * (selftests/unit/test_csum.c).
 *
 * Values are taken in the byte order they have in the packet, loaded as
 * native integers: one's complement addition commutes with byte swapping
 * (RFC 1071, 2.(B)), so no conversion is needed as long as the checksum
 * field and the data are read the same way. The 64-bit field must start at
 * an even offset from the start of the UDP header (rx_ns and tx_ns do:
 * 8 + 40 and 8 + 32), so that its 16-bit words are words of the checksum.
 */
#ifndef FTD_EBPF_CSUM_H
#define FTD_EBPF_CSUM_H

#include <linux/types.h>

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/* A 32-bit one's complement sum folded to 16 bits (end-around carry). */
static __always_inline __u16 ftd_csum_fold(__u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)sum;
}

/*
 * The checksum after a 64-bit field of the covered data changed from `from`
 * to `to`: RFC 1624, eqn. 3, HC' = ~(~HC + ~m + m'), one 16-bit word at a
 * time. Nine 16-bit terms cannot overflow 32 bits.
 */
static __always_inline __u16 ftd_csum_replace64(__u16 check, __u64 from, __u64 to)
{
	__u32 sum = (__u16)~check;
	int i;

	for (i = 0; i < 64; i += 16) {
		sum += (__u16)~(from >> i);
		sum += (__u16)(to >> i);
	}
	return (__u16)~ftd_csum_fold(sum);
}

/*
 * The UDP checksum field after a 64-bit field of the datagram changed. Over
 * IPv4 a zero checksum means "no checksum" and must stay zero; a checksum
 * that computes to zero is sent as 0xffff (RFC 768), its other one's
 * complement form. The sum over the whole datagram is unchanged by the
 * update, so a receive-side CHECKSUM_COMPLETE value stays right too.
 */
static __always_inline __u16 ftd_udp_csum_replace64(__u16 check, __u64 from, __u64 to,
						    int ipv4)
{
	__u16 c;

	if (ipv4 && !check)
		return 0;
	c = ftd_csum_replace64(check, from, to);
	return c ? c : 0xffff;
}

#endif /* FTD_EBPF_CSUM_H */
