// SPDX-License-Identifier: GPL-2.0-only
#include "ftstat/ratelimit.h"

#include <string.h>

#include "proto/elapsed.h"

void ftstat_ratelimit_init(struct ftstat_ratelimit *rl)
{
	memset(rl, 0, sizeof(*rl));
}

static unsigned int slot(unsigned int type)
{
	return type <= FTD_EV_MAX ? type : 0;
}

bool ftstat_ratelimit_admit(struct ftstat_ratelimit *rl, unsigned int type, uint64_t now_ns)
{
	unsigned int s = slot(type);

	if (!rl->type[s].started ||
	    ftd_elapsed(now_ns, rl->type[s].start_ns) >= FTSTAT_RL_WINDOW_NS) {
		/* A new window. Its predecessor's drops stay until taken. */
		rl->type[s].started = true;
		rl->type[s].start_ns = now_ns;
		rl->type[s].logged = 0;
	}
	if (rl->type[s].logged < FTSTAT_RL_BURST) {
		rl->type[s].logged++;
		return true;
	}
	rl->type[s].dropped++;
	return false;
}

int ftstat_ratelimit_take_dropped(struct ftstat_ratelimit *rl, uint64_t now_ns, bool all,
				  uint32_t *dropped)
{
	for (unsigned int s = 0; s <= FTD_EV_MAX; s++) {
		if (!rl->type[s].dropped)
			continue;
		if (!all && ftd_elapsed(now_ns, rl->type[s].start_ns) < FTSTAT_RL_WINDOW_NS)
			continue;
		*dropped = rl->type[s].dropped;
		rl->type[s].dropped = 0;
		return (int)s;
	}
	return -1;
}
