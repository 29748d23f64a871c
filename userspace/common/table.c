// SPDX-License-Identifier: GPL-2.0-only
#include "common/table.h"

#include <stdlib.h>
#include <string.h>

void ftu_table_init(struct ftu_table *t, const struct ftu_column *cols, unsigned int ncols)
{
	*t = (struct ftu_table){ .cols = cols, .ncols = ncols };
}

void ftu_table_add(struct ftu_table *t, const char *const *cells)
{
	char **row;

	if (t->oom)
		return;
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		char **p = reallocarray(t->cells, cap * t->ncols, sizeof(*p));

		if (!p) {
			t->oom = true;
			return;
		}
		t->cells = p;
		t->cap = cap;
	}
	row = t->cells + t->nrows * t->ncols;
	for (unsigned int c = 0; c < t->ncols; c++) {
		row[c] = strdup(cells[c] ? cells[c] : "");
		if (!row[c]) {
			while (c--)
				free(row[c]);
			t->oom = true;
			return;
		}
	}
	t->nrows++;
}

static void print_row(const struct ftu_table *t, FILE *f, const size_t *width,
		      const char *const *cells)
{
	unsigned int last = t->ncols;

	/* Trailing empty cells would only print blanks. */
	while (last > 1 && !*cells[last - 1])
		last--;
	for (unsigned int c = 0; c < last; c++) {
		int w = (int)width[c];

		if (c)
			fputs("  ", f);
		if (t->cols[c].right)
			fprintf(f, "%*s", w, cells[c]);
		else if (c == last - 1)
			fputs(cells[c], f);
		else
			fprintf(f, "%-*s", w, cells[c]);
	}
	fputc('\n', f);
}

int ftu_table_print(const struct ftu_table *t, FILE *f)
{
	const char *header[t->ncols];
	size_t width[t->ncols];

	for (unsigned int c = 0; c < t->ncols; c++) {
		header[c] = t->cols[c].name;
		width[c] = strlen(header[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t w = strlen(t->cells[r * t->ncols + c]);

			if (w > width[c])
				width[c] = w;
		}
	}
	print_row(t, f, width, header);
	for (size_t r = 0; r < t->nrows; r++)
		print_row(t, f, width, (const char *const *)t->cells + r * t->ncols);
	if (t->oom) {
		fputs("(out of memory: table truncated)\n", f);
		return -1;
	}
	return 0;
}

void ftu_table_free(struct ftu_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->nrows = t->cap = 0;
}
