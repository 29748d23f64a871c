// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of userspace/common/nl.c against a real generic netlink family
 * that every Linux has: "nlctrl", the genl controller. This exercises the
 * request/ACK/dump machinery, kernel errors with and without an extack
 * message, and error recovery, without needing the ftdetect module.
 * Skipped where the sandbox has no netlink at all.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "common/nl.h"

FIXTURE(genl_ctrl) {
	struct ftu_nl nl;
};

static FIXTURE_SETUP(genl_ctrl)
{
	if (ftu_nl_open(&self->nl, "nlctrl"))
		SKIP(return, "no generic netlink here");
}

static FIXTURE_TEARDOWN(genl_ctrl)
{
	ftu_nl_close(&self->nl);
}

struct families {
	int count;
	bool saw_nlctrl;
};

static int family_reply(struct nl_msg *msg, void *arg)
{
	static const struct nla_policy policy[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_NAME] = { .type = NLA_STRING },
	};
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct families *f = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, CTRL_ATTR_MAX, policy) < 0)
		return -EPROTO;
	f->count++;
	if (tb[CTRL_ATTR_FAMILY_NAME] && !strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]), "nlctrl"))
		f->saw_nlctrl = true;
	return 0;
}

static int dump_families(struct ftu_nl *nl, struct families *f)
{
	memset(f, 0, sizeof(*f));
	return ftu_nl_call(nl, ftu_nl_msg(nl, CTRL_CMD_GETFAMILY, NLM_F_DUMP), family_reply, f);
}

TEST_F(genl_ctrl, dump)
{
	struct families f;

	ASSERT_EQ(0, dump_families(&self->nl, &f));
	EXPECT_GT(f.count, 0);
	EXPECT_TRUE(f.saw_nlctrl);
}

TEST_F(genl_ctrl, do_with_reply)
{
	struct nl_msg *msg = ftu_nl_msg(&self->nl, CTRL_CMD_GETFAMILY, 0);
	struct families f = { 0 };

	ASSERT_NE(NULL, msg);
	nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, "nlctrl");
	ASSERT_EQ(0, ftu_nl_call(&self->nl, msg, family_reply, &f));
	EXPECT_EQ(1, f.count);
	EXPECT_TRUE(f.saw_nlctrl);
}

TEST_F(genl_ctrl, error_without_extack)
{
	struct nl_msg *msg = ftu_nl_msg(&self->nl, CTRL_CMD_GETFAMILY, 0);

	nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, "ftd-nofamily");
	EXPECT_EQ(-ENOENT, ftu_nl_call(&self->nl, msg, NULL, NULL));
	EXPECT_EQ(0, self->nl.nlerr);
	EXPECT_STREQ("", self->nl.extack);
}

/* Strict policy validation of a dump request: the kernel explains itself. */
static int bad_policy_request(struct ftu_nl *nl)
{
	struct nl_msg *msg = ftu_nl_msg(nl, CTRL_CMD_GETPOLICY, NLM_F_DUMP);

	nla_put_u32(msg, CTRL_ATTR_FAMILY_ID, GENL_ID_CTRL);	/* a u16 attribute */
	return ftu_nl_call(nl, msg, NULL, NULL);
}

TEST_F(genl_ctrl, error_with_extack)
{
	int err = bad_policy_request(&self->nl);

	if (err == -EOPNOTSUPP)
		SKIP(return, "kernel without CTRL_CMD_GETPOLICY");
	EXPECT_EQ(-EINVAL, err);
	EXPECT_EQ(0, self->nl.nlerr);
	EXPECT_NE(0, self->nl.extack[0]) TH_LOG("no extack message");
}

TEST_F(genl_ctrl, perror_format)
{
	char out[512] = "";
	int err, saved = dup(STDERR_FILENO);
	FILE *tmp = tmpfile();
	char expect[512];

	ASSERT_NE(NULL, tmp);
	err = bad_policy_request(&self->nl);
	if (err == -EOPNOTSUPP || !self->nl.extack[0]) {
		fclose(tmp);
		close(saved);
		SKIP(return, "no extack from this kernel");
	}
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	ftu_nl_perror(&self->nl, "get-policy", err);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	ASSERT_NE(NULL, fgets(out, sizeof(out), tmp));
	fclose(tmp);
	snprintf(expect, sizeof(expect), "%s: get-policy: Invalid argument: %s\n",
		 program_invocation_short_name, self->nl.extack);
	EXPECT_STREQ(expect, out);
}

static int refuse(struct nl_msg *msg, void *arg)
{
	(*(int *)arg)++;
	return -EPROTO;
}

TEST_F(genl_ctrl, callback_error_keeps_the_socket_in_step)
{
	struct families f;
	int calls = 0;

	/* The callback fails on the first reply; the rest of the dump is
	 * still read, so the next request gets its own replies. */
	EXPECT_EQ(-EPROTO, ftu_nl_call(&self->nl,
				       ftu_nl_msg(&self->nl, CTRL_CMD_GETFAMILY, NLM_F_DUMP),
				       refuse, &calls));
	EXPECT_EQ(1, calls);
	EXPECT_NE(NULL, strstr(self->nl.extack, "malformed reply"));
	ASSERT_EQ(0, dump_families(&self->nl, &f));
	EXPECT_TRUE(f.saw_nlctrl);

	/* Same after a kernel error. */
	bad_policy_request(&self->nl);
	ASSERT_EQ(0, dump_families(&self->nl, &f));
	EXPECT_TRUE(f.saw_nlctrl);
	EXPECT_STREQ("", self->nl.extack);
}

TEST_F(genl_ctrl, null_message)
{
	EXPECT_EQ(-ENOMEM, ftu_nl_call(&self->nl, NULL, NULL, NULL));
}

TEST_F(genl_ctrl, subscribe)
{
	EXPECT_EQ(0, ftu_nl_subscribe(&self->nl, "nlctrl", "notify"));
}

TEST_F(genl_ctrl, subscribe_missing_group)
{
	EXPECT_EQ(-ENOENT, ftu_nl_subscribe(&self->nl, "nlctrl", "no-such-group"));
}

TEST(missing_family)
{
	struct ftu_nl nl;
	int err = ftu_nl_open(&nl, "ftd-nofamily");

	if (err == -EIO)
		SKIP(return, "no generic netlink here");
	EXPECT_EQ(-ENOENT, err);
	EXPECT_EQ(NULL, nl.sk);
}

TEST_HARNESS_MAIN
