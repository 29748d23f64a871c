// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include "sim/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sim_rng_seed(struct sim_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t sim_rng_u64(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t sim_rng_below(struct sim_rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)sim_rng_u64(r) * n) >> 64);
}

double sim_rng_unit(struct sim_rng *r)
{
	return (double)(sim_rng_u64(r) >> 11) * 0x1.0p-53;
}

double sim_rng_normal(struct sim_rng *r)
{
	double u, v, s;

	do {
		u = 2 * sim_rng_unit(r) - 1;
		v = 2 * sim_rng_unit(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * sqrt(-2 * log(s) / s);
}

double sim_rng_exp(struct sim_rng *r)
{
	return -log1p(-sim_rng_unit(r));
}
