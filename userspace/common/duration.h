/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Durations as people write them in a config file ("10ms", "1.5ms") and as
 * the tools print them. The kernel speaks nanoseconds; these helpers are the
 * only place where units are converted.
 */
#ifndef FTU_DURATION_H
#define FTU_DURATION_H

#include <stddef.h>
#include <stdint.h>

/* Large enough for any ftu_duration_format() result, "18446744073.71s" included. */
#define FTU_DURATION_BUFSZ 32

/*
 * Parse a duration with a mandatory unit: ns, us (or µs), ms or s, with an
 * optional decimal fraction ("1.5ms"), into nanoseconds. The result must be
 * a whole number of nanoseconds and fit in 64 bits; no sign, no space, no
 * exponent. Returns 0, or -1 with *why set to a static, human-readable reason.
 */
int ftu_duration_parse(const char *s, uint64_t *ns, const char **why);

/*
 * Format nanoseconds in the largest unit that keeps an integer part of at
 * least 1, rounded to at most two decimals, trailing zeros removed:
 * 10000000 -> "10ms", 1250000 -> "1.25ms", 850000 -> "850us", 999 -> "999ns",
 * 999999 -> "1ms", 0 -> "0".
 * Lossy by design (for tables); JSON output prints raw nanoseconds instead.
 * Returns buf.
 */
char *ftu_duration_format(uint64_t ns, char *buf, size_t len);

#endif /* FTU_DURATION_H */
