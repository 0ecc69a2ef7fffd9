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
};

extern const struct mb_text_style mb_text_hits_drops;	/* hits, drops, total operations */
extern const struct mb_text_style mb_text_ops;		/* throughput and latency */
extern const struct mb_text_style mb_text_false_hits;	/* false hits percentage */
extern const struct mb_text_style mb_text_frac_second;	/* rate per in-kernel second, ns/op */

/* "Iter %3d (%7.3lfus): " as the kernel prints it (the deviation from the interval). */
void mb_text_iter_prefix(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s);
/*
 * @v as "%*.*f" (@width, @prec), or "n/a" in @width where it is NaN: the spread of one sample
 * is unknown, and a Summary shows it as "± n/a". Returns @buf.
 */
const char *mb_text_num(char *buf, size_t len, int width, int prec, double v);
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

/*
 * A text style @_name: @_base's lines, with @_notes(f, run) printed before its Summary. The
 * progress wrapper is needed because a static initializer cannot name another structure's
 * member.
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
const struct mb_text_style _name = {								\
	.progress = _name##_progress,								\
	.summary = _name##_summary,								\
}

/* Build the result object of one run (docs/output.md). */
struct mb_json *mb_report_result(const struct mb_run *run);
/* The machine and tool context of a document. */
struct mb_json *mb_report_context(const struct mb_env *env);
/* The complete JSON document for @runs. */
struct mb_json *mb_report_document(const struct mb_env *env, struct mb_run *runs, int nr);

/* Write the document in env->format to env->output (atomically) or stdout. */
int mb_report_write(const struct mb_env *env, struct mb_run *runs, int nr);
/* The same with a document already built by mb_report_document (and maybe extended). */
int mb_report_write_doc(const struct mb_env *env, struct mb_json *doc, struct mb_run *runs,
			int nr);
/* The one-table summary of several runs (text). */
void mb_report_table(FILE *f, struct mb_run *runs, int nr);

/* One CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break. */
void mb_csv_field(FILE *f, const char *s);

/* CSV rows of @doc (a document from mb_report_document). */
int mb_report_csv(FILE *f, const struct mb_json *doc);

#define MB_SCHEMA_VERSION 1

#endif
