// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "keyring.h"
#include "siphash.h"
#include "wire.h"

u64 ftd_key_id(const u8 key[FTD_KEY_LEN])
{
	static const char input[] = FTD_KEY_ID_INPUT;
	struct ftd_siphash s;

	ftd_siphash_init(&s, key);
	ftd_siphash_update(&s, (const u8 *)input, sizeof(input) - 1);
	return ftd_siphash_final(&s);
}

static bool held(const struct ftd_keyring *r, const u8 key[FTD_KEY_LEN])
{
	for (unsigned int i = 0; i < r->n; i++)
		if (!memcmp(r->key[i], key, FTD_KEY_LEN))
			return true;
	return false;
}

void ftd_keyring_init(struct ftd_keyring *r, const u8 primary[FTD_KEY_LEN],
		      const u8 *accepted, unsigned int n_accepted)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->key[0], primary, FTD_KEY_LEN);
	r->id[0] = ftd_key_id(primary);
	r->n = 1;
	for (unsigned int i = 0; i < n_accepted && r->n < FTD_KEYRING_MAX; i++) {
		const u8 *k = accepted + (size_t)i * FTD_KEY_LEN;

		if (held(r, k))
			continue;
		memcpy(r->key[r->n], k, FTD_KEY_LEN);
		r->id[r->n] = ftd_key_id(k);
		r->n++;
	}
}

int ftd_keyring_verify(const struct ftd_keyring *r, const u8 *buf, size_t len)
{
	for (unsigned int i = 0; i < r->n; i++)
		if (ftd_wire_mac_ok(buf, len, r->key[i]))
			return (int)i;
	return -1;
}
