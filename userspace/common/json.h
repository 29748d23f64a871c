/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * A minimal streaming JSON writer: compact output (one document per line,
 * which suits JSON Lines and jq), commas placed automatically, strings
 * escaped per RFC 8259. Nesting is bounded by FTU_JSON_MAX_DEPTH; the
 * writer is used for small, fixed-shape documents. The tools' -j output
 * and the MPI glue's FTD_MPI_JSON lines (hence the glue's license).
 */
#ifndef FTU_JSON_H
#define FTU_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define FTU_JSON_MAX_DEPTH 8

struct ftu_json {
	FILE *f;
	int depth;
	bool need_comma[FTU_JSON_MAX_DEPTH + 1];
	bool after_key;
};

void ftu_json_init(struct ftu_json *j, FILE *f);

void ftu_json_object_begin(struct ftu_json *j);
void ftu_json_object_end(struct ftu_json *j);
void ftu_json_array_begin(struct ftu_json *j);
void ftu_json_array_end(struct ftu_json *j);

/* A member name inside an object; the next value call is its value. */
void ftu_json_key(struct ftu_json *j, const char *key);

void ftu_json_string(struct ftu_json *j, const char *s);
void ftu_json_u64(struct ftu_json *j, uint64_t v);
void ftu_json_s64(struct ftu_json *j, int64_t v);
void ftu_json_bool(struct ftu_json *j, bool v);
void ftu_json_null(struct ftu_json *j);

/* key + value shorthands */
void ftu_json_kv_string(struct ftu_json *j, const char *key, const char *s);
void ftu_json_kv_u64(struct ftu_json *j, const char *key, uint64_t v);
void ftu_json_kv_s64(struct ftu_json *j, const char *key, int64_t v);
void ftu_json_kv_bool(struct ftu_json *j, const char *key, bool v);

/* Write s as a quoted, escaped JSON string (exposed for tests). */
void ftu_json_write_string(FILE *f, const char *s);

#endif /* FTU_JSON_H */
