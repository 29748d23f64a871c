// SPDX-License-Identifier: LGPL-2.1 OR MIT
#include "common/json.h"

#include <inttypes.h>
#include <stdlib.h>

void ftu_json_init(struct ftu_json *j, FILE *f)
{
	*j = (struct ftu_json){ .f = f };
}

/* Separator before a value or a key at the current level. */
static void sep(struct ftu_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	j->need_comma[j->depth] = true;
}

static void nest_open(struct ftu_json *j, char c)
{
	/* The documents are fixed-shape: deeper nesting is a bug here. */
	if (j->depth >= FTU_JSON_MAX_DEPTH)
		abort();
	sep(j);
	fputc(c, j->f);
	j->need_comma[++j->depth] = false;
}

static void nest_close(struct ftu_json *j, char c)
{
	if (j->depth <= 0 || j->after_key)
		abort();
	j->depth--;
	fputc(c, j->f);
}

void ftu_json_object_begin(struct ftu_json *j) { nest_open(j, '{'); }
void ftu_json_object_end(struct ftu_json *j) { nest_close(j, '}'); }
void ftu_json_array_begin(struct ftu_json *j) { nest_open(j, '['); }
void ftu_json_array_end(struct ftu_json *j) { nest_close(j, ']'); }

void ftu_json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			/* Other control characters must be escaped; bytes >= 0x80
			 * pass through (UTF-8 is valid JSON as is). */
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void ftu_json_key(struct ftu_json *j, const char *key)
{
	sep(j);
	ftu_json_write_string(j->f, key);
	fputc(':', j->f);
	j->after_key = true;
}

void ftu_json_string(struct ftu_json *j, const char *s)
{
	sep(j);
	ftu_json_write_string(j->f, s);
}

void ftu_json_u64(struct ftu_json *j, uint64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRIu64, v);
}

void ftu_json_s64(struct ftu_json *j, int64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRId64, v);
}

void ftu_json_bool(struct ftu_json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void ftu_json_null(struct ftu_json *j)
{
	sep(j);
	fputs("null", j->f);
}

void ftu_json_kv_string(struct ftu_json *j, const char *key, const char *s)
{
	ftu_json_key(j, key);
	ftu_json_string(j, s);
}

void ftu_json_kv_u64(struct ftu_json *j, const char *key, uint64_t v)
{
	ftu_json_key(j, key);
	ftu_json_u64(j, v);
}

void ftu_json_kv_s64(struct ftu_json *j, const char *key, int64_t v)
{
	ftu_json_key(j, key);
	ftu_json_s64(j, v);
}

void ftu_json_kv_bool(struct ftu_json *j, const char *key, bool v)
{
	ftu_json_key(j, key);
	ftu_json_bool(j, v);
}
