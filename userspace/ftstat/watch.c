// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftstat --watch. One line per FTDETECT_CMD_EVENT multicast on the "events"
 * group, flushed at once (the output is usually a pipe into a test or a
 * log). Losing events is never silent: when the socket's receive buffer
 * overruns the kernel reports ENOBUFS on the next read, which libnl turns
 * into -NLE_NOMEM, and we print an OVERFLOW line before carrying on.
 */
#define _GNU_SOURCE
#include "ftstat/watch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <netlink/genl/genl.h>
#include <netlink/handlers.h>
#include <netlink/socket.h>

#include <linux/ftdetect.h>

#include "common/msg.h"
#include "common/nl.h"
#include "ftstat/format.h"
#include "ftstat/hook.h"
#include "ftstat/journal.h"
#include "ftstat/loop.h"

struct watch {
	const struct ftstat_watch_opts *o;
	struct ftstat_hook *hook;	/* --exec, else NULL */
	struct ftstat_journal *journal;	/* --journal, else NULL */
	uint64_t seen;
};

static bool wanted(const struct ftstat_watch_opts *o, unsigned int type)
{
	return !o->types || (type < 32 && (o->types & (1U << type)));
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct watch *w = arg;
	struct ftd_event ev;

	if (ftu_msg_cmd(msg) != FTDETECT_CMD_EVENT)
		return NL_SKIP;
	if (ftu_msg_parse_event(msg, &ev)) {
		fprintf(stderr, "%s: ignoring a malformed event message\n",
			program_invocation_short_name);
		return NL_SKIP;
	}
	if (!wanted(w->o, ev.type))
		return NL_SKIP;
	if (w->journal)
		ftstat_journal_event(w->journal, &ev);
	else if (w->o->json)
		ftstat_print_event_json(stdout, &ev);
	else
		ftstat_print_event(stdout, &ev);
	fflush(stdout);
	if (w->hook)
		ftstat_hook_event(w->hook, &ev);
	w->seen++;
	return w->o->count && w->seen >= w->o->count ? NL_STOP : NL_OK;
}

static int any_seq(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

/*
 * Before exiting, the hook's programs finish (each within its timeout) and
 * the events still queued for it run: with --count 1 the one event is
 * handed over. After SIGINT/SIGTERM the queued events are dropped (it says
 * so) and the running programs are stopped at once.
 */
static void hook_drain(struct ftstat_hook *h, struct ftstat_loop *l, bool signalled)
{
	if (!h)
		return;
	if (signalled)
		ftstat_hook_stop(h);
	while (ftstat_hook_busy(h)) {
		uint64_t next = ftstat_hook_poll(h);

		if (!ftstat_hook_busy(h))
			break;
		ftstat_loop_pause(l, next);	/* SIGCHLD, or the next deadline */
	}
}

static int loop(struct ftu_nl *nl, struct nl_cb *cb, struct watch *w)
{
	struct ftstat_loop l;
	int fd = nl_socket_get_fd(nl->sk), err, ret;
	bool signalled = false;

	err = ftstat_loop_init(&l, w->o->timeout_ns);
	if (!err && w->hook)
		err = ftstat_loop_wake_on(&l, SIGCHLD);
	if (err) {
		fprintf(stderr, "%s: cannot set up signals: %s\n", program_invocation_short_name,
			strerror(-err));
		return 1;
	}
	for (;;) {
		uint64_t sleep = w->hook ? ftstat_hook_poll(w->hook) : UINT64_MAX;

		switch (ftstat_loop_wait(&l, fd, sleep)) {
		case FTSTAT_WAIT_READY:
			break;
		case FTSTAT_WAIT_SIGNAL:
			ret = 0;
			signalled = true;
			goto out;
		case FTSTAT_WAIT_DEADLINE:
			/* With --count, a timeout means the events did not come. */
			ret = w->o->count ? FTSTAT_EXIT_TIMEOUT : 0;
			goto out;
		case FTSTAT_WAIT_SLEPT:
		case FTSTAT_WAIT_WOKEN:
			continue;
		case FTSTAT_WAIT_ERROR:
			fprintf(stderr, "%s: poll: %s\n", program_invocation_short_name,
				strerror(errno));
			return 1;
		}
		err = nl_recvmsgs(nl->sk, cb);
		if (err == -NLE_NOMEM) {
			if (w->journal)
				ftstat_journal_overflow(w->journal);
			else
				ftstat_print_overflow(stdout, ftstat_now_ns(CLOCK_REALTIME),
						      w->o->json);
			fflush(stdout);
			if (w->hook)
				fprintf(stderr, "%s: hook: events were lost before it could "
					"see them (the socket's buffer overran)\n",
					program_invocation_short_name);
		} else if (err < 0) {
			fprintf(stderr, "%s: receive: %s\n", program_invocation_short_name,
				nl_geterror(err));
			ret = 1;
			goto out;
		}
		if (w->o->count && w->seen >= w->o->count) {
			ret = 0;
			goto out;
		}
	}
out:
	hook_drain(w->hook, &l, signalled);
	if (w->journal)
		ftstat_journal_close(w->journal);
	return ret;
}

int ftstat_watch(const struct ftstat_watch_opts *o)
{
	struct watch w = { .o = o };
	static struct ftstat_hook hook;	/* its queue is large: not on the stack */
	static struct ftstat_journal journal;
	struct ftu_nl nl;
	struct nl_cb *cb;
	int ret = 1;

	if (o->exec) {
		ftstat_hook_init(&hook, o->exec, o->exec_timeout_ns);
		w.hook = &hook;
	}
	if (o->journal) {
		ftstat_journal_init(&journal);
		w.journal = &journal;
	}
	if (ftu_nl_open(&nl, FTDETECT_GENL_NAME))
		return 1;
	if (ftu_nl_subscribe(&nl, FTDETECT_GENL_NAME, FTDETECT_MCGRP_EVENTS))
		goto out;
	if (nl_socket_set_nonblocking(nl.sk) < 0) {
		fprintf(stderr, "%s: cannot make the socket non-blocking\n",
			program_invocation_short_name);
		goto out;
	}
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
		goto out;
	}
	/*
	 * A fresh callback set does libnl's default sequence check, which
	 * fails on multicast messages (sequence 0): accept every message.
	 */
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, any_seq, NULL);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, &w);
	ret = loop(&nl, cb, &w);
	nl_cb_put(cb);
out:
	ftu_nl_close(&nl);
	return ret;
}
