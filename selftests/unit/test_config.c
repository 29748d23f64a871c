// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of ftctl's config file parser and local node resolution, and
 * of the shared duration parser/formatter and name tables. No kernel
 * needed: everything here is plain parsing.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#include <linux/ftdetect.h>

#include "common/addr.h"
#include "common/duration.h"
#include "common/names.h"
#include "ftctl/config.h"
#include "ftctl/rdma.h"
#include "ftctl/local.h"

/* Parse `text` as if it were the file "cluster.conf". */
static int parse(const char *text, struct ftctl_conf *c, char *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	if (!f)
		return -2;
	ret = ftctl_conf_parse(f, "cluster.conf", c, err, FTCTL_CONF_ERRSZ);
	fclose(f);
	return ret;
}

static struct ftu_addr addr(const char *s)
{
	struct ftu_addr a;

	if (ftu_addr_parse(s, &a))
		abort();
	return a;
}

#define MINIMAL "[cluster]\nid = 1\nkey = none\n[nodes]\n1 192.0.2.1\n2 192.0.2.2\n"

FIXTURE(conf) {
	struct ftctl_conf c;
	char err[FTCTL_CONF_ERRSZ];
};

static FIXTURE_SETUP(conf)
{
}

static FIXTURE_TEARDOWN(conf)
{
	ftctl_conf_free(&self->c);
}

/* The parse must fail with exactly this message. */
#define EXPECT_CONF_ERROR(text, msg) do {					\
	EXPECT_EQ(-1, parse(text, &self->c, self->err));			\
	EXPECT_STREQ(msg, self->err);						\
	EXPECT_EQ(NULL, self->c.nodes);						\
	EXPECT_EQ(0, self->c.nr_nodes);						\
} while (0)

TEST_F(conf, full_file)
{
	static const char text[] =
		"# a cluster\n"
		"[cluster]\n"
		"id = 42\n"
		"port = 7062          # not the default\n"
		"period = 1.5ms\n"
		"timeout = 10ms\n"
		"key = 00112233445566778899AABBCCDDEEFF\n"
		"node = 2\n"
		"\n"
		"[nodes]\n"
		"# id  address [address...]\n"
		"1 192.0.2.1\n"
		"2 192.0.2.2 198.51.100.2\n"
		"3 192.0.2.3\n"
		"4 192.0.2.4 198.51.100.4 203.0.113.4 2001:db8::4\n";
	static const uint8_t key[FTD_KEY_LEN] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
		0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	};
	struct ftu_addr a;

	ASSERT_EQ(0, parse(text, &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_EQ(42, self->c.cluster);
	EXPECT_EQ(7062, self->c.port);
	EXPECT_EQ(1500000, self->c.period_ns);
	EXPECT_EQ(10000000, self->c.timeout_ns);
	ASSERT_TRUE(self->c.has_key);
	EXPECT_EQ(0, memcmp(key, self->c.key, FTD_KEY_LEN));
	ASSERT_TRUE(self->c.has_node);
	EXPECT_EQ(2, self->c.node);
	ASSERT_EQ(4, self->c.nr_nodes);

	/* File order, rail order, line numbers. */
	EXPECT_EQ(1, self->c.nodes[0].id);
	EXPECT_EQ(12, self->c.nodes[0].line);
	EXPECT_EQ(1, self->c.nodes[0].nr_addrs);
	EXPECT_EQ(AF_INET, self->c.nodes[0].addrs[0].family);
	EXPECT_EQ(htonl(0xc0000201), self->c.nodes[0].addrs[0].in.s_addr);
	EXPECT_EQ(2, self->c.nodes[1].nr_addrs);
	a = addr("198.51.100.2");
	EXPECT_EQ(0, ftu_addr_cmp(&a, &self->c.nodes[1].addrs[1]));
	EXPECT_EQ(1, self->c.nodes[2].nr_addrs);
	EXPECT_EQ(FTD_MAX_RAILS, self->c.nodes[3].nr_addrs);
	EXPECT_EQ(AF_INET6, self->c.nodes[3].addrs[3].family);
	a = addr("2001:db8::4");
	EXPECT_EQ(0, ftu_addr_cmp(&a, &self->c.nodes[3].addrs[3]));

	EXPECT_EQ(&self->c.nodes[2], ftctl_conf_find(&self->c, 3));
	EXPECT_EQ(NULL, ftctl_conf_find(&self->c, 5));
}

TEST_F(conf, defaults)
{
	ASSERT_EQ(0, parse(MINIMAL, &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_EQ(1, self->c.cluster);
	EXPECT_EQ(FTD_DEFAULT_PORT, self->c.port);
	EXPECT_EQ(FTD_DEFAULT_PERIOD_NS, self->c.period_ns);
	EXPECT_EQ(FTD_DEFAULT_TIMEOUT_NS, self->c.timeout_ns);
	EXPECT_FALSE(self->c.has_key);
	EXPECT_FALSE(self->c.has_node);
	EXPECT_EQ(2, self->c.nr_nodes);
	/* A file from before the eBPF keys: no program is attached. */
	EXPECT_EQ(FTCTL_XDP_OFF, self->c.xdp);
	EXPECT_FALSE(self->c.tc);
}

TEST_F(conf, ebpf_keys)
{
	static const struct { const char *v; enum ftctl_conf_xdp x; } modes[] = {
		{ "off", FTCTL_XDP_OFF }, { "auto", FTCTL_XDP_AUTO },
		{ "native", FTCTL_XDP_NATIVE }, { "generic", FTCTL_XDP_GENERIC },
	};
	char text[256];

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(text, sizeof(text), "[cluster]\nid = 1\nkey = none\nxdp = %s\ntc = %s\n"
			 "[nodes]\n1 192.0.2.1\n", modes[i].v, i % 2 ? "on" : "off");
		ASSERT_EQ(0, parse(text, &self->c, self->err)) TH_LOG("%s", self->err);
		EXPECT_EQ(modes[i].x, self->c.xdp);
		EXPECT_EQ(i % 2 == 1, self->c.tc);
		EXPECT_STREQ(modes[i].v, ftctl_conf_xdp_name(self->c.xdp));
		ftctl_conf_free(&self->c);
	}
}

TEST_F(conf, bad_ebpf_keys)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nxdp = yes\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:3: bad xdp 'yes' (expected off, auto, native or generic)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nxdp = Native\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:3: bad xdp 'Native' (expected off, auto, native or generic)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\ntc = 1\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:3: bad tc '1' (expected on or off)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nxdp = auto\nxdp = off\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: duplicate key 'xdp' (first set on line 3)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\ntc =\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:3: missing value for 'tc'");
}

TEST_F(conf, rdma_rails)
{
	static const struct { const char *v; uint8_t mask; } ok[] = {
		{ "1", 0x2 }, { "0,1", 0x3 }, { "1, 0", 0x3 }, { "none", 0 },
	};
	char text[256];

	ASSERT_EQ(0, parse(MINIMAL, &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_EQ(0, self->c.rdma_rails);	/* UDP unless asked */
	ftctl_conf_free(&self->c);
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(text, sizeof(text), "[cluster]\nid = 1\nkey = none\nrdma = %s\n"
			 "[nodes]\n1 192.0.2.1 198.51.100.1\n2 192.0.2.2 198.51.100.2\n", ok[i].v);
		ASSERT_EQ(0, parse(text, &self->c, self->err)) TH_LOG("%s", self->err);
		EXPECT_EQ(ok[i].mask, self->c.rdma_rails) TH_LOG("rdma = %s", ok[i].v);
		ftctl_conf_free(&self->c);
	}
}

TEST_F(conf, rdma_rails_naming_devices)
{
	ASSERT_EQ(0, parse("[cluster]\nid = 1\nkey = none\nrdma = 0@mlx5_0/1, 1@rxe.1-a\n"
			   "[nodes]\n1 192.0.2.1 198.51.100.1\n", &self->c, self->err))
		TH_LOG("%s", self->err);
	EXPECT_EQ(0x3, self->c.rdma_rails);
	EXPECT_STREQ("mlx5_0", self->c.rdma_dev[0].device);
	EXPECT_EQ(1, self->c.rdma_dev[0].port);
	EXPECT_STREQ("rxe.1-a", self->c.rdma_dev[1].device);
	EXPECT_EQ(0, self->c.rdma_dev[1].port);	/* any port of it */
	EXPECT_STREQ("", self->c.rdma_dev[2].device);
}

TEST_F(conf, bad_rdma_devices)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nkey = none\nrdma = 0@\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: rdma: rail 0: bad RDMA device name '' (expected "
			  "RAIL@DEVICE or RAIL@DEVICE/PORT, e.g. 1@mlx5_0/1)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nkey = none\nrdma = 0@mlx5:0\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: rdma: rail 0: bad RDMA device name 'mlx5:0' (expected "
			  "RAIL@DEVICE or RAIL@DEVICE/PORT, e.g. 1@mlx5_0/1)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nkey = none\nrdma = 0@mlx5_0/0\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: rdma: rail 0: bad port '0' of mlx5_0 (expected 1..255)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nkey = none\nrdma = 0, 0@mlx5_0\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: rdma: rail 0 given twice");
}

/*
 * A named device this machine does not have: the check fails, naming it,
 * before anything is applied. (Its other paths need a device: the
 * three-guest test selftests/guests/rdma_heartbeats.sh.)
 */
TEST_F(conf, rdma_check_names_a_missing_device)
{
	char why[FTCTL_CONF_ERRSZ];

	ASSERT_EQ(0, parse("[cluster]\nid = 1\nkey = none\nrdma = 0@ftdnosuchdev/1\n"
			   "[nodes]\n1 192.0.2.1\n", &self->c, self->err))
		TH_LOG("%s", self->err);
	EXPECT_EQ(-1, ftctl_rdma_check(&self->c, ftctl_conf_find(&self->c, 1), why, sizeof(why)));
	EXPECT_TRUE(strstr(why, "ftdnosuchdev") || strstr(why, "cannot list RDMA devices"))
		TH_LOG("%s", why);
	/* Without a device named, nothing is looked up. */
	ftctl_conf_free(&self->c);
	ASSERT_EQ(0, parse("[cluster]\nid = 1\nkey = none\nrdma = 0\n[nodes]\n1 192.0.2.1\n",
			   &self->c, self->err));
	EXPECT_EQ(0, ftctl_rdma_check(&self->c, ftctl_conf_find(&self->c, 1), why, sizeof(why)));
}

TEST_F(conf, bad_rdma_rails)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nkey = none\nrdma = 4\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: bad rdma rail '4' (expected rail numbers 0..3, "
			  "comma-separated, or none)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nkey = none\nrdma = yes\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: bad rdma rail 'yes' (expected rail numbers 0..3, "
			  "comma-separated, or none)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nkey = none\nrdma = ,\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: rdma: no rail given (rail numbers, or none)");
	/* Rails are numbered from 0: a node with one address has rail 0 only. */
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nkey = none\nrdma = 1\n[nodes]\n1 192.0.2.1\n"
			  "2 192.0.2.2\n",
			  "cluster.conf:4: rdma: rail 1, but no node has 2 addresses (rails are "
			  "numbered from 0)");
}

TEST_F(conf, whitespace_comments_and_crlf)
{
	static const char text[] =
		"   # leading comment\r\n"
		"\r\n"
		"\t[ cluster ]   # section with blanks\r\n"
		"id=7\r\n"
		"  period\t=\t200us  \r\n"
		"timeout =400us#no space before the comment\r\n"
		"key=none\r\n"
		"[nodes]\r\n"
		"\t10\t192.0.2.10 \t 198.51.100.10\t\r\n"
		"   \t  \r\n"
		"11   192.0.2.11   # trailing comment\r\n";

	ASSERT_EQ(0, parse(text, &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_EQ(7, self->c.cluster);
	EXPECT_EQ(200000, self->c.period_ns);
	EXPECT_EQ(400000, self->c.timeout_ns);
	ASSERT_EQ(2, self->c.nr_nodes);
	EXPECT_EQ(10, self->c.nodes[0].id);
	EXPECT_EQ(2, self->c.nodes[0].nr_addrs);
	EXPECT_EQ(11, self->c.nodes[1].id);
	EXPECT_EQ(1, self->c.nodes[1].nr_addrs);
}

TEST_F(conf, sections_may_repeat)
{
	static const char text[] =
		"[nodes]\n1 192.0.2.1\n[cluster]\nid = 3\nkey = none\n[nodes]\n2 192.0.2.2\n[cluster]\nport = 9\n";

	ASSERT_EQ(0, parse(text, &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_EQ(3, self->c.cluster);
	EXPECT_EQ(9, self->c.port);
	EXPECT_EQ(2, self->c.nr_nodes);
}

TEST_F(conf, limits_accepted)
{
	static const char text[] =
		"[cluster]\nid = 4294967295\nkey = none\nport = 65535\nperiod = 100us\ntimeout = 200us\n"
		"node = 4294967294\n"
		"[nodes]\n0 192.0.2.1\n4294967294 192.0.2.2\n";

	ASSERT_EQ(0, parse(text, &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_EQ(4294967295U, self->c.cluster);
	EXPECT_EQ(65535, self->c.port);
	EXPECT_EQ(FTD_MIN_PERIOD_NS, self->c.period_ns);
	EXPECT_EQ(2 * FTD_MIN_PERIOD_NS, self->c.timeout_ns);
	EXPECT_EQ(0, self->c.nodes[0].id);
	EXPECT_EQ(4294967294U, self->c.nodes[1].id);
}

TEST_F(conf, longest_period_and_timeout)
{
	static const char text[] =
		"[cluster]\nid = 1\nkey = none\nperiod = 10s\ntimeout = 600s\n[nodes]\n1 192.0.2.1\n";

	ASSERT_EQ(0, parse(text, &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_EQ(FTD_MAX_PERIOD_NS, self->c.period_ns);
	EXPECT_EQ(FTD_MAX_TIMEOUT_NS, self->c.timeout_ns);
}

TEST_F(conf, unknown_key)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 42\n\nperod = 10ms\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: unknown key 'perod' in [cluster]");
}

TEST_F(conf, keys_are_case_sensitive)
{
	EXPECT_CONF_ERROR("[cluster]\nID = 42\n", "cluster.conf:2: unknown key 'ID' in [cluster]");
}

TEST_F(conf, unknown_section)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\n[hosts]\n",
			  "cluster.conf:3: unknown section '[hosts]' (expected [cluster] or [nodes])");
}

TEST_F(conf, unterminated_section)
{
	EXPECT_CONF_ERROR("[cluster\n",
			  "cluster.conf:1: expected ']' at the end of the section header");
}

TEST_F(conf, line_outside_section)
{
	EXPECT_CONF_ERROR("# header\nid = 1\n",
			  "cluster.conf:2: 'id = 1' is outside any section "
			  "(start with [cluster] or [nodes])");
}

TEST_F(conf, duplicate_key)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nport = 1\n[nodes]\n[cluster]\nid = 2\n",
			  "cluster.conf:6: duplicate key 'id' (first set on line 2)");
}

TEST_F(conf, missing_equals)
{
	EXPECT_CONF_ERROR("[cluster]\nid 42\n",
			  "cluster.conf:2: expected 'key = value' in [cluster], got 'id 42'");
}

TEST_F(conf, missing_value)
{
	EXPECT_CONF_ERROR("[cluster]\nid =   # nothing\n",
			  "cluster.conf:2: missing value for 'id'");
}

TEST_F(conf, missing_key)
{
	EXPECT_CONF_ERROR("[cluster]\n= 42\n", "cluster.conf:2: missing key before '='");
}

TEST_F(conf, bad_cluster_id)
{
	EXPECT_CONF_ERROR("[cluster]\nid = -1\n",
			  "cluster.conf:2: bad cluster id '-1' (expected 0..4294967295)");
	EXPECT_CONF_ERROR("[cluster]\nid = 4294967296\n",
			  "cluster.conf:2: bad cluster id '4294967296' (expected 0..4294967295)");
	EXPECT_CONF_ERROR("[cluster]\nid = 0x10\n",
			  "cluster.conf:2: bad cluster id '0x10' (expected 0..4294967295)");
}

TEST_F(conf, bad_port)
{
	EXPECT_CONF_ERROR("[cluster]\nport = 0\n",
			  "cluster.conf:2: bad port '0' (expected 1..65535)");
	EXPECT_CONF_ERROR("[cluster]\nport = 65536\n",
			  "cluster.conf:2: bad port '65536' (expected 1..65535)");
	EXPECT_CONF_ERROR("[cluster]\nport = 70x\n",
			  "cluster.conf:2: bad port '70x' (expected 1..65535)");
}

TEST_F(conf, bad_period)
{
	EXPECT_CONF_ERROR("[cluster]\nperiod = 10\n",
			  "cluster.conf:2: bad period '10': missing unit (use ns, us, ms or s)");
	EXPECT_CONF_ERROR("[cluster]\nperiod = fast\n",
			  "cluster.conf:2: bad period 'fast': not a number (expected e.g. 10ms, 100us, 1.5s)");
	EXPECT_CONF_ERROR("[cluster]\nperiod = -1ms\n",
			  "cluster.conf:2: bad period '-1ms': negative durations are not allowed");
	EXPECT_CONF_ERROR("[cluster]\nperiod = 10 ms\n",
			  "cluster.conf:2: bad period '10 ms': unknown unit (use ns, us, ms or s)");
}

TEST_F(conf, period_out_of_range)
{
	EXPECT_CONF_ERROR("[cluster]\nperiod = 99us\n",
			  "cluster.conf:2: period 99us out of range (100us..10s)");
	EXPECT_CONF_ERROR("[cluster]\nperiod = 10001ms\n",
			  "cluster.conf:2: period 10001ms out of range (100us..10s)");
}

TEST_F(conf, timeout_out_of_range)
{
	EXPECT_CONF_ERROR("[cluster]\ntimeout = 601s\n",
			  "cluster.conf:2: timeout 601s out of range (200us..600s)");
}

TEST_F(conf, timeout_shorter_than_two_periods)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nperiod = 10ms\ntimeout = 19999us\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: timeout 20ms must be at least twice the period (10ms)");
	/* Against the default timeout, the period's line is the one to fix. */
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nperiod = 30ms\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:3: timeout 50ms (the default) must be at least "
			  "twice the period (30ms)");
}

TEST_F(conf, timeout_may_precede_period)
{
	ASSERT_EQ(0, parse("[cluster]\nid = 1\nkey = none\ntimeout = 1s\nperiod = 500ms\n[nodes]\n1 192.0.2.1\n",
			   &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_EQ(500000000, self->c.period_ns);
	EXPECT_EQ(1000000000, self->c.timeout_ns);
}

TEST_F(conf, bad_key)
{
	static const char why[] = "bad key: expected 32 hex digits (16 bytes; "
				  "ftctl genkey makes one), or none";
	char want[FTCTL_CONF_ERRSZ];

	snprintf(want, sizeof(want), "cluster.conf:2: %s", why);
	EXPECT_CONF_ERROR("[cluster]\nkey = 00112233445566778899aabbccddeef\n", want);
	EXPECT_CONF_ERROR("[cluster]\nkey = 00112233445566778899aabbccddeefg\n", want);
	EXPECT_CONF_ERROR("[cluster]\nkey = 00112233445566778899aabbccddeeff00\n", want);
	EXPECT_CONF_ERROR("[cluster]\nkey = None\n", want);
}

/* A misplaced key line is quoted in the error without the key. */
TEST_F(conf, errors_withhold_keys)
{
	EXPECT_CONF_ERROR("key = " "00112233445566778899aabbccddeeff\n",
			  "cluster.conf:1: 'key = [hex withheld]' is outside any section "
			  "(start with [cluster] or [nodes])");
	EXPECT_CONF_ERROR("[cluster]\nkey 00112233445566778899aabbccddeeff\n",
			  "cluster.conf:2: expected 'key = value' in [cluster], got "
			  "'key [hex withheld]'");
}

/*
 * Every message withholds keys, not only those that quote a whole line:
 * `ftctl genkey >> cluster.conf` appends a bare key under [nodes] in most
 * files, and a key pasted as a node id, an address or `node =` was quoted
 * whole.
 */
TEST_F(conf, no_message_shows_a_key)
{
	static const char *const text[] = {
		MINIMAL "00112233445566778899aabbccddeeff\n",
		MINIMAL "3 00112233445566778899aabbccddeeff\n",
		"[cluster]\nid = 1\nkey = none\nnode = 00112233445566778899aabbccddeeff\n"
		"[nodes]\n1 192.0.2.1\n",
		"[cluster]\nid = 00112233445566778899aabbccddeeff\n",
		"[cluster]\nport = 00112233445566778899aabbccddeeff\n",
		"[cluster]\nperiod = 00112233445566778899aabbccddeeff\n",
		"[cluster]\nkey = 00112233445566778899aabbccddeeff00\n",
		"[cluster]\naccept_key = 00112233445566778899aabbccddeeff0\n",
		"[cluster]\nkey = none\nkey_typo = 00112233445566778899aabbccddeeff\n",
		"[00112233445566778899aabbccddeeff]\n",
	};
	size_t i;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		memset(self->err, 0, sizeof(self->err));
		EXPECT_EQ(-1, parse(text[i], &self->c, self->err)) TH_LOG("file %zu parsed", i);
		EXPECT_EQ(NULL, strstr(self->err, "0011223344556677")) TH_LOG("file %zu: %s", i, self->err);
		EXPECT_NE(NULL, strstr(self->err, "cluster.conf")) TH_LOG("file %zu: %s", i, self->err);
		ftctl_conf_free(&self->c);
	}
}

/* No key at all is a mistake; running unauthenticated must be said. */
TEST_F(conf, key_required)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf: no key: add 'key = <32 hex digits>' (ftctl genkey makes "
			  "one) or 'keyfile = PATH' under [cluster]; 'key = none' runs without "
			  "authentication, so that anyone on the network can forge heartbeats");
	ASSERT_EQ(0, parse(MINIMAL, &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_FALSE(self->c.has_key);
	EXPECT_TRUE(self->c.key_none);
	EXPECT_EQ(0, self->c.n_accepted);
}

#define KEY_A "00112233445566778899aabbccddeeff"
#define KEY_B "0123456789abcdef0123456789abcdef"
#define KEY_C "fedcba9876543210fedcba9876543210"
#define KEY_D "ffeeddccbbaa99887766554433221100"
#define KEY_E "0f0e0d0c0b0a09080706050403020100"

/* The rounds of a key change: keys accepted besides the one we sign with. */
TEST_F(conf, accept_key)
{
	ASSERT_EQ(0, parse("[cluster]\nid = 1\naccept_key = " KEY_B ", " KEY_C "\nkey = " KEY_A
			   "\n[nodes]\n1 192.0.2.1\n", &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_TRUE(self->c.has_key);
	EXPECT_EQ(0x00, self->c.key[0]);
	ASSERT_EQ(2, self->c.n_accepted);
	EXPECT_EQ(0x01, self->c.accepted[0][0]);
	EXPECT_EQ(0xfe, self->c.accepted[1][0]);
	ftctl_conf_free(&self->c);

	/* From no key to a key: the all-zero key is accepted meanwhile. */
	ASSERT_EQ(0, parse("[cluster]\nid = 1\nkey = none\naccept_key = " KEY_A
			   "\n[nodes]\n1 192.0.2.1\n", &self->c, self->err)) TH_LOG("%s", self->err);
	EXPECT_EQ(1, self->c.n_accepted);

	EXPECT_CONF_ERROR("[cluster]\naccept_key = " KEY_B " " KEY_C " " KEY_D " " KEY_E "\n",
			  "cluster.conf:2: accept_key: more than 3 accepted keys");
	EXPECT_CONF_ERROR("[cluster]\naccept_key = " KEY_B " " KEY_B "\n",
			  "cluster.conf:2: accept_key: the same accepted key twice");
	EXPECT_CONF_ERROR("[cluster]\naccept_key = abc\n",
			  "cluster.conf:2: accept_key: bad key: expected 32 hex digits (16 bytes)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\naccept_key = " KEY_A "\nkey = " KEY_A
			  "\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:3: an accepted key equal to the key itself");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nkey = none\naccept_key = "
			  "00000000000000000000000000000000\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:4: an accepted key equal to the key itself ('key = none' "
			  "is the all-zero key)");
}

/* write_file PATH TEXT MODE: a keyfile for the tests below. */
static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) || chmod(path, mode))
		abort();
}

TEST_F(conf, keyfile)
{
	char dir[] = "/tmp/ftd-keyfile-XXXXXX", key[64], conf[64], text[256];

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(key, sizeof(key), "%s/cluster.key", dir);
	snprintf(conf, sizeof(conf), "%s/cluster.conf", dir);
	snprintf(text, sizeof(text), "[cluster]\nid = 1\nkeyfile = cluster.key\n"
		 "[nodes]\n1 192.0.2.1\n");
	write_file(conf, text, 0644);

	/* Relative to the config's directory; first key signs, the rest are accepted. */
	write_file(key, "# rotated 2026-11\n" KEY_A "\n\n" KEY_B "  # the old one\n", 0600);
	ASSERT_EQ(0, ftctl_conf_load(conf, &self->c, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	EXPECT_TRUE(self->c.has_key);
	EXPECT_TRUE(self->c.keyfile);
	EXPECT_EQ(0x11, self->c.key[1]);
	ASSERT_EQ(1, self->c.n_accepted);
	EXPECT_EQ(0x23, self->c.accepted[0][1]);
	ftctl_conf_free(&self->c);

	/* Others may read it: refused, and the message says how to mend it. */
	chmod(key, 0640);
	EXPECT_EQ(-1, ftctl_conf_load(conf, &self->c, self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "is open to its group or others (mode 640): chmod 600"))
		TH_LOG("%s", self->err);

	write_file(key, "# nothing yet\n", 0600);
	EXPECT_EQ(-1, ftctl_conf_load(conf, &self->c, self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "holds no key")) TH_LOG("%s", self->err);

	write_file(key, KEY_A "x\n", 0600);
	EXPECT_EQ(-1, ftctl_conf_load(conf, &self->c, self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "cluster.key:1: bad key")) TH_LOG("%s", self->err);

	/* A symbolic link is refused, and says so (not just ELOOP's text). */
	write_file(key, KEY_A "\n", 0600);
	snprintf(text, sizeof(text), "%s/real.key", dir);
	ASSERT_EQ(0, rename(key, text));
	ASSERT_EQ(0, symlink("real.key", key));
	EXPECT_EQ(-1, ftctl_conf_load(conf, &self->c, self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "cluster.key is a symbolic link: name the file itself"))
		TH_LOG("%s", self->err);
	unlink(key);

	/* Owned by another user (root may hand it over; the test needs root). */
	ASSERT_EQ(0, rename(text, key));
	if (geteuid() == 0 && chown(key, 4242, 4242) == 0) {
		EXPECT_EQ(-1, ftctl_conf_load(conf, &self->c, self->err, sizeof(self->err)));
		EXPECT_NE(NULL, strstr(self->err, "belongs to uid 4242, not to root or to us"))
			TH_LOG("%s", self->err);
	} else {
		TH_LOG("not root: the foreign-owner check is not tried");
	}
	unlink(key);

	/* A FIFO is not a key file, and apply does not wait for a writer. */
	ASSERT_EQ(0, mkfifo(key, 0600));
	EXPECT_EQ(-1, ftctl_conf_load(conf, &self->c, self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "cluster.key is not a regular file")) TH_LOG("%s", self->err);
	unlink(key);

	EXPECT_EQ(-1, ftctl_conf_load(conf, &self->c, self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "No such file or directory")) TH_LOG("%s", self->err);

	/* A keyfile excludes the config's own key lines. */
	EXPECT_CONF_ERROR("[cluster]\nkey = " KEY_A "\nkeyfile = x\n",
			  "cluster.conf:3: both key (line 2) and keyfile: set one");
	EXPECT_CONF_ERROR("[cluster]\naccept_key = " KEY_A "\nkeyfile = x\n",
			  "cluster.conf:3: accept_key (line 2) with a keyfile: list accepted keys "
			  "in the keyfile, after its first key");
	unlink(conf);
	rmdir(dir);
}

TEST_F(conf, local_node_not_listed)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\nnode = 9\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf:3: node 9 is not listed in [nodes]");
}

TEST_F(conf, local_node_none_is_not_an_id)
{
	EXPECT_CONF_ERROR("[cluster]\nnode = 4294967295\n",
			  "cluster.conf:2: bad node id '4294967295' (expected 0..4294967294)");
}

TEST_F(conf, bad_node_id)
{
	EXPECT_CONF_ERROR("[nodes]\nnode1 192.0.2.1\n",
			  "cluster.conf:2: bad node id 'node1' (expected 0..4294967294, then addresses)");
	EXPECT_CONF_ERROR("[nodes]\n4294967295 192.0.2.1\n",
			  "cluster.conf:2: bad node id '4294967295' (expected 0..4294967294, then addresses)");
	EXPECT_CONF_ERROR("[nodes]\n192.0.2.1\n",
			  "cluster.conf:2: bad node id '192.0.2.1' (expected 0..4294967294, then addresses)");
}

TEST_F(conf, node_without_address)
{
	EXPECT_CONF_ERROR("[nodes]\n1 192.0.2.1\n2   # forgot it\n",
			  "cluster.conf:3: node 2 has no address");
}

TEST_F(conf, too_many_addresses)
{
	EXPECT_CONF_ERROR("[nodes]\n1 192.0.2.1 192.0.2.2 192.0.2.3 192.0.2.4 192.0.2.5\n",
			  "cluster.conf:2: node 1 has more than 4 addresses (one per rail)");
}

TEST_F(conf, bad_address)
{
	EXPECT_CONF_ERROR("[nodes]\n1 192.0.2.256\n",
			  "cluster.conf:2: bad address '192.0.2.256' for node 1 "
			  "(expected an IPv4 or IPv6 address)");
	EXPECT_CONF_ERROR("[nodes]\n1 node1.example.com\n",
			  "cluster.conf:2: bad address 'node1.example.com' for node 1 "
			  "(expected an IPv4 or IPv6 address)");
	EXPECT_CONF_ERROR("[nodes]\n1 192.0.2.1/24\n",
			  "cluster.conf:2: bad address '192.0.2.1/24' for node 1 "
			  "(expected an IPv4 or IPv6 address)");
}

TEST_F(conf, unusable_addresses)
{
	EXPECT_CONF_ERROR("[nodes]\n1 0.0.0.0\n",
			  "cluster.conf:2: address 0.0.0.0 of node 1 is not a unicast address");
	EXPECT_CONF_ERROR("[nodes]\n1 0.1.2.3\n",
			  "cluster.conf:2: address 0.1.2.3 of node 1 is in 0.0.0.0/8, "
			  "which is not a usable destination");
	EXPECT_CONF_ERROR("[nodes]\n1 224.0.0.1\n",
			  "cluster.conf:2: address 224.0.0.1 of node 1 is not a unicast address");
	EXPECT_CONF_ERROR("[nodes]\n1 255.255.255.255\n",
			  "cluster.conf:2: address 255.255.255.255 of node 1 is not a unicast address");
	EXPECT_CONF_ERROR("[nodes]\n1 ::\n",
			  "cluster.conf:2: address :: of node 1 is not a unicast address");
	EXPECT_CONF_ERROR("[nodes]\n1 ff02::1\n",
			  "cluster.conf:2: address ff02::1 of node 1 is not a unicast address");
	EXPECT_CONF_ERROR("[nodes]\n1 ::ffff:192.0.2.1\n",
			  "cluster.conf:2: address ::ffff:192.0.2.1 of node 1 is IPv4-mapped; "
			  "write the plain IPv4 address");
	EXPECT_CONF_ERROR("[nodes]\n1 fe80::1\n",
			  "cluster.conf:2: address fe80::1 of node 1 is IPv6 link-local, which needs "
			  "an interface scope the config cannot express; use a global or "
			  "unique-local address");
}

TEST_F(conf, duplicate_node_id)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\n[nodes]\n1 192.0.2.1\n2 192.0.2.2\n1 192.0.2.3\n",
			  "cluster.conf:6: duplicate node id 1 (first on line 4)");
}

TEST_F(conf, duplicate_address_across_nodes)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\n[nodes]\n1 192.0.2.1 198.51.100.1\n"
			  "2 192.0.2.2\n3 198.51.100.1\n",
			  "cluster.conf:6: address 198.51.100.1 of node 3 is already used "
			  "by node 1 (line 4)");
	/* Same address, different spelling. */
	EXPECT_CONF_ERROR("[cluster]\nid = 1\n[nodes]\n1 2001:db8::1\n2 2001:DB8:0::1\n",
			  "cluster.conf:5: address 2001:db8::1 of node 2 is already used "
			  "by node 1 (line 4)");
}

TEST_F(conf, duplicate_address_within_node)
{
	EXPECT_CONF_ERROR("[nodes]\n1 192.0.2.1 192.0.2.1\n",
			  "cluster.conf:2: address 192.0.2.1 listed twice for node 1");
}

TEST_F(conf, first_duplicate_in_the_file_is_reported)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\n[nodes]\n"
			  "9 192.0.2.9\n"		/* 4 */
			  "1 192.0.2.1\n"		/* 5 */
			  "2 192.0.2.9\n"		/* 6: address of node 9 */
			  "9 192.0.2.99\n"		/* 7: id 9 again */
			  "1 192.0.2.11\n",		/* 8: id 1 again */
			  "cluster.conf:6: address 192.0.2.9 of node 2 is already used "
			  "by node 9 (line 4)");
	EXPECT_CONF_ERROR("[cluster]\nid = 1\n[nodes]\n"
			  "9 192.0.2.9\n1 192.0.2.1\n9 192.0.2.99\n1 192.0.2.11\n",
			  "cluster.conf:6: duplicate node id 9 (first on line 4)");
}

TEST_F(conf, rail_family_must_agree_across_nodes)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\n[nodes]\n"
			  "1 192.0.2.1 2001:db8:1::1\n"
			  "2 192.0.2.2 198.51.100.2\n",
			  "cluster.conf:5: rail 1 of node 2 is IPv4, but IPv6 on line 4: "
			  "address i of every node must be of one family");
	/* Fewer rails on one node is fine. */
	ASSERT_EQ(0, parse("[cluster]\nid = 1\nkey = none\n[nodes]\n1 192.0.2.1 2001:db8:1::1\n2 192.0.2.2\n",
			   &self->c, self->err)) TH_LOG("%s", self->err);
}

TEST_F(conf, missing_cluster_id)
{
	EXPECT_CONF_ERROR("[cluster]\nport = 7061\n[nodes]\n1 192.0.2.1\n",
			  "cluster.conf: no cluster id: add 'id = N' under [cluster]");
}

TEST_F(conf, no_nodes)
{
	EXPECT_CONF_ERROR("[cluster]\nid = 1\n[nodes]\n# nobody yet\n",
			  "cluster.conf: no nodes: list them under [nodes]");
}

TEST_F(conf, empty_file)
{
	EXPECT_CONF_ERROR("", "cluster.conf: no cluster id: add 'id = N' under [cluster]");
}

TEST_F(conf, load_missing_file)
{
	EXPECT_EQ(-1, ftctl_conf_load("/nonexistent/cluster.conf", &self->c, self->err,
				      sizeof(self->err)));
	EXPECT_STREQ("cannot open /nonexistent/cluster.conf: No such file or directory",
		     self->err);
}

TEST_F(conf, many_nodes)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ASSERT_NE(NULL, f);
	fputs("[cluster]\nid = 1\nkey = none\n[nodes]\n", f);
	for (unsigned int i = 0; i < 20000; i++)
		fprintf(f, "%u 10.%u.%u.%u fd00::%x\n", i, i >> 16, (i >> 8) & 255, i & 255, i + 1);
	fprintf(f, "20000 10.0.78.32\n");	/* = node 19999's 10.0.78.31 + 1: fine */
	fprintf(f, "20001 fd00::1\n");	/* node 0's second rail */
	fclose(f);
	EXPECT_CONF_ERROR(text, "cluster.conf:20006: address fd00::1 of node 20001 is "
			  "already used by node 0 (line 5)");
	free(text);
}

/* --------------------------------------------------------- heartbeat interfaces */

static struct ftctl_ifaddr ifaddr(const char *a, const char *ifname)
{
	struct ftctl_ifaddr e = { .addr = addr(a) };

	snprintf(e.ifname, sizeof(e.ifname), "%s", ifname);
	return e;
}

TEST(rail_ifaces)
{
	struct ftctl_conf c;
	char err[FTCTL_CONF_ERRSZ], names[FTD_MAX_RAILS][IF_NAMESIZE];
	struct ftctl_ifaddr host[] = {
		ifaddr("127.0.0.1", "lo"), ifaddr("2001:db8:1::1", "eth1"),
		ifaddr("192.0.2.1", "eth0"), ifaddr("2001:db8::1", "eth0"),
		ifaddr("192.0.2.2", "eth9"),	/* another node's: not ours */
	};

	ASSERT_EQ(0, parse("[cluster]\nid = 1\nkey = none\n[nodes]\n"
			   "1 192.0.2.1 2001:db8:1::1 2001:db8::1 198.51.100.1\n"
			   "2 192.0.2.2 2001:db8:1::2 2001:db8::2 198.51.100.2\n", &c, err))
		TH_LOG("%s", err);
	/* Rail order, each interface once, rails on no interface left out. */
	ASSERT_EQ(2, ftctl_rail_ifaces(ftctl_conf_find(&c, 1), host, 5, names));
	EXPECT_STREQ("eth0", names[0]);
	EXPECT_STREQ("eth1", names[1]);
	EXPECT_EQ(0, ftctl_rail_ifaces(ftctl_conf_find(&c, 1), host, 0, names));
	ftctl_conf_free(&c);
}

/* --------------------------------------------------------- local node */

FIXTURE(local) {
	struct ftctl_conf c;
	struct ftctl_local l;
	char err[FTCTL_CONF_ERRSZ];
};

static FIXTURE_SETUP(local)
{
	ASSERT_EQ(0, parse("[cluster]\nid = 1\nkey = none\n[nodes]\n"
			   "1 192.0.2.1 2001:db8::1\n2 192.0.2.2\n3 192.0.2.3 2001:db8::3\n",
			   &self->c, self->err)) TH_LOG("%s", self->err);
}

static FIXTURE_TEARDOWN(local)
{
	ftctl_conf_free(&self->c);
}

TEST_F(local, option_wins)
{
	struct ftu_addr host[] = { addr("192.0.2.2") };
	uint32_t opt = 3;

	ASSERT_EQ(0, ftctl_local_resolve(&self->c, "cluster.conf", &opt, host, 1, &self->l,
					 self->err, sizeof(self->err)));
	EXPECT_EQ(3, self->l.id);
	EXPECT_STREQ("given with --node", self->l.how);
}

TEST_F(local, option_must_be_listed)
{
	uint32_t opt = 4;

	EXPECT_EQ(-1, ftctl_local_resolve(&self->c, "cluster.conf", &opt, NULL, 0, &self->l,
					  self->err, sizeof(self->err)));
	EXPECT_STREQ("node 4 (--node) is not listed in [nodes] of cluster.conf", self->err);
}

TEST_F(local, file_node_key)
{
	self->c.has_node = true;
	self->c.node = 2;
	ASSERT_EQ(0, ftctl_local_resolve(&self->c, "cluster.conf", NULL, NULL, 0, &self->l,
					 self->err, sizeof(self->err)));
	EXPECT_EQ(2, self->l.id);
	EXPECT_STREQ("'node = 2' in cluster.conf", self->l.how);
}

TEST_F(local, by_address)
{
	struct ftu_addr host[] = { addr("127.0.0.1"), addr("::1"), addr("2001:db8::3"),
				   addr("fe80::1") };

	ASSERT_EQ(0, ftctl_local_resolve(&self->c, "cluster.conf", NULL, host, 4, &self->l,
					 self->err, sizeof(self->err)));
	EXPECT_EQ(3, self->l.id);
	EXPECT_STREQ("its address 2001:db8::3 is configured on this host", self->l.how);
}

TEST_F(local, two_rails_of_one_node)
{
	struct ftu_addr host[] = { addr("2001:db8::1"), addr("192.0.2.1") };

	ASSERT_EQ(0, ftctl_local_resolve(&self->c, "cluster.conf", NULL, host, 2, &self->l,
					 self->err, sizeof(self->err)));
	EXPECT_EQ(1, self->l.id);
}

TEST_F(local, no_address_matches)
{
	struct ftu_addr host[] = { addr("127.0.0.1"), addr("192.0.2.200") };

	EXPECT_EQ(-1, ftctl_local_resolve(&self->c, "cluster.conf", NULL, host, 2, &self->l,
					  self->err, sizeof(self->err)));
	EXPECT_STREQ("no address of cluster.conf is configured on this host (in this network "
		     "namespace); say which node this is with --node ID or 'node = ID' under "
		     "[cluster]", self->err);
}

TEST_F(local, two_nodes_match)
{
	struct ftu_addr host[] = { addr("192.0.2.2"), addr("2001:db8::1") };

	EXPECT_EQ(-1, ftctl_local_resolve(&self->c, "cluster.conf", NULL, host, 2, &self->l,
					  self->err, sizeof(self->err)));
	EXPECT_STREQ("nodes 1 (2001:db8::1) and 2 (192.0.2.2) of cluster.conf both have an "
		     "address on this host; choose one with --node ID", self->err);
}

TEST_F(local, a_given_node_must_own_an_address)
{
	struct ftu_addr host[] = { addr("127.0.0.1"), addr("2001:db8::3") };

	/* One of node 3's two addresses is here: enough. */
	EXPECT_EQ(0, ftctl_local_check_owned(&self->c, 3, "given with --node", host, 2,
					     self->err, sizeof(self->err)));
	/* None of node 1's (a copied file, a wrong --node): refused, saying why. */
	EXPECT_EQ(-1, ftctl_local_check_owned(&self->c, 1, "given with --node", host, 2,
					      self->err, sizeof(self->err)));
	EXPECT_STREQ("node 1 (given with --node) has no address on this host: none of "
		     "192.0.2.1, 2001:db8::1 is configured in this network namespace, and this "
		     "host would heartbeat as node 1; check the node id, or apply anyway with "
		     "--force (its addresses are not configured yet)", self->err);
	EXPECT_EQ(-1, ftctl_local_check_owned(&self->c, 2, "'node = 2' in cluster.conf", NULL, 0,
					      self->err, sizeof(self->err)));
	EXPECT_STREQ("node 2 ('node = 2' in cluster.conf) has no address on this host: "
		     "192.0.2.2 is not configured in this network namespace, and this host "
		     "would heartbeat as node 2; check the node id, or apply anyway with "
		     "--force (its addresses are not configured yet)", self->err);
}

TEST(host_addrs_include_loopback)
{
	struct ftu_addr *a, lo = addr("127.0.0.1");
	bool found = false;
	size_t n;

	ASSERT_EQ(0, ftctl_host_addrs(&a, &n));
	for (size_t i = 0; i < n; i++)
		found |= !ftu_addr_cmp(&a[i], &lo);
	free(a);
	if (!found)
		SKIP(return, "no 127.0.0.1 in this network namespace");
	EXPECT_TRUE(found);
}

/* --------------------------------------------------------- durations */

TEST(duration_parse_good)
{
	static const struct {
		const char *s;
		uint64_t ns;
	} cases[] = {
		{ "10ms", 10000000 }, { "100us", 100000 }, { "1s", 1000000000 },
		{ "250000ns", 250000 }, { "1.5ms", 1500000 }, { "0.1ms", 100000 },
		{ "0s", 0 },
		{ "2.000000000s", 2000000000 }, { "0.000000001s", 1 }, { "1.0ns", 1 },
		{ "007ms", 7000000 }, { "18446744073709551615ns", UINT64_MAX },
		{ "18446744073.709551615s", UINT64_MAX }, { "1.250000000000ms", 1250000 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = NULL;
		uint64_t ns = 12345;

		EXPECT_EQ(0, ftu_duration_parse(cases[i].s, &ns, &why))
			TH_LOG("'%s': %s", cases[i].s, why);
		EXPECT_EQ(cases[i].ns, ns) TH_LOG("'%s'", cases[i].s);
	}
}

TEST(duration_parse_micro_sign)
{
	const char *why;
	uint64_t ns;

	ASSERT_EQ(0, ftu_duration_parse("250\xc2\xb5s", &ns, &why));
	EXPECT_EQ(250000, ns);
}

TEST(duration_parse_bad)
{
	static const struct {
		const char *s, *why;
	} cases[] = {
		{ "", "not a number (expected e.g. 10ms, 100us, 1.5s)" },
		{ "ms", "not a number (expected e.g. 10ms, 100us, 1.5s)" },
		{ "10", "missing unit (use ns, us, ms or s)" },
		{ "1.5", "missing unit (use ns, us, ms or s)" },
		{ "-5ms", "negative durations are not allowed" },
		{ "+5ms", "not a number (expected e.g. 10ms, 100us, 1.5s)" },
		{ ".5ms", "not a number (expected e.g. 10ms, 100us, 1.5s)" },
		{ "5.ms", "expected digits after the decimal point" },
		{ "10 ms", "unknown unit (use ns, us, ms or s)" },
		{ "10mss", "unknown unit (use ns, us, ms or s)" },
		{ "10MS", "unknown unit (use ns, us, ms or s)" },
		{ "1e3ms", "unknown unit (use ns, us, ms or s)" },
		{ "5m", "unknown unit (use ns, us, ms or s)" },
		{ "1.5ns", "not a whole number of nanoseconds" },
		{ "0.0000000001s", "not a whole number of nanoseconds" },
		{ "18446744073709551616ns", "too large" },
		{ "18446744074s", "too large" },
		{ "18446744073.709551616s", "too large" },
		{ "99999999999999999999999s", "too large" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = NULL;
		uint64_t ns = 777;

		EXPECT_EQ(-1, ftu_duration_parse(cases[i].s, &ns, &why)) TH_LOG("'%s'", cases[i].s);
		EXPECT_STREQ(cases[i].why, why ? why : "(null)") TH_LOG("'%s'", cases[i].s);
		EXPECT_EQ(777, ns) TH_LOG("'%s' changed the output", cases[i].s);
	}
}

TEST(duration_format)
{
	static const struct {
		uint64_t ns;
		const char *s;
	} cases[] = {
		{ 0, "0" }, { 1, "1ns" }, { 999, "999ns" }, { 1000, "1us" },
		{ 850000, "850us" }, { 1250000, "1.25ms" }, { 10000000, "10ms" },
		{ 1500000, "1.5ms" }, { 1234567, "1.23ms" }, { 1235000, "1.24ms" },
		{ 999999, "1ms" }, { 999990, "999.99us" }, { 995, "995ns" }, { 1004, "1us" }, { 1005, "1.01us" }, { 1000000000, "1s" }, { 600000000000ULL, "600s" },
		{ 100000, "100us" }, { 10500, "10.5us" },
		{ UINT64_MAX, "18446744073.71s" },
	};
	char buf[FTU_DURATION_BUFSZ];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_STREQ(cases[i].s, ftu_duration_format(cases[i].ns, buf, sizeof(buf)))
			TH_LOG("%llu ns", (unsigned long long)cases[i].ns);
	}
}

TEST(duration_format_parses_back)
{
	/* Every short form the formatter prints is valid input, within rounding. */
	static const uint64_t values[] = { 1, 999, 1000, 1500, 123456, 10000000, 1999999999 };
	char buf[FTU_DURATION_BUFSZ];

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		const char *why;
		uint64_t back;

		ftu_duration_format(values[i], buf, sizeof(buf));
		ASSERT_EQ(0, ftu_duration_parse(buf, &back, &why)) TH_LOG("'%s': %s", buf, why);
		EXPECT_GE(back, values[i] - values[i] / 100);
		EXPECT_LE(back, values[i] + values[i] / 100);
	}
}

/* --------------------------------------------------------- names */

TEST(event_names)
{
	static const char *const expect[] = {
		[FTD_EV_NODE_ALIVE] = "NODE_ALIVE", [FTD_EV_NODE_SUSPECT] = "NODE_SUSPECT",
		[FTD_EV_NODE_DEAD] = "NODE_DEAD", [FTD_EV_NODE_LEFT] = "NODE_LEFT",
		[FTD_EV_NODE_RESTORED] = "NODE_RESTORED", [FTD_EV_RANKS_DEAD] = "RANKS_DEAD",
		[FTD_EV_PROC_DEAD] = "PROC_DEAD", [FTD_EV_PROC_EXIT] = "PROC_EXIT",
		[FTD_EV_IFACE_DEAD] = "IFACE_DEAD", [FTD_EV_IFACE_RESTORED] = "IFACE_RESTORED",
		[FTD_EV_FENCED] = "FENCED", [FTD_EV_OVERFLOW] = "OVERFLOW",
	};

	for (unsigned int t = 1; t <= FTD_EV_MAX; t++) {
		EXPECT_STREQ(expect[t], ftu_event_name(t));
		EXPECT_EQ((int)t, ftu_event_type(expect[t]));
	}
	EXPECT_EQ(NULL, ftu_event_name(0));
	EXPECT_EQ(NULL, ftu_event_name(FTD_EV_MAX + 1));
	EXPECT_EQ(NULL, ftu_event_name(65535));
	EXPECT_EQ(FTD_EV_NODE_DEAD, ftu_event_type("node_dead"));
	EXPECT_EQ(-1, ftu_event_type("NODE_GONE"));
	EXPECT_EQ(-1, ftu_event_type(""));
}

TEST(stamp_names)
{
	EXPECT_STREQ("none", ftu_stamp_name(FTD_STAMP_NONE));
	EXPECT_STREQ("xdp", ftu_stamp_name(FTD_STAMP_XDP));
	EXPECT_STREQ("skb", ftu_stamp_name(FTD_STAMP_SKB));
	EXPECT_STREQ("module", ftu_stamp_name(FTD_STAMP_MODULE));
	EXPECT_EQ(NULL, ftu_stamp_name(__FTD_STAMP_MAX));
}

TEST(node_state_names)
{
	EXPECT_STREQ("unknown", ftu_node_state_name(FTD_NODE_UNKNOWN));
	EXPECT_STREQ("alive", ftu_node_state_name(FTD_NODE_ALIVE));
	EXPECT_STREQ("suspect", ftu_node_state_name(FTD_NODE_SUSPECT));
	EXPECT_STREQ("dead", ftu_node_state_name(FTD_NODE_DEAD));
	EXPECT_STREQ("left", ftu_node_state_name(FTD_NODE_LEFT));
	EXPECT_STREQ("self", ftu_node_state_name(FTD_NODE_SELF));
	EXPECT_EQ(NULL, ftu_node_state_name(__FTD_NODE_STATE_MAX));
}

TEST_HARNESS_MAIN
