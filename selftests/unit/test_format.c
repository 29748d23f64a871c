// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the tools' output: the JSON writer, the aligned tables,
 * ftstat's node table / JSON / event lines, and ftctl's show, stats and
 * dry-run lines. Output is captured with open_memstream() and compared
 * exactly: scripts parse these formats.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include <linux/ftdetect.h>

#include "common/addr.h"
#include "common/json.h"
#include "common/keyid.h"
#include "common/print.h"
#include "common/table.h"
#include "ftctl/apply.h"
#include "ftctl/ebpf.h"
#include "ftctl/show.h"
#include "ftstat/format.h"
#include "ftstat/prom.h"

FIXTURE(out) {
	char *buf;
	size_t len;
	FILE *f;
};

static FIXTURE_SETUP(out)
{
	self->f = open_memstream(&self->buf, &self->len);
	ASSERT_NE(NULL, self->f);
}

static FIXTURE_TEARDOWN(out)
{
	if (self->f)
		fclose(self->f);
	free(self->buf);
}

/* Everything written so far, as a string. */
static const char *text(FIXTURE_DATA(out) *self)
{
	fflush(self->f);
	return self->buf;
}

static struct ftu_addr addr(const char *s)
{
	struct ftu_addr a;

	if (ftu_addr_parse(s, &a))
		abort();
	return a;
}

/* ------------------------------------------------------------- JSON */

TEST_F(out, json_structure)
{
	struct ftu_json j;

	ftu_json_init(&j, self->f);
	ftu_json_object_begin(&j);
	ftu_json_kv_u64(&j, "a", 1);
	ftu_json_key(&j, "b");
	ftu_json_array_begin(&j);
	ftu_json_u64(&j, 1);
	ftu_json_u64(&j, UINT64_MAX);
	ftu_json_object_begin(&j);
	ftu_json_kv_bool(&j, "c", true);
	ftu_json_object_end(&j);
	ftu_json_array_begin(&j);
	ftu_json_array_end(&j);
	ftu_json_array_end(&j);
	ftu_json_key(&j, "d");
	ftu_json_null(&j);
	ftu_json_kv_string(&j, "e", "x");
	ftu_json_kv_bool(&j, "f", false);
	ftu_json_kv_s64(&j, "g", -1);
	ftu_json_key(&j, "h");
	ftu_json_s64(&j, INT64_MIN);
	ftu_json_object_end(&j);
	EXPECT_STREQ("{\"a\":1,\"b\":[1,18446744073709551615,{\"c\":true},[]],"
		     "\"d\":null,\"e\":\"x\",\"f\":false,\"g\":-1,"
		     "\"h\":-9223372036854775808}", text(self));
}

TEST_F(out, json_string_escaping)
{
	ftu_json_write_string(self->f, "q\"b\\s/ \n\r\t\b\f \x01\x1f\x7f caf\xc3\xa9");
	EXPECT_STREQ("\"q\\\"b\\\\s/ \\n\\r\\t\\b\\f \\u0001\\u001f\x7f caf\xc3\xa9\"",
		     text(self));
}

TEST_F(out, json_empty_string_and_key_escaping)
{
	struct ftu_json j;

	ftu_json_init(&j, self->f);
	ftu_json_object_begin(&j);
	ftu_json_kv_string(&j, "we\"ird", "");
	ftu_json_object_end(&j);
	EXPECT_STREQ("{\"we\\\"ird\":\"\"}", text(self));
}

/* ------------------------------------------------------------- tables */

TEST_F(out, table_alignment)
{
	static const struct ftu_column cols[] = {
		{ "NAME", false }, { "N", true }, { "NOTE", false },
	};
	static const char *const r1[] = { "a", "1", "first" };
	static const char *const r2[] = { "longer", "12345", "" };
	static const char *const r3[] = { "b", NULL, NULL };
	struct ftu_table t;

	ftu_table_init(&t, cols, 3);
	ftu_table_add(&t, r1);
	ftu_table_add(&t, r2);
	ftu_table_add(&t, r3);
	EXPECT_EQ(0, ftu_table_print(&t, self->f));
	ftu_table_free(&t);
	/* Right-aligned numbers, no trailing blanks, NULL cells empty. */
	EXPECT_STREQ("NAME        N  NOTE\n"
		     "a           1  first\n"
		     "longer  12345\n"
		     "b\n", text(self));
}

TEST_F(out, table_header_only)
{
	static const struct ftu_column cols[] = { { "ID", false }, { "ADDRESSES", false } };
	struct ftu_table t;

	ftu_table_init(&t, cols, 2);
	EXPECT_EQ(0, ftu_table_print(&t, self->f));
	ftu_table_free(&t);
	EXPECT_STREQ("ID  ADDRESSES\n", text(self));
}

/* ------------------------------------------------------------- one printing path */

/* The same calls, printed once as text and once as JSON. */
static void print_sample(FILE *f, bool json)
{
	static const struct ftu_column cols[] = { { "ID", false }, { "N", true }, { "X", false } };
	struct ftu_print p;

	ftu_print_init(&p, f, json);
	ftu_print_object_begin(&p, NULL);
	ftu_print_u64(&p, "a", "a %" PRIu64 "\n", 1);
	ftu_print_duration(&p, "t_ns", "t %s\n", 1500000);
	ftu_print_u64(&p, "json_only", NULL, 7);
	ftu_print_text(&p, "text only\n");
	ftu_print_table_begin(&p, "rows", cols, 2);	/* X: a column this table leaves out */
	for (uint64_t i = 1; i <= 3; i++) {
		ftu_print_row_if(&p, i != 2);
		ftu_print_object_begin(&p, NULL);
		ftu_print_u64(&p, "id", "%" PRIu64, i);
		ftu_print_cell(&p, 2);
		ftu_print_text(&p, "never");
		ftu_print_cell(&p, 1);
		ftu_print_u64_opt(&p, i != 3, "n", "%" PRIu64, 10 * i);
		ftu_print_array_begin(&p, "v");
		ftu_print_string(&p, NULL, NULL, "x");
		ftu_print_array_end(&p);
		ftu_print_object_end(&p);
	}
	ftu_print_table_end(&p, "no rows");
	ftu_print_object_end(&p);
	ftu_print_done(&p);
}

TEST_F(out, one_path_text_and_json)
{
	print_sample(self->f, false);
	print_sample(self->f, true);
	EXPECT_STREQ("a 1\n"
		     "t 1.5ms\n"
		     "text only\n"
		     "ID   N\n"
		     "1   10\n"
		     "3    -\n"
		     "{\"a\":1,\"t_ns\":1500000,\"json_only\":7,\"rows\":["
		     "{\"id\":1,\"n\":10,\"v\":[\"x\"]},{\"id\":2,\"n\":20,\"v\":[\"x\"]},"
		     "{\"id\":3,\"v\":[\"x\"]}]}\n", text(self));
}

TEST_F(out, one_path_empty_table)
{
	static const struct ftu_column cols[] = { { "ID", false } };
	struct ftu_print p;

	for (int json = 0; json < 2; json++) {
		ftu_print_init(&p, self->f, json);
		ftu_print_object_begin(&p, NULL);
		ftu_print_table_begin(&p, "rows", cols, 1);
		ftu_print_table_end(&p, "no rows");
		ftu_print_table_begin(&p, "more", cols, 1);
		ftu_print_table_end(&p, NULL);
		ftu_print_object_end(&p);
		ftu_print_done(&p);
	}
	EXPECT_STREQ("no rows\nID\n{\"rows\":[],\"more\":[]}\n", text(self));
}

/* A cell longer than FTU_PRINT_CELL is cut, visibly. */
TEST_F(out, one_path_long_cell_is_cut_with_dots)
{
	static const struct ftu_column cols[] = { { "LONG", false } };
	struct ftu_print p;
	const char *t;

	ftu_print_init(&p, self->f, false);
	ftu_print_table_begin(&p, NULL, cols, 1);
	ftu_print_row(&p);
	for (int i = 0; i < 300; i++)
		ftu_print_text(&p, "%s", "1234567");
	ftu_print_table_end(&p, NULL);
	t = text(self);
	ASSERT_EQ(strlen("LONG\n") + FTU_PRINT_CELL - 1 + 1, strlen(t));
	EXPECT_STREQ("...\n", t + strlen(t) - 4);
}

/* ------------------------------------------------------------- ftstat */

static const struct ftu_config cfg = {
	.present = FTU_BIT(FTDETECT_A_CLUSTER_ID) | FTU_BIT(FTDETECT_A_LOCAL_NODE) |
		   FTU_BIT(FTDETECT_A_PORT) | FTU_BIT(FTDETECT_A_PERIOD_NS) |
		   FTU_BIT(FTDETECT_A_TIMEOUT_NS) | FTU_BIT(FTDETECT_A_UP) |
		   FTU_BIT(FTDETECT_A_INCARNATION),
	.cluster = 42, .node = 1, .port = 7061, .period_ns = 10000000,
	.timeout_ns = 50000000, .up = true, .incarnation = 1763780000,
};

#define DUMP_BITS (FTU_BIT(FTDETECT_A_NODE_ID) | FTU_BIT(FTDETECT_A_NODE_ADDRS) |	\
		   FTU_BIT(FTDETECT_A_NODE_STATE) | FTU_BIT(FTDETECT_A_NODE_INCARNATION) |	\
		   FTU_BIT(FTDETECT_A_NODE_RX) | FTU_BIT(FTDETECT_A_NODE_LOST) |		\
		   FTU_BIT(FTDETECT_A_NODE_IAT_MEAN_NS) |					\
		   FTU_BIT(FTDETECT_A_NODE_IAT_JITTER_NS) | FTU_BIT(FTDETECT_A_NODE_TX))
#define RAIL_BITS (FTU_BIT(FTDETECT_A_ADDR_INET) | FTU_BIT(FTDETECT_A_ADDR_RX) |	\
		   FTU_BIT(FTDETECT_A_ADDR_LOST))

/* Self, a two-rail node heard 3.2ms ago (second rail never), a node never heard. */
static void three_nodes(struct ftu_node n[3])
{
	memset(n, 0, 3 * sizeof(*n));
	n[0].present = DUMP_BITS;
	n[0].id = 1;
	n[0].state = FTD_NODE_SELF;
	n[0].incarnation = 1763780000;
	n[0].nr_rails = 1;
	n[0].rails[0].addr = addr("192.0.2.1");
	n[0].rails[0].present = RAIL_BITS;

	n[1] = n[0];
	n[1].present |= FTU_BIT(FTDETECT_A_NODE_AGE_NS) | FTU_BIT(FTDETECT_A_NODE_IAT_MAX_NS);
	n[1].id = 2;
	n[1].state = FTD_NODE_ALIVE;
	n[1].age_ns = 3200000;
	n[1].rx = 12345;
	n[1].lost = 3;
	n[1].iat_mean_ns = 10001234;
	n[1].iat_jitter_ns = 12500;
	n[1].iat_max_ns = 31000000;
	n[1].tx = 12350;
	n[1].nr_rails = 2;
	n[1].rails[0].addr = addr("192.0.2.2");
	n[1].rails[0].present = RAIL_BITS | FTU_BIT(FTDETECT_A_ADDR_AGE_NS);
	n[1].rails[0].rx = 6173;
	n[1].rails[0].lost = 1;
	n[1].rails[0].age_ns = 3200000;
	n[1].rails[1].addr = addr("198.51.100.2");
	n[1].rails[1].present = RAIL_BITS;
	n[1].rails[1].rx = 6172;
	n[1].rails[1].lost = 2;

	n[2] = n[0];
	n[2].id = 3;
	n[2].state = FTD_NODE_UNKNOWN;
	n[2].incarnation = 0;
	n[2].rails[0].addr = addr("2001:db8::3");
	n[2].rails[0].present = FTU_BIT(FTDETECT_A_ADDR_INET6) | FTU_BIT(FTDETECT_A_ADDR_RX) |
				FTU_BIT(FTDETECT_A_ADDR_LOST);
}

TEST_F(out, ftstat_table)
{
	struct ftu_node n[3];

	three_nodes(n);
	ftstat_print_nodes(self->f, &cfg, n, 3, false, NULL);
	EXPECT_STREQ(
"ID  ADDRESS         STATE    LAST HEARD  IAT MEAN  JITTER  LOST     RX\n"
"1   192.0.2.1       self              -         -       -     0      0\n"
"2   192.0.2.2 (+1)  alive         3.2ms      10ms  12.5us     3  12345\n"
"3   2001:db8::3     unknown           -         -       -     0      0\n"
"cluster 42, local node 1, period 10ms, timeout 50ms, up (incarnation 1763780000)\n",
		text(self));
}

TEST_F(out, ftstat_table_rails)
{
	struct ftu_node n[3];

	three_nodes(n);
	ftstat_print_nodes(self->f, &cfg, n, 3, true, NULL);
	EXPECT_STREQ(
"ID  ADDRESS                 STATE    LAST HEARD  IAT MEAN  JITTER  LOST     RX\n"
"1   192.0.2.1               self              -         -       -     0      0\n"
"2   192.0.2.2 (+1)          alive         3.2ms      10ms  12.5us     3  12345\n"
"      rail 0: 192.0.2.2                   3.2ms                       1   6173\n"
"      rail 1: 198.51.100.2                    -                       2   6172\n"
"3   2001:db8::3             unknown           -         -       -     0      0\n"
"cluster 42, local node 1, period 10ms, timeout 50ms, up (incarnation 1763780000)\n",
		text(self));
}

TEST_F(out, ftstat_table_empty_and_down)
{
	struct ftu_config c = cfg;

	c.up = false;
	c.node = FTD_NODE_NONE;
	ftstat_print_nodes(self->f, &c, NULL, 0, false, NULL);
	EXPECT_STREQ("no nodes (configure them with 'ftctl apply')\n"
		     "cluster 42, local node not set, period 10ms, timeout 50ms, down\n",
		     text(self));
}

TEST_F(out, ftstat_json)
{
	struct ftu_node n[3];

	three_nodes(n);
	ftstat_print_nodes_json(self->f, &cfg, n, 3, NULL);
	EXPECT_STREQ(
		"{\"cluster\":42,\"node\":1,\"port\":7061,\"period_ns\":10000000,"
		"\"timeout_ns\":50000000,\"up\":true,\"incarnation\":1763780000,\"nodes\":["
		"{\"id\":1,\"address\":\"192.0.2.1\",\"addresses\":[\"192.0.2.1\"],"
		"\"state\":\"self\",\"incarnation\":1763780000,\"iat_mean_ns\":0,"
		"\"iat_jitter_ns\":0,\"lost\":0,\"rx\":0,\"tx\":0,"
		"\"rails\":[{\"rail\":0,\"address\":\"192.0.2.1\",\"lost\":0,\"rx\":0}]},"
		"{\"id\":2,\"address\":\"192.0.2.2\",\"addresses\":[\"192.0.2.2\",\"198.51.100.2\"],"
		"\"state\":\"alive\",\"incarnation\":1763780000,\"age_ns\":3200000,"
		"\"iat_mean_ns\":10001234,\"iat_jitter_ns\":12500,\"iat_max_ns\":31000000,"
		"\"lost\":3,\"rx\":12345,"
		"\"tx\":12350,\"rails\":[{\"rail\":0,\"address\":\"192.0.2.2\",\"age_ns\":3200000,"
		"\"lost\":1,\"rx\":6173},{\"rail\":1,\"address\":\"198.51.100.2\",\"lost\":2,"
		"\"rx\":6172}]},"
		"{\"id\":3,\"address\":\"2001:db8::3\",\"addresses\":[\"2001:db8::3\"],"
		"\"state\":\"unknown\",\"incarnation\":0,\"iat_mean_ns\":0,\"iat_jitter_ns\":0,"
		"\"lost\":0,\"rx\":0,\"tx\":0,"
		"\"rails\":[{\"rail\":0,\"address\":\"2001:db8::3\",\"lost\":0,\"rx\":0}]}]}\n",
		text(self));
}

TEST_F(out, ftstat_json_node_not_set_and_unknown_state)
{
	struct ftu_config c = cfg;
	struct ftu_node n = {
		.present = FTU_BIT(FTDETECT_A_NODE_ID) | FTU_BIT(FTDETECT_A_NODE_STATE),
		.id = 5, .state = 42,
	};

	c.node = FTD_NODE_NONE;
	ftstat_print_nodes_json(self->f, &c, &n, 1, NULL);
	EXPECT_NE(NULL, strstr(text(self), "\"node\":null,"));
	EXPECT_NE(NULL, strstr(text(self), "{\"id\":5,\"addresses\":[],\"state\":\"42\",\"rails\":[]}"));
}

/* ------------------------------------------------------------- stamps, delays, eBPF */

/* three_nodes() as a module with XDP reports it: stamp sources and delays. */
static void stamped_nodes(struct ftu_node n[3])
{
	three_nodes(n);
	n[0].rails[0].present |= FTU_BIT(FTDETECT_A_ADDR_STAMP);
	n[0].rails[0].stamp = FTD_STAMP_NONE;
	n[1].rails[0].present |= FTU_BIT(FTDETECT_A_ADDR_STAMP) | FTU_BIT(FTDETECT_A_ADDR_DELAY);
	n[1].rails[0].stamp = FTD_STAMP_XDP;
	n[1].rails[0].delay = (struct ftu_delay){
		.present = FTU_BIT(FTDETECT_A_DELAY_SAMPLES) | FTU_BIT(FTDETECT_A_DELAY_MIN_NS) |
			   FTU_BIT(FTDETECT_A_DELAY_MEAN_NS) | FTU_BIT(FTDETECT_A_DELAY_MAX_NS) |
			   FTU_BIT(FTDETECT_A_DELAY_HIST),
		.samples = 6173, .min_ns = 4348, .mean_ns = 12802, .max_ns = 1004127,
		.hist = { [3] = 2700, [4] = 3000, [5] = 400, [6] = 70, [10] = 2, [15] = 1 },
	};
	n[1].rails[1].present |= FTU_BIT(FTDETECT_A_ADDR_STAMP);
	n[1].rails[1].stamp = FTD_STAMP_SKB;
	n[2].rails[0].present |= FTU_BIT(FTDETECT_A_ADDR_STAMP);
	n[2].rails[0].stamp = FTD_STAMP_NONE;
}

/* n1r0: ftdetect's XDP (native) and TC; eth9: another XDP program; d0: pins only. */
static struct ftd_ebpf_iface ifaces[3];
static void ebpf_status(struct ftd_ebpf_status *st)
{
	memset(st, 0, sizeof(*st));
	memset(ifaces, 0, sizeof(ifaces));
	strcpy(st->dir, "/sys/fs/bpf/ftdetect/net-4026532209");
	st->has_config = true;
	st->config = (struct ftd_ebpf_config){ .port = 7061, .cluster = 42,
		.flags = FTD_EBPF_F_CLUSTER | FTD_EBPF_F_MEMBERS };
	st->has_members = true;
	st->nr_members = 6;
	strcpy(ifaces[0].name, "n1r0");
	ifaces[0].ifindex = 2;
	ifaces[0].xdp_prog_id = 12;
	ifaces[0].xdp_mode = FTD_XDP_NATIVE;
	ifaces[0].xdp_owner = FTD_OWNER_OURS;
	ifaces[0].has_xdp_stats = true;
	for (int i = 0; i < __FTD_XDP_NR; i++)
		ifaces[0].xdp[i] = 100 * (uint64_t)(i + 1);
	ifaces[0].tc_prog_id = 13;
	ifaces[0].tc_owner = FTD_OWNER_OURS;
	ifaces[0].has_tc_stats = true;
	ifaces[0].tc[FTD_TC_STAMPED] = 5000;
	ifaces[0].tc[FTD_TC_DELAY_SAMPLES] = 4000;
	ifaces[0].tc[FTD_TC_DELAY_SUM_NS] = 4000 * 13469ULL;
	ifaces[0].tc[FTD_TC_DELAY_MAX_NS] = 639651;
	strcpy(ifaces[1].name, "eth9");
	ifaces[1].ifindex = 3;
	ifaces[1].xdp_prog_id = 40;
	ifaces[1].xdp_mode = FTD_XDP_GENERIC;
	ifaces[1].xdp_owner = FTD_OWNER_OTHER;
	strcpy(ifaces[2].name, "d0");
	ifaces[2].ifindex = 4;
	ifaces[2].has_xdp_stats = true;
	st->ifaces = ifaces;
	st->nr_ifaces = 3;
}

TEST_F(out, ftstat_table_stamps_and_ebpf)
{
	struct ftd_ebpf_status st;
	struct ftu_node n[3];

	stamped_nodes(n);
	ebpf_status(&st);
	ftstat_print_nodes(self->f, &cfg, n, 3, true, &st);
	EXPECT_STREQ(
"ID  ADDRESS                 STATE    LAST HEARD  IAT MEAN  JITTER  LOST     RX  STAMP\n"
"1   192.0.2.1               self              -         -       -     0      0  -\n"
"2   192.0.2.2 (+1)          alive         3.2ms      10ms  12.5us     3  12345  mixed\n"
"      rail 0: 192.0.2.2                   3.2ms                       1   6173  xdp\n"
"      rail 1: 198.51.100.2                    -                       2   6172  skb\n"
"3   2001:db8::3             unknown           -         -       -     0      0  -\n"
"cluster 42, local node 1, period 10ms, timeout 50ms, up (incarnation 1763780000)\n"
"xdp: n1r0 native; tc egress: n1r0\n",
		text(self));
}

TEST_F(out, ftstat_no_ebpf_line_when_nothing_attached)
{
	struct ftd_ebpf_status st = { .dir = "" };
	struct ftu_node n[3];

	stamped_nodes(n);
	n[1].rails[1].stamp = FTD_STAMP_XDP;	/* both rails agree */
	ftstat_print_nodes(self->f, &cfg, n, 2, false, &st);
	EXPECT_STREQ(
"ID  ADDRESS         STATE  LAST HEARD  IAT MEAN  JITTER  LOST     RX  STAMP\n"
"1   192.0.2.1       self            -         -       -     0      0  -\n"
"2   192.0.2.2 (+1)  alive       3.2ms      10ms  12.5us     3  12345  xdp\n"
"cluster 42, local node 1, period 10ms, timeout 50ms, up (incarnation 1763780000)\n",
		text(self));
}

TEST_F(out, ftstat_delays)
{
	struct ftd_ebpf_status st;
	struct ftu_node n[3];

	stamped_nodes(n);
	ebpf_status(&st);
	ftstat_print_delays(self->f, &cfg, n, 3, &st);
	EXPECT_STREQ(
"ID  RAIL  ADDRESS       STAMP  SAMPLES     MIN    MEAN  MAX  DRIVER-TO-MODULE DELAY\n"
"2      0  192.0.2.2     xdp       6173  4.35us  12.8us  1ms  4-8us:2700 8-16us:3000 "
	"16-32us:400 32-64us:70 512-1024us:2 >=16384us:1\n"
"2      1  198.51.100.2  skb          -       -       -    -  -\n"
"3      0  2001:db8::3   -            -       -       -    -  -\n"
"cluster 42, local node 1, period 10ms, timeout 50ms, up (incarnation 1763780000)\n"
"xdp: n1r0 native; tc egress: n1r0\n",
		text(self));
}

TEST_F(out, ftstat_delays_no_peers)
{
	struct ftu_node n[3];

	three_nodes(n);
	ftstat_print_delays(self->f, &cfg, n, 1, NULL);
	EXPECT_STREQ("no peers (configure them with 'ftctl apply')\n"
		     "cluster 42, local node 1, period 10ms, timeout 50ms, up (incarnation 1763780000)\n",
		     text(self));
}

TEST(delay_bucket_labels)
{
	char b[24];

	EXPECT_STREQ("<1us", ftstat_delay_bucket_label(0, b, sizeof(b)));
	EXPECT_STREQ("1-2us", ftstat_delay_bucket_label(1, b, sizeof(b)));
	EXPECT_STREQ("2-4us", ftstat_delay_bucket_label(2, b, sizeof(b)));
	EXPECT_STREQ("8192-16384us", ftstat_delay_bucket_label(14, b, sizeof(b)));
	EXPECT_STREQ(">=16384us", ftstat_delay_bucket_label(15, b, sizeof(b)));
}

TEST_F(out, ftstat_json_stamp_delay_ebpf)
{
	struct ftd_ebpf_status st;
	struct ftu_node n[3];

	stamped_nodes(n);
	ebpf_status(&st);
	ftstat_print_nodes_json(self->f, &cfg, n + 1, 1, &st);
	EXPECT_STREQ(
		"{\"cluster\":42,\"node\":1,\"port\":7061,\"period_ns\":10000000,"
		"\"timeout_ns\":50000000,\"up\":true,\"incarnation\":1763780000,\"nodes\":["
		"{\"id\":2,\"address\":\"192.0.2.2\",\"addresses\":[\"192.0.2.2\",\"198.51.100.2\"],"
		"\"state\":\"alive\",\"incarnation\":1763780000,\"age_ns\":3200000,"
		"\"iat_mean_ns\":10001234,\"iat_jitter_ns\":12500,\"iat_max_ns\":31000000,"
		"\"lost\":3,\"rx\":12345,\"tx\":12350,\"rails\":["
		"{\"rail\":0,\"address\":\"192.0.2.2\",\"age_ns\":3200000,\"lost\":1,\"rx\":6173,"
		"\"stamp\":\"xdp\",\"driver_delay\":{\"samples\":6173,\"min_ns\":4348,"
		"\"mean_ns\":12802,\"max_ns\":1004127,"
		"\"hist\":[0,0,0,2700,3000,400,70,0,0,0,2,0,0,0,0,1]}},"
		"{\"rail\":1,\"address\":\"198.51.100.2\",\"lost\":2,\"rx\":6172,\"stamp\":\"skb\"}]}],"
		"\"ebpf\":{\"xdp\":[{\"ifname\":\"n1r0\",\"mode\":\"native\",\"prog_id\":12}],"
		"\"tc_egress\":[{\"ifname\":\"n1r0\",\"prog_id\":13}]}}\n",
		text(self));
}

TEST_F(out, ftctl_xdp_status)
{
	struct ftd_ebpf_status st;

	ebpf_status(&st);
	ftctl_xdp_status_print(self->f, &st, false);
	ftctl_xdp_status_print(self->f, &st, true);
	EXPECT_STREQ(
"DEV   MODE     PROGRAM           STAMPED  NOT PARSED  SHORT  MAGIC  VERSION  LENGTH  CLUSTER  NON-MEMBER\n"
"n1r0  native   ftdetect (id 12)      100         200    300    400      500     600      700         800\n"
"eth9  generic  other (id 40)           -           -      -      -        -       -        -           -\n"
"d0    off      -                       0           0      0      0        0       0        0           0\n"
"port 7061, cluster 42, 6 member addresses; pins in /sys/fs/bpf/ftdetect/net-4026532209\n"
		"{\"pin_dir\":\"/sys/fs/bpf/ftdetect/net-4026532209\","
		"\"config\":{\"port\":7061,\"filter_cluster\":true,\"cluster\":42,"
		"\"filter_members\":true},\"members\":6,\"interfaces\":["
		"{\"ifname\":\"n1r0\",\"ifindex\":2,\"attached\":true,\"prog_id\":12,"
		"\"ftdetect\":true,\"mode\":\"native\",\"counters\":{\"stamped\":100,"
		"\"not_parsed\":200,\"drop_short\":300,\"drop_magic\":400,\"drop_version\":500,"
		"\"drop_length\":600,\"drop_cluster\":700,\"drop_nonmember\":800,\"unstamped\":900}},"
		"{\"ifname\":\"eth9\",\"ifindex\":3,\"attached\":true,\"prog_id\":40,"
		"\"ftdetect\":false,\"mode\":\"generic\"},"
		"{\"ifname\":\"d0\",\"ifindex\":4,\"attached\":false,\"counters\":{\"stamped\":0,"
		"\"not_parsed\":0,\"drop_short\":0,\"drop_magic\":0,\"drop_version\":0,"
		"\"drop_length\":0,\"drop_cluster\":0,\"drop_nonmember\":0,\"unstamped\":0}}]}\n",
		text(self));
}

TEST_F(out, ftctl_tc_status)
{
	struct ftd_ebpf_status st;

	ebpf_status(&st);
	ftctl_tc_status_print(self->f, &st, false);
	ftctl_tc_status_print(self->f, &st, true);
	EXPECT_STREQ(
"DEV   PROGRAM           STAMPED  NOT PARSED  ERRORS  DELAY MEAN  DELAY MAX  BACKWARDS\n"
"n1r0  ftdetect (id 13)     5000           0       0     13.47us   639.65us          0\n"
"port 7061, cluster 42, 6 member addresses; pins in /sys/fs/bpf/ftdetect/net-4026532209\n"
		"{\"pin_dir\":\"/sys/fs/bpf/ftdetect/net-4026532209\","
		"\"config\":{\"port\":7061,\"filter_cluster\":true,\"cluster\":42,"
		"\"filter_members\":true},\"members\":6,\"interfaces\":["
		"{\"ifname\":\"n1r0\",\"ifindex\":2,\"attached\":true,\"prog_id\":13,"
		"\"ftdetect\":true,\"counters\":{\"stamped\":5000,\"not_parsed\":0,\"errors\":0,"
		"\"delay_samples\":4000,\"delay_sum_ns\":53876000,\"delay_max_ns\":639651,"
		"\"delay_negative\":0},\"delay_mean_ns\":13469}]}\n",
		text(self));
}

TEST_F(out, ftctl_ebpf_status_nothing)
{
	struct ftd_ebpf_status st = { .dir = "/sys/fs/bpf/ftdetect/net-1" };

	ftctl_xdp_status_print(self->f, &st, false);
	ftctl_tc_status_print(self->f, &st, false);
	st.dir[0] = '\0';
	ftctl_xdp_status_print(self->f, &st, true);
	EXPECT_STREQ(
		"no XDP program on any interface of this namespace (ftctl xdp attach DEV)\n"
		"no maps pinned in /sys/fs/bpf/ftdetect/net-1\n"
		"no TC egress program on any interface of this namespace (ftctl tc attach DEV)\n"
		"no maps pinned in /sys/fs/bpf/ftdetect/net-1\n"
		"{\"pin_dir\":null,\"interfaces\":[]}\n",
		text(self));
}

static const struct ftd_event dead = {
	.version = FTD_EVENT_VERSION, .size = sizeof(struct ftd_event),
	.type = FTD_EV_NODE_DEAD, .seq = 17, .time_ns = 1795000000123456789ULL,
	.mono_ns = 5000000000ULL, .node = 3, .incarnation = 1, .rail = FTD_RAIL_NONE,
	.origin = 1,
};

TEST_F(out, event_node_dead)
{
	ftstat_print_event(self->f, &dead);
	ftstat_print_event_json(self->f, &dead);
	EXPECT_STREQ("2026-11-18T11:06:40.123456789Z NODE_DEAD node 3 incarnation 1 origin 1\n"
		     "{\"event\":\"NODE_DEAD\",\"type\":3,\"seq\":17,\"time_ns\":1795000000123456789,"
		     "\"mono_ns\":5000000000,\"node\":3,\"incarnation\":1,\"origin\":1}\n",
		     text(self));
}

TEST_F(out, event_fields_by_type)
{
	struct ftd_event ev = dead;

	ev.type = FTD_EV_IFACE_DEAD;
	ev.rail = 1;
	ftstat_print_event(self->f, &ev);
	ftstat_print_event_json(self->f, &ev);
	ev.type = FTD_EV_PROC_DEAD;
	ev.job = 7;
	ev.rank = 12;		/* rail shows for IFACE_* only */
	ev.uid = 1000;		/* whose rank */
	ev.origin = FTD_NODE_NONE;
	ftstat_print_event(self->f, &ev);
	ftstat_print_event_json(self->f, &ev);
	ev.type = FTD_EV_OVERFLOW;
	ev.node = FTD_NODE_NONE;
	ev.count = 5;
	ftstat_print_event(self->f, &ev);
	ftstat_print_event_json(self->f, &ev);
	ev.type = 99;		/* from a newer module */
	ftstat_print_event(self->f, &ev);
	ftstat_print_event_json(self->f, &ev);
	EXPECT_STREQ(
		"2026-11-18T11:06:40.123456789Z IFACE_DEAD node 3 incarnation 1 rail 1 origin 1\n"
		"{\"event\":\"IFACE_DEAD\",\"type\":9,\"seq\":17,\"time_ns\":1795000000123456789,"
		"\"mono_ns\":5000000000,\"node\":3,\"incarnation\":1,\"rail\":1,\"origin\":1}\n"
		"2026-11-18T11:06:40.123456789Z PROC_DEAD node 3 incarnation 1 job 7 rank 12 uid 1000\n"
		"{\"event\":\"PROC_DEAD\",\"type\":7,\"seq\":17,\"time_ns\":1795000000123456789,"
		"\"mono_ns\":5000000000,\"node\":3,\"incarnation\":1,\"job\":7,\"rank\":12,\"uid\":1000}\n"
		"2026-11-18T11:06:40.123456789Z OVERFLOW count 5\n"
		"{\"event\":\"OVERFLOW\",\"type\":12,\"seq\":17,\"time_ns\":1795000000123456789,"
		"\"mono_ns\":5000000000,\"count\":5}\n"
		"2026-11-18T11:06:40.123456789Z EVENT_99\n"
		"{\"event\":\"EVENT_99\",\"type\":99,\"seq\":17,\"time_ns\":1795000000123456789,"
		"\"mono_ns\":5000000000}\n",
		text(self));
}

TEST_F(out, socket_overflow_line)
{
	ftstat_print_overflow(self->f, 1795000000123456789ULL, false);
	ftstat_print_overflow(self->f, 1795000000123456789ULL, true);
	EXPECT_STREQ("2026-11-18T11:06:40.123456789Z OVERFLOW events lost: netlink receive "
		     "buffer overrun (ENOBUFS); 'ftstat' shows the current state\n"
		     "{\"event\":\"OVERFLOW\",\"type\":12,\"time_ns\":1795000000123456789,"
		     "\"reason\":\"ENOBUFS\"}\n", text(self));
}

TEST(time_format)
{
	char buf[FTSTAT_TIME_BUFSZ];

	EXPECT_STREQ("1970-01-01T00:00:00.000000000Z", ftstat_format_time(0, buf, sizeof(buf)));
	EXPECT_STREQ("2026-11-22T10:00:00.000000001Z",
		     ftstat_format_time(1795341600000000001ULL, buf, sizeof(buf)));
}

/* ------------------------------------------------------------- ftctl */

TEST_F(out, ftctl_show_text_and_json)
{
	struct ftu_node n[3];

	three_nodes(n);
	ftctl_show_print(self->f, &cfg, n, 3, false);
	ftctl_show_print(self->f, &cfg, n, 3, true);
	EXPECT_STREQ("cluster      42\n"
		     "node         1\n"
		     "port         7061\n"
		     "period       10ms\n"
		     "timeout      50ms\n"
		     "state        up\n"
		     "incarnation  1763780000\n"
		     "\n"
		     "ID  ADDRESSES\n"
		     "1   192.0.2.1\n"
		     "2   192.0.2.2 198.51.100.2\n"
		     "3   2001:db8::3\n"
		     "{\"cluster\":42,\"node\":1,\"port\":7061,\"period_ns\":10000000,"
		     "\"timeout_ns\":50000000,\"up\":true,\"incarnation\":1763780000,\"nodes\":["
		     "{\"id\":1,\"addresses\":[\"192.0.2.1\"]},"
		     "{\"id\":2,\"addresses\":[\"192.0.2.2\",\"198.51.100.2\"]},"
		     "{\"id\":3,\"addresses\":[\"2001:db8::3\"]}]}\n", text(self));
}

TEST_F(out, ftctl_show_unconfigured)
{
	struct ftu_config c = cfg;

	c.node = FTD_NODE_NONE;
	c.up = false;
	ftctl_show_print(self->f, &c, NULL, 0, true);
	EXPECT_STREQ("{\"cluster\":42,\"node\":null,\"port\":7061,\"period_ns\":10000000,"
		     "\"timeout_ns\":50000000,\"up\":false,\"incarnation\":1763780000,"
		     "\"nodes\":[]}\n", text(self));
}

/* An instance with a key, two accepted ones, observers, quorum and RDMA rails. */
static struct ftu_config keyed_config(void)
{
	struct ftu_config c = cfg;

	c.present |= FTU_BIT(FTDETECT_A_KEY_ID) | FTU_BIT(FTDETECT_A_OBSERVERS) |
		     FTU_BIT(FTDETECT_A_QUORUM) | FTU_BIT(FTDETECT_A_RDMA_RAILS);
	c.key_id = 0x0123456789abcdefULL;
	c.n_accepted_ids = 2;
	c.accepted_ids[0] = 0xfedcba9876543210ULL;
	c.accepted_ids[1] = 0x1111111111111111ULL;
	c.observers = 3;
	c.quorum = 2;
	c.rdma_rails = 0x5;
	return c;
}

TEST_F(out, ftctl_show_keys_observers_quorum_rdma)
{
	struct ftu_config c = keyed_config();

	ftctl_show_print(self->f, &c, NULL, 0, false);
	ftctl_show_print(self->f, &c, NULL, 0, true);
	EXPECT_STREQ("cluster      42\n"
		     "node         1\n"
		     "port         7061\n"
		     "period       10ms\n"
		     "timeout      50ms\n"
		     "observers    3\n"
		     "quorum       2\n"
		     "rdma rails   0,2 (heartbeats over RDMA)\n"
		     "state        up\n"
		     "incarnation  1763780000\n"
		     "key          0123456789abcdef\n"
		     "accepted     fedcba9876543210\n"
		     "             1111111111111111\n"
		     "\n"
		     "ID  ADDRESSES\n"
		     "{\"cluster\":42,\"node\":1,\"port\":7061,\"period_ns\":10000000,"
		     "\"timeout_ns\":50000000,\"observers\":3,\"quorum\":2,\"rdma_rails\":[0,2],"
		     "\"up\":true,\"incarnation\":1763780000,\"key_id\":\"0123456789abcdef\","
		     "\"accepted_key_ids\":[\"fedcba9876543210\",\"1111111111111111\"],"
		     "\"nodes\":[]}\n", text(self));
}

TEST_F(out, ftctl_show_no_key_and_no_rdma)
{
	struct ftu_config c = keyed_config();

	c.key_id = ftu_key_id((const uint8_t[FTD_KEY_LEN]){ 0 });
	c.n_accepted_ids = 0;
	c.rdma_rails = 0;
	ftctl_show_print(self->f, &c, NULL, 0, false);
	ftctl_show_print(self->f, &c, NULL, 0, true);
	EXPECT_NE(NULL, strstr(text(self), "quorum       2\nstate        up\n"));
	EXPECT_NE(NULL, strstr(text(self), "key          none (frames are not authenticated)\n\n"));
	EXPECT_NE(NULL, strstr(text(self), "\"rdma_rails\":[],"));
	EXPECT_NE(NULL, strstr(text(self), "\"key_id\":\"none\",\"accepted_key_ids\":[],"));
}

TEST_F(out, ftstat_keys)
{
	struct ftu_config c = keyed_config();

	ftstat_print_nodes(self->f, &c, NULL, 0, false, NULL);
	ftstat_print_nodes_json(self->f, &c, NULL, 0, NULL);
	EXPECT_STREQ("no nodes (configure them with 'ftctl apply')\n"
		     "cluster 42, local node 1, period 10ms, timeout 50ms, "
		     "key 0123456789abcdef (+2 accepted), up (incarnation 1763780000)\n"
		     "{\"cluster\":42,\"node\":1,\"port\":7061,\"period_ns\":10000000,"
		     "\"timeout_ns\":50000000,\"up\":true,\"incarnation\":1763780000,"
		     "\"key_id\":\"0123456789abcdef\","
		     "\"accepted_key_ids\":[\"fedcba9876543210\",\"1111111111111111\"],"
		     "\"nodes\":[]}\n", text(self));
}

TEST_F(out, ftctl_stats)
{
	struct ftu_stats st = {
		.present = FTU_BIT(FTDETECT_A_STATS_TX) | FTU_BIT(FTDETECT_A_STATS_TX_ERR) |
			   FTU_BIT(FTDETECT_A_STATS_RX) | FTU_BIT(FTDETECT_A_STATS_RX_MALFORMED) |
			   FTU_BIT(FTDETECT_A_STATS_RX_FOREIGN) |
			   FTU_BIT(FTDETECT_A_STATS_RX_BADMAC) | FTU_BIT(FTDETECT_A_STATS_EVENTS) |
			   FTU_BIT(FTDETECT_A_STATS_TICKS) | FTU_BIT(FTDETECT_A_STATS_TICKS_LATE) |
			   FTU_BIT(FTDETECT_A_STATS_TICK_LATE_MAX_NS),
		.tx = 1, .tx_err = 2, .rx = 3, .rx_malformed = 4, .rx_foreign = 5,
		.rx_badmac = 6, .events = 7, .ticks = 8, .ticks_late = 9,
		.tick_late_max_ns = 10,
	};

	ftctl_stats_print(self->f, &st, false);
	ftctl_stats_print(self->f, &st, true);
	EXPECT_STREQ("tx                1\n"
		     "tx_err            2\n"
		     "rx                3\n"
		     "rx_malformed      4\n"
		     "rx_foreign        5\n"
		     "rx_badmac         6\n"
		     "events            7\n"
		     "ticks             8\n"
		     "ticks_late        9\n"
		     "tick_late_max_ns  10\n"
		     "{\"tx\":1,\"tx_err\":2,\"rx\":3,\"rx_malformed\":4,\"rx_foreign\":5,"
		     "\"rx_badmac\":6,\"events\":7,\"ticks\":8,\"ticks_late\":9,"
		     "\"tick_late_max_ns\":10}\n", text(self));
}

TEST_F(out, ftctl_stats_metrics)
{
	struct ftu_stats st = {
		.present = FTU_BIT(FTDETECT_A_STATS_EVENTS_BY_TYPE) |
			   FTU_BIT(FTDETECT_A_STATS_DECLARED_HIST) |
			   FTU_BIT(FTDETECT_A_STATS_DECLARED_SUM_NS),
	};
	const char *t;

	st.events_by_type[FTD_EV_NODE_ALIVE] = 4;
	st.events_by_type[FTD_EV_NODE_DEAD] = 1;
	st.declared.hist[17] = 1;
	st.declared.sum_ns = 112000000;
	ftctl_stats_print(self->f, &st, false);
	t = text(self);
	/* The types that happened; the histogram's buckets that hold something. */
	EXPECT_NE(NULL, strstr(t, "events_by_type    NODE_ALIVE=4 NODE_DEAD=1\n"));
	EXPECT_NE(NULL, strstr(t, "declared          1, sum 112ms, mean 112ms; [65.54ms,131.07ms):1\n"));
	EXPECT_EQ(NULL, strstr(t, "told"));	/* not reported: not shown */
	ftctl_stats_print(self->f, &st, true);
	t = text(self);
	EXPECT_NE(NULL, strstr(t, "\"events_by_type\":{\"NODE_ALIVE\":4,\"NODE_SUSPECT\":0,\"NODE_DEAD\":1,"));
	EXPECT_NE(NULL, strstr(t, "\"declared\":{\"count\":1,\"sum_ns\":112000000,\"hist\":[0,0,0,0,0,"
				  "0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}}\n"));
}

TEST_F(out, ftctl_requests)
{
	struct ftctl_conf conf = {
		.cluster = 42, .port = 7061, .period_ns = 1234567, .timeout_ns = 50000000,
		.observers = 3, .quorum = 2, .has_key = true, .key = { 0xaa },
	};
	struct ftctl_conf_node node = { .id = 2, .nr_addrs = 2 };
	struct ftu_config req;

	node.addrs[0] = addr("192.0.2.2");
	node.addrs[1] = addr("2001:db8::2");

	ftctl_config_request(&conf, 2, true, &req);
	EXPECT_EQ(42, req.cluster);
	EXPECT_EQ(2, req.node);
	EXPECT_EQ(0xaa, req.key[0]);
	EXPECT_FALSE(FTU_HAS(&req, FTDETECT_A_UP));
	ftctl_print_set_config(self->f, &req);

	/* Up and unchanged: only what can change live, and the key. */
	ftctl_config_request(&conf, 2, false, &req);
	EXPECT_FALSE(FTU_HAS(&req, FTDETECT_A_CLUSTER_ID));
	EXPECT_FALSE(FTU_HAS(&req, FTDETECT_A_LOCAL_NODE));
	EXPECT_FALSE(FTU_HAS(&req, FTDETECT_A_PORT));
	ftctl_print_set_config(self->f, &req);

	/* key = none: the all-zero key is sent, replacing any old one, and
	 * the accepted keys always go too (none: the kernel's are cleared).
	 */
	conf.has_key = false;
	conf.key_none = true;
	ftctl_config_request(&conf, 2, false, &req);
	EXPECT_TRUE(FTU_HAS(&req, FTDETECT_A_KEY));
	EXPECT_EQ(0, req.key[0]);
	EXPECT_TRUE(FTU_HAS(&req, FTDETECT_A_KEYS_ACCEPTED));
	EXPECT_EQ(0, req.n_accepted);

	ftctl_print_add_node(self->f, &node);
	req = (struct ftu_config){ .present = FTU_BIT(FTDETECT_A_UP), .up = true };
	ftctl_print_set_config(self->f, &req);
	/* Durations print exactly: 1234567ns has no short exact form. */
	/* The key by its id (from an independent SipHash), never itself. */
	EXPECT_STREQ("set-config cluster 42 node 2 port 7061 period 1234567ns timeout 50ms "
		     "observers 3 quorum 2 key f9b98d78065cdb55 accept none\n"
		     "set-config period 1234567ns timeout 50ms observers 3 quorum 2 "
		     "key f9b98d78065cdb55 accept none\n"
		     "add-node 2 192.0.2.2 2001:db8::2\n"
		     "set-config up\n", text(self));
}

/*
 * The exposition format's rules a scraper enforces: every sample belongs to
 * a family declared before it (# HELP, # TYPE), counters end in _total,
 * names and label names are [a-zA-Z_][a-zA-Z0-9_]*, label values are
 * quoted, no series twice. Returns NULL or what is wrong.
 */
static const char *prom_problem(char *text, char *why, size_t len)
{
	static char seen[256][96];
	char *save, *line, declared[64][64], histograms[8][64];
	size_t nseen = 0, ndecl = 0, nhist = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64], type[16];
		size_t i, k;

		if (sscanf(line, "# TYPE %63s %15s", name, type) == 2) {
			if (strcmp(type, "counter") && strcmp(type, "gauge") &&
			    strcmp(type, "histogram"))
				return snprintf(why, len, "bad type: %s", line), why;
			if (!strcmp(type, "histogram"))
				snprintf(histograms[nhist++ % 8], 64, "%s", name);
			if (!strcmp(type, "counter") && !strstr(name, "_total"))
				return snprintf(why, len, "counter without _total: %s", line), why;
			snprintf(declared[ndecl++ % 64], 64, "%s", name);
			continue;
		}
		if (line[0] == '#')
			continue;
		k = strcspn(line, "{ ");
		if (!k || k >= sizeof(name) || !(line[0] == '_' || (line[0] | 32) >= 'a'))
			return snprintf(why, len, "bad sample: %s", line), why;
		for (i = 0; i < k; i++)
			if (!(line[i] == '_' || (line[i] >= '0' && line[i] <= '9') ||
			      ((line[i] | 32) >= 'a' && (line[i] | 32) <= 'z')))
				return snprintf(why, len, "bad name: %s", line), why;
		snprintf(name, sizeof(name), "%.*s", (int)k, line);
		/* A histogram's samples: its name with _bucket, _sum or _count. */
		for (i = 0; i < nhist && i < 8; i++) {
			size_t hl = strlen(histograms[i]);

			if (!strncmp(name, histograms[i], hl) &&
			    (!strcmp(name + hl, "_bucket") || !strcmp(name + hl, "_sum") ||
			     !strcmp(name + hl, "_count")))
				name[hl] = '\0';
		}
		for (i = 0; i < ndecl && i < 64; i++)
			if (!strcmp(declared[i], name))
				break;
		if (i == ndecl || i == 64)
			return snprintf(why, len, "sample before its # TYPE: %s", line), why;
		k = strcspn(line, " ");
		for (i = 0; i < nseen; i++)
			if (!strncmp(seen[i], line, k) && seen[i][k] == '\0')
				return snprintf(why, len, "series twice: %s", line), why;
		if (nseen < 256)
			snprintf(seen[nseen++], 96, "%.*s", (int)k, line);
		if (!line[k] || strtod(line + k + 1, NULL) < 0)
			return snprintf(why, len, "bad value: %s", line), why;
	}
	return NULL;
}

TEST_F(out, prometheus)
{
	struct ftu_config pcfg = {
		.present = FTU_BIT(FTDETECT_A_LOCAL_NODE) | FTU_BIT(FTDETECT_A_KEY_ID),
		.cluster = 42, .node = 1, .period_ns = 10000000, .timeout_ns = 1500000000,
		.up = true, .incarnation = 7, .key_id = 0x0123456789abcdefULL,
	};
	struct ftu_stats pst = {
		.present = FTU_BIT(FTDETECT_A_STATS_TX) | FTU_BIT(FTDETECT_A_STATS_RX_BADMAC) |
			   FTU_BIT(FTDETECT_A_STATS_RX_MALFORMED) |
			   FTU_BIT(FTDETECT_A_STATS_TICK_LATE_MAX_NS) |
			   FTU_BIT(FTDETECT_A_STATS_MINORITY),
		.tx = 100, .rx_badmac = 3, .rx_malformed = 4, .tick_late_max_ns = 2500000,
	};
	struct ftu_node pnodes[2] = {
		{ .id = 1, .present = FTU_BIT(FTDETECT_A_NODE_STATE), .state = FTD_NODE_SELF },
		{ .id = 2, .present = FTU_BIT(FTDETECT_A_NODE_STATE) | FTU_BIT(FTDETECT_A_NODE_AGE_NS) |
			   FTU_BIT(FTDETECT_A_NODE_RX) | FTU_BIT(FTDETECT_A_NODE_RX_BADMAC) |
			   FTU_BIT(FTDETECT_A_NODE_BADMAC_AGE_NS),
		  .state = FTD_NODE_DEAD, .age_ns = 2000000001, .rx = 55, .rx_badmac = 9,
		  .badmac_age_ns = 1000 },
	};
	char why[256], *copy;

	ftstat_print_prometheus(self->f, &pcfg, &pst, pnodes, 2);
	const char *t = text(self);

	EXPECT_NE(NULL, strstr(t, "ftdetect_info{cluster=\"42\",node=\"1\",key_id=\"0123456789abcdef\"} 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_up 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_timeout_seconds 1.500000000\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_frames_sent_total 100\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_frames_dropped_total{reason=\"malformed\"} 4\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_frames_dropped_total{reason=\"badmac\"} 3\n"));
	EXPECT_EQ(NULL, strstr(t, "reason=\"stale\""));	/* not reported: not shown */
	EXPECT_NE(NULL, strstr(t, "\nftdetect_tick_late_max_seconds 0.002500000\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_minority 0\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_nodes{state=\"dead\"} 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_nodes{state=\"alive\"} 0\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_node_state{node=\"2\",state=\"dead\"} 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_node_last_heard_seconds{node=\"2\"} 2.000000001\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_node_frames_refused_total{node=\"2\",reason=\"badmac\"} 9\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_node_bad_key{node=\"2\"} 1\n"));
	EXPECT_EQ(NULL, strstr(t, "node_bad_key{node=\"1\"}"));
	copy = strdup(t);
	ASSERT_NE(NULL, copy);
	EXPECT_EQ(NULL, prom_problem(copy, why, sizeof(why))) TH_LOG("%s", why);
	free(copy);

	/* And the checker itself catches what it is for. */
	char undeclared[] = "ftdetect_x 1\n", twice[] = "# TYPE ftdetect_y gauge\nftdetect_y 1\nftdetect_y 2\n";

	EXPECT_NE(NULL, prom_problem(undeclared, why, sizeof(why)));
	EXPECT_NE(NULL, prom_problem(twice, why, sizeof(why)));
}

/*
 * The histogram of one label value in prom text: its bucket lines in order
 * (le strictly growing, cumulative counts never falling, +Inf last), and
 * +Inf equal to _count. Returns the count of +Inf, or -1 with why.
 */
static long prom_histogram(const char *t, const char *by, char *why, size_t len)
{
	char prefix[96], count_line[96];
	const char *p = t, *c;
	double last_le = -1;
	long last = -1, lines = 0, inf = -1;

	snprintf(prefix, sizeof(prefix), "\nftdetect_death_silence_seconds_bucket{by=\"%s\",le=\"", by);
	while ((p = strstr(p, prefix))) {
		char le[32];
		long v;

		p += strlen(prefix);
		if (sscanf(p, "%31[^\"]\"} %ld", le, &v) != 2)
			return snprintf(why, len, "bad bucket line at %.40s", p), -1;
		if (v < last)
			return snprintf(why, len, "le=%s: %ld after %ld: not cumulative", le, v, last), -1;
		if (inf >= 0)
			return snprintf(why, len, "a bucket after +Inf"), -1;
		if (!strcmp(le, "+Inf")) {
			inf = v;
		} else {
			if (strtod(le, NULL) <= last_le)
				return snprintf(why, len, "le=%s not above %g", le, last_le), -1;
			last_le = strtod(le, NULL);
		}
		last = v;
		lines++;
	}
	if (lines != FTD_LATENCY_BUCKETS || inf < 0)
		return snprintf(why, len, "%ld bucket lines, +Inf %ld", lines, inf), -1;
	snprintf(count_line, sizeof(count_line), "\nftdetect_death_silence_seconds_count{by=\"%s\"} ", by);
	c = strstr(t, count_line);
	if (!c || strtol(c + strlen(count_line), NULL, 10) != inf)
		return snprintf(why, len, "_count is not +Inf's %ld", inf), -1;
	return inf;
}

/* Prometheus text of stats with one attribute present (0: none), in a new buffer. */
static char *prom_with(int attr, uint64_t v)
{
	struct ftu_config c = { .cluster = 42, .period_ns = 10000000, .timeout_ns = 100000000 };
	struct ftu_stats st = { 0 };
	size_t len;
	char *buf;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
#define SET(a, name, kind) \
	if (attr == FTDETECT_A_STATS_##a) \
		st.name = v;
	FTDETECT_STATS_U64(SET)
#undef SET
	if (attr)
		st.present = FTU_BIT(attr);
	ftstat_print_prometheus(f, &c, &st, NULL, 0);
	fclose(f);
	return buf;
}

/*
 * The sample that stats line adds to the none-present text, and whether its
 * family is declared the uapi's kind: a u64 the exporter forgot (or typed
 * wrong) fails here, not in a dashboard.
 */
static const char *prom_sample_of(int attr, const char *kind, char *why, size_t len)
{
	char *none = prom_with(0, 0), *one = prom_with(attr, 7777), *line, *save = NULL;
	const char *problem = "no sample added";

	if (!none || !one) {
		problem = "out of memory";
		goto out;
	}
	for (line = strtok_r(one, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char needle[256], type[160], sample[128];

		snprintf(needle, sizeof(needle), "\n%s\n", line);
		if (line[0] == '#' || strstr(none, needle))
			continue;
		snprintf(sample, sizeof(sample), "%s", line);
		snprintf(type, sizeof(type), "# TYPE %.*s %s\n", (int)strcspn(sample, "{ "), sample,
			 kind);
		/* strtok_r cut the text up: look for the type in a fresh copy. */
		free(one);
		one = prom_with(attr, 7777);
		problem = NULL;
		if (!one || !strstr(one, type))
			problem = (snprintf(why, len, "%s: not a %s", sample, kind), why);
		goto out;
	}
out:
	free(none);
	free(one);
	return problem;
}

TEST(prometheus_exports_every_stats_u64)
{
	char why[256];
	const char *problem;

#define CHECK(a, name, kind) \
	problem = prom_sample_of(FTDETECT_A_STATS_##a, #kind, why, sizeof(why)); \
	EXPECT_EQ(NULL, problem) TH_LOG(#name ": %s", problem);
	FTDETECT_STATS_U64(CHECK)
#undef CHECK
}

TEST_F(out, prometheus_events_and_death_silence)
{
	struct ftu_config pcfg = { .cluster = 42, .period_ns = 10000000, .timeout_ns = 100000000 };
	struct ftu_stats pst = {
		.present = FTU_BIT(FTDETECT_A_STATS_EVENTS) |
			   FTU_BIT(FTDETECT_A_STATS_EVENTS_BY_TYPE) |
			   FTU_BIT(FTDETECT_A_STATS_DECLARED_HIST) |
			   FTU_BIT(FTDETECT_A_STATS_DECLARED_SUM_NS) |
			   FTU_BIT(FTDETECT_A_STATS_TOLD_HIST) |
			   FTU_BIT(FTDETECT_A_STATS_TOLD_SUM_NS),
		.events = 5,
	};
	char why[256], *copy;

	pst.events_by_type[FTD_EV_NODE_ALIVE] = 4;
	pst.events_by_type[FTD_EV_NODE_DEAD] = 1;
	/* Declared: one death after 112 ms of silence, [65.536, 131.072) ms. */
	pst.declared.hist[17] = 1;
	pst.declared.sum_ns = 112345678;
	/* Told: three, one < 1 us, two in [131.072, 262.144) ms. */
	pst.told.hist[0] = 1;
	pst.told.hist[18] = 2;
	pst.told.sum_ns = 400000500;
	ftstat_print_prometheus(self->f, &pcfg, &pst, NULL, 0);
	const char *t = text(self);

	/* Events by type, every named type, and no unlabelled total beside them. */
	EXPECT_NE(NULL, strstr(t, "\n# TYPE ftdetect_events_total counter\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_events_total{event=\"NODE_DEAD\"} 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_events_total{event=\"NODE_ALIVE\"} 4\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_events_total{event=\"FENCED\"} 0\n"));
	EXPECT_EQ(NULL, strstr(t, "\nftdetect_events_total "));

	EXPECT_NE(NULL, strstr(t, "\n# TYPE ftdetect_death_silence_seconds histogram\n"));
	/* le: 2^i us in seconds, shortest form, as Prometheus's clients write it. */
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_bucket{by=\"declared\",le=\"1e-06\"} 0\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_bucket{by=\"declared\",le=\"0.065536\"} 0\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_bucket{by=\"declared\",le=\"0.131072\"} 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_bucket{by=\"declared\",le=\"536.870912\"} 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_bucket{by=\"declared\",le=\"+Inf\"} 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_sum{by=\"declared\"} 0.112345678\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_count{by=\"declared\"} 1\n"));
	/* Cumulative: the bucket under 1 us counts in every le above it. */
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_bucket{by=\"told\",le=\"1e-06\"} 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_bucket{by=\"told\",le=\"0.131072\"} 1\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_bucket{by=\"told\",le=\"0.262144\"} 3\n"));
	EXPECT_NE(NULL, strstr(t, "\nftdetect_death_silence_seconds_sum{by=\"told\"} 0.400000500\n"));
	EXPECT_EQ(1, prom_histogram(t, "declared", why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(3, prom_histogram(t, "told", why, sizeof(why))) TH_LOG("%s", why);
	/* The HELP says the buckets are half-open while le is inclusive. */
	EXPECT_NE(NULL, strstr(t, "half-open"));
	copy = strdup(t);
	ASSERT_NE(NULL, copy);
	EXPECT_EQ(NULL, prom_problem(copy, why, sizeof(why))) TH_LOG("%s", why);
	free(copy);
}

TEST_F(out, prometheus_old_module)
{
	struct ftu_config pcfg = { .cluster = 42 };
	struct ftu_stats pst = { .present = FTU_BIT(FTDETECT_A_STATS_EVENTS), .events = 5 };
	char why[256], *copy;

	/*
	 * A module without the metrics: its total as before, and no histogram
	 * at all (zeros would claim deaths were measured and none happened).
	 */
	ftstat_print_prometheus(self->f, &pcfg, &pst, NULL, 0);
	const char *t = text(self);

	EXPECT_NE(NULL, strstr(t, "\nftdetect_events_total 5\n"));
	EXPECT_EQ(NULL, strstr(t, "event=\""));
	EXPECT_EQ(NULL, strstr(t, "death_silence"));
	copy = strdup(t);
	ASSERT_NE(NULL, copy);
	EXPECT_EQ(NULL, prom_problem(copy, why, sizeof(why))) TH_LOG("%s", why);
	free(copy);
}

TEST_HARNESS_MAIN
