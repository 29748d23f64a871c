// SPDX-License-Identifier: GPL-2.0
/*
 * The "ftdetect" generic netlink family: configuration round trip, strict
 * validation with an extack message and no state change on bad input,
 * CAP_NET_ADMIN on every command that changes state.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <grp.h>
#include <netlink/genl/genl.h>
#include <linux/ftdetect.h>
#include "harness.h"
#include "util.h"
#include "common/nl.h"
#include "common/msg.h"
#include "common/keyid.h"

struct dump {
	unsigned int n;
	struct ftu_node nodes[8];
};

static int collect_node(struct nl_msg *msg, void *arg)
{
	struct dump *d = arg;

	if (d->n == 8)
		return -E2BIG;
	return ftu_msg_parse_node(msg, &d->nodes[d->n++]);
}

static int collect_config(struct nl_msg *msg, void *arg)
{
	return ftu_msg_parse_config(msg, arg);
}

static int get_config(struct ftu_nl *nl, struct ftu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	return ftu_nl_call(nl, ftu_nl_msg(nl, FTDETECT_CMD_GET_CONFIG, 0), collect_config, cfg);
}

static int dump_nodes(struct ftu_nl *nl, struct dump *d)
{
	memset(d, 0, sizeof(*d));
	return ftu_nl_call(nl, ftu_nl_msg(nl, FTDETECT_CMD_GET_NODE, NLM_F_DUMP), collect_node, d);
}

/* Node id with addresses given as strings; NULL-terminated. */
static int add_node(struct ftu_nl *nl, uint32_t id, const char *const *addrs)
{
	struct ftu_addr a[FTD_MAX_RAILS + 2];
	struct nl_msg *msg;
	unsigned int n = 0;

	for (; addrs[n]; n++)
		if (ftu_addr_parse(addrs[n], &a[n]))
			return -EINVAL;
	msg = ftu_nl_msg(nl, FTDETECT_CMD_ADD_NODE, 0);
	if (!msg || ftu_msg_put_node(msg, id, a, n))
		return -ENOBUFS;
	return ftu_nl_call(nl, msg, NULL, NULL);
}

static int set_u32(struct ftu_nl *nl, int attr, uint32_t v)
{
	struct nl_msg *msg = ftu_nl_msg(nl, FTDETECT_CMD_SET_CONFIG, 0);

	nla_put_u32(msg, attr, v);
	return ftu_nl_call(nl, msg, NULL, NULL);
}

static int set_u64(struct ftu_nl *nl, int attr, uint64_t v)
{
	struct nl_msg *msg = ftu_nl_msg(nl, FTDETECT_CMD_SET_CONFIG, 0);

	nla_put_u64(msg, attr, v);
	return ftu_nl_call(nl, msg, NULL, NULL);
}

static int set_up(struct ftu_nl *nl, uint8_t up)
{
	struct nl_msg *msg = ftu_nl_msg(nl, FTDETECT_CMD_SET_CONFIG, 0);

	nla_put_u8(msg, FTDETECT_A_UP, up);
	return ftu_nl_call(nl, msg, NULL, NULL);
}

FIXTURE(genl) {
	struct ftu_nl nl;
	struct ftu_config before;
};

FIXTURE_SETUP(genl)
{
	ASSERT_EQ(0, ftd_test_new_netns());
	ASSERT_EQ(0, ftu_nl_open(&self->nl, FTDETECT_GENL_NAME));
	ASSERT_EQ(0, get_config(&self->nl, &self->before));
}

FIXTURE_TEARDOWN(genl)
{
	ftu_nl_close(&self->nl);
}

/* The failed request left the configuration as it was. */
#define ASSERT_CONFIG_UNCHANGED() do {						\
	struct ftu_config now;							\
	ASSERT_EQ(0, get_config(&self->nl, &now));				\
	EXPECT_EQ(self->before.cluster, now.cluster);				\
	EXPECT_EQ(self->before.node, now.node);					\
	EXPECT_EQ(self->before.port, now.port);					\
	EXPECT_EQ(self->before.period_ns, now.period_ns);			\
	EXPECT_EQ(self->before.timeout_ns, now.timeout_ns);			\
	EXPECT_EQ(self->before.up, now.up);					\
} while (0)

#define EXPECT_EXTACK(text) \
	EXPECT_NE(NULL, strstr(self->nl.extack, text)) TH_LOG("extack: '%s'", self->nl.extack)

TEST_F(genl, defaults_of_a_new_namespace)
{
	EXPECT_EQ(FTD_NODE_NONE, self->before.node);
	EXPECT_EQ(FTD_DEFAULT_PORT, self->before.port);
	EXPECT_EQ(FTD_DEFAULT_PERIOD_NS, self->before.period_ns);
	EXPECT_EQ(FTD_DEFAULT_TIMEOUT_NS, self->before.timeout_ns);
	EXPECT_FALSE(self->before.up);
}

/* The raw lengths of the stats arrays, and the reply parsed as the tools do. */
struct stats_reply {
	int types_len, declared_len, told_len;
	struct ftu_stats st;
};

static int collect_stats(struct nl_msg *msg, void *arg)
{
	struct nlattr *top[FTDETECT_A_MAX + 1], *tb[FTDETECT_A_STATS_MAX + 1];
	struct stats_reply *r = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, top, FTDETECT_A_MAX, NULL) || !top[FTDETECT_A_STATS] ||
	    nla_parse_nested(tb, FTDETECT_A_STATS_MAX, top[FTDETECT_A_STATS], NULL))
		return -EPROTO;
	r->types_len = tb[FTDETECT_A_STATS_EVENTS_BY_TYPE] ?
		       nla_len(tb[FTDETECT_A_STATS_EVENTS_BY_TYPE]) : -1;
	r->declared_len = tb[FTDETECT_A_STATS_DECLARED_HIST] ?
			  nla_len(tb[FTDETECT_A_STATS_DECLARED_HIST]) : -1;
	r->told_len = tb[FTDETECT_A_STATS_TOLD_HIST] ? nla_len(tb[FTDETECT_A_STATS_TOLD_HIST]) : -1;
	return ftu_msg_parse_stats(msg, &r->st);
}

TEST_F(genl, stats_carry_events_by_type_and_death_silences)
{
	struct stats_reply r = { 0 };
	uint64_t sum = 0;

	ASSERT_EQ(0, ftu_nl_call(&self->nl, ftu_nl_msg(&self->nl, FTDETECT_CMD_GET_STATS, 0),
				 collect_stats, &r));
	EXPECT_EQ(__FTD_EV_MAX * 8, r.types_len);
	EXPECT_EQ(FTD_LATENCY_BUCKETS * 8, r.declared_len);
	EXPECT_EQ(FTD_LATENCY_BUCKETS * 8, r.told_len);
	EXPECT_TRUE(FTU_HAS(&r.st, FTDETECT_A_STATS_DECLARED_SUM_NS));
	EXPECT_TRUE(FTU_HAS(&r.st, FTDETECT_A_STATS_TOLD_SUM_NS));
	/* A new namespace: no death measured; its events, if any, all by type. */
	EXPECT_EQ(0, ftu_latency_count(&r.st.declared));
	EXPECT_EQ(0, ftu_latency_count(&r.st.told));
	EXPECT_EQ(0, r.st.declared.sum_ns);
	for (int t = 0; t < __FTD_EV_MAX; t++)
		sum += r.st.events_by_type[t];
	EXPECT_EQ(r.st.events, sum);
}

/* The stats as an unprivileged caller gets them: exit status 0 if as it should. */
static int stats_without_memory(void *arg)
{
	struct stats_reply r = { 0 };
	struct ftu_nl nl;
	int bad = 0;

	if (ftu_nl_open(&nl, FTDETECT_GENL_NAME))
		return 90;
	if (ftu_nl_call(&nl, ftu_nl_msg(&nl, FTDETECT_CMD_GET_STATS, 0), collect_stats, &r))
		bad |= 1;
	/* The rest is for everyone; the walks over every node are not. */
	if (!FTU_HAS(&r.st, FTDETECT_A_STATS_ROUTE_CACHES) || r.types_len != __FTD_EV_MAX * 8)
		bad |= 2;
	if (FTU_HAS(&r.st, FTDETECT_A_STATS_MEM_NODES) || FTU_HAS(&r.st, FTDETECT_A_STATS_MEM_RANKS))
		bad |= 4;
	ftu_nl_close(&nl);
	return bad;
}

TEST_F(genl, memory_of_the_node_table_is_for_the_admin_only)
{
	const char *const a1[] = { "192.0.2.1", NULL };
	const char *const a2[] = { "192.0.2.2", NULL };
	struct stats_reply r = { 0 };

	ASSERT_EQ(0, add_node(&self->nl, 1, a1));
	ASSERT_EQ(0, add_node(&self->nl, 2, a2));
	ASSERT_EQ(0, ftu_nl_call(&self->nl, ftu_nl_msg(&self->nl, FTDETECT_CMD_GET_STATS, 0),
				 collect_stats, &r));
	ASSERT_TRUE(FTU_HAS(&r.st, FTDETECT_A_STATS_MEM_NODES));
	ASSERT_TRUE(FTU_HAS(&r.st, FTDETECT_A_STATS_MEM_RANKS));
	EXPECT_LT(0, r.st.mem_nodes);	/* two nodes are held */
	EXPECT_EQ(0, r.st.mem_ranks);	/* and no rank */
	EXPECT_EQ(0, ftd_test_unprivileged(stats_without_memory, NULL));
}

TEST_F(genl, config_round_trip)
{
	struct ftu_config cfg = {
		.present = FTU_BIT(FTDETECT_A_CLUSTER_ID) | FTU_BIT(FTDETECT_A_LOCAL_NODE) |
			   FTU_BIT(FTDETECT_A_PORT) | FTU_BIT(FTDETECT_A_PERIOD_NS) |
			   FTU_BIT(FTDETECT_A_TIMEOUT_NS) | FTU_BIT(FTDETECT_A_KEY),
		.cluster = 42, .node = 3, .port = 17061,
		.period_ns = 1000000, .timeout_ns = 5000000,
		.key = { 1, 2, 3 },
	};
	struct nl_msg *msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);
	struct ftu_config got;

	ASSERT_EQ(0, ftu_msg_put_config(msg, &cfg));
	ASSERT_EQ(0, ftu_nl_call(&self->nl, msg, NULL, NULL));
	ASSERT_EQ(0, get_config(&self->nl, &got));
	EXPECT_EQ(42, got.cluster);
	EXPECT_EQ(3, got.node);
	EXPECT_EQ(17061, got.port);
	EXPECT_EQ(1000000, got.period_ns);
	EXPECT_EQ(5000000, got.timeout_ns);
	EXPECT_FALSE(FTU_HAS(&got, FTDETECT_A_KEY));	/* the key is write-only */
}

TEST_F(genl, period_below_minimum_is_refused)
{
	EXPECT_EQ(-ERANGE, set_u64(&self->nl, FTDETECT_A_PERIOD_NS, FTD_MIN_PERIOD_NS - 1));
	EXPECT_NE(0, self->nl.extack[0]);
	ASSERT_CONFIG_UNCHANGED();
}

TEST_F(genl, timeout_below_two_periods_is_refused)
{
	EXPECT_EQ(-EINVAL, set_u64(&self->nl, FTDETECT_A_TIMEOUT_NS,
				   2 * FTD_DEFAULT_PERIOD_NS - 1));
	EXPECT_EXTACK("two periods");
	ASSERT_CONFIG_UNCHANGED();
}

TEST_F(genl, unknown_attribute_is_refused)
{
	struct nl_msg *msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);

	nla_put_u32(msg, FTDETECT_A_CLUSTER_ID, 77);
	nla_put_u32(msg, FTDETECT_A_MAX + 5, 1);
	EXPECT_EQ(-EINVAL, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_NE(0, self->nl.extack[0]);
	ASSERT_CONFIG_UNCHANGED();
}

TEST_F(genl, read_only_attribute_is_refused)
{
	struct nl_msg *msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);

	nla_put_u32(msg, FTDETECT_A_CLUSTER_ID, 77);
	nla_put_u32(msg, FTDETECT_A_INCARNATION, 1);
	EXPECT_EQ(-EINVAL, ftu_nl_call(&self->nl, msg, NULL, NULL));
	ASSERT_CONFIG_UNCHANGED();
}

TEST_F(genl, wrong_key_length_is_refused)
{
	struct nl_msg *msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);
	uint8_t key[FTD_KEY_LEN - 1] = {};

	nla_put(msg, FTDETECT_A_KEY, sizeof(key), key);
	EXPECT_EQ(-ERANGE, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_NE(0, self->nl.extack[0]);
}

/* The ids GET_CONFIG reports: of the key, then of each accepted one. */
TEST_F(genl, keys_change_live_and_are_named_by_id)
{
	const char *const a1[] = { "192.0.2.1", NULL };
	struct ftu_config cfg = {
		.present = FTU_BIT(FTDETECT_A_KEY) | FTU_BIT(FTDETECT_A_KEYS_ACCEPTED),
		.key = { 1 }, .n_accepted = 2,
		.accepted = { { 2 }, { 3 } },
	}, got;
	struct nl_msg *msg;

	ASSERT_EQ(0, get_config(&self->nl, &got));
	EXPECT_TRUE(FTU_HAS(&got, FTDETECT_A_KEY_ID));
	EXPECT_EQ(0x6caa1397dd5f64d0ULL, got.key_id);	/* the all-zero key's */
	EXPECT_EQ(0, got.n_accepted_ids);

	ASSERT_EQ(0, set_u32(&self->nl, FTDETECT_A_LOCAL_NODE, 1));
	ASSERT_EQ(0, add_node(&self->nl, 1, a1));
	ASSERT_EQ(0, set_up(&self->nl, 1));
	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);
	ASSERT_EQ(0, ftu_msg_put_config(msg, &cfg));
	ASSERT_EQ(0, ftu_nl_call(&self->nl, msg, NULL, NULL));	/* while up */
	ASSERT_EQ(0, get_config(&self->nl, &got));
	EXPECT_TRUE(got.up);
	EXPECT_EQ(ftu_key_id(cfg.key), got.key_id);
	ASSERT_EQ(2, got.n_accepted_ids);
	EXPECT_EQ(ftu_key_id(cfg.accepted[0]), got.accepted_ids[0]);
	EXPECT_EQ(ftu_key_id(cfg.accepted[1]), got.accepted_ids[1]);

	/* An empty list clears them; the key stays. */
	cfg.present = FTU_BIT(FTDETECT_A_KEYS_ACCEPTED);
	cfg.n_accepted = 0;
	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);
	ASSERT_EQ(0, ftu_msg_put_config(msg, &cfg));
	ASSERT_EQ(0, ftu_nl_call(&self->nl, msg, NULL, NULL));
	ASSERT_EQ(0, get_config(&self->nl, &got));
	EXPECT_EQ(ftu_key_id(cfg.key), got.key_id);
	EXPECT_EQ(0, got.n_accepted_ids);
	EXPECT_FALSE(FTU_HAS(&got, FTDETECT_A_KEYS_ACCEPTED));	/* write-only */
}

TEST_F(genl, bad_accepted_keys_are_refused)
{
	uint8_t keys[(FTD_KEYS_ACCEPTED_MAX + 1) * FTD_KEY_LEN] = { 1 };
	struct nl_msg *msg;
	struct ftu_config got;

	/* Not a whole number of keys. */
	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);
	nla_put(msg, FTDETECT_A_KEYS_ACCEPTED, FTD_KEY_LEN + 1, keys);
	EXPECT_EQ(-EINVAL, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_EXTACK("whole number");
	/* More than FTD_KEYS_ACCEPTED_MAX. */
	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);
	nla_put(msg, FTDETECT_A_KEYS_ACCEPTED, sizeof(keys), keys);
	EXPECT_EQ(-ERANGE, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_NE(0, self->nl.extack[0]);
	/* Ids are reported, never set. */
	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);
	nla_put_u64(msg, FTDETECT_A_KEY_ID, 1);
	EXPECT_EQ(-EINVAL, ftu_nl_call(&self->nl, msg, NULL, NULL));
	ASSERT_EQ(0, get_config(&self->nl, &got));
	EXPECT_EQ(0, got.n_accepted_ids);
	ASSERT_CONFIG_UNCHANGED();
}

TEST_F(genl, truncated_u32_is_refused)
{
	struct nl_msg *msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_SET_CONFIG, 0);
	uint16_t half = 7;

	nla_put(msg, FTDETECT_A_CLUSTER_ID, sizeof(half), &half);
	EXPECT_EQ(-EINVAL, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_NE(0, self->nl.extack[0]);
	ASSERT_CONFIG_UNCHANGED();
}

TEST_F(genl, node_table_round_trip)
{
	const char *const n1[] = { "192.0.2.1", NULL };
	const char *const n2[] = { "192.0.2.2", "198.51.100.2", NULL };
	const char *const n3[] = { "2001:db8::3", NULL };
	struct nl_msg *msg;
	struct dump d;
	char buf[FTU_ADDR_BUFSZ];

	ASSERT_EQ(0, add_node(&self->nl, 1, n1));
	ASSERT_EQ(0, add_node(&self->nl, 2, n2));
	ASSERT_EQ(0, add_node(&self->nl, 3, n3));
	ASSERT_EQ(0, dump_nodes(&self->nl, &d));
	ASSERT_EQ(3, d.n);
	EXPECT_EQ(1, d.nodes[0].id);
	EXPECT_EQ(2, d.nodes[1].id);
	ASSERT_EQ(2, d.nodes[1].nr_rails);
	EXPECT_STREQ("198.51.100.2", ftu_addr_format(&d.nodes[1].rails[1].addr, buf, sizeof(buf)));
	EXPECT_STREQ("2001:db8::3", ftu_addr_format(&d.nodes[2].rails[0].addr, buf, sizeof(buf)));
	EXPECT_EQ(FTD_NODE_UNKNOWN, d.nodes[2].state);

	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_DEL_NODE, 0);
	ASSERT_EQ(0, ftu_msg_put_node_id(msg, 2));
	ASSERT_EQ(0, ftu_nl_call(&self->nl, msg, NULL, NULL));
	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_DEL_NODE, 0);
	ASSERT_EQ(0, ftu_msg_put_node_id(msg, 2));
	EXPECT_EQ(-ENOENT, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_EXTACK("no such node");
	ASSERT_EQ(0, dump_nodes(&self->nl, &d));
	EXPECT_EQ(2, d.n);
}

static int count_node(struct nl_msg *msg, void *arg)
{
	struct ftu_node node;
	unsigned int *n = arg;

	if (ftu_msg_parse_node(msg, &node) || node.id != *n + 1)
		return -EPROTO;
	(*n)++;
	return 0;
}

/* 500 nodes do not fit one dump message: the dump must resume correctly. */
TEST_F(genl, many_nodes_dump_across_several_messages)
{
	char addr[32];
	const char *a[] = { addr, NULL };
	unsigned int i, n = 0;

	for (i = 1; i <= 500; i++) {
		snprintf(addr, sizeof(addr), "2001:db8::%x", i);
		ASSERT_EQ(0, add_node(&self->nl, i, a));
	}
	ASSERT_EQ(0, ftu_nl_call(&self->nl, ftu_nl_msg(&self->nl, FTDETECT_CMD_GET_NODE, NLM_F_DUMP),
				 count_node, &n));
	EXPECT_EQ(500, n);
	ASSERT_CONFIG_UNCHANGED();
}

TEST_F(genl, bad_nodes_are_refused_and_change_nothing)
{
	const char *const five[] = { "192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4",
				     "192.0.2.5", NULL };
	const char *const mcast[] = { "224.0.0.1", NULL };
	const char *const any6[] = { "::", NULL };
	const char *const twice[] = { "192.0.2.9", "192.0.2.9", NULL };
	const char *const ok[] = { "192.0.2.10", NULL };
	const char *const taken[] = { "192.0.2.10", NULL };
	struct nl_msg *msg;
	struct dump d;

	EXPECT_EQ(-E2BIG, add_node(&self->nl, 1, five));
	EXPECT_EXTACK("too many");
	EXPECT_EQ(-EINVAL, add_node(&self->nl, 1, mcast));
	EXPECT_EXTACK("unicast");
	EXPECT_EQ(-EINVAL, add_node(&self->nl, 1, any6));
	EXPECT_EQ(-EINVAL, add_node(&self->nl, 1, twice));
	ASSERT_EQ(0, add_node(&self->nl, 10, ok));
	EXPECT_EQ(-EEXIST, add_node(&self->nl, 11, taken));
	EXPECT_EXTACK("another node");

	/* A node nest without an id. */
	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_ADD_NODE, 0);
	nla_nest_end(msg, nla_nest_start(msg, FTDETECT_A_NODE));
	EXPECT_EQ(-EINVAL, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_NE(0, self->nl.extack[0]);

	/* No node nest at all. */
	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_ADD_NODE, 0);
	EXPECT_EQ(-EINVAL, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_EXTACK("is required");

	/* An address with both families. */
	{
		struct nlattr *node, *addrs, *addr;
		struct in6_addr a6;

		inet_pton(AF_INET6, "2001:db8::1", &a6);
		msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_ADD_NODE, 0);
		node = nla_nest_start(msg, FTDETECT_A_NODE);
		nla_put_u32(msg, FTDETECT_A_NODE_ID, 5);
		addrs = nla_nest_start(msg, FTDETECT_A_NODE_ADDRS);
		addr = nla_nest_start(msg, FTDETECT_A_ADDR);
		nla_put_u32(msg, FTDETECT_A_ADDR_INET, htonl(0xc0000205));
		nla_put(msg, FTDETECT_A_ADDR_INET6, sizeof(a6), &a6);
		nla_nest_end(msg, addr);
		nla_nest_end(msg, addrs);
		nla_nest_end(msg, node);
		EXPECT_EQ(-EINVAL, ftu_nl_call(&self->nl, msg, NULL, NULL));
		EXPECT_EXTACK("exactly one");
	}

	/* The reserved "no node" id. */
	{
		struct ftu_addr a;

		ftu_addr_parse("192.0.2.77", &a);
		msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_ADD_NODE, 0);
		ASSERT_EQ(0, ftu_msg_put_node(msg, FTD_NODE_NONE, &a, 1));
		EXPECT_EQ(-ERANGE, ftu_nl_call(&self->nl, msg, NULL, NULL));
	}

	ASSERT_EQ(0, dump_nodes(&self->nl, &d));
	ASSERT_EQ(1, d.n);
	EXPECT_EQ(10, d.nodes[0].id);
}

/*
 * An address is another node's only while that node holds it: a node
 * replaced with other addresses, or deleted, gives its old ones up.
 */
TEST_F(genl, addresses_follow_replacements_and_deletes)
{
	const char *const ten[] = { "192.0.2.10", "2001:db8::10", NULL };
	const char *const ten_moved[] = { "192.0.2.12", NULL };
	const char *const eleven[] = { "192.0.2.11", NULL };
	const char *const at_ten[] = { "192.0.2.10", NULL };
	const char *const at_twelve[] = { "192.0.2.12", NULL };
	const char *const at_ten6[] = { "2001:db8::10", NULL };
	struct nl_msg *msg;
	struct dump d;

	ASSERT_EQ(0, add_node(&self->nl, 10, ten));
	ASSERT_EQ(0, add_node(&self->nl, 11, eleven));
	EXPECT_EQ(-EEXIST, add_node(&self->nl, 11, at_ten6));
	EXPECT_EXTACK("another node");
	/* Node 10 moves: both its old addresses are free, its new one is not. */
	ASSERT_EQ(0, add_node(&self->nl, 10, ten_moved));
	EXPECT_EQ(0, add_node(&self->nl, 11, at_ten));
	EXPECT_EQ(-EEXIST, add_node(&self->nl, 13, at_twelve));
	EXPECT_EQ(0, add_node(&self->nl, 13, at_ten6));
	/* Re-applied unchanged: still its own. */
	EXPECT_EQ(0, add_node(&self->nl, 13, at_ten6));
	/* Deleted: its address is free. */
	msg = ftu_nl_msg(&self->nl, FTDETECT_CMD_DEL_NODE, 0);
	ASSERT_EQ(0, ftu_msg_put_node_id(msg, 10));
	ASSERT_EQ(0, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_EQ(0, add_node(&self->nl, 14, at_twelve));

	ASSERT_EQ(0, dump_nodes(&self->nl, &d));
	ASSERT_EQ(3, d.n);
	EXPECT_EQ(11, d.nodes[0].id);
	EXPECT_EQ(13, d.nodes[1].id);
	EXPECT_EQ(14, d.nodes[2].id);
	EXPECT_EQ(AF_INET, d.nodes[0].rails[0].addr.family);
	EXPECT_EQ(AF_INET6, d.nodes[1].rails[0].addr.family);
}

TEST_F(genl, up_needs_a_local_node_in_the_table)
{
	const char *const a1[] = { "192.0.2.1", NULL };

	EXPECT_EQ(-EINVAL, set_up(&self->nl, 1));
	EXPECT_EXTACK("local node id");
	ASSERT_EQ(0, set_u32(&self->nl, FTDETECT_A_LOCAL_NODE, 1));
	EXPECT_EQ(-EINVAL, set_up(&self->nl, 1));
	EXPECT_EXTACK("not in the node table");
	ASSERT_EQ(0, add_node(&self->nl, 1, a1));
	EXPECT_EQ(0, set_up(&self->nl, 1));
}

TEST_F(genl, identity_is_fixed_while_up_but_timing_and_keys_are_live)
{
	const char *const a1[] = { "192.0.2.1", NULL };
	struct ftu_config cfg;

	ASSERT_EQ(0, set_u32(&self->nl, FTDETECT_A_LOCAL_NODE, 1));
	ASSERT_EQ(0, add_node(&self->nl, 1, a1));
	ASSERT_EQ(0, set_up(&self->nl, 1));
	EXPECT_EQ(-EBUSY, set_u32(&self->nl, FTDETECT_A_CLUSTER_ID, 9));
	EXPECT_EXTACK("down first");
	EXPECT_EQ(0, set_u64(&self->nl, FTDETECT_A_TIMEOUT_NS, 80000000));
	ASSERT_EQ(0, get_config(&self->nl, &cfg));
	EXPECT_TRUE(cfg.up);
	EXPECT_NE(0, cfg.incarnation);
	EXPECT_EQ(80000000, cfg.timeout_ns);
	EXPECT_EQ(0, ftu_nl_call(&self->nl, ftu_nl_msg(&self->nl, FTDETECT_CMD_DOWN, 0), NULL, NULL));
	EXPECT_EQ(0, set_u32(&self->nl, FTDETECT_A_CLUSTER_ID, 9));
}

TEST_F(genl, port_in_use_is_reported)
{
	const char *const a1[] = { "192.0.2.1", NULL };
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(FTD_DEFAULT_PORT) };
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	ASSERT_LE(0, s);
	ASSERT_EQ(0, bind(s, (struct sockaddr *)&sin, sizeof(sin)));
	ASSERT_EQ(0, set_u32(&self->nl, FTDETECT_A_LOCAL_NODE, 1));
	ASSERT_EQ(0, add_node(&self->nl, 1, a1));
	EXPECT_EQ(-EADDRINUSE, set_up(&self->nl, 1));
	EXPECT_EXTACK("already in use");
	close(s);
	EXPECT_EQ(0, set_up(&self->nl, 1));
}

TEST_F(genl, events_cannot_be_sent_by_user_space)
{
	EXPECT_EQ(-EOPNOTSUPP,
		  ftu_nl_call(&self->nl, ftu_nl_msg(&self->nl, FTDETECT_CMD_EVENT, 0), NULL, NULL));
}

static int try_admin_commands(void *arg)
{
	const char *const a1[] = { "192.0.2.1", NULL };
	struct ftu_config cfg;
	struct ftu_nl nl;
	struct nl_msg *msg;
	struct dump d;
	int bad = 0;

	if (ftu_nl_open(&nl, FTDETECT_GENL_NAME))
		return 90;
	if (set_u32(&nl, FTDETECT_A_CLUSTER_ID, 5) != -EPERM)
		bad |= 1;
	if (add_node(&nl, 2, a1) != -EPERM)
		bad |= 2;
	msg = ftu_nl_msg(&nl, FTDETECT_CMD_DEL_NODE, 0);
	ftu_msg_put_node_id(msg, 1);
	if (ftu_nl_call(&nl, msg, NULL, NULL) != -EPERM)
		bad |= 4;
	if (ftu_nl_call(&nl, ftu_nl_msg(&nl, FTDETECT_CMD_DOWN, 0), NULL, NULL) != -EPERM)
		bad |= 8;
	/* Reading is for everyone. */
	if (get_config(&nl, &cfg) || dump_nodes(&nl, &d) || d.n != 1)
		bad |= 16;
	ftu_nl_close(&nl);
	return bad;
}

TEST_F(genl, unprivileged_configuration_is_refused)
{
	const char *const a1[] = { "192.0.2.1", NULL };
	struct dump d;

	ASSERT_EQ(0, add_node(&self->nl, 1, a1));
	EXPECT_EQ(0, ftd_test_unprivileged(try_admin_commands, NULL));
	ASSERT_CONFIG_UNCHANGED();
	ASSERT_EQ(0, dump_nodes(&self->nl, &d));
	EXPECT_EQ(1, d.n);
}

TEST_HARNESS_MAIN
