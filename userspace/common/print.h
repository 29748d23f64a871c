/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One printing path for people and for programs, after iproute2's
 * json_print: a field is printed by one call that names both its JSON
 * member and its text form, and a run writes whichever of the two it
 * was opened for. What the text leaves out has no text form (fmt NULL).
 * Without a member name (key NULL), a field is a value of the JSON array
 * it is in, or, in an object, text alone.
 *
 * Objects and arrays are JSON's alone (text prints nothing for them);
 * tables, rows and cells are text's alone (JSON prints a table as the
 * array of its rows' objects). Inside a table, text goes to the cell
 * chosen last with ftu_print_cell(), so that a row's cells need not come
 * in the order of the JSON members.
 *
 * fmt is a printf format with one conversion, for the value's type
 * (PRIu64 for numbers, %s for strings and formatted durations).
 */
#ifndef FTU_PRINT_H
#define FTU_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/json.h"
#include "common/table.h"

#define FTU_PRINT_MAX_COLS 16
#define FTU_PRINT_CELL 1024	/* a cell longer is cut, and ends in "..." */

struct ftu_print {
	FILE *f;
	bool json;
	struct ftu_json j;
	int depth;		/* of JSON's nesting, as ftu_json's */
	uint32_t arrays;	/* bit d: the container at depth d is an array */
	/* text inside a table */
	struct ftu_table t;
	bool in_table, in_row, row_hidden;
	size_t rows;
	unsigned int col;
	char cells[FTU_PRINT_MAX_COLS][FTU_PRINT_CELL];
};

void ftu_print_init(struct ftu_print *p, FILE *f, bool json);
/* The end of a document: JSON's closing newline (one document a line). */
void ftu_print_done(struct ftu_print *p);

/* JSON structure; key NULL for a value of an array or the document. */
void ftu_print_object_begin(struct ftu_print *p, const char *key);
void ftu_print_object_end(struct ftu_print *p);
void ftu_print_array_begin(struct ftu_print *p, const char *key);
void ftu_print_array_end(struct ftu_print *p);

void ftu_print_u64(struct ftu_print *p, const char *key, const char *fmt, uint64_t v);
void ftu_print_string(struct ftu_print *p, const char *key, const char *fmt, const char *s);
/* JSON true/false; text fmt with s_true or s_false. */
void ftu_print_bool(struct ftu_print *p, const char *key, const char *fmt, bool v,
		    const char *s_true, const char *s_false);
/* JSON null; text fmt alone (no conversion). */
void ftu_print_null(struct ftu_print *p, const char *key, const char *fmt);
/* JSON the nanoseconds; text fmt with them as a short duration ("10ms"). */
void ftu_print_duration(struct ftu_print *p, const char *key, const char *fmt, uint64_t ns);

/*
 * A field the source may not report: as above when present; absent, JSON
 * leaves the member out (never a made-up zero) and text prints "-".
 */
void ftu_print_u64_opt(struct ftu_print *p, bool present, const char *key, const char *fmt,
		       uint64_t v);
void ftu_print_duration_opt(struct ftu_print *p, bool present, const char *key,
			    const char *fmt, uint64_t ns);

/* Text alone: words around the fields. */
void ftu_print_text(struct ftu_print *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A table: JSON the array key (NULL inside an array) of the rows'
 * objects; text the aligned table (common/table.h), or, if it has no
 * row, the line empty (NULL: the header alone).
 */
void ftu_print_table_begin(struct ftu_print *p, const char *key,
			   const struct ftu_column *cols, unsigned int ncols);
/* Text: a new row, its cells empty; the one before is complete. */
void ftu_print_row(struct ftu_print *p);
/* The same, with a row that text leaves out unless shown (its text goes nowhere). */
void ftu_print_row_if(struct ftu_print *p, bool shown);
/* Text: what follows goes to cell col of the row (none past the table's). */
void ftu_print_cell(struct ftu_print *p, unsigned int col);
void ftu_print_table_end(struct ftu_print *p, const char *empty);

#endif /* FTU_PRINT_H */
