/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counted allocations: every array the simulator sizes by N or by the
 * traffic goes through these, so that a run reports the memory it needed
 * (peak bytes), not a guess.
 */
#ifndef FTD_SIM_MEM_H
#define FTD_SIM_MEM_H

#include <stddef.h>

void *sim_zalloc(size_t size);
/* Grow (or shrink) p from old to size bytes; the new part is zeroed. */
void *sim_realloc(void *p, size_t old, size_t size);
void sim_release(void *p, size_t size);

/* Bytes held now, and the most held since sim_mem_reset_peak(). */
size_t sim_mem_now(void);
size_t sim_mem_peak(void);
void sim_mem_reset_peak(void);

#endif
