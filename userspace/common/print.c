// SPDX-License-Identifier: GPL-2.0-only
#include "common/print.h"

#include <stdarg.h>
#include <string.h>

#include "common/duration.h"

void ftu_print_init(struct ftu_print *p, FILE *f, bool json)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->json = json;
	ftu_json_init(&p->j, f);
}

void ftu_print_done(struct ftu_print *p)
{
	if (p->json)
		fputc('\n', p->f);
}

/* Text to the stream, or to the chosen cell of a table's row. */
static void text_v(struct ftu_print *p, const char *fmt, va_list ap)
{
	char *cell;
	size_t len;

	if (!p->in_row) {
		vfprintf(p->f, fmt, ap);
		return;
	}
	if (p->col >= p->t.ncols)
		return;		/* a column this table leaves out */
	cell = p->cells[p->col];
	len = strlen(cell);
	if (vsnprintf(cell + len, FTU_PRINT_CELL - len, fmt, ap) >= (int)(FTU_PRINT_CELL - len))
		memcpy(cell + FTU_PRINT_CELL - 4, "...", 4);	/* cut: say so */
}

/* A field's fmt: one conversion, for its value (print.h). */
static void text(struct ftu_print *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_v(p, fmt, ap);
	va_end(ap);
}

void ftu_print_text(struct ftu_print *p, const char *fmt, ...)
{
	va_list ap;

	if (p->json)
		return;
	va_start(ap, fmt);
	text_v(p, fmt, ap);
	va_end(ap);
}

static void key(struct ftu_print *p, const char *k)
{
	if (k)
		ftu_json_key(&p->j, k);
}

/* Bit d of arrays: the container at depth d is an array. */
static void nest(struct ftu_print *p, bool array)
{
	if (p->depth < 31)
		p->depth++;	/* ftu_json stops far before: FTU_JSON_MAX_DEPTH */
	if (array)
		p->arrays |= 1U << p->depth;
	else
		p->arrays &= ~(1U << p->depth);
}

void ftu_print_object_begin(struct ftu_print *p, const char *k)
{
	if (!p->json)
		return;
	key(p, k);
	ftu_json_object_begin(&p->j);
	nest(p, false);
}

void ftu_print_object_end(struct ftu_print *p)
{
	if (!p->json)
		return;
	ftu_json_object_end(&p->j);
	p->depth--;
}

void ftu_print_array_begin(struct ftu_print *p, const char *k)
{
	if (!p->json)
		return;
	key(p, k);
	ftu_json_array_begin(&p->j);
	nest(p, true);
}

void ftu_print_array_end(struct ftu_print *p)
{
	if (!p->json)
		return;
	ftu_json_array_end(&p->j);
	p->depth--;
}

/* JSON writes a member with a name, and a value of an array without. */
static bool json_wants(const struct ftu_print *p, const char *k)
{
	return p->json && (k || (p->arrays & (1U << p->depth)));
}

void ftu_print_u64(struct ftu_print *p, const char *k, const char *fmt, uint64_t v)
{
	if (json_wants(p, k)) {
		key(p, k);
		ftu_json_u64(&p->j, v);
	} else if (!p->json && fmt) {
		text(p, fmt, v);
	}
}

void ftu_print_string(struct ftu_print *p, const char *k, const char *fmt, const char *s)
{
	if (json_wants(p, k)) {
		key(p, k);
		ftu_json_string(&p->j, s);
	} else if (!p->json && fmt) {
		text(p, fmt, s);
	}
}

void ftu_print_bool(struct ftu_print *p, const char *k, const char *fmt, bool v,
		    const char *s_true, const char *s_false)
{
	if (json_wants(p, k)) {
		key(p, k);
		ftu_json_bool(&p->j, v);
	} else if (!p->json && fmt) {
		text(p, fmt, v ? s_true : s_false);
	}
}

void ftu_print_null(struct ftu_print *p, const char *k, const char *fmt)
{
	if (json_wants(p, k)) {
		key(p, k);
		ftu_json_null(&p->j);
	} else if (!p->json && fmt) {
		text(p, "%s", fmt);
	}
}

void ftu_print_duration(struct ftu_print *p, const char *k, const char *fmt, uint64_t ns)
{
	char buf[FTU_DURATION_BUFSZ];

	if (p->json)
		ftu_print_u64(p, k, NULL, ns);
	else if (fmt)
		text(p, fmt, ftu_duration_format(ns, buf, sizeof(buf)));
}

void ftu_print_u64_opt(struct ftu_print *p, bool present, const char *k, const char *fmt,
		       uint64_t v)
{
	if (present)
		ftu_print_u64(p, k, fmt, v);
	else if (!p->json && fmt)
		text(p, "%s", "-");
}

void ftu_print_duration_opt(struct ftu_print *p, bool present, const char *k,
			    const char *fmt, uint64_t ns)
{
	if (present)
		ftu_print_duration(p, k, fmt, ns);
	else if (!p->json && fmt)
		text(p, "%s", "-");
}

void ftu_print_table_begin(struct ftu_print *p, const char *k,
			   const struct ftu_column *cols, unsigned int ncols)
{
	if (p->json) {
		ftu_print_array_begin(p, k);
		return;
	}
	ftu_table_init(&p->t, cols, ncols < FTU_PRINT_MAX_COLS ? ncols : FTU_PRINT_MAX_COLS);
	p->in_table = true;
	p->in_row = false;
	p->rows = 0;
}

static void end_row(struct ftu_print *p)
{
	const char *row[FTU_PRINT_MAX_COLS];

	if (!p->in_row)
		return;
	p->in_row = false;
	if (p->row_hidden)
		return;
	for (unsigned int c = 0; c < p->t.ncols; c++)
		row[c] = p->cells[c];
	ftu_table_add(&p->t, row);
	p->rows++;
}

void ftu_print_row_if(struct ftu_print *p, bool shown)
{
	if (p->json || !p->in_table)
		return;
	end_row(p);
	for (unsigned int c = 0; c < FTU_PRINT_MAX_COLS; c++)
		p->cells[c][0] = '\0';
	p->col = 0;
	p->in_row = true;
	p->row_hidden = !shown;
}

void ftu_print_row(struct ftu_print *p)
{
	ftu_print_row_if(p, true);
}

void ftu_print_cell(struct ftu_print *p, unsigned int col)
{
	if (!p->json && p->in_row)
		p->col = col;
}

void ftu_print_table_end(struct ftu_print *p, const char *empty)
{
	if (p->json) {
		ftu_print_array_end(p);
		return;
	}
	end_row(p);
	if (p->rows || !empty)
		ftu_table_print(&p->t, p->f);
	else if (empty)
		fprintf(p->f, "%s\n", empty);
	ftu_table_free(&p->t);
	p->in_table = false;
}
