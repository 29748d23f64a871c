/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How many events of one type ftstat --journal logs: at most BURST per
 * WINDOW, per type, so that a flapping or collapsing cluster cannot flood
 * the journal, while a rack's worth of deaths (hundreds at once) is logged
 * whole. What is not logged is counted and said once the window ends.
 */
#ifndef FTSTAT_RATELIMIT_H
#define FTSTAT_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/ftdetect.h>

#define FTSTAT_RL_WINDOW_NS	(10ULL * 1000000000ULL)
#define FTSTAT_RL_BURST		500

struct ftstat_ratelimit {
	struct {
		bool started;		/* a window began */
		uint64_t start_ns;	/* of the current window */
		uint32_t logged;	/* in the current window */
		uint32_t dropped;	/* in the current window, not said yet */
	} type[FTD_EV_MAX + 1];		/* unknown (newer) types share slot 0 */
};

void ftstat_ratelimit_init(struct ftstat_ratelimit *rl);

/* Whether an event of `type` at `now_ns` (monotonic) may be logged; when
 * not, it is counted. */
bool ftstat_ratelimit_admit(struct ftstat_ratelimit *rl, unsigned int type, uint64_t now_ns);

/*
 * The next type whose window has ended (or any, with `all`: at exit) with
 * events not logged: their number in *dropped, cleared here. -1 if none.
 * Call until -1 before logging an event, so the summary comes first.
 */
int ftstat_ratelimit_take_dropped(struct ftstat_ratelimit *rl, uint64_t now_ns, bool all,
				  uint32_t *dropped);

#endif /* FTSTAT_RATELIMIT_H */
