// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the protocol core (kmod/proto/), compiled from the very
 * files the module builds: SipHash against the reference vectors, the frame
 * codec, the suspicion state machine and the inter-arrival statistics.
 */
#include "harness.h"
#include "proto/siphash.h"
#include "proto/wire.h"
#include "proto/keyring.h"
#include "proto/detect.h"
#include "proto/iat.h"
#include "proto/delay.h"

static const u8 ref_key[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static u64 siphash_oneshot(const u8 *data, size_t len)
{
	struct ftd_siphash s;

	ftd_siphash_init(&s, ref_key);
	ftd_siphash_update(&s, data, len);
	return ftd_siphash_final(&s);
}

/* From the SipHash paper's reference implementation (vectors.h), as u64. */
TEST(siphash_reference_vectors)
{
	u8 msg[64];
	unsigned int i;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = i;
	EXPECT_EQ(0x726fdb47dd0e0e31ULL, siphash_oneshot(msg, 0));
	EXPECT_EQ(0x74f839c593dc67fdULL, siphash_oneshot(msg, 1));
	EXPECT_EQ(0x93f5f5799a932462ULL, siphash_oneshot(msg, 8));
	EXPECT_EQ(0xa129ca6149be45e5ULL, siphash_oneshot(msg, 15));
	EXPECT_EQ(0x958a324ceb064572ULL, siphash_oneshot(msg, 63));
}

TEST(siphash_streaming_equals_oneshot)
{
	u8 msg[100];
	unsigned int i, cut;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = i * 7 + 3;
	for (cut = 0; cut <= sizeof(msg); cut++) {
		struct ftd_siphash s;

		ftd_siphash_init(&s, ref_key);
		ftd_siphash_update(&s, msg, cut);
		ftd_siphash_update(&s, msg + cut, sizeof(msg) - cut);
		ASSERT_EQ(siphash_oneshot(msg, sizeof(msg)), ftd_siphash_final(&s));
	}
}

static struct ftd_frame sample_frame(void)
{
	return (struct ftd_frame){
		.type = FTD_FRAME_HEARTBEAT, .rail = 1, .cluster = 42, .sender = 7,
		.incarnation = 1234567, .seq = 0x0102030405060708ULL, .tx_ns = 99,
		.receiver = 3,
	};
}

TEST(wire_round_trip)
{
	struct ftd_frame in = sample_frame(), out;
	u8 buf[FTD_MAX_FRAME];
	size_t len = ftd_wire_encode(buf, sizeof(buf), &in, NULL, 0, ref_key);

	ASSERT_EQ(FTD_WIRE_HDR_LEN, len);
	ASSERT_EQ(FTD_WIRE_OK, ftd_wire_decode(buf, len, &out));
	EXPECT_EQ(in.type, out.type);
	EXPECT_EQ(in.rail, out.rail);
	EXPECT_EQ(in.cluster, out.cluster);
	EXPECT_EQ(in.sender, out.sender);
	EXPECT_EQ(in.incarnation, out.incarnation);
	EXPECT_EQ(in.seq, out.seq);
	EXPECT_EQ(in.tx_ns, out.tx_ns);
	EXPECT_EQ(in.receiver, out.receiver);
	EXPECT_EQ(0, out.rx_ns);
	EXPECT_EQ(len, out.length);
	EXPECT_TRUE(ftd_wire_mac_ok(buf, len, ref_key));
}

/*
 * A key id is the uapi's definition: SipHash-2-4 of FTD_KEY_ID_INPUT. The
 * expected values come from an independent SipHash implementation.
 */
TEST(key_id_matches_its_definition)
{
	static const u8 zero[FTD_KEY_LEN];

	EXPECT_EQ(0x9b8f94160d9622afULL, ftd_key_id(ref_key));
	EXPECT_EQ(0x6caa1397dd5f64d0ULL, ftd_key_id(zero));
}

/* Frames under any key of the ring verify, under the primary first. */
TEST(keyring_accepts_its_keys_only)
{
	u8 keys[3][FTD_KEY_LEN], buf[3][FTD_MAX_FRAME];
	struct ftd_frame f = sample_frame();
	struct ftd_keyring r;
	size_t len[3];

	for (int i = 0; i < 3; i++) {
		memset(keys[i], 0x11 * (i + 1), FTD_KEY_LEN);
		len[i] = ftd_wire_encode(buf[i], sizeof(buf[i]), &f, NULL, 0, keys[i]);
	}
	/* Primary keys[0], accepting keys[1] (given twice, and the primary again). */
	u8 accepted[3 * FTD_KEY_LEN];

	memcpy(accepted, keys[1], FTD_KEY_LEN);
	memcpy(accepted + FTD_KEY_LEN, keys[0], FTD_KEY_LEN);
	memcpy(accepted + 2 * FTD_KEY_LEN, keys[1], FTD_KEY_LEN);
	ftd_keyring_init(&r, keys[0], accepted, 3);
	ASSERT_EQ(2, r.n);
	EXPECT_EQ(ftd_key_id(keys[0]), r.id[0]);
	EXPECT_EQ(ftd_key_id(keys[1]), r.id[1]);
	EXPECT_EQ(0, ftd_keyring_verify(&r, buf[0], len[0]));
	EXPECT_EQ(1, ftd_keyring_verify(&r, buf[1], len[1]));
	EXPECT_EQ(-1, ftd_keyring_verify(&r, buf[2], len[2]));
	/* One flipped bit under an accepted key: refused like any forgery. */
	buf[1][20] ^= 1;
	EXPECT_EQ(-1, ftd_keyring_verify(&r, buf[1], len[1]));

	/* The most accepted keys there can be; more are not held. */
	u8 many[(FTD_KEYS_ACCEPTED_MAX + 1) * FTD_KEY_LEN];

	for (int i = 0; i <= FTD_KEYS_ACCEPTED_MAX; i++)
		memset(many + i * FTD_KEY_LEN, 0x21 + i, FTD_KEY_LEN);
	ftd_keyring_init(&r, keys[0], many, FTD_KEYS_ACCEPTED_MAX + 1);
	EXPECT_EQ(FTD_KEYRING_MAX, r.n);
}

/* The byte layout is the uapi contract: check it field by field. */
TEST(wire_layout_matches_the_uapi_header)
{
	struct ftd_frame in = sample_frame();
	u8 buf[FTD_MAX_FRAME];

	ASSERT_EQ(sizeof(struct ftd_wire_hdr), FTD_WIRE_HDR_LEN);
	ftd_wire_encode(buf, sizeof(buf), &in, NULL, 0, ref_key);
	EXPECT_EQ(FTD_WIRE_MAGIC, ftd_get_be32(buf));
	EXPECT_EQ(FTD_WIRE_VERSION, buf[4]);
	EXPECT_EQ(FTD_FRAME_HEARTBEAT, buf[5]);
	EXPECT_EQ(1, buf[6]);
	EXPECT_EQ(FTD_WIRE_HDR_LEN, ftd_get_be16(buf + 8));
	EXPECT_EQ(42, ftd_get_be32(buf + 12));
	EXPECT_EQ(7, ftd_get_be32(buf + 16));
	EXPECT_EQ(1234567, ftd_get_be32(buf + 20));
	EXPECT_EQ(0x0102030405060708ULL, ftd_get_be64(buf + 24));
	EXPECT_EQ(99, ftd_get_be64(buf + FTD_WIRE_TX_OFF));
	EXPECT_EQ(3, ftd_get_be32(buf + 56));
	EXPECT_EQ(0, ftd_get_be32(buf + 60));
}

TEST(timestamp_slots_are_outside_the_mac)
{
	struct ftd_frame in = sample_frame();
	u8 buf[FTD_MAX_FRAME];
	size_t len = ftd_wire_encode(buf, sizeof(buf), &in, NULL, 0, ref_key);

	ftd_put_be64(buf + FTD_WIRE_TX_OFF, 12345);	/* TC egress restamps */
	ftd_put_be64(buf + FTD_WIRE_RX_OFF, 67890);	/* XDP stamps */
	EXPECT_TRUE(ftd_wire_mac_ok(buf, len, ref_key));
}

TEST(every_covered_byte_is_authenticated)
{
	struct ftd_frame in = sample_frame();
	u8 buf[FTD_MAX_FRAME], key2[16];
	size_t len = ftd_wire_encode(buf, sizeof(buf), &in, NULL, 0, ref_key);
	unsigned int i;

	for (i = 0; i < len; i++) {
		if (i >= FTD_WIRE_TX_OFF && i < FTD_WIRE_MAC_OFF + 8)
			continue;	/* the timestamp slots, and the MAC itself */
		buf[i] ^= 0x10;
		EXPECT_FALSE(ftd_wire_mac_ok(buf, len, ref_key)) TH_LOG("byte %u", i);
		buf[i] ^= 0x10;
	}
	memcpy(key2, ref_key, 16);
	key2[15] ^= 1;
	EXPECT_FALSE(ftd_wire_mac_ok(buf, len, key2));
}

/* A share of a spanning broadcast: the flag and its arc's end travel, under the MAC. */
TEST(share_round_trip)
{
	struct ftd_frame in = sample_frame(), out;
	u8 buf[FTD_MAX_FRAME], notice[FTD_WIRE_NOTICE_LEN];
	struct ftd_notice n = { .kind = FTD_NOTICE_DEAD, .subject = 9, .subject_incarnation = 2,
				.origin = 7 };
	size_t len;

	ftd_notice_encode(notice, &n);
	in.type = FTD_FRAME_NOTICE;
	in.flags = FTD_WIRE_F_SHARE;
	in.span_end = 77;
	len = ftd_wire_encode(buf, sizeof(buf), &in, notice, sizeof(notice), ref_key);
	ASSERT_EQ(FTD_WIRE_OK, ftd_wire_decode(buf, len, &out));
	EXPECT_EQ(FTD_WIRE_F_SHARE, out.flags);
	EXPECT_EQ(77, out.span_end);
	EXPECT_EQ(1, ftd_notices_check(out.payload, out.payload_len, true));
	EXPECT_TRUE(ftd_wire_mac_ok(buf, len, ref_key));
	buf[62] ^= 1;	/* another arc: the MAC says no */
	EXPECT_FALSE(ftd_wire_mac_ok(buf, len, ref_key));
	/* Not a share: span_end goes out as zero whatever the caller left in it. */
	in.flags = 0;
	len = ftd_wire_encode(buf, sizeof(buf), &in, notice, sizeof(notice), ref_key);
	ASSERT_EQ(FTD_WIRE_OK, ftd_wire_decode(buf, len, &out));
	EXPECT_EQ(0, out.span_end);
}

TEST(malformed_frames_are_classified)
{
	struct ftd_frame in = sample_frame(), out;
	u8 buf[FTD_MAX_FRAME], bad[FTD_MAX_FRAME];
	size_t len = ftd_wire_encode(buf, sizeof(buf), &in, NULL, 0, ref_key);

	EXPECT_EQ(FTD_WIRE_SHORT, ftd_wire_decode(buf, FTD_WIRE_HDR_LEN - 1, &out));
	EXPECT_EQ(FTD_WIRE_SHORT, ftd_wire_decode(buf, 0, &out));

	memcpy(bad, buf, len); bad[0] = 0;
	EXPECT_EQ(FTD_WIRE_BAD_MAGIC, ftd_wire_decode(bad, len, &out));
	memcpy(bad, buf, len); bad[4] = FTD_WIRE_VERSION + 1;
	EXPECT_EQ(FTD_WIRE_BAD_VERSION, ftd_wire_decode(bad, len, &out));
	memcpy(bad, buf, len); bad[4] = FTD_WIRE_VERSION - 1;	/* before freshness */
	EXPECT_EQ(FTD_WIRE_BAD_VERSION, ftd_wire_decode(bad, len, &out));
	memcpy(bad, buf, len); bad[63] = 1;	/* span_end, without the share flag */
	EXPECT_EQ(FTD_WIRE_BAD_LENGTH, ftd_wire_decode(bad, len, &out));
	memcpy(bad, buf, len); ftd_put_be16(bad + 8, len + 1);
	EXPECT_EQ(FTD_WIRE_BAD_LENGTH, ftd_wire_decode(bad, len, &out));
	memcpy(bad, buf, len); ftd_put_be16(bad + 10, 1);
	EXPECT_EQ(FTD_WIRE_BAD_LENGTH, ftd_wire_decode(bad, len, &out));
	memcpy(bad, buf, len); bad[7] = 1;	/* a share, but a heartbeat */
	EXPECT_EQ(FTD_WIRE_BAD_FLAGS, ftd_wire_decode(bad, len, &out));
	memcpy(bad, buf, len); bad[7] = 2;	/* no such flag */
	EXPECT_EQ(FTD_WIRE_BAD_FLAGS, ftd_wire_decode(bad, len, &out));
	memcpy(bad, buf, len); bad[5] = 0;
	EXPECT_EQ(FTD_WIRE_BAD_TYPE, ftd_wire_decode(bad, len, &out));
	memcpy(bad, buf, len); bad[5] = __FTD_FRAME_MAX;
	EXPECT_EQ(FTD_WIRE_BAD_TYPE, ftd_wire_decode(bad, len, &out));
	/* A datagram longer than its length field says. */
	EXPECT_EQ(FTD_WIRE_BAD_LENGTH, ftd_wire_decode(buf, len + 4, &out));
}

TEST(notice_frames_carry_whole_notices_only)
{
	struct ftd_frame in = sample_frame(), out;
	u8 buf[FTD_MAX_FRAME + FTD_WIRE_NOTICE_LEN], payload[FTD_MAX_FRAME] = { 0 };
	size_t len;

	in.type = FTD_FRAME_NOTICE;
	len = ftd_wire_encode(buf, sizeof(buf), &in, payload, 3 * FTD_WIRE_NOTICE_LEN, ref_key);
	ASSERT_EQ(FTD_WIRE_HDR_LEN + 3 * FTD_WIRE_NOTICE_LEN, len);
	ASSERT_EQ(FTD_WIRE_OK, ftd_wire_decode(buf, len, &out));
	EXPECT_EQ(3 * FTD_WIRE_NOTICE_LEN, out.payload_len);
	/* Part of a notice is no notice. */
	len = ftd_wire_encode(buf, sizeof(buf), &in, payload, FTD_WIRE_NOTICE_LEN + 8, ref_key);
	EXPECT_EQ(FTD_WIRE_BAD_PAYLOAD, ftd_wire_decode(buf, len, &out));
	len = ftd_wire_encode(buf, sizeof(buf), &in, payload, 0, ref_key);
	EXPECT_EQ(FTD_WIRE_BAD_PAYLOAD, ftd_wire_decode(buf, len, &out));
	/* No room for one more than FTD_WIRE_NOTICES_MAX: not encoded. */
	EXPECT_EQ(0, ftd_wire_encode(buf, sizeof(buf), &in, payload,
				     (FTD_WIRE_NOTICES_MAX + 1) * FTD_WIRE_NOTICE_LEN, ref_key));
}

TEST(heartbeat_with_a_payload_is_malformed)
{
	struct ftd_frame in = sample_frame(), out;
	u8 buf[FTD_MAX_FRAME], junk[8] = { 1 };
	size_t len = ftd_wire_encode(buf, sizeof(buf), &in, junk, sizeof(junk), ref_key);

	ASSERT_EQ(FTD_WIRE_HDR_LEN + sizeof(junk), len);
	EXPECT_EQ(FTD_WIRE_BAD_PAYLOAD, ftd_wire_decode(buf, len, &out));
}

TEST(encode_refuses_a_small_buffer)
{
	struct ftd_frame in = sample_frame();
	u8 buf[FTD_WIRE_HDR_LEN];

	EXPECT_EQ(0, ftd_wire_encode(buf, sizeof(buf) - 1, &in, NULL, 0, ref_key));
	EXPECT_EQ(FTD_WIRE_HDR_LEN, ftd_wire_encode(buf, sizeof(buf), &in, NULL, 0, ref_key));
}

TEST(suspicion_state_machine)
{
	const u64 t = 50000000;

	EXPECT_EQ(FTD_NODE_UNKNOWN, ftd_detect_on_silence(FTD_NODE_UNKNOWN, 10 * t, t, false));
	EXPECT_EQ(FTD_NODE_ALIVE, ftd_detect_on_heard(FTD_NODE_UNKNOWN));
	EXPECT_EQ(FTD_NODE_ALIVE, ftd_detect_on_silence(FTD_NODE_ALIVE, t / 2 - 1, t, false));
	EXPECT_EQ(FTD_NODE_SUSPECT, ftd_detect_on_silence(FTD_NODE_ALIVE, t / 2, t, false));
	EXPECT_EQ(FTD_NODE_ALIVE, ftd_detect_on_heard(FTD_NODE_SUSPECT));
	EXPECT_EQ(FTD_NODE_SUSPECT, ftd_detect_on_silence(FTD_NODE_SUSPECT, t - 1, t, false));
	EXPECT_EQ(FTD_NODE_DEAD, ftd_detect_on_silence(FTD_NODE_SUSPECT, t, t, false));
	EXPECT_EQ(FTD_NODE_DEAD, ftd_detect_on_silence(FTD_NODE_ALIVE, t, t, false));
	/* A starved observer suspects but does not declare. */
	EXPECT_EQ(FTD_NODE_SUSPECT, ftd_detect_on_silence(FTD_NODE_ALIVE, 10 * t, t, true));
	EXPECT_EQ(FTD_NODE_SUSPECT, ftd_detect_on_silence(FTD_NODE_SUSPECT, 10 * t, t, true));
	/* Fail-stop: nothing brings a dead incarnation back. */
	EXPECT_EQ(FTD_NODE_DEAD, ftd_detect_on_heard(FTD_NODE_DEAD));
	EXPECT_EQ(FTD_NODE_DEAD, ftd_detect_on_silence(FTD_NODE_DEAD, 0, t, false));
	EXPECT_EQ(FTD_NODE_SELF, ftd_detect_on_silence(FTD_NODE_SELF, 10 * t, t, false));
	EXPECT_EQ(FTD_NODE_LEFT, ftd_detect_on_heard(FTD_NODE_LEFT));

	EXPECT_EQ(FTD_EV_NODE_DEAD, ftd_detect_event(FTD_NODE_ALIVE, FTD_NODE_DEAD));
	EXPECT_EQ(FTD_EV_NODE_SUSPECT, ftd_detect_event(FTD_NODE_ALIVE, FTD_NODE_SUSPECT));
	EXPECT_EQ(FTD_EV_NODE_ALIVE, ftd_detect_event(FTD_NODE_UNKNOWN, FTD_NODE_ALIVE));
	EXPECT_EQ(0, ftd_detect_event(FTD_NODE_ALIVE, FTD_NODE_ALIVE));
}

/*
 * A silence that ran out is evidence once someone was heard after it did
 * (arrival stamps): not from a frame that arrived before the deadline,
 * however late it was handled, nor when nobody was ever heard.
 */
TEST(a_silence_is_proven_by_a_frame_after_its_deadline)
{
	const u64 ms = 1000000, since = 1000 * ms, d = 50 * ms;

	EXPECT_FALSE(ftd_detect_silence_proven(0, since, d));
	EXPECT_FALSE(ftd_detect_silence_proven(since + d - 1, since, d));
	EXPECT_TRUE(ftd_detect_silence_proven(since + d, since, d));
	EXPECT_TRUE(ftd_detect_silence_proven(since + d + 3 * ms, since, d));
}

/* An observed node silent for two periods hears from its observer. */
/*
 * A suspect is asked on the ticks: at 10 ms / 50 ms every tick of the
 * second half of the timeout (twice before it is declared), not every
 * 12.5 ms, which the ticks rounded up to 20 ms (once).
 */
/*
 * Shortening the timing of a running instance: silence from before the
 * change does not count, under the new timeout, nor does a longer one.
 */
TEST(silence_from_before_a_shorter_timing_does_not_count)
{
	const u64 s = 1000000000ULL;

	EXPECT_TRUE(ftd_detect_timing_shortened(2 * s, 10 * s, s / 20, s));
	EXPECT_TRUE(ftd_detect_timing_shortened(s, 10 * s, s, 5 * s));	/* the timeout alone */
	EXPECT_TRUE(ftd_detect_timing_shortened(s, 10 * s, s / 2, 10 * s));	/* the period alone */
	EXPECT_FALSE(ftd_detect_timing_shortened(s / 20, s, 2 * s, 10 * s));	/* longer: old gaps fit */
	EXPECT_FALSE(ftd_detect_timing_shortened(s, 5 * s, s, 5 * s));
	/* Heard at 3 s, shortened at 5 s: silent from 5 s on. */
	EXPECT_EQ(5 * s, ftd_detect_silence_from(3 * s, 5 * s));
	EXPECT_EQ(7 * s, ftd_detect_silence_from(7 * s, 5 * s));	/* heard since */
	EXPECT_EQ(3 * s, ftd_detect_silence_from(3 * s, 0));	/* never shortened */
	EXPECT_EQ(0, ftd_detect_silence_from(0, 5 * s));	/* never heard: nothing to measure */
}

TEST(a_suspect_is_asked_on_the_ticks)
{
	const u64 ms = 1000000;

	EXPECT_EQ(7500000, ftd_detect_ask_every(10 * ms, 50 * ms));
	EXPECT_EQ(7500000, ftd_detect_ask_every(10 * ms, 20 * ms));
	EXPECT_EQ(1750000, ftd_detect_ask_every(1 * ms, 10 * ms));
	EXPECT_EQ(17500000, ftd_detect_ask_every(10 * ms, 100 * ms));
	/* Ticks 10 ms apart, one a little early: still asked. */
	EXPECT_LT(ftd_detect_ask_every(10 * ms, 50 * ms), 10 * ms - 10000);
	/* The second half of the timeout holds at least two asks. */
	EXPECT_LE(2 * ftd_detect_ask_every(10 * ms, 50 * ms), 50 * ms / 2);
}

TEST(an_observer_reminds_a_silent_node_of_itself)
{
	const u64 p = 10000000;

	EXPECT_FALSE(ftd_detect_reminds(FTD_NODE_ALIVE, 2 * p - 1, p));
	EXPECT_TRUE(ftd_detect_reminds(FTD_NODE_ALIVE, 2 * p, p));
	EXPECT_TRUE(ftd_detect_reminds(FTD_NODE_SUSPECT, 30 * p, p));
	/* Not one out of the ring: it is not timed (asked by PROBEs instead). */
	EXPECT_FALSE(ftd_detect_reminds(FTD_NODE_UNKNOWN, 30 * p, p));
	EXPECT_FALSE(ftd_detect_reminds(FTD_NODE_DEAD, 30 * p, p));
	EXPECT_FALSE(ftd_detect_reminds(FTD_NODE_LEFT, 30 * p, p));
	EXPECT_FALSE(ftd_detect_reminds(FTD_NODE_SELF, 30 * p, p));
}

TEST(inter_arrival_statistics)
{
	struct ftd_iat s = {};
	u64 t = 1000000000, i;

	ftd_iat_update(&s, t);
	EXPECT_EQ(0, s.samples);
	for (i = 1; i <= 200; i++)
		ftd_iat_update(&s, t + i * 10000000);
	EXPECT_EQ(200, s.samples);
	EXPECT_EQ(10000000, s.mean_ns);
	EXPECT_EQ(0, s.jitter_ns);

	/* Alternating 9 ms / 11 ms: mean near 10 ms, jitter near 1 ms. */
	t += 200 * 10000000;
	for (i = 0; i < 400; i++) {
		t += i % 2 ? 11000000 : 9000000;
		ftd_iat_update(&s, t);
	}
	EXPECT_LT(s.mean_ns, 10200000);
	EXPECT_GT(s.mean_ns, 9800000);
	EXPECT_LT(s.jitter_ns, 1200000);
	EXPECT_GT(s.jitter_ns, 800000);

	/* A stamp from the past carries no interval. */
	i = s.samples;
	ftd_iat_update(&s, t - 5);
	EXPECT_EQ(i, s.samples);
}

TEST(delay_histogram_buckets)
{
	struct ftd_delay d = {};

	EXPECT_EQ(0, ftd_delay_bucket(0));
	EXPECT_EQ(0, ftd_delay_bucket(999));
	EXPECT_EQ(1, ftd_delay_bucket(1000));
	EXPECT_EQ(1, ftd_delay_bucket(1999));
	EXPECT_EQ(2, ftd_delay_bucket(2000));
	EXPECT_EQ(14, ftd_delay_bucket(16383999));
	EXPECT_EQ(15, ftd_delay_bucket(16384000));
	EXPECT_EQ(15, ftd_delay_bucket(~0ULL));

	ftd_delay_add(&d, 3000);
	ftd_delay_add(&d, 1000);
	ftd_delay_add(&d, 500);
	EXPECT_EQ(3, d.samples);
	EXPECT_EQ(500, d.min_ns);
	EXPECT_EQ(3000, d.max_ns);
	EXPECT_EQ(1500, ftd_delay_mean(&d));
	EXPECT_EQ(1, d.hist[0]);
	EXPECT_EQ(1, d.hist[1]);
	EXPECT_EQ(1, d.hist[2]);
}

TEST(latency_histogram_buckets)
{
	/* The same edges as the delay's, carried on to bucket 30. */
	EXPECT_EQ(0, ftd_latency_bucket(0));
	EXPECT_EQ(0, ftd_latency_bucket(999));
	EXPECT_EQ(1, ftd_latency_bucket(1000));
	EXPECT_EQ(2, ftd_latency_bucket(2000));
	EXPECT_EQ(15, ftd_latency_bucket(16384000));	/* the delay's last */
	EXPECT_EQ(16, ftd_latency_bucket(32768000));
	/* The default timeout, 50 ms: [32.768, 65.536) ms. */
	EXPECT_EQ(16, ftd_latency_bucket(50000000));
	EXPECT_EQ(17, ftd_latency_bucket(65536000));
	/* The longest timeout still has a bucket of its own. */
	EXPECT_EQ(30, ftd_latency_bucket(FTD_MAX_TIMEOUT_NS));
	EXPECT_EQ(30, ftd_latency_bucket((1ULL << 30) * 1000 - 1));
	EXPECT_EQ(31, ftd_latency_bucket((1ULL << 30) * 1000));
	EXPECT_EQ(FTD_LATENCY_BUCKETS - 1, ftd_latency_bucket(~0ULL));
}

TEST(log2_us_bucket_counts)
{
	/* One bucket: everything in it; two: below 1 us or not. */
	EXPECT_EQ(0, ftd_log2_us_bucket(~0ULL, 1));
	EXPECT_EQ(0, ftd_log2_us_bucket(999, 2));
	EXPECT_EQ(1, ftd_log2_us_bucket(1000, 2));
	EXPECT_EQ(1, ftd_log2_us_bucket(~0ULL, 2));
	/* Each lower edge 2^(b-1) us opens bucket b; a nanosecond less is b - 1. */
	for (unsigned int b = 1; b < 40; b++) {
		EXPECT_EQ(b, ftd_log2_us_bucket((1ULL << (b - 1)) * 1000, 40));
		EXPECT_EQ(b - 1, ftd_log2_us_bucket((1ULL << (b - 1)) * 1000 - 1, 40));
	}
}

TEST_HARNESS_MAIN
