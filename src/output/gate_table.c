// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The gate's table: one line per series, aligned text or Markdown for a CI comment. */
#include <errno.h>
#include <math.h>

#include "gate.h"
#include "table.h"

static const char *const head[] = { "bench", "parameters", "kernel", "runs", "latest median",
				    "band", "change", "p", "samples", "verdict", "note" };
#define COLS	((int)(sizeof(head) / sizeof(*head)))

static void fill_row(struct mb_table *t, const struct mb_gate_row *row)
{
	const struct mb_gate_result *r = &row->r;
	bool judged = r->verdict != MB_GATE_TOO_FEW && r->verdict != MB_GATE_NO_SAMPLES;

	mb_table_cell(t, "%s", row->bench);
	mb_table_cell(t, "%s", row->label[0] ? row->label : "-");
	mb_table_cell(t, "%s", row->kernel ? row->kernel : "?");
	mb_table_cell(t, "%d", r->previous);
	if (isfinite(r->latest_median))
		mb_table_cell(t, "%.4g %s", r->latest_median, row->unit ? row->unit : "");
	else
		mb_table_cell(t, "-");
	if (judged)
		mb_table_cell(t, "%.4g..%.4g", r->lo, r->hi);
	else
		mb_table_cell(t, "-");
	if (judged && isfinite(r->change))
		mb_table_cell(t, "%+.1f %%", r->change * 100);
	else
		mb_table_cell(t, "-");
	if (judged && r->test.tested && r->test.p < 0.0001)
		mb_table_cell(t, "<0.0001");
	else if (judged && r->test.tested)
		mb_table_cell(t, "%.4f", r->test.p);
	else
		mb_table_cell(t, "-");
	mb_table_cell(t, "%s", judged ? mb_cmp_verdict_name(r->cmp) : "-");
	mb_table_cell(t, "%s", mb_gate_verdict_name(r->verdict));
	if (r->verdict == MB_GATE_TOO_FEW)
		mb_table_cell(t, "%d previous run%s, at least %d needed", r->previous,
			      r->previous == 1 ? "" : "s", MB_GATE_MIN_PREVIOUS);
	else
		mb_table_cell(t, "%s", r->note);
}

static void totals(FILE *f, const struct mb_gate_row *rows, size_t n)
{
	fprintf(f, "%zu regressed, %zu improved, %zu pass, %zu too few runs, %zu no samples\n",
		mb_gate_count(rows, n, MB_GATE_REGRESSED), mb_gate_count(rows, n, MB_GATE_IMPROVED),
		mb_gate_count(rows, n, MB_GATE_PASS), mb_gate_count(rows, n, MB_GATE_TOO_FEW),
		mb_gate_count(rows, n, MB_GATE_NO_SAMPLES));
}

/* "machine N: CLASS" for each machine a row's label names, once, in order of N. */
static void machines(FILE *f, const struct mb_gate_row *rows, size_t n, bool md)
{
	int most = 0;

	for (size_t i = 0; i < n; i++)
		if (rows[i].machine_shown && rows[i].machine > most)
			most = rows[i].machine;
	for (int m = 1; m <= most; m++) {
		for (size_t i = 0; i < n; i++) {
			if (!rows[i].machine_shown || rows[i].machine != m)
				continue;
			fprintf(f, "%smachine %d: %s\n", md ? "- " : "", m, rows[i].machine_class);
			break;
		}
	}
}

int mb_gate_print(FILE *f, const struct mb_gate_row *rows, size_t n, enum mb_format format,
		  const struct mb_gate_opts *o, int window)
{
	struct mb_table *t = mb_table_new(COLS);
	bool md = format == MB_FORMAT_MD;
	int err = 0;

	if (!t)
		return -ENOMEM;
	for (int i = 0; i < COLS; i++)
		mb_table_head(t, i, head[i], i >= 3 && i <= 7);
	for (size_t i = 0; i < n && !err; i++) {
		err = mb_table_row(t);
		if (!err)
			fill_row(t, &rows[i]);
	}
	if (md)
		fprintf(f, "### mapbench gate: %s\n\n",
			mb_gate_count(rows, n, MB_GATE_REGRESSED) ? "regression" : "no regression");
	fprintf(f, "The latest run of each series against the previous %d at most: Mann-Whitney U "
		"over the samples (threshold %g %%, alpha %g) and the band median +- %g scaled MADs "
		"of the runs' medians (at least +- %g %%); a regression only when both say so.\n\n",
		window, o->cmp.threshold * 100, o->cmp.alpha, o->k, o->cmp.threshold * 100);
	if (!err && n)
		err = mb_table_write(f, t, md ? MB_FORMAT_MD : MB_FORMAT_TEXT);
	else if (!err)
		fputs("No run matched.\n", f);
	mb_table_free(t);
	if (err)
		return err;
	fputc('\n', f);
	machines(f, rows, n, md);
	totals(f, rows, n);
	return ferror(f) ? -EIO : 0;
}
