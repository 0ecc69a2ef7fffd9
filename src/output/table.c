// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "table.h"

struct mb_table {
	int cols;
	char **head;
	bool *right;
	char **cells;		/* rows * cols, row-major; NULL: empty */
	int rows, cap, next;	/* next: column of the next mb_table_cell */
};

struct mb_table *mb_table_new(int cols)
{
	struct mb_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cols = cols;
	t->head = calloc((size_t)cols, sizeof(*t->head));
	t->right = calloc((size_t)cols, sizeof(*t->right));
	if (!t->head || !t->right) {
		mb_table_free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void mb_table_free(struct mb_table *t)
{
	if (!t)
		return;
	for (int c = 0; t->head && c < t->cols; c++)
		free(t->head[c]);
	for (int i = 0; t->cells && i < t->rows * t->cols; i++)
		free(t->cells[i]);
	free(t->head);
	free(t->right);
	free(t->cells);
	free(t);
}

void mb_table_head(struct mb_table *t, int col, const char *name, bool right)
{
	if (col < 0 || col >= t->cols)
		return;
	free(t->head[col]);
	t->head[col] = strdup(name);
	t->right[col] = right;
}

int mb_table_row(struct mb_table *t)
{
	if (t->rows == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		char **cells = realloc(t->cells, (size_t)cap * (size_t)t->cols * sizeof(*cells));

		if (!cells)
			return -ENOMEM;
		memset(cells + (size_t)t->cap * (size_t)t->cols, 0,
		       (size_t)(cap - t->cap) * (size_t)t->cols * sizeof(*cells));
		t->cells = cells;
		t->cap = cap;
	}
	t->rows++;
	t->next = 0;
	return 0;
}

void mb_table_cell(struct mb_table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!t->rows || t->next >= t->cols)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	t->cells[(size_t)(t->rows - 1) * (size_t)t->cols + (size_t)t->next++] = s;
}

int mb_table_rows(const struct mb_table *t)
{
	return t->rows;
}

static const char *cell(const struct mb_table *t, int row, int col)
{
	const char *s = row < 0 ? t->head[col] : t->cells[(size_t)row * (size_t)t->cols + (size_t)col];

	return s ? s : "";
}

/* Display width: UTF-8 continuation bytes take no column (the plus-minus sign). */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

int mb_table_write(FILE *f, const struct mb_table *t, enum mb_format format)
{
	int *w = calloc((size_t)t->cols, sizeof(int));

	if (!w)
		return -ENOMEM;
	for (int c = 0; c < t->cols; c++)
		for (int r = -1; r < t->rows; r++)
			if (width(cell(t, r, c)) > w[c])
				w[c] = width(cell(t, r, c));
	for (int r = -1; r < t->rows; r++) {
		int last = t->cols - 1;

		/* Aligned text ends at the last non-empty cell: no trailing blanks. */
		while (format == MB_FORMAT_TEXT && last > 0 && !*cell(t, r, last))
			last--;
		for (int c = 0; c <= last; c++) {
			const char *s = cell(t, r, c);
			int pad = w[c] - width(s);

			switch (format) {
			case MB_FORMAT_CSV:
				if (c)
					fputc(',', f);
				mb_csv_field(f, s);
				break;
			case MB_FORMAT_MD:
				fputs(c ? " | " : "| ", f);
				md_cell(f, s);
				break;
			default:
				if (c)
					fputs("  ", f);
				if (t->right[c])
					fprintf(f, "%*s%s", pad, "", s);
				else if (c < last)
					fprintf(f, "%s%*s", s, pad, "");
				else
					fputs(s, f);
				break;
			}
		}
		fputs(format == MB_FORMAT_MD ? " |\n" : "\n", f);
		if (r == -1 && format == MB_FORMAT_MD) {
			for (int c = 0; c < t->cols; c++)
				fputs(t->right[c] ? "|---:" : "|---", f);
			fputs("|\n", f);
		}
	}
	free(w);
	return ferror(f) ? -EIO : 0;
}
