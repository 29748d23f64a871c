// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include "ftstat/journal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>
#include <time.h>

#include <systemd/sd-journal.h>

#include "common/names.h"
#include "ftstat/format.h"

#define MAX_FIELDS 32

void ftstat_journal_init(struct ftstat_journal *j)
{
	memset(j, 0, sizeof(*j));
	ftstat_ratelimit_init(&j->rl);
}

/*
 * This node fenced itself: it is out of the cluster until it rejoins. A
 * node or a rank died: jobs lose ranks. Suspicion, a lost rail and lost
 * events deserve a look. The rest is the cluster working.
 */
int ftstat_journal_priority(unsigned int type)
{
	switch (type) {
	case FTD_EV_FENCED:
		return LOG_ERR;
	case FTD_EV_NODE_DEAD:
	case FTD_EV_RANKS_DEAD:
	case FTD_EV_PROC_DEAD:
	case FTD_EV_IFACE_DEAD:
	case FTD_EV_OVERFLOW:
		return LOG_WARNING;
	case FTD_EV_NODE_SUSPECT:
	case FTD_EV_NODE_LEFT:
		return LOG_NOTICE;
	default:
		return LOG_INFO;
	}
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void send_failed(struct ftstat_journal *j, int err)
{
	if (j->failed)
		return;
	j->failed = true;
	fprintf(stderr, "%s: journal: cannot log: %s (is systemd-journald running?); "
		"events are not logged until it is\n", program_invocation_short_name,
		strerror(-err));
}

/* One journal entry: MESSAGE, PRIORITY, SYSLOG_IDENTIFIER, then `vars`. */
static void log_entry(struct ftstat_journal *j, const char *text, int prio, char **vars)
{
	struct iovec iov[MAX_FIELDS + 3];
	char message[512], priority[16], ident[64];
	size_t n = 0;
	int err;

	snprintf(message, sizeof(message), "MESSAGE=%s", text);
	snprintf(priority, sizeof(priority), "PRIORITY=%d", prio);
	snprintf(ident, sizeof(ident), "SYSLOG_IDENTIFIER=%s", program_invocation_short_name);
	iov[n++] = (struct iovec){ message, strlen(message) };
	iov[n++] = (struct iovec){ priority, strlen(priority) };
	iov[n++] = (struct iovec){ ident, strlen(ident) };
	for (; vars && *vars && n < MAX_FIELDS + 3; vars++)
		iov[n++] = (struct iovec){ *vars, strlen(*vars) };
	err = sd_journal_sendv(iov, (int)n);
	if (err < 0)
		send_failed(j, err);
	else
		j->failed = false;
}

static void say_dropped(struct ftstat_journal *j, uint64_t now, bool all)
{
	uint32_t dropped;
	int type;

	while ((type = ftstat_ratelimit_take_dropped(&j->rl, now, all, &dropped)) >= 0) {
		const char *name = type ? ftu_event_name((unsigned int)type) : NULL;
		char text[256], ev[64], count[48];
		char *vars[] = { ev, count, NULL };

		snprintf(ev, sizeof(ev), "FTD_EVENT=%s", name ? name : "UNKNOWN");
		snprintf(count, sizeof(count), "FTD_SUPPRESSED=%" PRIu32, dropped);
		snprintf(text, sizeof(text), "%" PRIu32 " %s events not logged (more than %d in %llu s); "
			 "ftstat -w shows every event", dropped, name ? name : "unknown",
			 FTSTAT_RL_BURST, FTSTAT_RL_WINDOW_NS / 1000000000ULL);
		log_entry(j, text, LOG_WARNING, vars);
	}
}

void ftstat_journal_event(struct ftstat_journal *j, const struct ftd_event *ev)
{
	char buf[1024], *vars[MAX_FIELDS], *text = NULL;
	size_t len = 0;
	uint64_t now = monotonic_ns();
	FILE *f;

	say_dropped(j, now, false);
	if (!ftstat_ratelimit_admit(&j->rl, ev->type, now))
		return;
	f = open_memstream(&text, &len);
	if (!f)
		return;
	ftstat_print_event_text(f, ev);
	if (fclose(f)) {
		free(text);
		return;
	}
	/* vars[0] is FTD_EVENT_JSON: the fields say it all, one by one. */
	if (ftstat_event_vars(ev, buf, sizeof(buf), vars, MAX_FIELDS) == 0)
		log_entry(j, text, ftstat_journal_priority(ev->type), vars + 1);
	else
		log_entry(j, text, ftstat_journal_priority(ev->type), NULL);
	free(text);
}

void ftstat_journal_overflow(struct ftstat_journal *j)
{
	char ev[] = "FTD_EVENT=OVERFLOW", *vars[] = { ev, NULL };

	log_entry(j, "OVERFLOW: events were lost before ftstat read them (its socket's buffer "
	     "overran)", LOG_WARNING, vars);
}

void ftstat_journal_close(struct ftstat_journal *j)
{
	say_dropped(j, monotonic_ns(), true);
}
