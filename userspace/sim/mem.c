// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>
#include "sim/mem.h"

static size_t now_bytes, peak_bytes;

static void account(size_t add, size_t sub)
{
	now_bytes = now_bytes + add - sub;
	if (now_bytes > peak_bytes)
		peak_bytes = now_bytes;
}

void *sim_zalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (p)
		account(size, 0);
	return p;
}

void *sim_realloc(void *p, size_t old, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (!q)
		return NULL;
	if (size > old)
		memset((char *)q + old, 0, size - old);
	account(size, old);
	return q;
}

void sim_release(void *p, size_t size)
{
	if (!p)
		return;
	free(p);
	account(0, size);
}

size_t sim_mem_now(void)
{
	return now_bytes;
}

size_t sim_mem_peak(void)
{
	return peak_bytes;
}

void sim_mem_reset_peak(void)
{
	peak_bytes = now_bytes;
}
