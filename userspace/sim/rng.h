/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Deterministic pseudo-random numbers for the simulator: xoshiro256**
 * seeded through splitmix64. Each concern draws from its own stream (node
 * phases, the network, the choice of victims), derived from the run's seed
 * and a stream number, so that changing the loss rate does not move the
 * victims or the tick phases.
 */
#ifndef FTD_SIM_RNG_H
#define FTD_SIM_RNG_H

#include <stdint.h>

struct sim_rng {
	uint64_t s[4];
};

void sim_rng_seed(struct sim_rng *r, uint64_t seed, uint64_t stream);
uint64_t sim_rng_u64(struct sim_rng *r);
/* Uniform in [0, n), n > 0 (no modulo bias worth the name for n << 2^64). */
uint64_t sim_rng_below(struct sim_rng *r, uint64_t n);
/* Uniform in [0, 1). */
double sim_rng_unit(struct sim_rng *r);
/* Standard normal (polar Box-Muller; the spare value is not kept). */
double sim_rng_normal(struct sim_rng *r);
/* Exponential with mean 1. */
double sim_rng_exp(struct sim_rng *r);

#endif
