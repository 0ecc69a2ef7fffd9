// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench sweep: what it shows and writes. A label and a result line per point, the table of
 * the points (text, csv or md), the "sweep" object of the JSON document, and where each goes.
 */
#include <errno.h>
#include <stdio.h>

#include "util/json.h"
#include "util/log.h"
#include "util/outfile.h"
#include "output/report.h"
#include "core/summary.h"
#include "chain.h"
#include "sweep_cmd.h"
#include "output/table.h"

/* ---- output ---- */

void sweep_point_label(const struct sweep *sw, const struct spoint *p, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", p->bench->name);
	char val[256];

	for (int i = 0; i < sw->nr_params && n < len; i++) {
		if (p->idx[i] < 0)
			continue;
		mb_json_scalar_text(mb_json_at(sw->params[i].typed, (size_t)p->idx[i]), val,
				 sizeof(val));
		n += (size_t)snprintf(buf + n, len - n, " %s=%s", sw->params[i].name, val);
	}
	if (sw->args.repeat > 1 && n < len)
		snprintf(buf + n, len - n, " (round %d)", p->rep + 1);
}

static const char *status_text(const struct mb_run *run)
{
	static const char *const names[] = { "ok", "skipped", "failed", "interrupted" };

	return names[run->status];
}

void sweep_point_line(const struct sweep *sw, const struct spoint *p, char *buf, size_t len)
{
	/* A split run's one part (sweep refuses runs of more). */
	const struct mb_run *run = mb_run_result(&sw->runs[p->run], 0);
	const struct mb_summary *sum = run->summary;
	char label[512], sd[32], cv[32];

	sweep_point_label(sw, p, label, sizeof(label));
	if (sum)
		snprintf(buf, len, "%s: %.3f \u00B1 %s M ops/s, %.3f ns/op, %s%s%s",
			 label, sum->throughput.mean / 1e6,
			 mb_text_num(sd, sizeof(sd), 0, 3, sum->throughput.stddev / 1e6),
			 sweep_point_latency(run, sum),
			 mb_text_cv(cv, sizeof(cv), sum->throughput.cv),
			 run->status != MB_RUN_OK ? " " : "",
			 run->status != MB_RUN_OK ? status_text(run) : "");
	else
		snprintf(buf, len, "%.400s: %s%s%.300s", label, status_text(run),
			 run->reason[0] ? ": " : "", run->reason);
}

static struct mb_table *sweep_table(const struct sweep *sw, int ran)
{
	bool many = sw->nr_series > 1 || sw->series[0].nr_benches > 1, rep = sw->args.repeat > 1;
	int cols = many + sw->nr_params + rep + 5, c = 0;
	struct mb_table *t = mb_table_new(cols);
	char val[256];

	if (!t)
		return NULL;
	if (many)
		mb_table_head(t, c++, "bench", false);
	for (int i = 0; i < sw->nr_params; i++)
		mb_table_head(t, c++, sw->params[i].name, true);
	if (rep)
		mb_table_head(t, c++, "round", true);
	mb_table_head(t, c++, "M ops/s", true);
	mb_table_head(t, c++, "stddev", true);
	mb_table_head(t, c++, "ns/op", true);
	mb_table_head(t, c++, "CV %", true);
	mb_table_head(t, c, "status", false);
	for (long i = 0; i < sw->nr_points; i++) {
		const struct spoint *p = &sw->points[i];
		const struct mb_run *run;
		const struct mb_summary *sum;

		if (p->run < 0 || p->run >= ran)
			continue;
		run = mb_run_result(&sw->runs[p->run], 0);
		sum = run->summary;
		if (mb_table_row(t))
			break;
		if (many)
			mb_table_cell(t, "%s", p->bench->name);
		for (int k = 0; k < sw->nr_params; k++) {
			if (p->idx[k] < 0) {
				mb_table_cell(t, "-");
				continue;
			}
			mb_json_scalar_text(mb_json_at(sw->params[k].typed, (size_t)p->idx[k]), val,
					 sizeof(val));
			mb_table_cell(t, "%s", val);
		}
		if (rep)
			mb_table_cell(t, "%d", p->rep + 1);
		if (sum) {
			mb_table_cell(t, "%.3f", sum->throughput.mean / 1e6);
			mb_table_cell(t, "%s", mb_text_num(val, sizeof(val), 0, 3,
							       sum->throughput.stddev / 1e6));
			mb_table_cell(t, "%.3f", sweep_point_latency(run, sum));
			mb_table_cell(t, "%s", mb_text_num(val, sizeof(val), 0, 2,
							       sum->throughput.cv * 100));
		} else {
			for (int k = 0; k < 4; k++)
				mb_table_cell(t, "-");
		}
		mb_table_cell(t, "%s%s", status_text(run), mb_text_noise_brief(val, sizeof(val), sum));
	}
	return t;
}

/* The "sweep" object of the document: parameters, series, points, plot hints. */
static struct mb_json *sweep_json(const struct sweep *sw, int ran)
{
	struct mb_json *o = mb_json_object(), *params = mb_json_array(), *series = mb_json_array();
	struct mb_json *points = mb_json_array(), *plot, *fastest;

	mb_json_set_str(o, "preset", sw->preset ? sw->preset->name : NULL);
	mb_json_set_num(o, "repeat", sw->args.repeat);
	for (int i = 0; i < sw->nr_params; i++) {
		struct mb_json *p = mb_json_object();

		mb_json_set_str(p, "name", sw->params[i].name);
		mb_json_set_str(p, "scope", sw->params[i].global ? "global" : "bench");
		mb_json_set(p, "values", mb_json_copy(sw->params[i].typed));
		mb_json_append(params, p);
	}
	mb_json_set(o, "params", params);
	for (int s = 0; s < sw->nr_series; s++) {
		const struct sseries *se = &sw->series[s];
		struct mb_json *so = mb_json_object(), *b = mb_json_array(), *a = mb_json_array();
		struct mb_json *pn = mb_json_array();

		for (int k = 0; k < se->nr_benches; k++)
			mb_json_append(b, mb_json_string(se->benches[k]->name));
		for (int k = 0; se->args && se->args[k]; k++)
			mb_json_append(a, mb_json_string(se->args[k]));
		for (int k = 0; k < se->nr_params; k++)
			mb_json_append(pn, mb_json_string(sw->params[se->params[k]].name));
		mb_json_set(so, "benches", b);
		mb_json_set(so, "args", a);
		mb_json_set(so, "params", pn);
		mb_json_append(series, so);
	}
	mb_json_set(o, "series", series);
	for (long i = 0; i < sw->nr_points; i++) {
		const struct spoint *p = &sw->points[i];
		struct mb_json *po = mb_json_object(), *vals;

		mb_json_set_str(po, "bench", p->bench->name);
		mb_json_set_num(po, "series", p->series);
		mb_json_set_num(po, "round", p->rep + 1);
		vals = mb_json_child(po, "values");
		for (int k = 0; k < sw->nr_params; k++)
			if (p->idx[k] >= 0)
				mb_json_set(vals, sw->params[k].name,
					    mb_json_copy(mb_json_at(sw->params[k].typed,
								    (size_t)p->idx[k])));
		if (p->run >= 0 && p->run < ran) {
			mb_json_set_num(po, "result", p->run);
			mb_json_set_str(po, "status", "run");
		} else {
			mb_json_set(po, "result", mb_json_null());
			mb_json_set_str(po, "status", p->run < 0 ? "refused" : "not run");
		}
		mb_json_set_str(po, "reason", p->run < 0 ? p->reason : NULL);
		mb_json_append(points, po);
	}
	mb_json_set(o, "points", points);
	fastest = sweep_fastest_json(sw, ran);
	mb_json_set(o, "fastest", fastest ? fastest : mb_json_null());
	plot = mb_json_child(o, "plot");
	mb_json_set_str(plot, "x", sw->preset ? sw->preset->plot_x : NULL);
	mb_json_set_str(plot, "lines", sw->preset ? sw->preset->plot_lines : NULL);
	mb_json_set_str(plot, "metric", sw->preset ? sw->preset->plot_metric : NULL);
	return o;
}

static int write_doc(FILE *f, void *doc)
{
	return mb_json_write(f, doc, 2);
}

static void refused_note(FILE *f, const struct sweep *sw)
{
	char label[512];
	int shown = 0;

	if (!sw->nr_refused)
		return;
	fprintf(f, "%d point%s refused by the bench, not run (the JSON lists them all):\n",
		sw->nr_refused, sw->nr_refused > 1 ? "s" : "");
	for (long i = 0; i < sw->nr_points && shown < 3; i++) {
		if (sw->points[i].run >= 0)
			continue;
		sweep_point_label(sw, &sw->points[i], label, sizeof(label));
		fprintf(f, "  %s: %s\n", label, sw->points[i].reason ? sw->points[i].reason : "?");
		shown++;
	}
	if (sw->nr_refused > shown)
		fprintf(f, "  ...\n");
}

/* The document to -o (or stdout with --format json), the table to stdout. */
static int sweep_output(struct sweep *sw, int ran, struct mb_json *doc)
{
	struct mb_env *env = &sw->cli.env;
	bool doc_on_stdout = env->format == MB_FORMAT_JSON && !env->output;
	char err[512];
	int ret = 0;

	if (env->output && mb_write_atomic(env->output, write_doc, doc, err, sizeof(err))) {
		mb_err("-o/--output %s", err);
		ret = -EIO;
	}
	if (doc_on_stdout) {
		if (mb_json_write(stdout, doc, 2) || fflush(stdout))
			ret = -EIO;
	} else {
		struct mb_table *t = sweep_table(sw, ran);

		if (!t)
			return -ENOMEM;
		if (env->format == MB_FORMAT_TEXT)
			fputc('\n', stdout);
		if (mb_table_write(stdout, t, (enum mb_format)env->format))
			ret = -EIO;
		mb_table_free(t);
		if (env->format != MB_FORMAT_CSV) {
			if (env->format == MB_FORMAT_MD)
				fputc('\n', stdout);
			fprintf(stdout, "ns/op: in-kernel time per op where the op ran in the kernel, else wall-clock per producer\n");
			sweep_fastest_line(stdout, mb_json_get(mb_json_get(doc, "sweep"), "fastest"));
			refused_note(stdout, sw);
		}
		if (fflush(stdout))
			ret = -EIO;
	}
	return ret;
}

static struct mb_json *sweep_doc_make(void *priv, struct mb_run *runs, int ran)
{
	struct sweep *sw = priv;
	struct mb_json *doc = mb_report_document(&sw->cli.env, runs, ran);

	if (doc && mb_json_set(doc, "sweep", sweep_json(sw, ran))) {
		mb_json_free(doc);
		return NULL;
	}
	return doc;
}

static int sweep_doc_write(void *priv, struct mb_json *doc, struct mb_run *runs, int ran)
{
	(void)runs;
	if (!doc) {
		mb_err("sweep: out of memory");
		return -ENOMEM;
	}
	return sweep_output(priv, ran, doc);
}

void sweep_chain_doc(struct mb_chain_doc *doc, struct sweep *sw)
{
	*doc = (struct mb_chain_doc){
		.make = sweep_doc_make, .write = sweep_doc_write, .priv = sw,
	};
}
