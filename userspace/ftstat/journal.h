/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftstat -w --journal: each event to the systemd journal, structured: the
 * text as MESSAGE, a PRIORITY by what the event means to a cluster, and its
 * fields as FTD_EVENT, FTD_NODE, FTD_INCARNATION, ... (the members of its
 * JSON line, as a hook's environment has them), so that
 * `journalctl FTD_EVENT=NODE_DEAD FTD_NODE=3` finds it. Rate-limited per
 * event type (ratelimit.h); what is not logged is counted in a message of
 * its own (FTD_SUPPRESSED).
 */
#ifndef FTSTAT_JOURNAL_H
#define FTSTAT_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/ftdetect.h>

#include "ftstat/ratelimit.h"

struct ftstat_journal {
	struct ftstat_ratelimit rl;
	bool failed;		/* a send failed: said once on stderr */
};

void ftstat_journal_init(struct ftstat_journal *j);
void ftstat_journal_event(struct ftstat_journal *j, const struct ftd_event *ev);
/* Events were lost before ftstat could read them (the socket overran). */
void ftstat_journal_overflow(struct ftstat_journal *j);
/* At exit: say what the rate limit kept out. */
void ftstat_journal_close(struct ftstat_journal *j);

/* The syslog priority of an event type (LOG_ERR ... LOG_INFO). */
int ftstat_journal_priority(unsigned int type);

#endif /* FTSTAT_JOURNAL_H */
