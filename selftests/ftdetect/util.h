/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the in-VM C selftests. */
#ifndef FTD_SELFTEST_UTIL_H
#define FTD_SELFTEST_UTIL_H

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every test gets a fresh network namespace: a fresh ftdetect instance. */
static inline int ftd_test_new_netns(void)
{
	if (unshare(CLONE_NEWNET)) {
		perror("unshare(CLONE_NEWNET)");
		return -1;
	}
	return 0;
}

/* Drop to nobody: no capability in any namespace. */
static inline int ftd_test_drop_privileges(void)
{
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534)) {
		perror("dropping privileges");
		return -1;
	}
	return 0;
}

/* Run fn(arg) in a child that dropped its privileges; its exit status. */
static inline int ftd_test_unprivileged(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(ftd_test_drop_privileges() ? 99 : fn(arg));
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif
