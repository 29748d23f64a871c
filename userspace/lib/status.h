/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * libftdetect's reader of the status table (private; the API is ftdetect.h).
 * Works on any memory holding a table, mapped or not, so that the unit tests
 * read what the module's own writer code (kmod/proto/status.c) wrote, with
 * the writer racing them. Every access is bounds-checked against the
 * geometry validated once by ftd__stab_open(): a torn read can produce
 * nonsense, never an access outside the table, and the seq check throws the
 * nonsense away.
 */
#ifndef FTDETECT_LIB_STATUS_H
#define FTDETECT_LIB_STATUS_H

#include <stddef.h>
#include <stdint.h>
#include "ftdetect.h"

struct ftd__stab {
	const unsigned char *base;
	size_t size;
	const struct ftd_status_hdr *hdr;
	/* What never changes once the table exists, checked. */
	uint32_t node_off, node_size, node_cap;
	uint32_t rank_off, rank_size, rank_cap;
	uint32_t bucket_off, bucket_count;
};

/*
 * Check the header of size bytes at base and fill s: -EPROTO for another
 * format or version, or a geometry that does not fit in size.
 */
int ftd__stab_open(struct ftd__stab *s, const void *base, size_t size);

int64_t ftd__stab_changes(const struct ftd__stab *s);
int ftd__stab_info(const struct ftd__stab *s, struct ftd_status_info *out);
int ftd__stab_node(const struct ftd__stab *s, uint32_t id, struct ftd_node_status *out);
int ftd__stab_rank(const struct ftd__stab *s, uint32_t job, uint32_t rank, uint32_t uid,
		   struct ftd_rank_status *out);
int ftd__stab_snapshot(const struct ftd__stab *s, struct ftd_status_snapshot **out);

/*
 * How long a reader keeps retrying while the table changes under it before
 * it gives up with -EAGAIN (a write takes microseconds; tests shorten it).
 */
extern uint64_t ftd__stab_patience_ns;

#endif
