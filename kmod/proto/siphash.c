// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "siphash.h"

#define ROTL(x, b) (u64)(((x) << (b)) | ((x) >> (64 - (b))))

static inline u64 get_le64(const u8 *p)
{
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline void sipround(struct ftd_siphash *s)
{
	s->v0 += s->v1; s->v1 = ROTL(s->v1, 13); s->v1 ^= s->v0; s->v0 = ROTL(s->v0, 32);
	s->v2 += s->v3; s->v3 = ROTL(s->v3, 16); s->v3 ^= s->v2;
	s->v0 += s->v3; s->v3 = ROTL(s->v3, 21); s->v3 ^= s->v0;
	s->v2 += s->v1; s->v1 = ROTL(s->v1, 17); s->v1 ^= s->v2; s->v2 = ROTL(s->v2, 32);
}

static inline void absorb(struct ftd_siphash *s, u64 m)
{
	s->v3 ^= m;
	sipround(s);
	sipround(s);
	s->v0 ^= m;
}

void ftd_siphash_init(struct ftd_siphash *s, const u8 key[16])
{
	u64 k0 = get_le64(key), k1 = get_le64(key + 8);

	s->v0 = 0x736f6d6570736575ULL ^ k0;
	s->v1 = 0x646f72616e646f6dULL ^ k1;
	s->v2 = 0x6c7967656e657261ULL ^ k0;
	s->v3 = 0x7465646279746573ULL ^ k1;
	s->tail = 0;
	s->total = 0;
}

void ftd_siphash_update(struct ftd_siphash *s, const u8 *data, size_t len)
{
	while (len) {
		unsigned int fill = s->total & 7;

		if (!fill && len >= 8) {
			absorb(s, get_le64(data));
			data += 8;
			len -= 8;
			s->total += 8;
			continue;
		}
		s->tail |= (u64)*data++ << (8 * fill);
		len--;
		s->total++;
		if ((s->total & 7) == 0) {
			absorb(s, s->tail);
			s->tail = 0;
		}
	}
}

u64 ftd_siphash_final(struct ftd_siphash *s)
{
	u64 b = (s->total << 56) | s->tail;

	absorb(s, b);
	s->v2 ^= 0xff;
	sipround(s);
	sipround(s);
	sipround(s);
	sipround(s);
	return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}
