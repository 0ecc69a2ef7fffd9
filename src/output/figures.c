// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A result's figures (docs/output.md, "Figures"): what its Summary lines, or a one-shot bench's
 * result lines, print, under the names the text gives them. Text styles make them; the JSON
 * result carries them and the CSV has a row for each, so no format says a number the others
 * do not, or gives it another name.
 */
#include <math.h>
#include <string.h>

#include "core/bench.h"
#include "report.h"
#include "util/json.h"

static struct mb_json *num_or_null(double v)
{
	return isnan(v) ? mb_json_null() : mb_json_number(v);
}

struct mb_json *mb_figure(struct mb_json *figs, const char *name, const char *unit, double value)
{
	struct mb_json *o = mb_json_object();

	if (!o)
		return NULL;
	mb_json_set_str(o, "name", name);
	mb_json_set(o, "labels", mb_json_object());
	mb_json_set_str(o, "unit", unit);
	mb_json_set(o, "value", num_or_null(value));
	if (mb_json_append(figs, o))
		return NULL;
	return o;
}

void mb_figure_spread(struct mb_json *fig, bool show, double stddev, int n)
{
	if (!fig)
		return;
	if (show)
		mb_json_set(fig, "stddev", num_or_null(stddev));
	mb_json_set_num(fig, "n", n);
}

void mb_figure_label_str(struct mb_json *fig, const char *key, const char *value)
{
	if (fig)
		mb_json_set_str(mb_json_get(fig, "labels"), key, value);
}

void mb_figure_label_num(struct mb_json *fig, const char *key, double value)
{
	if (fig)
		mb_json_set(mb_json_get(fig, "labels"), key, num_or_null(value));
}

double mb_figure_get(const struct mb_json *figs, const char *name, const char *unit,
		     const char *key)
{
	for (size_t i = 0; i < mb_json_len(figs); i++) {
		const struct mb_json *f = mb_json_at(figs, i);

		if (!strcmp(mb_json_str(mb_json_get(f, "name"), ""), name) &&
		    !strcmp(mb_json_str(mb_json_get(f, "unit"), ""), unit) &&
		    !mb_json_len(mb_json_get(f, "labels")))
			return mb_json_num(mb_json_get(f, key), NAN);
	}
	return NAN;
}

struct mb_json *mb_report_figures(const struct mb_run *run)
{
	const struct mb_text_style *text = run->bench->text;
	struct mb_json *figs = mb_json_array();
	bool measured = run->status == MB_RUN_OK || run->status == MB_RUN_INTERRUPTED;

	/* A sampled run's figures come from its summary; a one-shot run's from its extra. */
	if (figs && text && text->figures && measured && (run->summary || run->bench->run_once))
		text->figures(run, run->summary, figs);
	return figs;
}
