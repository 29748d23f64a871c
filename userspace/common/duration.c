// SPDX-License-Identifier: GPL-2.0-only
/*
 * Duration parsing and formatting. Parsing is done in integers, never through
 * strtod(): "0.1ms" must be exactly 100000ns, and a config value must not
 * change by a rounding error between the file and the kernel.
 */
#include "common/duration.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	uint64_t ns;
} units[] = {
	{ "ns", 1ULL },
	{ "us", 1000ULL },
	{ "\xc2\xb5s", 1000ULL },	/* "µs" in UTF-8 */
	{ "ms", 1000000ULL },
	{ "s", 1000000000ULL },
};

static int unit_ns(const char *s, uint64_t *mult)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(s, units[i].name)) {
			*mult = units[i].ns;
			return 0;
		}
	}
	return -1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int ftu_duration_parse(const char *s, uint64_t *ns, const char **why)
{
	uint64_t whole = 0, frac = 0, frac_div = 1, mult, v;
	const char *p = s;

	if (*p == '-') {
		*why = "negative durations are not allowed";
		return -1;
	}
	if (!is_digit(*p)) {
		*why = "not a number (expected e.g. 10ms, 100us, 1.5s)";
		return -1;
	}
	for (; is_digit(*p); p++) {
		if (whole > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) {
			*why = "too large";
			return -1;
		}
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!is_digit(*p)) {
			*why = "expected digits after the decimal point";
			return -1;
		}
		/*
		 * Keep at most 9 significant fraction digits: the largest unit
		 * is 1e9 ns, so a tenth non-zero digit can never be a whole
		 * nanosecond. Trailing zeros beyond that are harmless.
		 */
		for (; is_digit(*p); p++) {
			if (frac_div < 1000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				frac_div *= 10;
			} else if (*p != '0') {
				*why = "not a whole number of nanoseconds";
				return -1;
			}
		}
	}
	if (!*p) {
		*why = "missing unit (use ns, us, ms or s)";
		return -1;
	}
	if (unit_ns(p, &mult)) {
		*why = "unknown unit (use ns, us, ms or s)";
		return -1;
	}
	/* frac < 1e9 and mult <= 1e9: the product fits in 64 bits. */
	if ((frac * mult) % frac_div) {
		*why = "not a whole number of nanoseconds";
		return -1;
	}
	if (whole > UINT64_MAX / mult) {
		*why = "too large";
		return -1;
	}
	v = whole * mult;
	if (v > UINT64_MAX - frac * mult / frac_div) {
		*why = "too large";
		return -1;
	}
	*ns = v + frac * mult / frac_div;
	return 0;
}

char *ftu_duration_format(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} fmt_units[] = {
		{ "s", 1000000000ULL },
		{ "ms", 1000000ULL },
		{ "us", 1000ULL },
	};

	for (size_t i = 0; i < sizeof(fmt_units) / sizeof(fmt_units[0]); i++) {
		uint64_t u = fmt_units[i].ns;
		uint64_t whole = ns / u;
		/* rem < 1e9, so rem * 100 cannot overflow. */
		uint64_t hundredths = (ns % u * 100 + u / 2) / u;
		const char *name = fmt_units[i].name;

		if (!whole)
			continue;
		if (hundredths == 100) {
			whole++;
			hundredths = 0;
		}
		/* 999.999us rounds to 1000us: say 1ms. */
		if (whole == 1000 && i > 0) {
			whole = 1;
			name = fmt_units[i - 1].name;
		}
		if (!hundredths)
			snprintf(buf, len, "%" PRIu64 "%s", whole, name);
		else if (hundredths % 10 == 0)
			snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "%s", whole, hundredths / 10, name);
		else
			snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 "%s", whole, hundredths, name);
		return buf;
	}
	if (ns)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else
		snprintf(buf, len, "0");
	return buf;
}
