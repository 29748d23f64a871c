// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "replay.h"

#define WORDS	(FTD_REPLAY_WINDOW / 64)

static bool test_and_set(struct ftd_replay *w, u64 seq)
{
	u64 *word = &w->bits[(seq / 64) % WORDS], bit = 1ULL << (seq % 64);
	bool was = *word & bit;

	*word |= bit;
	return was;
}

enum ftd_replay_verdict ftd_replay_check(struct ftd_replay *w, u64 seq)
{
	u64 old_word = w->top / 64, new_word = seq / 64, i;

	if (!seq)
		return FTD_REPLAY_ZERO;
	if (seq > w->top) {
		/* Slide: the words after top's, up to seq's, start empty. */
		if (!w->top || new_word - old_word >= WORDS)
			memset(w->bits, 0, sizeof(w->bits));
		else
			for (i = old_word + 1; i <= new_word; i++)
				w->bits[i % WORDS] = 0;
		w->top = seq;
		test_and_set(w, seq);
		return FTD_REPLAY_FRESH;
	}
	/*
	 * The window holds the WORDS words ending with top's: a sequence
	 * number in an older word may share a slot with a newer one.
	 */
	if (old_word - new_word >= WORDS)
		return FTD_REPLAY_OLD;
	return test_and_set(w, seq) ? FTD_REPLAY_SEEN : FTD_REPLAY_FRESH;
}
