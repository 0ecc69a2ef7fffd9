/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Tables of results (sweeps, comparisons) written as aligned text, CSV or Markdown. */
#ifndef MB_TABLE_H
#define MB_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/env.h"

struct mb_table;

/* A table with @cols columns. NULL (errno ENOMEM) on failure. */
struct mb_table *mb_table_new(int cols);
void mb_table_free(struct mb_table *t);
/* Column header; @right aligns the column to the right (numbers). */
void mb_table_head(struct mb_table *t, int col, const char *name, bool right);
/* Start a row; the following mb_table_cell calls fill it from column 0. Returns 0 or -ENOMEM. */
int mb_table_row(struct mb_table *t);
/* The next cell of the current row (printf-style); unset cells are empty. */
void mb_table_cell(struct mb_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int mb_table_rows(const struct mb_table *t);

/* Write in MB_FORMAT_TEXT (aligned columns), MB_FORMAT_CSV (RFC 4180) or MB_FORMAT_MD. */
int mb_table_write(FILE *f, const struct mb_table *t, enum mb_format format);

#endif
