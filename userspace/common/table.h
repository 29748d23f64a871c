/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Aligned text tables in the style of ss(8) and wg(8): a header row, columns
 * as wide as their widest cell, two spaces between columns, numbers aligned
 * right, no trailing blanks. Cells are copied, so callers can format into a
 * stack buffer and add it.
 */
#ifndef FTU_TABLE_H
#define FTU_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ftu_column {
	const char *name;
	bool right;		/* align right (numbers) */
};

struct ftu_table {
	const struct ftu_column *cols;
	unsigned int ncols;
	size_t nrows, cap;
	char **cells;		/* nrows * ncols strings */
	bool oom;		/* an allocation failed; print says so */
};

void ftu_table_init(struct ftu_table *t, const struct ftu_column *cols, unsigned int ncols);

/* Add a row of exactly ncols cells (NULL prints as empty). */
void ftu_table_add(struct ftu_table *t, const char *const *cells);

/* Print header and rows; returns -1 if a row could not be stored. */
int ftu_table_print(const struct ftu_table *t, FILE *f);

void ftu_table_free(struct ftu_table *t);

#endif /* FTU_TABLE_H */
