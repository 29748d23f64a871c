// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftstat --exec (userspace/ftstat/hook.c): the program gets the event on
 * stdin and as FTD_* variables, events beyond the running limit wait in
 * order, and a program past its timeout is stopped with its children.
 * Real processes (sh), no module.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#include <linux/ftdetect.h>

#include "ftstat/format.h"
#include "ftstat/hook.h"
#include "ftstat/loop.h"

static struct ftd_event dead(uint64_t seq, uint32_t node)
{
	return (struct ftd_event){
		.version = FTD_EVENT_VERSION, .size = sizeof(struct ftd_event),
		.type = FTD_EV_NODE_DEAD, .seq = seq, .time_ns = 1795341600123456789ULL,
		.mono_ns = 5, .node = node, .incarnation = 7, .rail = FTD_RAIL_NONE,
		.origin = 1, .uid = FTD_UID_NONE,
	};
}

/* Poll the hook until it is idle; false if that takes more than limit_s. */
static bool run_until_idle(struct ftstat_hook *h, int limit_s)
{
	uint64_t end = ftstat_now_ns(CLOCK_MONOTONIC) + (uint64_t)limit_s * 1000000000ULL;

	while (ftstat_hook_busy(h)) {
		ftstat_hook_poll(h);
		if (ftstat_now_ns(CLOCK_MONOTONIC) > end)
			return false;
		usleep(10000);
	}
	return true;
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

TEST(environment_is_the_json_members)
{
	struct ftd_event ev = dead(17, 3);
	char buf[1024], *env[32];

	ASSERT_EQ(0, ftstat_event_vars(&ev, buf, sizeof(buf), env, 32));
	EXPECT_EQ(0, strncmp(env[0], "FTD_EVENT_JSON={\"event\":\"NODE_DEAD\"", 35)) TH_LOG("%s", env[0]);
	EXPECT_STREQ("FTD_EVENT=NODE_DEAD", env[1]);
	EXPECT_STREQ("FTD_TYPE=3", env[2]);
	EXPECT_STREQ("FTD_SEQ=17", env[3]);
	EXPECT_STREQ("FTD_TIME_NS=1795341600123456789", env[4]);
	EXPECT_STREQ("FTD_MONO_NS=5", env[5]);
	EXPECT_STREQ("FTD_NODE=3", env[6]);
	EXPECT_STREQ("FTD_INCARNATION=7", env[7]);
	EXPECT_STREQ("FTD_ORIGIN=1", env[8]);
	EXPECT_EQ(NULL, env[9]);
	/* Too small a buffer: an error, never a cut variable. */
	EXPECT_EQ(-1, ftstat_event_vars(&ev, buf, 64, env, 32));
}

TEST(program_gets_the_event_and_runs_in_order)
{
	char dir[] = "/tmp/ftd-hook-XXXXXX", cmd[256], path[64];
	static struct ftstat_hook h;
	char *out;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "{ read -r line; echo \"$FTD_EVENT $FTD_NODE $FTD_SEQ $line\"; } >> %s/log", dir);
	ftstat_hook_init(&h, cmd, 10000000000ULL);
	/* More events than run at once: the rest wait, and all run. */
	for (unsigned int i = 1; i <= FTSTAT_HOOK_RUNNING + 3; i++) {
		struct ftd_event ev = dead(i, 100 + i);

		ftstat_hook_event(&h, &ev);
	}
	EXPECT_EQ(3, h.len);
	ASSERT_TRUE(run_until_idle(&h, 20));
	EXPECT_EQ(0, h.failed);
	snprintf(path, sizeof(path), "%s/log", dir);
	out = slurp(path);
	ASSERT_NE(NULL, out);
	for (unsigned int i = 1; i <= FTSTAT_HOOK_RUNNING + 3; i++) {
		char want[128];

		snprintf(want, sizeof(want), "NODE_DEAD %u %u {\"event\":\"NODE_DEAD\"", 100 + i, i);
		EXPECT_NE(NULL, strstr(out, want)) TH_LOG("no '%s' in:\n%s", want, out);
	}
	unlink(path);
	rmdir(dir);
}

/* Dead: no such process, or a zombie its new parent has not reaped yet. */
static bool gone(pid_t pid)
{
	char path[64], stat[256], *p;
	FILE *f;

	for (int i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		f = fopen(path, "r");
		if (!f)
			return true;
		p = fgets(stat, sizeof(stat), f);
		fclose(f);
		p = p ? strrchr(stat, ')') : NULL;
		if (p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
			return true;
		usleep(20000);
	}
	return false;
}

/*
 * Run script (a printf format: %s is a file for a child's pid) as the
 * program of h, with a timeout of 200 ms, until it was stopped: the pid
 * the script wrote, or -1.
 */
static pid_t child_of_stopped(struct ftstat_hook *h, const char *script)
{
	struct ftd_event ev = dead(1, 2);
	char pidfile[] = "/tmp/ftd-hook-pid-XXXXXX", cmd[256], *s;
	int fd = mkstemp(pidfile);
	pid_t pid = -1;

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), script, pidfile);
	ftstat_hook_init(h, cmd, 200000000ULL);
	ftstat_hook_event(h, &ev);
	if (run_until_idle(h, 20) && (s = slurp(pidfile)))
		pid = atoi(s);
	unlink(pidfile);
	return pid;
}

TEST(program_past_its_timeout_is_stopped_with_its_children)
{
	static struct ftstat_hook h;
	/* A child of the program that would outlive it, were only sh killed. */
	pid_t grandchild = child_of_stopped(&h, "sleep 60 & echo $! > %s; wait");

	ASSERT_LT(0, grandchild);
	EXPECT_EQ(1, h.failed);
	EXPECT_TRUE(gone(grandchild)) TH_LOG("sleep %d outlived the stopped program", grandchild);
}

/* What ignores SIGTERM gets SIGKILL a second later, its leader gone or not. */
TEST(child_ignoring_sigterm_is_killed)
{
	static struct ftstat_hook h;
	pid_t stubborn = child_of_stopped(&h, "(trap '' TERM; exec sleep 60) & echo $! > %s; wait");

	ASSERT_LT(0, stubborn);
	EXPECT_TRUE(gone(stubborn)) TH_LOG("sleep %d ignored SIGTERM and outlived the hook", stubborn);
}

TEST(failing_program_is_counted)
{
	static struct ftstat_hook h;
	struct ftd_event ev = dead(1, 2);

	ftstat_hook_init(&h, "exit 3", 10000000000ULL);
	ftstat_hook_event(&h, &ev);
	ASSERT_TRUE(run_until_idle(&h, 20));
	EXPECT_EQ(1, h.failed);
}

TEST_HARNESS_MAIN
