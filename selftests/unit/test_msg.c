// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the ftdetect netlink message encoders/decoders
 * (userspace/common/msg.c) and of the extack parser (nl.c), on messages
 * built in memory: the layout ftctl sends, and replies shaped the way the
 * module builds them, including the *_PAD attributes nla_put_u64_64bit()
 * inserts on architectures without efficient unaligned access.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <string.h>

#include "harness.h"

#include <linux/ftdetect.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "common/addr.h"
#include "common/msg.h"
#include "common/nl.h"

#define FAKE_FAMILY 0x42

static struct nl_msg *new_msg(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, 0, 0, FAKE_FAMILY, 0, 0, cmd, FTDETECT_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* What the kernel's nla_put_u64_64bit() does where it pads: PAD, then u64. */
static void put_u64_padded(struct nl_msg *msg, int type, int pad, uint64_t v)
{
	nla_put(msg, pad, 0, NULL);
	nla_put_u64(msg, type, v);
}

static struct ftu_addr addr(const char *s)
{
	struct ftu_addr a;

	if (ftu_addr_parse(s, &a))
		abort();
	return a;
}

/* The attributes of the message's genl payload, for layout checks. */
static struct nlattr *payload(struct nl_msg *msg, int *len)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	*len = genlmsg_attrlen(genlmsg_hdr(nlh), 0);
	return genlmsg_attrdata(genlmsg_hdr(nlh), 0);
}

TEST(config_round_trip)
{
	struct ftu_config in = {
		.present = FTU_BIT(FTDETECT_A_CLUSTER_ID) | FTU_BIT(FTDETECT_A_LOCAL_NODE) |
			   FTU_BIT(FTDETECT_A_PORT) | FTU_BIT(FTDETECT_A_PERIOD_NS) |
			   FTU_BIT(FTDETECT_A_TIMEOUT_NS) | FTU_BIT(FTDETECT_A_KEY) |
			   FTU_BIT(FTDETECT_A_UP),
		.cluster = 42, .node = 7, .port = 7061,
		.period_ns = 1500000, .timeout_ns = 1ULL << 40,
		.key = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
		.up = true,
	}, out;
	struct nl_msg *msg = new_msg(FTDETECT_CMD_SET_CONFIG);

	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, ftu_msg_put_config(msg, &in));
	ASSERT_EQ(0, ftu_msg_parse_config(msg, &out));
	EXPECT_EQ(in.present, out.present);
	EXPECT_EQ(42, out.cluster);
	EXPECT_EQ(7, out.node);
	EXPECT_EQ(7061, out.port);
	EXPECT_EQ(1500000, out.period_ns);
	EXPECT_EQ(1ULL << 40, out.timeout_ns);
	EXPECT_EQ(0, memcmp(in.key, out.key, FTD_KEY_LEN));
	EXPECT_TRUE(out.up);
	EXPECT_EQ(FTDETECT_CMD_SET_CONFIG, ftu_msg_cmd(msg));
	nlmsg_free(msg);
}

TEST(config_only_what_is_present)
{
	struct ftu_config in = { .present = FTU_BIT(FTDETECT_A_UP), .up = true };
	struct nl_msg *msg = new_msg(FTDETECT_CMD_SET_CONFIG);
	struct nlattr *a;
	int len;

	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, ftu_msg_put_config(msg, &in));
	a = payload(msg, &len);
	ASSERT_TRUE(nla_ok(a, len));
	EXPECT_EQ(FTDETECT_A_UP, nla_type(a));
	EXPECT_EQ(1, nla_len(a));
	EXPECT_EQ(1, nla_get_u8(a));
	a = nla_next(a, &len);
	EXPECT_FALSE(nla_ok(a, len));
	nlmsg_free(msg);
}

TEST(config_reply_like_the_module)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_CONFIG);
	struct ftu_config out;

	ASSERT_NE(NULL, msg);
	nla_put_u32(msg, FTDETECT_A_CLUSTER_ID, 0);
	nla_put_u32(msg, FTDETECT_A_LOCAL_NODE, FTD_NODE_NONE);
	nla_put_u16(msg, FTDETECT_A_PORT, FTD_DEFAULT_PORT);
	put_u64_padded(msg, FTDETECT_A_PERIOD_NS, FTDETECT_A_PAD, FTD_DEFAULT_PERIOD_NS);
	put_u64_padded(msg, FTDETECT_A_TIMEOUT_NS, FTDETECT_A_PAD, FTD_DEFAULT_TIMEOUT_NS);
	nla_put_u8(msg, FTDETECT_A_UP, 0);
	nla_put_u32(msg, FTDETECT_A_INCARNATION, 0);
	ASSERT_EQ(0, ftu_msg_parse_config(msg, &out));
	EXPECT_TRUE(FTU_HAS(&out, FTDETECT_A_LOCAL_NODE));
	EXPECT_FALSE(FTU_HAS(&out, FTDETECT_A_KEY));
	EXPECT_FALSE(FTU_HAS(&out, FTDETECT_A_PAD));
	EXPECT_EQ(FTD_NODE_NONE, out.node);
	EXPECT_EQ(FTD_DEFAULT_PERIOD_NS, out.period_ns);
	EXPECT_EQ(FTD_DEFAULT_TIMEOUT_NS, out.timeout_ns);
	EXPECT_FALSE(out.up);
	nlmsg_free(msg);
}

TEST(config_wrong_size_is_refused)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_CONFIG);
	struct ftu_config out;

	ASSERT_NE(NULL, msg);
	nla_put_u32(msg, FTDETECT_A_PERIOD_NS, 10);	/* a u64 attribute */
	EXPECT_EQ(-EPROTO, ftu_msg_parse_config(msg, &out));
	nlmsg_free(msg);
}

TEST(add_node_layout)
{
	struct ftu_addr addrs[] = { addr("192.0.2.1"), addr("2001:db8::1") };
	struct nl_msg *msg = new_msg(FTDETECT_CMD_ADD_NODE);
	struct nlattr *a, *node_attr, *addrs_attr, *entry, *inner;
	int len, rem, rem2, n = 0;
	uint8_t v6[16];

	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, ftu_msg_put_node(msg, 12, addrs, 2));

	/* Top level: exactly one FTDETECT_A_NODE nest, flagged as nested
	 * (the module validates strictly and requires NLA_F_NESTED). */
	a = payload(msg, &len);
	ASSERT_TRUE(nla_ok(a, len));
	node_attr = a;
	EXPECT_EQ(FTDETECT_A_NODE, nla_type(node_attr));
	EXPECT_TRUE(node_attr->nla_type & NLA_F_NESTED);
	EXPECT_FALSE(nla_ok(nla_next(a, &len), len));

	/* In it: NODE_ID u32, then NODE_ADDRS nest. */
	a = nla_data(node_attr);
	rem = nla_len(node_attr);
	ASSERT_TRUE(nla_ok(a, rem));
	EXPECT_EQ(FTDETECT_A_NODE_ID, nla_type(a));
	EXPECT_EQ(4, nla_len(a));
	EXPECT_EQ(12, nla_get_u32(a));
	a = nla_next(a, &rem);
	ASSERT_TRUE(nla_ok(a, rem));
	addrs_attr = a;
	EXPECT_EQ(FTDETECT_A_NODE_ADDRS, nla_type(addrs_attr));
	EXPECT_TRUE(addrs_attr->nla_type & NLA_F_NESTED);
	EXPECT_FALSE(nla_ok(nla_next(a, &rem), rem));

	/* One FTDETECT_A_ADDR nest per rail, in order, each with one address. */
	nla_for_each_nested(entry, addrs_attr, rem) {
		EXPECT_EQ(FTDETECT_A_ADDR, nla_type(entry));
		EXPECT_TRUE(entry->nla_type & NLA_F_NESTED);
		inner = nla_data(entry);
		rem2 = nla_len(entry);
		ASSERT_TRUE(nla_ok(inner, rem2));
		if (n == 0) {
			EXPECT_EQ(FTDETECT_A_ADDR_INET, nla_type(inner));
			ASSERT_EQ(4, nla_len(inner));
			/* __be32: network byte order on the wire. */
			EXPECT_EQ(0, memcmp("\xc0\x00\x02\x01", nla_data(inner), 4));
		} else {
			EXPECT_EQ(FTDETECT_A_ADDR_INET6, nla_type(inner));
			ASSERT_EQ(16, nla_len(inner));
			inet_pton(AF_INET6, "2001:db8::1", v6);
			EXPECT_EQ(0, memcmp(v6, nla_data(inner), 16));
		}
		EXPECT_FALSE(nla_ok(nla_next(inner, &rem2), rem2));
		n++;
	}
	EXPECT_EQ(2, n);
	nlmsg_free(msg);
}

TEST(add_node_round_trip)
{
	struct ftu_addr addrs[FTD_MAX_RAILS] = {
		addr("192.0.2.1"), addr("198.51.100.1"), addr("2001:db8::1"), addr("203.0.113.1"),
	};
	struct nl_msg *msg = new_msg(FTDETECT_CMD_ADD_NODE);
	struct ftu_node n;

	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, ftu_msg_put_node(msg, 4294967294U, addrs, FTD_MAX_RAILS));
	ASSERT_EQ(0, ftu_msg_parse_node(msg, &n));
	EXPECT_EQ(4294967294U, n.id);
	ASSERT_EQ(FTD_MAX_RAILS, n.nr_rails);
	for (int i = 0; i < FTD_MAX_RAILS; i++)
		EXPECT_EQ(0, ftu_addr_cmp(&addrs[i], &n.rails[i].addr));
	EXPECT_FALSE(FTU_HAS(&n, FTDETECT_A_NODE_STATE));
	EXPECT_FALSE(FTU_HAS(&n.rails[0], FTDETECT_A_ADDR_RX));
	nlmsg_free(msg);
}

TEST(add_node_without_address)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_ADD_NODE);
	struct ftu_node n;

	/* Encoded as asked (an empty ADDRS): refusing it is the module's job. */
	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, ftu_msg_put_node(msg, 1, NULL, 0));
	ASSERT_EQ(0, ftu_msg_parse_node(msg, &n));
	EXPECT_TRUE(FTU_HAS(&n, FTDETECT_A_NODE_ADDRS));
	EXPECT_EQ(0, n.nr_rails);
	nlmsg_free(msg);
}

TEST(add_node_bad_family)
{
	struct ftu_addr bad = { .family = AF_UNIX };
	struct nl_msg *msg = new_msg(FTDETECT_CMD_ADD_NODE);

	ASSERT_NE(NULL, msg);
	EXPECT_EQ(-EINVAL, ftu_msg_put_node(msg, 1, &bad, 1));
	nlmsg_free(msg);
}

TEST(del_node_layout)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_DEL_NODE);
	struct nlattr *a, *in;
	int len, rem;

	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, ftu_msg_put_node_id(msg, 9));
	a = payload(msg, &len);
	ASSERT_TRUE(nla_ok(a, len));
	EXPECT_EQ(FTDETECT_A_NODE, nla_type(a));
	EXPECT_TRUE(a->nla_type & NLA_F_NESTED);
	in = nla_data(a);
	rem = nla_len(a);
	ASSERT_TRUE(nla_ok(in, rem));
	EXPECT_EQ(FTDETECT_A_NODE_ID, nla_type(in));
	EXPECT_EQ(9, nla_get_u32(in));
	EXPECT_FALSE(nla_ok(nla_next(in, &rem), rem));
	nlmsg_free(msg);
}

/* A GET_NODE dump entry as the module builds it; pad: with PAD attributes. */
static struct nl_msg *node_reply(bool pad)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_NODE);
	struct nlattr *node, *addrs, *r;
	uint8_t v6[16];

	node = nla_nest_start(msg, FTDETECT_A_NODE | NLA_F_NESTED);
	nla_put_u32(msg, FTDETECT_A_NODE_ID, 3);
	addrs = nla_nest_start(msg, FTDETECT_A_NODE_ADDRS | NLA_F_NESTED);

	r = nla_nest_start(msg, FTDETECT_A_ADDR | NLA_F_NESTED);
	nla_put(msg, FTDETECT_A_ADDR_INET, 4, "\xc0\x00\x02\x03");
	if (pad) {
		put_u64_padded(msg, FTDETECT_A_ADDR_RX, FTDETECT_A_ADDR_PAD, 1000);
		put_u64_padded(msg, FTDETECT_A_ADDR_LOST, FTDETECT_A_ADDR_PAD, 2);
		put_u64_padded(msg, FTDETECT_A_ADDR_AGE_NS, FTDETECT_A_ADDR_PAD, 4000000);
	} else {
		nla_put_u64(msg, FTDETECT_A_ADDR_RX, 1000);
		nla_put_u64(msg, FTDETECT_A_ADDR_LOST, 2);
		nla_put_u64(msg, FTDETECT_A_ADDR_AGE_NS, 4000000);
	}
	nla_nest_end(msg, r);

	r = nla_nest_start(msg, FTDETECT_A_ADDR | NLA_F_NESTED);
	inet_pton(AF_INET6, "2001:db8::3", v6);
	nla_put(msg, FTDETECT_A_ADDR_INET6, 16, v6);
	nla_put_u64(msg, FTDETECT_A_ADDR_RX, 0);
	nla_put_u64(msg, FTDETECT_A_ADDR_LOST, 0);
	/* never heard on this rail: no AGE */
	nla_nest_end(msg, r);
	nla_nest_end(msg, addrs);

	nla_put_u8(msg, FTDETECT_A_NODE_STATE, FTD_NODE_ALIVE);
	nla_put_u32(msg, FTDETECT_A_NODE_INCARNATION, 1763780000);
	if (pad) {
		put_u64_padded(msg, FTDETECT_A_NODE_AGE_NS, FTDETECT_A_NODE_PAD, 4000000);
		put_u64_padded(msg, FTDETECT_A_NODE_RX, FTDETECT_A_NODE_PAD, 1000);
		put_u64_padded(msg, FTDETECT_A_NODE_LOST, FTDETECT_A_NODE_PAD, 2);
		put_u64_padded(msg, FTDETECT_A_NODE_IAT_MEAN_NS, FTDETECT_A_NODE_PAD, 10001234);
		put_u64_padded(msg, FTDETECT_A_NODE_IAT_JITTER_NS, FTDETECT_A_NODE_PAD, 12345);
		put_u64_padded(msg, FTDETECT_A_NODE_TX, FTDETECT_A_NODE_PAD, 999);
		put_u64_padded(msg, FTDETECT_A_NODE_IAT_MAX_NS, FTDETECT_A_NODE_PAD, 31000000);
	} else {
		nla_put_u64(msg, FTDETECT_A_NODE_AGE_NS, 4000000);
		nla_put_u64(msg, FTDETECT_A_NODE_RX, 1000);
		nla_put_u64(msg, FTDETECT_A_NODE_LOST, 2);
		nla_put_u64(msg, FTDETECT_A_NODE_IAT_MEAN_NS, 10001234);
		nla_put_u64(msg, FTDETECT_A_NODE_IAT_JITTER_NS, 12345);
		nla_put_u64(msg, FTDETECT_A_NODE_TX, 999);
		nla_put_u64(msg, FTDETECT_A_NODE_IAT_MAX_NS, 31000000);
	}
	/* An attribute from a newer module: ignored, not an error. */
	nla_put_u32(msg, FTDETECT_A_NODE_MAX + 5, 1);
	nla_nest_end(msg, node);
	return msg;
}

static void check_node_reply(struct __test_metadata *_metadata, bool pad)
{
	struct nl_msg *msg = node_reply(pad);
	struct ftu_addr a = addr("192.0.2.3"), b = addr("2001:db8::3");
	struct ftu_node n;

	ASSERT_EQ(0, ftu_msg_parse_node(msg, &n));
	EXPECT_EQ(3, n.id);
	ASSERT_EQ(2, n.nr_rails);
	EXPECT_EQ(0, ftu_addr_cmp(&a, &n.rails[0].addr));
	EXPECT_EQ(0, ftu_addr_cmp(&b, &n.rails[1].addr));
	EXPECT_EQ(1000, n.rails[0].rx);
	EXPECT_EQ(2, n.rails[0].lost);
	EXPECT_TRUE(FTU_HAS(&n.rails[0], FTDETECT_A_ADDR_AGE_NS));
	EXPECT_EQ(4000000, n.rails[0].age_ns);
	EXPECT_FALSE(FTU_HAS(&n.rails[1], FTDETECT_A_ADDR_AGE_NS));
	EXPECT_TRUE(FTU_HAS(&n.rails[1], FTDETECT_A_ADDR_RX));
	EXPECT_EQ(FTD_NODE_ALIVE, n.state);
	EXPECT_EQ(1763780000, n.incarnation);
	EXPECT_EQ(4000000, n.age_ns);
	EXPECT_EQ(1000, n.rx);
	EXPECT_EQ(2, n.lost);
	EXPECT_EQ(10001234, n.iat_mean_ns);
	EXPECT_EQ(12345, n.iat_jitter_ns);
	EXPECT_EQ(999, n.tx);
	EXPECT_EQ(31000000, n.iat_max_ns);
	EXPECT_FALSE(FTU_HAS(&n, FTDETECT_A_NODE_PAD));
	nlmsg_free(msg);
}

TEST(node_reply_unpadded)
{
	check_node_reply(_metadata, false);
}

TEST(node_reply_with_pad_attributes)
{
	check_node_reply(_metadata, true);
}

/* A node nest holding `fill`'s attributes, for the malformed cases. */
static struct nl_msg *node_with(void (*fill)(struct nl_msg *msg))
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_NODE);
	struct nlattr *node = nla_nest_start(msg, FTDETECT_A_NODE | NLA_F_NESTED);

	fill(msg);
	nla_nest_end(msg, node);
	return msg;
}

static void no_id(struct nl_msg *msg)
{
	nla_put_u8(msg, FTDETECT_A_NODE_STATE, FTD_NODE_ALIVE);
}

static void rail(struct nl_msg *msg, bool v4, bool v6, int v6len)
{
	struct nlattr *r = nla_nest_start(msg, FTDETECT_A_ADDR | NLA_F_NESTED);

	if (v4)
		nla_put(msg, FTDETECT_A_ADDR_INET, 4, "\xc0\x00\x02\x01");
	if (v6)
		nla_put(msg, FTDETECT_A_ADDR_INET6, v6len, "0123456789abcdef");
	nla_nest_end_keep_empty(msg, r);
}

static void rails(struct nl_msg *msg, int count, bool v4, bool v6, int v6len)
{
	struct nlattr *addrs;

	nla_put_u32(msg, FTDETECT_A_NODE_ID, 1);
	addrs = nla_nest_start(msg, FTDETECT_A_NODE_ADDRS | NLA_F_NESTED);
	for (int i = 0; i < count; i++)
		rail(msg, v4, v6, v6len);
	nla_nest_end(msg, addrs);
}

static void both_families(struct nl_msg *msg) { rails(msg, 1, true, true, 16); }
static void no_family(struct nl_msg *msg) { rails(msg, 1, false, false, 16); }
static void short_inet6(struct nl_msg *msg) { rails(msg, 1, false, true, 15); }
static void five_rails(struct nl_msg *msg) { rails(msg, 5, true, false, 0); }
static void four_rails(struct nl_msg *msg) { rails(msg, 4, true, false, 0); }

static void short_u64(struct nl_msg *msg)
{
	nla_put_u32(msg, FTDETECT_A_NODE_ID, 1);
	nla_put_u32(msg, FTDETECT_A_NODE_RX, 1);
}

/*
 * Each scalar of FTDETECT_NODE_SCALARS and FTDETECT_ADDR_SCALARS, at its
 * own type and a value of its own, is decoded.
 */
static void put_scalar(struct nl_msg *msg, int type, int bits, int pad)
{
	if (bits == 8)
		nla_put_u8(msg, type, (uint8_t)(100 + type));
	else if (bits == 32)
		nla_put_u32(msg, type, 100000u + (uint32_t)type);
	else
		put_u64_padded(msg, type, pad, UINT64_C(1) << 40 | (uint64_t)type);
}

#define SCALAR_VALUE(bits, type) \
	((bits) == 8 ? 100 + (uint64_t)(type) : \
	 (bits) == 32 ? 100000u + (uint64_t)(type) : UINT64_C(1) << 40 | (uint64_t)(type))

#define SCALAR_BITS_u8	8
#define SCALAR_BITS_u32	32
#define SCALAR_BITS_u64	64

TEST(node_reply_every_scalar_of_node_and_rail)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_NODE);
	struct nlattr *nest = nla_nest_start(msg, FTDETECT_A_NODE | NLA_F_NESTED);
	struct nlattr *addrs, *rail;
	struct ftu_node n;

	nla_put_u32(msg, FTDETECT_A_NODE_ID, 5);
	addrs = nla_nest_start(msg, FTDETECT_A_NODE_ADDRS | NLA_F_NESTED);
	rail = nla_nest_start(msg, FTDETECT_A_ADDR | NLA_F_NESTED);
	nla_put(msg, FTDETECT_A_ADDR_INET, 4, "\xc0\x00\x02\x05");
#define PUT(attr, name, type) \
	put_scalar(msg, FTDETECT_A_ADDR_##attr, SCALAR_BITS_##type, FTDETECT_A_ADDR_PAD);
	FTDETECT_ADDR_SCALARS(PUT)
#undef PUT
	nla_nest_end(msg, rail);
	nla_nest_end(msg, addrs);
#define PUT(attr, name, type) \
	put_scalar(msg, FTDETECT_A_NODE_##attr, SCALAR_BITS_##type, FTDETECT_A_NODE_PAD);
	FTDETECT_NODE_SCALARS(PUT)
#undef PUT
	nla_nest_end(msg, nest);

	ASSERT_EQ(0, ftu_msg_parse_node(msg, &n));
	EXPECT_EQ(5, n.id);
#define CHECK(attr, name, type) \
	EXPECT_EQ(SCALAR_VALUE(SCALAR_BITS_##type, FTDETECT_A_NODE_##attr), (uint64_t)n.name); \
	EXPECT_TRUE(FTU_HAS(&n, FTDETECT_A_NODE_##attr));
	FTDETECT_NODE_SCALARS(CHECK)
#undef CHECK
	ASSERT_EQ(1u, n.nr_rails);
#define CHECK(attr, name, type) \
	EXPECT_EQ(SCALAR_VALUE(SCALAR_BITS_##type, FTDETECT_A_ADDR_##attr), \
		  (uint64_t)n.rails[0].name); \
	EXPECT_TRUE(FTU_HAS(&n.rails[0], FTDETECT_A_ADDR_##attr));
	FTDETECT_ADDR_SCALARS(CHECK)
#undef CHECK
	nlmsg_free(msg);
}

TEST(node_reply_malformed)
{
	static void (*const bad[])(struct nl_msg *) = {
		no_id, both_families, no_family, short_inet6, five_rails, short_u64,
	};
	struct ftu_node n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct nl_msg *msg = node_with(bad[i]);

		EXPECT_EQ(-EPROTO, ftu_msg_parse_node(msg, &n)) TH_LOG("case %zu", i);
		nlmsg_free(msg);
	}
	{
		struct nl_msg *msg = node_with(four_rails);

		EXPECT_EQ(0, ftu_msg_parse_node(msg, &n));
		EXPECT_EQ(4, n.nr_rails);
		nlmsg_free(msg);
	}
	{
		struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_NODE);	/* no NODE nest */

		EXPECT_EQ(-EPROTO, ftu_msg_parse_node(msg, &n));
		nlmsg_free(msg);
	}
}

/* A rail with a stamp source and a delay nest, as the module's fill_rail(). */
static struct nl_msg *stamped_node(bool pad, int hist_len, bool with_delay)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_NODE);
	struct nlattr *node, *addrs, *r, *d;
	uint64_t hist[FTD_DELAY_BUCKETS + 1] = { 0 };

	for (int b = 0; b < FTD_DELAY_BUCKETS; b++)
		hist[b] = (uint64_t)b * 10;
	node = nla_nest_start(msg, FTDETECT_A_NODE | NLA_F_NESTED);
	nla_put_u32(msg, FTDETECT_A_NODE_ID, 2);
	addrs = nla_nest_start(msg, FTDETECT_A_NODE_ADDRS | NLA_F_NESTED);
	r = nla_nest_start(msg, FTDETECT_A_ADDR | NLA_F_NESTED);
	nla_put(msg, FTDETECT_A_ADDR_INET, 4, "\xc0\x00\x02\x02");
	nla_put_u64(msg, FTDETECT_A_ADDR_RX, 1200);
	nla_put_u8(msg, FTDETECT_A_ADDR_STAMP, FTD_STAMP_XDP);
	if (with_delay) {
		d = nla_nest_start(msg, FTDETECT_A_ADDR_DELAY | NLA_F_NESTED);
		if (pad) {
			put_u64_padded(msg, FTDETECT_A_DELAY_SAMPLES, FTDETECT_A_DELAY_PAD, 1200);
			put_u64_padded(msg, FTDETECT_A_DELAY_MIN_NS, FTDETECT_A_DELAY_PAD, 4300);
			put_u64_padded(msg, FTDETECT_A_DELAY_MEAN_NS, FTDETECT_A_DELAY_PAD, 12800);
			put_u64_padded(msg, FTDETECT_A_DELAY_MAX_NS, FTDETECT_A_DELAY_PAD, 1004127);
		} else {
			nla_put_u64(msg, FTDETECT_A_DELAY_SAMPLES, 1200);
			nla_put_u64(msg, FTDETECT_A_DELAY_MIN_NS, 4300);
			nla_put_u64(msg, FTDETECT_A_DELAY_MEAN_NS, 12800);
			nla_put_u64(msg, FTDETECT_A_DELAY_MAX_NS, 1004127);
		}
		nla_put(msg, FTDETECT_A_DELAY_HIST, hist_len, hist);
		nla_nest_end(msg, d);
	}
	nla_nest_end(msg, r);
	r = nla_nest_start(msg, FTDETECT_A_ADDR | NLA_F_NESTED);
	nla_put(msg, FTDETECT_A_ADDR_INET, 4, "\xc6\x33\x64\x02");
	nla_put_u8(msg, FTDETECT_A_ADDR_STAMP, FTD_STAMP_SKB);
	nla_nest_end(msg, r);
	nla_nest_end(msg, addrs);
	nla_nest_end(msg, node);
	return msg;
}

static void check_stamped(struct __test_metadata *_metadata, bool pad)
{
	struct nl_msg *msg = stamped_node(pad, FTD_DELAY_BUCKETS * 8, true);
	const struct ftu_delay *d;
	struct ftu_node n;

	ASSERT_EQ(0, ftu_msg_parse_node(msg, &n));
	ASSERT_EQ(2, n.nr_rails);
	EXPECT_TRUE(FTU_HAS(&n.rails[0], FTDETECT_A_ADDR_STAMP));
	EXPECT_EQ(FTD_STAMP_XDP, n.rails[0].stamp);
	ASSERT_TRUE(FTU_HAS(&n.rails[0], FTDETECT_A_ADDR_DELAY));
	d = &n.rails[0].delay;
	EXPECT_EQ(1200, d->samples);
	EXPECT_EQ(4300, d->min_ns);
	EXPECT_EQ(12800, d->mean_ns);
	EXPECT_EQ(1004127, d->max_ns);
	EXPECT_TRUE(FTU_HAS(d, FTDETECT_A_DELAY_HIST));
	for (int b = 0; b < FTD_DELAY_BUCKETS; b++)
		EXPECT_EQ((uint64_t)b * 10, d->hist[b]);
	EXPECT_FALSE(FTU_HAS(d, FTDETECT_A_DELAY_PAD));
	/* A rail heard through the skb stamp only: no delay nest. */
	EXPECT_EQ(FTD_STAMP_SKB, n.rails[1].stamp);
	EXPECT_FALSE(FTU_HAS(&n.rails[1], FTDETECT_A_ADDR_DELAY));
	EXPECT_EQ(0, n.rails[1].delay.samples);
	nlmsg_free(msg);
}

TEST(node_reply_stamp_and_delay)
{
	check_stamped(_metadata, false);
}

TEST(node_reply_stamp_and_delay_padded)
{
	check_stamped(_metadata, true);
}

/* The local node's rail with an RDMA port behind it, as fill_rdma(); or a bad nest. */
static struct nl_msg *rdma_node(bool with_device, uint8_t state)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_NODE);
	struct nlattr *node, *addrs, *r, *rd;

	node = nla_nest_start(msg, FTDETECT_A_NODE | NLA_F_NESTED);
	nla_put_u32(msg, FTDETECT_A_NODE_ID, 2);
	addrs = nla_nest_start(msg, FTDETECT_A_NODE_ADDRS | NLA_F_NESTED);
	r = nla_nest_start(msg, FTDETECT_A_ADDR | NLA_F_NESTED);
	nla_put(msg, FTDETECT_A_ADDR_INET, 4, "\xc0\x00\x02\x02");
	nla_nest_end(msg, r);
	r = nla_nest_start(msg, FTDETECT_A_ADDR | NLA_F_NESTED);
	nla_put(msg, FTDETECT_A_ADDR_INET, 4, "\xc6\x33\x64\x02");
	rd = nla_nest_start(msg, FTDETECT_A_ADDR_RDMA | NLA_F_NESTED);
	if (with_device)
		nla_put_string(msg, FTDETECT_A_RDMA_DEVICE, "rxe0");
	nla_put_u32(msg, FTDETECT_A_RDMA_PORT, 1);
	nla_put_u8(msg, FTDETECT_A_RDMA_STATE, state);
	nla_nest_end(msg, rd);
	nla_nest_end(msg, r);
	nla_nest_end(msg, addrs);
	nla_nest_end(msg, node);
	return msg;
}

TEST(node_reply_rdma_port)
{
	struct nl_msg *msg = rdma_node(true, FTD_RDMA_GONE);
	struct ftu_node n;

	ASSERT_EQ(0, ftu_msg_parse_node(msg, &n));
	ASSERT_EQ(2, n.nr_rails);
	EXPECT_FALSE(FTU_HAS(&n.rails[0], FTDETECT_A_ADDR_RDMA));	/* an IP rail */
	ASSERT_TRUE(FTU_HAS(&n.rails[1], FTDETECT_A_ADDR_RDMA));
	EXPECT_STREQ("rxe0", n.rails[1].rdma.device);
	EXPECT_EQ(1, n.rails[1].rdma.port);
	EXPECT_EQ(FTD_RDMA_GONE, n.rails[1].rdma.state);
	nlmsg_free(msg);
	/* A port without its device's name: a uapi mismatch, said as such. */
	msg = rdma_node(false, FTD_RDMA_ACTIVE);
	EXPECT_EQ(-EPROTO, ftu_msg_parse_node(msg, &n));
	nlmsg_free(msg);
}

TEST(node_reply_delay_hist_wrong_size)
{
	struct nl_msg *msg = stamped_node(false, (FTD_DELAY_BUCKETS - 1) * 8, true);
	struct ftu_node n;

	/* A histogram of another bucket count: a uapi mismatch, said as such. */
	EXPECT_EQ(-EPROTO, ftu_msg_parse_node(msg, &n));
	nlmsg_free(msg);
	msg = stamped_node(false, FTD_DELAY_BUCKETS * 8 + 8, true);
	EXPECT_EQ(-EPROTO, ftu_msg_parse_node(msg, &n));
	nlmsg_free(msg);
}

TEST(stats_reply)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_STATS);
	struct nlattr *nest = nla_nest_start(msg, FTDETECT_A_STATS | NLA_F_NESTED);
	struct ftu_stats st;

	put_u64_padded(msg, FTDETECT_A_STATS_TX, FTDETECT_A_STATS_PAD, 1);
	put_u64_padded(msg, FTDETECT_A_STATS_TX_ERR, FTDETECT_A_STATS_PAD, 2);
	nla_put_u64(msg, FTDETECT_A_STATS_RX, 3);
	nla_put_u64(msg, FTDETECT_A_STATS_RX_MALFORMED, 4);
	nla_put_u64(msg, FTDETECT_A_STATS_RX_FOREIGN, 5);
	nla_put_u64(msg, FTDETECT_A_STATS_RX_BADMAC, 6);
	nla_put_u64(msg, FTDETECT_A_STATS_EVENTS, UINT64_MAX);
	put_u64_padded(msg, FTDETECT_A_STATS_TICKS, FTDETECT_A_STATS_PAD, 8);
	nla_put_u64(msg, FTDETECT_A_STATS_TICKS_LATE, 9);
	nla_put_u64(msg, FTDETECT_A_STATS_TICK_LATE_MAX_NS, 10);
	nla_nest_end(msg, nest);

	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_EQ(1, st.tx);
	EXPECT_EQ(2, st.tx_err);
	EXPECT_EQ(3, st.rx);
	EXPECT_EQ(4, st.rx_malformed);
	EXPECT_EQ(5, st.rx_foreign);
	EXPECT_EQ(6, st.rx_badmac);
	EXPECT_EQ(UINT64_MAX, st.events);
	EXPECT_EQ(8, st.ticks);
	EXPECT_EQ(9, st.ticks_late);
	EXPECT_EQ(10, st.tick_late_max_ns);
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_EVENTS));
	EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_PAD));
	nlmsg_free(msg);
}

/* Every u64 the uapi lists decodes into its own field, and is marked present. */
TEST(stats_reply_every_u64)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_STATS);
	struct nlattr *nest = nla_nest_start(msg, FTDETECT_A_STATS | NLA_F_NESTED);
	struct ftu_stats st;

#define PUT(attr, name, kind) \
	put_u64_padded(msg, FTDETECT_A_STATS_##attr, FTDETECT_A_STATS_PAD, \
		       1000 + FTDETECT_A_STATS_##attr);
	FTDETECT_STATS_U64(PUT)
#undef PUT
	nla_nest_end(msg, nest);

	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
#define CHECK(attr, name, kind) \
	EXPECT_EQ(1000 + FTDETECT_A_STATS_##attr, st.name); \
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_##attr));
	FTDETECT_STATS_U64(CHECK)
#undef CHECK
	EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_EVENTS_BY_TYPE));
	nlmsg_free(msg);
}

/* A stats reply with events by type and death silences: n_types counters, hist_len buckets. */
static struct nl_msg *stats_metrics(int n_types, int hist_len)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_STATS);
	struct nlattr *nest = nla_nest_start(msg, FTDETECT_A_STATS | NLA_F_NESTED);
	uint64_t types[__FTD_EV_MAX + 8], hist[FTD_LATENCY_BUCKETS + 1] = { 0 };

	for (int t = 0; t < (int)(sizeof(types) / sizeof(types[0])); t++)
		types[t] = t ? 100 + t : 0;
	nla_put_u64(msg, FTDETECT_A_STATS_EVENTS, 7);
	nla_put(msg, FTDETECT_A_STATS_EVENTS_BY_TYPE, n_types * 8, types);
	hist[17] = 2;
	hist[FTD_LATENCY_BUCKETS - 1] = 1;
	nla_put(msg, FTDETECT_A_STATS_DECLARED_HIST, hist_len * 8, hist);
	put_u64_padded(msg, FTDETECT_A_STATS_DECLARED_SUM_NS, FTDETECT_A_STATS_PAD, 123456789);
	hist[17] = 0;
	hist[0] = 5;
	nla_put(msg, FTDETECT_A_STATS_TOLD_HIST, FTD_LATENCY_BUCKETS * 8, hist);
	nla_put_u64(msg, FTDETECT_A_STATS_TOLD_SUM_NS, 42);
	nla_nest_end(msg, nest);
	return msg;
}

TEST(stats_reply_metrics)
{
	struct nl_msg *msg = stats_metrics(__FTD_EV_MAX, FTD_LATENCY_BUCKETS);
	struct ftu_stats st;

	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_EVENTS_BY_TYPE));
	EXPECT_EQ(0, st.events_by_type[0]);
	EXPECT_EQ(100 + FTD_EV_NODE_DEAD, st.events_by_type[FTD_EV_NODE_DEAD]);
	EXPECT_EQ(100 + FTD_EV_MAX, st.events_by_type[FTD_EV_MAX]);
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_DECLARED_HIST));
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_DECLARED_SUM_NS));
	EXPECT_EQ(2, st.declared.hist[17]);
	EXPECT_EQ(1, st.declared.hist[FTD_LATENCY_BUCKETS - 1]);
	EXPECT_EQ(3, ftu_latency_count(&st.declared));
	EXPECT_EQ(123456789, st.declared.sum_ns);
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_TOLD_HIST));
	EXPECT_EQ(5, st.told.hist[0]);
	EXPECT_EQ(0, st.told.hist[17]);
	EXPECT_EQ(6, ftu_latency_count(&st.told));
	EXPECT_EQ(42, st.told.sum_ns);
	nlmsg_free(msg);
}

TEST(stats_reply_events_by_type_other_modules)
{
	struct nl_msg *msg = stats_metrics(4, FTD_LATENCY_BUCKETS);
	struct ftu_stats st;

	/* An older module, fewer types: those it has, the rest 0. */
	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_EVENTS_BY_TYPE));
	EXPECT_EQ(103, st.events_by_type[3]);
	for (int t = 4; t < __FTD_EV_MAX; t++)
		EXPECT_EQ(0, st.events_by_type[t]);
	nlmsg_free(msg);

	/* A newer one, more: ours are read, the others dropped, no overflow. */
	msg = stats_metrics(__FTD_EV_MAX + 8, FTD_LATENCY_BUCKETS);
	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_EQ(100 + FTD_EV_MAX, st.events_by_type[FTD_EV_MAX]);
	EXPECT_EQ(3, ftu_latency_count(&st.declared));
	nlmsg_free(msg);

	/* Not a whole counter: the part is not read. */
	msg = new_msg(FTDETECT_CMD_GET_STATS);
	struct nlattr *nest = nla_nest_start(msg, FTDETECT_A_STATS | NLA_F_NESTED);
	uint64_t two[2] = { 0, 9 };

	nla_put(msg, FTDETECT_A_STATS_EVENTS_BY_TYPE, 12, two);
	nla_nest_end(msg, nest);
	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_EQ(0, st.events_by_type[1]);
	nlmsg_free(msg);
}

TEST(stats_reply_latency_hist_wrong_size)
{
	struct ftu_stats st;

	/* Another bucket count is not ours to guess: ignored, the rest stays. */
	for (int len = FTD_LATENCY_BUCKETS - 1; len <= FTD_LATENCY_BUCKETS + 1; len += 2) {
		struct nl_msg *msg = stats_metrics(__FTD_EV_MAX, len);

		ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
		EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_DECLARED_HIST));
		EXPECT_EQ(0, ftu_latency_count(&st.declared));
		EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_TOLD_HIST));
		EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_EVENTS_BY_TYPE));
		EXPECT_EQ(7, st.events);
		nlmsg_free(msg);
	}
}

TEST(stats_reply_old_module)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_STATS);
	struct nlattr *nest = nla_nest_start(msg, FTDETECT_A_STATS | NLA_F_NESTED);
	struct ftu_stats st;

	/* An older module: no such metrics, no present bit, zeros. */
	nla_put_u64(msg, FTDETECT_A_STATS_EVENTS, 7);
	nla_nest_end(msg, nest);
	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_EQ(7, st.events);
	EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_EVENTS_BY_TYPE));
	EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_DECLARED_HIST));
	EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_TOLD_SUM_NS));
	EXPECT_EQ(0, st.events_by_type[FTD_EV_NODE_DEAD]);
	nlmsg_free(msg);
}

/* The receive path's counters, the last appended after the histograms. */
TEST(stats_reply_receive_path)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_GET_STATS);
	struct nlattr *nest = nla_nest_start(msg, FTDETECT_A_STATS | NLA_F_NESTED);
	struct ftu_stats st;

	nla_put_u64(msg, FTDETECT_A_STATS_TICKS_RX_BEHIND, 11);
	put_u64_padded(msg, FTDETECT_A_STATS_TICKS_RX_DROPPED, FTDETECT_A_STATS_PAD, 2235);
	nla_nest_end(msg, nest);
	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_EQ(11, st.ticks_rx_behind);
	EXPECT_EQ(2235, st.ticks_rx_dropped);
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_TICKS_RX_DROPPED));
	nlmsg_free(msg);

	/* Indirect probes' counters, appended after it. */
	msg = new_msg(FTDETECT_CMD_GET_STATS);
	nest = nla_nest_start(msg, FTDETECT_A_STATS | NLA_F_NESTED);
	put_u64_padded(msg, FTDETECT_A_STATS_RELAYS_ASKED, FTDETECT_A_STATS_PAD, 31);
	put_u64_padded(msg, FTDETECT_A_STATS_RELAYS_SENT, FTDETECT_A_STATS_PAD, 7);
	put_u64_padded(msg, FTDETECT_A_STATS_RELAYS_HEARD, FTDETECT_A_STATS_PAD, 5);
	nla_nest_end(msg, nest);
	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_EQ(31, st.relays_asked);
	EXPECT_EQ(7, st.relays_sent);
	EXPECT_EQ(5, st.relays_heard);
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_RELAYS_HEARD));
	EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_TICKS_RX_DROPPED));
	nlmsg_free(msg);

	/*
	 * The notices carried by the notice frames, appended after them:
	 * attribute 32 and up, past a 32-bit mask of present attributes.
	 */
	msg = new_msg(FTDETECT_CMD_GET_STATS);
	nest = nla_nest_start(msg, FTDETECT_A_STATS | NLA_F_NESTED);
	put_u64_padded(msg, FTDETECT_A_STATS_NOTICES_TX, FTDETECT_A_STATS_PAD, 10);
	put_u64_padded(msg, FTDETECT_A_STATS_NOTICE_ITEMS_TX, FTDETECT_A_STATS_PAD, 37);
	put_u64_padded(msg, FTDETECT_A_STATS_NOTICE_ITEMS_RX, FTDETECT_A_STATS_PAD, 41);
	put_u64_padded(msg, FTDETECT_A_STATS_TICKS_RX_STUCK, FTDETECT_A_STATS_PAD, 43);
	put_u64_padded(msg, FTDETECT_A_STATS_SHARES_RESENT, FTDETECT_A_STATS_PAD, 47);
	put_u64_padded(msg, FTDETECT_A_STATS_SHARES_HANDED_OVER, FTDETECT_A_STATS_PAD, 53);
	put_u64_padded(msg, FTDETECT_A_STATS_SHARES_DROPPED, FTDETECT_A_STATS_PAD, 59);
	nla_nest_end(msg, nest);
	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_EQ(10, st.notices_tx);
	EXPECT_EQ(37, st.notice_items_tx);
	EXPECT_EQ(41, st.notice_items_rx);
	EXPECT_EQ(43, st.ticks_rx_stuck);
	EXPECT_EQ(47, st.shares_resent);
	EXPECT_EQ(53, st.shares_handed_over);
	EXPECT_EQ(59, st.shares_dropped);
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_SHARES_DROPPED));
	EXPECT_GE(FTDETECT_A_STATS_NOTICE_ITEMS_RX, 32);
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_NOTICE_ITEMS_TX));
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_NOTICE_ITEMS_RX));
	EXPECT_TRUE(FTU_HAS(&st, FTDETECT_A_STATS_TICKS_RX_STUCK));
	EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_RELAYS_HEARD));
	nlmsg_free(msg);

	/* A module from before the overload rule: absent, zero, no bit. */
	msg = new_msg(FTDETECT_CMD_GET_STATS);
	nest = nla_nest_start(msg, FTDETECT_A_STATS | NLA_F_NESTED);
	nla_put_u64(msg, FTDETECT_A_STATS_TICKS_RX_BEHIND, 11);
	nla_nest_end(msg, nest);
	ASSERT_EQ(0, ftu_msg_parse_stats(msg, &st));
	EXPECT_EQ(0, st.ticks_rx_dropped);
	EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_TICKS_RX_DROPPED));
	EXPECT_EQ(0, st.ticks_rx_stuck);
	EXPECT_FALSE(FTU_HAS(&st, FTDETECT_A_STATS_TICKS_RX_STUCK));
	nlmsg_free(msg);
}

static struct nl_msg *event_msg(uint16_t type, bool with_node)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_EVENT);
	struct nlattr *nest = nla_nest_start(msg, FTDETECT_A_EVENT | NLA_F_NESTED);

	nla_put_u16(msg, FTDETECT_A_EVENT_TYPE, type);
	put_u64_padded(msg, FTDETECT_A_EVENT_SEQ, FTDETECT_A_EVENT_PAD, 17);
	put_u64_padded(msg, FTDETECT_A_EVENT_TIME_NS, FTDETECT_A_EVENT_PAD, 1795000000123456789ULL);
	put_u64_padded(msg, FTDETECT_A_EVENT_MONO_NS, FTDETECT_A_EVENT_PAD, 5000000000ULL);
	if (with_node) {
		nla_put_u32(msg, FTDETECT_A_EVENT_NODE, 3);
		nla_put_u32(msg, FTDETECT_A_EVENT_ORIGIN, 1);
	}
	nla_put_u32(msg, FTDETECT_A_EVENT_INCARNATION, 2);
	nla_put_u32(msg, FTDETECT_A_EVENT_JOB, 0);
	nla_put_u32(msg, FTDETECT_A_EVENT_RANK, 0);
	nla_put_u32(msg, FTDETECT_A_EVENT_COUNT, 0);
	nla_nest_end(msg, nest);
	return msg;
}

TEST(event_full)
{
	struct nl_msg *msg = event_msg(FTD_EV_NODE_DEAD, true);
	struct ftd_event ev;

	ASSERT_EQ(FTDETECT_CMD_EVENT, ftu_msg_cmd(msg));
	ASSERT_EQ(0, ftu_msg_parse_event(msg, &ev));
	EXPECT_EQ(FTD_EVENT_VERSION, ev.version);
	EXPECT_EQ(sizeof(struct ftd_event), ev.size);
	EXPECT_EQ(FTD_EV_NODE_DEAD, ev.type);
	EXPECT_EQ(17, ev.seq);
	EXPECT_EQ(1795000000123456789ULL, ev.time_ns);
	EXPECT_EQ(5000000000ULL, ev.mono_ns);
	EXPECT_EQ(3, ev.node);
	EXPECT_EQ(1, ev.origin);
	EXPECT_EQ(2, ev.incarnation);
	EXPECT_EQ(FTD_RAIL_NONE, ev.rail);
	nlmsg_free(msg);
}

TEST(event_absent_fields_read_none)
{
	struct nl_msg *msg = event_msg(FTD_EV_FENCED, false);
	struct ftd_event ev;

	ASSERT_EQ(0, ftu_msg_parse_event(msg, &ev));
	EXPECT_EQ(FTD_NODE_NONE, ev.node);
	EXPECT_EQ(FTD_NODE_NONE, ev.origin);
	EXPECT_EQ(FTD_RAIL_NONE, ev.rail);
	nlmsg_free(msg);
}

TEST(event_without_type)
{
	struct nl_msg *msg = new_msg(FTDETECT_CMD_EVENT);
	struct nlattr *nest = nla_nest_start(msg, FTDETECT_A_EVENT | NLA_F_NESTED);
	struct ftd_event ev;

	nla_put_u32(msg, FTDETECT_A_EVENT_NODE, 3);
	nla_nest_end(msg, nest);
	EXPECT_EQ(-EPROTO, ftu_msg_parse_event(msg, &ev));
	nlmsg_free(msg);
}

/* ----------------------------------------------------------- extack */

/* A NLMSG_ERROR as the kernel sends it; capped: without our request's payload. */
static struct nl_msg *error_msg(int err, bool capped, const char *text)
{
	struct nl_msg *req = new_msg(FTDETECT_CMD_ADD_NODE);
	struct nlmsghdr *reqh;
	struct nlmsgerr e = { .error = err };
	struct nl_msg *msg;
	int flags = 0;

	ftu_msg_put_node_id(req, 5);
	reqh = nlmsg_hdr(req);
	if (capped)
		flags |= NLM_F_CAPPED;
	if (text)
		flags |= NLM_F_ACK_TLVS;
	msg = nlmsg_alloc_simple(NLMSG_ERROR, flags);
	e.msg = *reqh;
	nlmsg_append(msg, &e, sizeof(e), NLMSG_ALIGNTO);
	if (!capped)
		nlmsg_append(msg, nlmsg_data(reqh), (size_t)nlmsg_datalen(reqh), NLMSG_ALIGNTO);
	if (text) {
		nla_put_u32(msg, NLMSGERR_ATTR_OFFS, 20);
		nla_put_string(msg, NLMSGERR_ATTR_MSG, text);
	}
	nlmsg_free(req);
	return msg;
}

TEST(extack_capped)
{
	struct nl_msg *msg = error_msg(-EINVAL, true, "not a unicast address");
	char buf[FTU_EXTACK_MAX];

	ftu_nl_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	EXPECT_STREQ("not a unicast address", buf);
	nlmsg_free(msg);
}

TEST(extack_uncapped)
{
	struct nl_msg *msg = error_msg(-EBUSY, false, "take the instance down first");
	char buf[FTU_EXTACK_MAX];

	ftu_nl_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	EXPECT_STREQ("take the instance down first", buf);
	nlmsg_free(msg);
}

TEST(extack_absent)
{
	struct nl_msg *msg = error_msg(-ENOENT, true, NULL);
	char buf[FTU_EXTACK_MAX] = "stale";

	ftu_nl_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	EXPECT_STREQ("", buf);
	nlmsg_free(msg);
}

TEST(extack_truncated_to_buffer)
{
	struct nl_msg *msg = error_msg(-EINVAL, true, "a rather long message");
	char buf[8];

	ftu_nl_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	EXPECT_STREQ("a rathe", buf);
	nlmsg_free(msg);
}

TEST(extack_of_a_failed_dump)
{
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI | NLM_F_ACK_TLVS);
	int err = -EMSGSIZE;
	char buf[FTU_EXTACK_MAX];

	nlmsg_append(msg, &err, sizeof(err), NLMSG_ALIGNTO);
	nla_put_string(msg, NLMSGERR_ATTR_MSG, "dump failed");
	ftu_nl_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	EXPECT_STREQ("dump failed", buf);
	nlmsg_free(msg);
}

TEST(extack_not_nul_terminated_is_ignored)
{
	struct nl_msg *msg = error_msg(-EINVAL, true, NULL);
	char buf[FTU_EXTACK_MAX] = "stale";

	nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_ACK_TLVS;
	nla_put(msg, NLMSGERR_ATTR_MSG, 4, "abcd");
	ftu_nl_extack(nlmsg_hdr(msg), buf, sizeof(buf));
	EXPECT_STREQ("", buf);
	nlmsg_free(msg);
}

TEST_HARNESS_MAIN
