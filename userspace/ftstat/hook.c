// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include "ftstat/hook.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/names.h"
#include "ftstat/format.h"
#include "ftstat/loop.h"

#define KILL_GRACE_NS	1000000000ULL	/* SIGTERM, then SIGKILL this much later */

void ftstat_hook_init(struct ftstat_hook *h, const char *cmd, uint64_t timeout_ns)
{
	memset(h, 0, sizeof(*h));
	h->cmd = cmd;
	h->timeout_ns = timeout_ns;
}

bool ftstat_hook_busy(const struct ftstat_hook *h)
{
	if (h->len)
		return true;
	for (unsigned int i = 0; i < FTSTAT_HOOK_RUNNING; i++)
		if (h->run[i].pid)
			return true;
	return false;
}

/* In the child: the event on stdin, FTD_* set, signals as a fresh process. */
static void child(struct ftstat_hook *h, int in, char **env)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;

	setpgid(0, 0);	/* its own group: a timeout stops what it started too */
	sigemptyset(&none);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGCHLD, &dfl, NULL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* Its output must not land in ftstat's event stream: stderr. */
	if (dup2(in, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(126);
	close(in);
	for (char **e = env; *e; e++)
		putenv(*e);
	execl("/bin/sh", "sh", "-c", h->cmd, (char *)NULL);
	_exit(127);
}

static int start(struct ftstat_hook *h, struct ftstat_hook_run *r, const struct ftd_event *ev)
{
	char buf[1024], *env[32], *json = NULL;
	size_t jlen = 0;
	int pipefd[2];
	FILE *f;
	pid_t pid;

	if (ftstat_event_vars(ev, buf, sizeof(buf), env, 32))
		return -1;
	f = open_memstream(&json, &jlen);
	if (!f)
		return -1;
	ftstat_print_event_json(f, ev);
	if (fclose(f) || pipe2(pipefd, O_CLOEXEC)) {
		free(json);
		return -1;
	}
	/*
	 * The line goes into the pipe before the fork: it fits a pipe's
	 * buffer, so this never blocks, and no write can meet a reader that
	 * already exited (SIGPIPE would kill ftstat).
	 */
	if (write(pipefd[1], json, jlen) != (ssize_t)jlen) {
		close(pipefd[0]);
		close(pipefd[1]);
		free(json);
		return -1;
	}
	close(pipefd[1]);
	free(json);
	fflush(NULL);	/* nothing buffered is written twice */
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		return -1;
	}
	if (!pid)
		child(h, pipefd[0], env);
	setpgid(pid, pid);	/* as the child does: no kill(-pid) before it */
	close(pipefd[0]);
	r->pid = pid;
	r->seq = ev->seq;
	r->deadline = ftstat_now_ns(CLOCK_MONOTONIC) + h->timeout_ns;
	r->killed = false;
	r->reaped = false;
	return 0;
}

static struct ftstat_hook_run *free_slot(struct ftstat_hook *h)
{
	for (unsigned int i = 0; i < FTSTAT_HOOK_RUNNING; i++)
		if (!h->run[i].pid)
			return &h->run[i];
	return NULL;
}

static void run_or_report(struct ftstat_hook *h, struct ftstat_hook_run *r,
			  const struct ftd_event *ev)
{
	if (start(h, r, ev)) {
		h->failed++;
		fprintf(stderr, "%s: hook: cannot run it for event %llu: %s\n",
			program_invocation_short_name, (unsigned long long)ev->seq,
			strerror(errno));
	}
}

void ftstat_hook_stop(struct ftstat_hook *h)
{
	if (h->len)
		fprintf(stderr, "%s: hook: stopped: %u queued events not handed over\n",
			program_invocation_short_name, h->len);
	h->len = 0;
	for (unsigned int i = 0; i < FTSTAT_HOOK_RUNNING; i++)
		if (h->run[i].pid && !h->run[i].killed)
			h->run[i].deadline = 0;	/* the next poll sends SIGTERM */
}

void ftstat_hook_event(struct ftstat_hook *h, const struct ftd_event *ev)
{
	struct ftstat_hook_run *r = h->len ? NULL : free_slot(h);

	if (r) {
		run_or_report(h, r, ev);
		return;
	}
	if (h->len == FTSTAT_HOOK_QUEUE) {
		if (!h->dropped++)
			fprintf(stderr, "%s: hook: %u events wait for it already: dropping "
				"event %llu and any other until one finishes\n",
				program_invocation_short_name, FTSTAT_HOOK_QUEUE,
				(unsigned long long)ev->seq);
		return;
	}
	h->queue[(h->head + h->len++) % FTSTAT_HOOK_QUEUE] = *ev;
}

static void reaped(struct ftstat_hook *h, struct ftstat_hook_run *r, int status)
{
	const char *name = program_invocation_short_name;

	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		/* Success is silent. */
	} else if (WIFEXITED(status)) {
		h->failed++;
		fprintf(stderr, "%s: hook: exit status %d for event %llu\n", name,
			WEXITSTATUS(status), (unsigned long long)r->seq);
	} else {
		h->failed++;
		fprintf(stderr, "%s: hook: %s for event %llu%s\n", name,
			strsignal(WTERMSIG(status)), (unsigned long long)r->seq,
			r->killed ? " (it ran past --exec-timeout)" : "");
	}
	/*
	 * Stopped for its timeout: what it started may ignore SIGTERM, so its
	 * group still gets SIGKILL at the grace deadline (the slot waits).
	 */
	if (r->killed)
		r->reaped = true;
	else
		r->pid = 0;
}

uint64_t ftstat_hook_poll(struct ftstat_hook *h)
{
	uint64_t now = ftstat_now_ns(CLOCK_MONOTONIC), next = UINT64_MAX;
	struct ftstat_hook_run *r;
	int status;

	for (unsigned int i = 0; i < FTSTAT_HOOK_RUNNING; i++) {
		r = &h->run[i];
		if (!r->pid)
			continue;
		if (r->reaped) {
			if (now >= r->deadline) {
				kill(-r->pid, SIGKILL);	/* ESRCH: nothing was left */
				r->pid = 0;
				continue;
			}
		} else if (waitpid(r->pid, &status, WNOHANG) == r->pid) {
			reaped(h, r, status);
			if (!r->pid)
				continue;
		} else if (now >= r->deadline) {
			kill(-r->pid, r->killed ? SIGKILL : SIGTERM);
			r->killed = true;
			r->deadline = now + KILL_GRACE_NS;
		}
		if (r->deadline - now < next)
			next = r->deadline - now;
	}
	while (h->len && (r = free_slot(h))) {
		struct ftd_event ev = h->queue[h->head];

		h->head = (h->head + 1) % FTSTAT_HOOK_QUEUE;
		h->len--;
		run_or_report(h, r, &ev);
		if (r->pid && h->timeout_ns < next)
			next = h->timeout_ns;
	}
	if (h->dropped && !h->len) {
		fprintf(stderr, "%s: hook: %llu events were dropped while its queue was full\n",
			program_invocation_short_name, (unsigned long long)h->dropped);
		h->dropped = 0;
	}
	return next;
}
