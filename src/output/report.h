/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Results out: the kernel-compatible text lines (live), and one document (text, JSON or CSV)
 * built from the same data after the runs.
 */
#ifndef MB_REPORT_H
#define MB_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/bench.h"
#include "core/env.h"

struct mb_summary;

/* How a bench's text lines look; the kernel's reporters have the same names. */
struct mb_text_style {
	void (*progress)(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s);
	void (*summary)(FILE *f, const struct mb_run *run, const struct mb_summary *sum);
	/* One-shot benches (no samples): result lines of a run, rendered from run->extra. */
	void (*result)(FILE *f, const struct mb_run *run);
	/* One-shot benches, live: a record the bench passed to mb_run_partial(). */
	void (*partial)(FILE *f, const struct mb_run *run, const void *what);
	/*
	 * The figures the Summary lines (or a one-shot bench's result lines) print, by the names
	 * the text gives them, appended to the array @figs with mb_figure() (docs/output.md,
	 * "Figures"): the same numbers go to the text, the JSON result's "figures" and the CSV's
	 * figure rows. @sum is NULL for a one-shot bench.
	 */
	void (*figures)(const struct mb_run *run, const struct mb_summary *sum,
			struct mb_json *figs);
};

extern const struct mb_text_style mb_text_hits_drops;	/* hits, drops, total operations */
extern const struct mb_text_style mb_text_ops;		/* throughput and latency */
extern const struct mb_text_style mb_text_frac_second;	/* rate per in-kernel second, ns/op */

/* "Iter %3d (%7.3lfus): " as the kernel prints it (the deviation from the interval). */
void mb_text_iter_prefix(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s);
/*
 * @v as "%*.*f" (@width, @prec), or "n/a" in @width where it is NaN: the spread of one sample
 * is unknown, and a Summary shows it as "± n/a". Returns @buf.
 */
const char *mb_text_num(char *buf, size_t len, int width, int prec, double v);
/*
 * The same for a spread printed right before its unit ("± %5sM/s"): "n/a" then a space, so
 * that it does not run into the unit.
 */
const char *mb_text_spread(char *buf, size_t len, int width, int prec, double v);
/* "CV 1.23 %", or "CV n/a" over one sample (@cv a fraction). Returns @buf. */
const char *mb_text_cv(char *buf, size_t len, double cv);
/* Lines printed before a Summary line (spread, in-kernel latency, noise), unless -q. */
void mb_text_notes(FILE *f, const struct mb_run *run, const struct mb_summary *sum);
/*
 * Their start, for a bench's own notes: the Interrupted line, and over one sample the Spread
 * line that says so. Returns true where the caller prints its own Spread line (2+ samples).
 */
bool mb_text_notes_begin(FILE *f, const struct mb_run *run, const struct mb_summary *sum);
/*
 * The noise lines of a result (docs/output.md): Noise (flagged samples, their causes and what
 * they do to the mean; the verdict), CPU time the producers lost where the figure leaves it
 * out, and Host speed when the reference loop varied. For a bench's own notes too.
 */
void mb_text_noise(FILE *f, const struct mb_run *run, const struct mb_summary *sum);
/*
 * A table's status note: " (noisy: CV 8.42 %)", " (noisy: mean -3.1 % w/o 2 flagged)", ...,
 * or "" when the result is not noisy. Returns @buf.
 */
const char *mb_text_noise_brief(char *buf, size_t len, const struct mb_summary *sum);
/* The kernel's fractional-second Iter line, rates divided by @scale and shown with @unit. */
void mb_text_frac_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s,
			   double scale, char unit);
/* The fractional-second style's figures: throughput per second of in-kernel time, latency. */
void mb_text_frac_figures(const struct mb_run *run, const struct mb_summary *sum,
			  struct mb_json *figs);
/*
 * The kernel's "Summary: throughput X ± Y M ops/s (Z M ops/prod), latency L ns/op" line from
 * @figs (figures throughput in ops/s and ops/s per producer, latency in ns/op), rates divided
 * by @scale and shown with @unit ('M', 'K'), latency divided by @lat_scale, in @lat_unit/op.
 */
void mb_text_throughput_line(FILE *f, const struct mb_json *figs, double scale, char unit,
			     double lat_scale, const char *lat_unit);

/*
 * A text style @_name: @_base's lines, with @_notes(f, run) printed before its Summary. The
 * progress and figures wrappers are needed because a static initializer cannot name another
 * structure's member.
 */
#define MB_TEXT_WITH_NOTES(_name, _base, _notes)						\
static void _name##_progress(FILE *f, const struct mb_run *run, int iter,			\
			     const struct mb_sample *s)						\
{												\
	_base.progress(f, run, iter, s);							\
}												\
static void _name##_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)	\
{												\
	_notes(f, run);										\
	_base.summary(f, run, sum);								\
}												\
static void _name##_figures(const struct mb_run *run, const struct mb_summary *sum,		\
			    struct mb_json *figs)						\
{												\
	_base.figures(run, sum, figs);								\
}												\
const struct mb_text_style _name = {								\
	.progress = _name##_progress,								\
	.summary = _name##_summary,								\
	.figures = _name##_figures,								\
}

/*
 * Figures (figures.c): one object of the array @figs, {name, labels, unit, value}, @value
 * null where NaN. Returns it, for mb_figure_spread() and mb_figure_label_*(); NULL: no memory.
 */
struct mb_json *mb_figure(struct mb_json *figs, const char *name, const char *unit, double value);
/*
 * A Summary figure's spread as the text shows it, over @n samples: @stddev (null where NaN:
 * "± n/a"); @show false where the text shows no spread for it (only n is set).
 */
void mb_figure_spread(struct mb_json *fig, bool show, double stddev, int n);
/* Label @key of a figure (which row of a table, which map): a string or a number. */
void mb_figure_label_str(struct mb_json *fig, const char *key, const char *value);
void mb_figure_label_num(struct mb_json *fig, const char *key, double value);
/*
 * For text styles that print what their figures hook made: @key ("value", "stddev") of the
 * unlabelled figure @name in @unit, NaN where it is null or missing.
 */
double mb_figure_get(const struct mb_json *figs, const char *name, const char *unit,
		     const char *key);
/* The figures of @run's result from its text style (an empty array without a hook). */
struct mb_json *mb_report_figures(const struct mb_run *run);

/* The result object of one run, or of one part of a split run (docs/output.md). */
struct mb_json *mb_report_result(const struct mb_run *run);
/* The machine and tool context of a document. */
struct mb_json *mb_report_context(const struct mb_env *env);
/* The complete JSON document for @runs. */
struct mb_json *mb_report_document(const struct mb_env *env, struct mb_run *runs, int nr);

/*
 * Write @doc (built by mb_report_document, maybe extended) in env->format to env->output
 * (atomically) or stdout; nothing for text on stdout, printed as the runs went.
 */
int mb_report_write_doc(const struct mb_env *env, struct mb_json *doc, struct mb_run *runs,
			int nr);
/* The one-table summary of several runs (text). */
void mb_report_table(FILE *f, struct mb_run *runs, int nr);

/* One CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break. */
void mb_csv_field(FILE *f, const char *s);

/*
 * --latency (report_latency.c): a result's latency_ns object (NULL without --latency), its
 * Per-op text line, and the CSV's latency columns, which a document has where a result has
 * latency_ns: the header's names, and the end of a row, @lat's values (NULL: empty) where
 * @columns, and the newline.
 */
struct mb_json *mb_report_latency_json(const struct mb_run *run);
void mb_text_latency(FILE *f, const struct mb_run *run);
extern const char *const mb_csv_latency_header;
void mb_csv_latency_end(FILE *f, const struct mb_json *lat, bool columns);

/* CSV rows of @doc (a document from mb_report_document). */
int mb_report_csv(FILE *f, const struct mb_json *doc);

/*
 * The result document's schema (docs/output.md): 2 since a bench's own counters went into
 * "counters" objects and the summary says what its headline counts. Readers (output/doc.c)
 * take documents from MB_SCHEMA_VERSION_OLDEST on.
 */
#define MB_SCHEMA_VERSION 2
#define MB_SCHEMA_VERSION_OLDEST 1

#endif
