/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * How long ago a stamp was: the one way the core measures time.
 *
 * A tick reads the clock once and judges with that reading, while other
 * CPUs go on receiving: a frame taken in between carries a stamp later
 * than the tick's "now" (so does an XDP stamp made on another CPU, or a
 * vote recorded by a receive path that read the clock after ours). In
 * unsigned arithmetic, now - then is then 584 years of silence: a node
 * fenced itself for hearing nobody at the very moment it heard someone,
 * and its peers saw its incarnation end (found with two emulated CPUs;
 * a single CPU never interleaves a receive with the tick). A stamp later
 * than now was made after now: it is no time ago.
 */
#ifndef FTD_PROTO_ELAPSED_H
#define FTD_PROTO_ELAPSED_H

#include "compat.h"

static inline u64 ftd_elapsed(u64 now_ns, u64 then_ns)
{
	return now_ns > then_ns ? now_ns - then_ns : 0;
}

#endif
