// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench sweep: run every point of a parameter product (or a preset), each as a normal run
 * in this process, and write one document with all of them plus a table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "log.h"
#include "output.h"
#include "presets.h"
#include "progress.h"
#include "registry.h"
#include "report.h"
#include "runner.h"
#include "session.h"
#include "summary.h"
#include "sweep.h"
#include "table.h"

#define MAX_PARAMS	(MB_CLI_LIST_MAX + MB_PRESET_MAX_PARAMS)
#define MAX_BENCHES	16
#define MAX_SERIES	MB_PRESET_MAX_SERIES
/* Set-up and teardown of one run, on top of its samples, for the time estimates. */
#define RUN_OVERHEAD_S	0.2

struct sweep_args {
	struct mb_cli_list params;
	uint32_t repeat;
	const char *preset;
	bool list_presets;
	bool skip_invalid;
};

static const struct mb_opt sweep_opts[] = {
	MB_OPT_CUSTOM_DEF("param", struct sweep_args, params, NULL, mb_cli_list_add,
			  mb_cli_list_format, "NAME=V1,V2,... with ranges A..B[:STEP|*FACTOR]",
			  "NAME=LIST", "Sweep NAME over LIST (repeatable: the product is swept)"),
	MB_OPT_U32_DEF("repeat", struct sweep_args, repeat, "1", 1, 1000, "N",
		       "Run the whole sweep N times, point after point, round after round"),
	MB_OPT_STRING_DEF("preset", struct sweep_args, preset, NULL, "NAME",
			  "Run a preset sweep (the kernel's run_bench scripts; --list-presets)"),
	MB_OPT_FLAG_DEF("list-presets", struct sweep_args, list_presets, "List the presets"),
	MB_OPT_FLAG_DEF("skip-invalid", struct sweep_args, skip_invalid,
			"Skip points a bench refuses (presets always do), instead of stopping"),
	MB_OPT_END,
};

/* Global options a sweep can vary; the others describe the output, not the measurement. */
static const char *const sweepable_globals[] = {
	"warmup", "duration", "producers", "consumers", "affinity", "interval_ms", "call_us", "net",
	NULL,
};

struct sparam {
	const char *name;		/* the option's own spelling */
	const struct mb_opt *opt;
	bool global;
	bool from_preset;
	struct mb_sweep_values vals;
	struct mb_json *typed;		/* the values as results hold them (numbers, booleans) */
};

struct sseries {
	const struct mb_bench *benches[MAX_BENCHES];
	int nr_benches;
	const char *const *args;	/* fixed bench options */
	int params[MAX_PARAMS];		/* indices into sweep.params */
	int nr_params;
};

struct spoint {
	int series, rep;
	int pos;			/* index of its bench among the names, -1 from a preset */
	const struct mb_bench *bench;
	int idx[MAX_PARAMS];		/* value of each sweep parameter, -1: not in this series */
	int run;			/* index into runs, -1: refused by the bench */
	char *reason;			/* why refused */
};

struct sweep {
	struct mb_cli cli;
	struct sweep_args args;
	const struct mb_preset *preset;
	char origin[96];		/* "preset bloom", for messages */
	struct sparam params[MAX_PARAMS];
	int nr_params;
	struct sseries series[MAX_SERIES];
	int nr_series;
	struct spoint *points;
	long nr_points;
	struct mb_run *runs;
	struct mb_env *envs;
	int nr_runs;
	int nr_refused;
};

/* ---- help ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mapbench sweep [OPTIONS] BENCH... --param NAME=LIST [--param ...] [BENCH OPTIONS]\n"
		"       mapbench sweep [OPTIONS] --preset NAME [--param NAME=LIST ...]\n"
		"       mapbench sweep --list-presets\n"
		"\n"
		"Runs every point of the product of the --param lists, each as a normal run with the\n"
		"same global options, and writes one document with every point:\n"
		"  -o FILE    the JSON document: every result, and a \"sweep\" object with the points\n"
		"  stdout     a table of the points: --format text (default), csv or md; with\n"
		"             --format json and no -o, the JSON document instead\n"
		"LIST: V1,V2,... and ranges A..B, A..B:STEP, A..B*FACTOR; numbers take k/M/G, e.g.\n"
		"  --param nr_entries=10k,100k,1M  --param nr_hash_funcs=1..10  --param nr_loops=10..1M*10\n"
		"NAME: an option of the bench(es), or one of the global options warmup, duration,\n"
		"producers (p), consumers, affinity (true/false), interval_ms, call_us, net.\n"
		"The first --param varies slowest. --repeat N runs all points, then all again (N rounds),\n"
		"so a slow drift of the machine does not line up with a parameter.\n"
		"A preset sets the kernel script's global options (-w3 -d10 -a) unless given; --param\n"
		"replaces one of its lists; a plain option (-p1, --nr_entries 1000) fixes one.\n"
		"Progress: a line per point on stderr (not with -q) and, on a terminal, a bar with the\n"
		"time left; -v shows each run's own Iter and Summary lines instead.\n"
		"Exit status: as for a run; 2 on bad input, before anything runs.\n"
		"\n"
		"Sweep options:\n");
	mb_opts_print_help(f, sweep_opts);
	fprintf(f, "\nGlobal options: as for a run (mapbench --help): -w, -d, -p, -a, --interval_ms,\n"
		"--format, -o, -q, -v, --strict, --baseline, --save-baseline, ...\n"
		"\nExamples:\n"
		"  mapbench sweep bpf-loop --param nr_loops=1..1M*10 --param p=1,2 -o loop.json\n"
		"  mapbench sweep --preset bloom -w1 -d3 -p1 --param value_size=8 --param nr_entries=10k,100k,1M\n"
		"  mapbench plot loop.json -o loop.svg\n");
}

static double run_estimate(const struct mb_env *env)
{
	return (env->warmup + env->duration) * env->interval_ms / 1000.0 + RUN_OVERHEAD_S;
}

static int count_values(const char *list)
{
	struct mb_sweep_values v;
	char err[256];
	int n;

	if (mb_sweep_parse_values(list, &v, err, sizeof(err)))
		return 0;
	n = v.n;
	mb_sweep_values_free(&v);
	return n;
}

static void list_presets(FILE *f)
{
	fprintf(f, "Presets (mapbench sweep --preset NAME; times at the preset's -w/-d):\n");
	for (const struct mb_preset *p = mb_presets; p->name; p++) {
		char missing[256] = "", dur[32], globals[128] = "";
		long points = 0;
		int w = 1, d = 5;
		size_t n = 0;

		for (int g = 0; p->globals && p->globals[g]; g += 2) {
			if (!strcmp(p->globals[g], "warmup"))
				w = atoi(p->globals[g + 1]);
			if (!strcmp(p->globals[g], "duration"))
				d = atoi(p->globals[g + 1]);
			n += (size_t)snprintf(globals + n, sizeof(globals) - n, "%s--%s%s%s",
					      n ? " " : "", p->globals[g],
					      strcmp(p->globals[g + 1], "true") ? " " : "",
					      strcmp(p->globals[g + 1], "true") ? p->globals[g + 1] : "");
		}
		fprintf(f, "\n  %-15s %s\n", p->name, p->desc);
		for (const struct mb_preset_series *s = p->series; s->benches[0]; s++) {
			long pts = 1;
			int nb = 0;

			fprintf(f, "  %-15s ", "");
			for (; s->benches[nb]; nb++) {
				fprintf(f, "%s%s", nb ? ", " : "", s->benches[nb]);
				if (!mb_bench_find(s->benches[nb]) && strlen(missing) < 200)
					snprintf(missing + strlen(missing),
						 sizeof(missing) - strlen(missing), "%s%s",
						 missing[0] ? ", " : "", s->benches[nb]);
			}
			for (int k = 0; s->args && s->args[k]; k++)
				fprintf(f, " %s", s->args[k]);
			fprintf(f, ":");
			for (const struct mb_preset_param *pp = s->params; pp->name; pp++) {
				fprintf(f, " %s=%s", pp->name, pp->values);
				pts *= count_values(pp->values);
			}
			fputc('\n', f);
			points += pts * nb;
		}
		mb_progress_duration(dur, sizeof(dur), points * (w + d + RUN_OVERHEAD_S));
		fprintf(f, "  %-15s %s; %ld runs, about %s\n", "", globals, points, dur);
		fprintf(f, "  %-15s from %s\n", "", p->source);
		if (missing[0])
			fprintf(f, "  %-15s not in this build: %s\n", "", missing);
	}
}

/* ---- parameters ---- */

static bool parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "true", "1", "on", "yes", NULL };
	static const char *const no[] = { "false", "0", "off", "no", NULL };

	for (int i = 0; yes[i]; i++)
		if (!strcmp(s, yes[i]))
			return *out = true, true;
	for (int i = 0; no[i]; i++)
		if (!strcmp(s, no[i]))
			return *out = false, true;
	return false;
}

/* Like mb_opt_apply, and a flag takes true or false (it can be swept, or unset). */
static int apply_value(const struct mb_opt *opt, void *args, const char *value, char *msg,
		       size_t len)
{
	bool b;

	if (opt->type != MB_OPT_FLAG)
		return mb_opt_apply(opt, args, value, msg, len);
	if (!parse_bool(value, &b)) {
		snprintf(msg, len, "--%s %s: must be true or false", opt->name, value);
		return -EINVAL;
	}
	*(bool *)((char *)args + opt->offset) = b;
	return 0;
}

static struct mb_json *typed_value(const struct mb_opt *opt, const void *args)
{
	const void *f = (const char *)args + opt->offset;
	char buf[256];

	switch (opt->type) {
	case MB_OPT_FLAG:
		return mb_json_bool(*(const bool *)f);
	case MB_OPT_U32:
		return mb_json_number(*(const uint32_t *)f);
	case MB_OPT_U64:
		return mb_json_number((double)*(const uint64_t *)f);
	case MB_OPT_DOUBLE:
		return mb_json_number(*(const double *)f);
	default:
		mb_opt_format(opt, args, buf, sizeof(buf));
		return mb_json_string(buf);
	}
}

static void value_text(const struct mb_json *v, char *buf, size_t len)
{
	if (mb_json_is(v, MB_JSON_NUMBER))
		mb_json_format_number(mb_json_num(v, 0), buf, len);
	else if (mb_json_is(v, MB_JSON_BOOL))
		snprintf(buf, len, "%s", mb_json_truthy(v) ? "true" : "false");
	else
		snprintf(buf, len, "%s", mb_json_str(v, "?"));
}

static int global_index(const char *name)
{
	if (strlen(name) == 1) {
		for (int i = 0; mb_global_opts[i].name; i++)
			if (mb_global_opts[i].short_name == name[0])
				return i;
		return -1;
	}
	return mb_opt_find(mb_global_opts, name);
}

static bool sweepable(const char *global)
{
	for (int i = 0; sweepable_globals[i]; i++)
		if (!strcmp(sweepable_globals[i], global))
			return true;
	return false;
}

/*
 * Resolve @name for the benches of @only (or of every series): a sweepable global option, or an
 * option every one of those benches has. Fills p->name, p->opt, p->global.
 */
static int resolve_param(struct sweep *sw, const struct sseries *only, const char *name,
			 struct sparam *p)
{
	int gi = global_index(name);

	if (gi >= 0) {
		if (!sweepable(mb_global_opts[gi].name)) {
			mb_err("sweep: --param %s: --%s cannot be swept (global options that can: warmup, duration, producers, consumers, affinity, interval_ms, call_us, net)",
			       name, mb_global_opts[gi].name);
			return -EINVAL;
		}
		p->name = mb_global_opts[gi].name;
		p->opt = &mb_global_opts[gi];
		p->global = true;
		return 0;
	}
	p->opt = NULL;
	for (int s = 0; s < sw->nr_series; s++) {
		const struct sseries *se = &sw->series[s];

		if (only && only != se)
			continue;
		for (int b = 0; b < se->nr_benches; b++) {
			int i = mb_opt_find(se->benches[b]->opts, name);

			if (i < 0) {
				mb_err("sweep: --param %s: not an option of %s, nor a global option that can be swept (mapbench -h %s lists its options)",
				       name, se->benches[b]->name, se->benches[b]->name);
				return -EINVAL;
			}
			if (!p->opt)
				p->opt = &se->benches[b]->opts[i];
		}
	}
	p->name = p->opt->name;
	p->global = false;
	return 0;
}

struct canon {
	char text[256];		/* the value as the option reads it back */
	int idx;
};

static int cmp_canon(const void *a, const void *b)
{
	const struct canon *x = a, *y = b;
	int c = strcmp(x->text, y->text);

	return c ? c : x->idx - y->idx;
}

/* Two spellings of one value (10k and 10000) would run the same point twice. */
static int check_duplicates(const struct sparam *p)
{
	size_t n = mb_json_len(p->typed);
	struct canon *c = calloc(n + 1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		value_text(mb_json_at(p->typed, i), c[i].text, sizeof(c[i].text));
		c[i].idx = (int)i;
	}
	qsort(c, n, sizeof(*c), cmp_canon);
	for (size_t i = 1; i < n; i++) {
		if (strcmp(c[i - 1].text, c[i].text))
			continue;
		mb_err("sweep: --param %s: %s and %s are the same value", p->name,
		       p->vals.v[c[i - 1].idx], p->vals.v[c[i].idx]);
		free(c);
		return -EINVAL;
	}
	free(c);
	return 0;
}

/*
 * Check every value against the option (and each bench that has it), keep the values as
 * results will hold them, and refuse two spellings of one value (10k and 10000).
 */
static int check_values(struct sweep *sw, struct sparam *p)
{
	char msg[512];
	struct mb_env scratch_env = sw->cli.env;

	p->typed = mb_json_array();
	if (!p->typed)
		return -ENOMEM;
	for (int v = 0; v < p->vals.n; v++) {
		const char *val = p->vals.v[v];
		struct mb_json *t = NULL;

		if (p->global) {
			if (apply_value(p->opt, &scratch_env, val, msg, sizeof(msg))) {
				mb_err("sweep: --param %s=%s: %s", p->name, val, msg);
				return -EINVAL;
			}
			t = typed_value(p->opt, &scratch_env);
		}
		for (int s = 0; !p->global && s < sw->nr_series; s++) {
			for (int k = 0; k < sw->series[s].nr_benches; k++) {
				const struct mb_bench *bench = sw->series[s].benches[k];
				int i = mb_opt_find(bench->opts, p->name);
				void *args;
				int err;

				if (i < 0)
					continue;
				args = calloc(1, bench->args_size ? bench->args_size : 1);
				if (!args)
					return -ENOMEM;
				err = mb_opts_set_defaults(bench->opts, args, msg, sizeof(msg)) ||
				      apply_value(&bench->opts[i], args, val, msg, sizeof(msg));
				if (err) {
					free(args);
					mb_err("sweep: --param %s=%s: %s: %s", p->name, val,
					       bench->name, msg);
					mb_json_free(t);
					return -EINVAL;
				}
				if (!t)
					t = typed_value(&bench->opts[i], args);
				free(args);
			}
		}
		if (mb_json_append(p->typed, t))
			return -ENOMEM;
	}
	return check_duplicates(p);
}

static int find_param(const struct sweep *sw, const char *name)
{
	for (int i = 0; i < sw->nr_params; i++)
		if (mb_opt_name_eq(sw->params[i].name, name))
			return i;
	return -1;
}

/* Whether the command line gives @name as a plain option (-p 2, --nr_entries 1000). */
static bool given_plainly(const struct sweep *sw, const struct sparam *p)
{
	if (p->global)
		return mb_cli_given(&sw->cli, p->name);
	for (int i = 0; i < sw->cli.nr_items; i++)
		if (mb_opt_name_eq(sw->cli.items[i].name, p->name))
			return true;
	return false;
}

static int add_series_param(struct sseries *se, int idx)
{
	for (int i = 0; i < se->nr_params; i++)
		if (se->params[i] == idx)
			return 0;
	if (se->nr_params == MAX_PARAMS)
		return -E2BIG;
	se->params[se->nr_params++] = idx;
	return 0;
}

static int setup_preset(struct sweep *sw)
{
	const struct mb_preset *pr = mb_preset_find(sw->args.preset);
	char msg[512], err[256];

	if (!pr) {
		mb_err("sweep: --preset %s: no such preset (mapbench sweep --list-presets)",
		       sw->args.preset);
		return -EINVAL;
	}
	if (sw->cli.nr_names) {
		mb_err("sweep: --preset %s and bench names (%s): give one or the other",
		       pr->name, sw->cli.names[0]);
		return -EINVAL;
	}
	sw->preset = pr;
	snprintf(sw->origin, sizeof(sw->origin), "preset %s", pr->name);
	for (const struct mb_preset_series *ps = pr->series; ps->benches[0]; ps++) {
		struct sseries *se = &sw->series[sw->nr_series++];

		se->args = ps->args;
		for (int b = 0; ps->benches[b]; b++) {
			se->benches[se->nr_benches] = mb_bench_find(ps->benches[b]);
			if (!se->benches[se->nr_benches]) {
				mb_err("sweep: preset %s needs bench '%s', which is not in this build (mapbench --list)",
				       pr->name, ps->benches[b]);
				return -EINVAL;
			}
			se->nr_benches++;
		}
	}
	/* The kernel script's global options, unless the command line gives them. */
	for (int g = 0; pr->globals && pr->globals[g]; g += 2) {
		int gi = mb_opt_find(mb_global_opts, pr->globals[g]);

		if (mb_cli_given(&sw->cli, pr->globals[g]))
			continue;
		if (apply_value(&mb_global_opts[gi], &sw->cli.env, pr->globals[g + 1], msg,
				sizeof(msg))) {
			mb_err("sweep: preset %s: %s", pr->name, msg);
			return -EINVAL;
		}
	}
	for (int s = 0; s < sw->nr_series; s++) {
		const struct mb_preset_series *ps = &pr->series[s];

		for (const struct mb_preset_param *pp = ps->params; pp->name; pp++) {
			struct sparam tmp = { 0 };
			int idx;

			if (resolve_param(sw, &sw->series[s], pp->name, &tmp))
				return -EINVAL;
			/* A plain option fixes what the preset would sweep. */
			if (given_plainly(sw, &tmp))
				continue;
			idx = find_param(sw, tmp.name);
			if (idx < 0) {
				idx = sw->nr_params++;
				sw->params[idx] = tmp;
				sw->params[idx].from_preset = true;
				if (mb_sweep_parse_values(pp->values, &sw->params[idx].vals, err,
							  sizeof(err))) {
					mb_err("sweep: preset %s: %s: %s", pr->name, pp->name, err);
					return -EINVAL;
				}
			}
			if (add_series_param(&sw->series[s], idx))
				return -E2BIG;
		}
	}
	return 0;
}

static int setup_benches(struct sweep *sw)
{
	struct sseries *se = &sw->series[0];

	if (!sw->cli.nr_names) {
		mb_err("sweep: no bench (mapbench sweep BENCH --param NAME=V1,V2, or --preset NAME; mapbench sweep --help)");
		return -EINVAL;
	}
	if (sw->cli.nr_names > MAX_BENCHES) {
		mb_err("sweep: at most %d benches", MAX_BENCHES);
		return -EINVAL;
	}
	if (mb_session_resolve(sw->cli.names, sw->cli.nr_names, se->benches))
		return -EINVAL;
	se->nr_benches = sw->cli.nr_names;
	sw->nr_series = 1;
	snprintf(sw->origin, sizeof(sw->origin), "the sweep");
	return 0;
}

static int setup_params(struct sweep *sw)
{
	char name[MB_SWEEP_NAME_MAX], err[512];

	for (int i = 0; i < sw->args.params.nr; i++) {
		struct sparam tmp = { 0 };
		struct mb_sweep_values vals;
		int idx;

		if (mb_sweep_parse_param(sw->args.params.items[i], name, sizeof(name), &vals, err,
					 sizeof(err))) {
			mb_err("sweep: --param %s", err);
			return -EINVAL;
		}
		if (resolve_param(sw, NULL, name, &tmp)) {
			mb_sweep_values_free(&vals);
			return -EINVAL;
		}
		idx = find_param(sw, tmp.name);
		if (idx >= 0 && !sw->params[idx].from_preset) {
			mb_sweep_values_free(&vals);
			mb_err("sweep: --param %s given twice", tmp.name);
			return -EINVAL;
		}
		if (given_plainly(sw, &tmp)) {
			mb_sweep_values_free(&vals);
			mb_err("sweep: --param %s: also given as --%s; give one or the other", tmp.name,
			       tmp.name);
			return -EINVAL;
		}
		if (idx >= 0) {
			/* Replaces the preset's list. */
			mb_sweep_values_free(&sw->params[idx].vals);
			sw->params[idx].vals = vals;
			sw->params[idx].from_preset = false;
			continue;
		}
		if (sw->nr_params == MAX_PARAMS) {
			mb_sweep_values_free(&vals);
			return -E2BIG;
		}
		idx = sw->nr_params++;
		sw->params[idx] = tmp;
		sw->params[idx].vals = vals;
		for (int s = 0; s < sw->nr_series; s++)
			if (add_series_param(&sw->series[s], idx))
				return -E2BIG;
	}
	return 0;
}

/* The points in the order they run: round by round, series by series, product, bench. */
static int make_points(struct sweep *sw)
{
	long total = 0, k = 0;

	for (int s = 0; s < sw->nr_series; s++) {
		struct sseries *se = &sw->series[s];
		int counts[MAX_PARAMS];
		long n;

		for (int i = 0; i < se->nr_params; i++)
			counts[i] = sw->params[se->params[i]].vals.n;
		n = mb_sweep_product(counts, se->nr_params);
		if (n < 0 || n * se->nr_benches * (long)sw->args.repeat > MB_SWEEP_MAX_POINTS - total) {
			mb_err("sweep: more than %d runs: narrow the lists (--param) or --repeat",
			       MB_SWEEP_MAX_POINTS);
			return -EINVAL;
		}
		total += n * se->nr_benches * (long)sw->args.repeat;
	}
	/* Only now, with the size known to be sane: every value against its option. */
	for (int i = 0; i < sw->nr_params; i++)
		if (check_values(sw, &sw->params[i]))
			return -EINVAL;
	sw->points = calloc((size_t)total + 1, sizeof(*sw->points));
	if (!sw->points)
		return -ENOMEM;
	sw->nr_points = total;
	for (int rep = 0; rep < (int)sw->args.repeat; rep++) {
		for (int s = 0; s < sw->nr_series; s++) {
			struct sseries *se = &sw->series[s];
			int counts[MAX_PARAMS], vidx[MAX_PARAMS];
			long n;

			for (int i = 0; i < se->nr_params; i++)
				counts[i] = sw->params[se->params[i]].vals.n;
			n = mb_sweep_product(counts, se->nr_params);
			for (long pt = 0; pt < n; pt++) {
				mb_sweep_point(counts, se->nr_params, pt, vidx);
				for (int b = 0; b < se->nr_benches; b++) {
					struct spoint *p = &sw->points[k++];

					p->series = s;
					p->rep = rep;
					p->bench = se->benches[b];
					p->pos = sw->preset ? -1 : b;
					p->run = -1;
					for (int i = 0; i < MAX_PARAMS; i++)
						p->idx[i] = -1;
					for (int i = 0; i < se->nr_params; i++)
						p->idx[se->params[i]] = vidx[i];
				}
			}
		}
	}
	return 0;
}

static void point_label(const struct sweep *sw, const struct spoint *p, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", p->bench->name);
	char val[256];

	for (int i = 0; i < sw->nr_params && n < len; i++) {
		if (p->idx[i] < 0)
			continue;
		value_text(mb_json_at(sw->params[i].typed, (size_t)p->idx[i]), val, sizeof(val));
		n += (size_t)snprintf(buf + n, len - n, " %s=%s", sw->params[i].name, val);
	}
	if (sw->args.repeat > 1 && n < len)
		snprintf(buf + n, len - n, " (round %d)", p->rep + 1);
}

/* Configure @run (and its @env) for point @p; the run is validated by the caller. */
static int prepare_point(struct sweep *sw, const struct spoint *p, struct mb_run *run,
			 struct mb_env *env)
{
	const struct sseries *se = &sw->series[p->series];
	char msg[512];

	*env = sw->cli.env;
	for (int i = 0; i < sw->nr_params; i++)
		if (p->idx[i] >= 0 && sw->params[i].global &&
		    apply_value(sw->params[i].opt, env, sw->params[i].vals.v[p->idx[i]], msg,
				sizeof(msg)))
			return mb_err("sweep: %s", msg), -EINVAL;
	if (mb_session_prepare_run(&sw->cli, run, p->pos, p->bench, env, se->args, sw->origin))
		return -EINVAL;
	for (int i = 0; i < sw->nr_params; i++) {
		int oi;

		if (p->idx[i] < 0 || sw->params[i].global)
			continue;
		oi = mb_opt_find(p->bench->opts, sw->params[i].name);
		if (apply_value(&p->bench->opts[oi], run->args, sw->params[i].vals.v[p->idx[i]],
				msg, sizeof(msg)))
			return mb_err("sweep: %s: %s", p->bench->name, msg), -EINVAL;
		if (oi < 64)
			run->opts_given |= 1ULL << oi;
	}
	return 0;
}

/* Trial-validate a point: 0, -EINVAL with the bench's message in @why, or another error. */
static int try_point(struct sweep *sw, struct spoint *p, char **why)
{
	struct mb_run run;
	struct mb_env env;
	char *buf = NULL;
	size_t size = 0;
	FILE *mem;
	int err;

	*why = NULL;
	err = prepare_point(sw, p, &run, &env);
	if (err) {
		mb_run_free(&run);
		return err == -EINVAL ? -EBADMSG : err;
	}
	mem = open_memstream(&buf, &size);
	if (!mem) {
		mb_run_free(&run);
		return -ENOMEM;
	}
	mb_log_set_error_stream(mem);
	err = mb_run_validate(&run);
	mb_log_set_error_stream(NULL);
	fclose(mem);
	mb_run_free(&run);
	if (err && buf) {
		/* One line, without the "mapbench: " prefix. */
		buf[strcspn(buf, "\n")] = '\0';
		*why = strdup(strncmp(buf, "mapbench: ", 10) ? buf : buf + 10);
	}
	free(buf);
	return err;
}

static int prepare_runs(struct sweep *sw)
{
	bool skip = sw->preset || sw->args.skip_invalid;
	int k = 0, err;

	for (long i = 0; i < sw->nr_points; i++) {
		struct spoint *p = &sw->points[i];

		err = try_point(sw, p, &p->reason);
		if (err == -EINVAL && skip) {
			sw->nr_refused++;
			continue;
		}
		if (err) {
			if (p->reason)
				mb_err("sweep: %s%s", p->reason,
				       sw->preset ? "" : " (--skip-invalid skips such points)");
			return -EINVAL;
		}
		p->run = sw->nr_runs++;
	}
	if (!sw->nr_runs) {
		mb_err("sweep: the bench refuses every point, e.g. %s",
		       sw->nr_points ? sw->points[0].reason : "(none)");
		return -EINVAL;
	}
	sw->runs = calloc((size_t)sw->nr_runs, sizeof(*sw->runs));
	sw->envs = calloc((size_t)sw->nr_runs, sizeof(*sw->envs));
	if (!sw->runs || !sw->envs)
		return -ENOMEM;
	for (long i = 0; i < sw->nr_points; i++) {
		struct spoint *p = &sw->points[i];

		if (p->run < 0)
			continue;
		k = p->run;
		if (prepare_point(sw, p, &sw->runs[k], &sw->envs[k]))
			return -EINVAL;
	}
	if (mb_cli_check_unused(&sw->cli, sw->runs, sw->nr_runs))
		return -EINVAL;
	for (int i = 0; i < sw->nr_runs; i++)
		if (mb_run_validate(&sw->runs[i]))
			return -EINVAL;
	return 0;
}

/* ---- output ---- */

static double point_latency(const struct mb_run *run, const struct mb_summary *sum)
{
	return sum->has_kernel ? mb_summary_latency(run, sum) : sum->latency_wall.mean;
}

static const char *status_text(const struct mb_run *run)
{
	static const char *const names[] = { "ok", "skipped", "failed", "interrupted" };

	return names[run->status];
}

static void point_line(const struct sweep *sw, const struct spoint *p, char *buf, size_t len)
{
	const struct mb_run *run = &sw->runs[p->run];
	const struct mb_summary *sum = run->summary;
	char label[512];

	point_label(sw, p, label, sizeof(label));
	if (sum)
		snprintf(buf, len, "%s: %.3f \u00B1 %.3f M ops/s, %.3f ns/op, CV %.2f %%%s%s",
			 label, sum->throughput.mean / 1e6, sum->throughput.stddev / 1e6,
			 point_latency(run, sum), sum->throughput.cv * 100,
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
		run = &sw->runs[p->run];
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
			value_text(mb_json_at(sw->params[k].typed, (size_t)p->idx[k]), val, sizeof(val));
			mb_table_cell(t, "%s", val);
		}
		if (rep)
			mb_table_cell(t, "%d", p->rep + 1);
		if (sum) {
			mb_table_cell(t, "%.3f", sum->throughput.mean / 1e6);
			mb_table_cell(t, "%.3f", sum->throughput.stddev / 1e6);
			mb_table_cell(t, "%.3f", point_latency(run, sum));
			mb_table_cell(t, "%.2f", sum->throughput.cv * 100);
		} else {
			for (int k = 0; k < 4; k++)
				mb_table_cell(t, "-");
		}
		mb_table_cell(t, "%s%s", status_text(run), sum && sum->nr_flagged ? " (noisy)" : "");
	}
	return t;
}

static struct mb_json *sweep_json(const struct sweep *sw, int ran)
{
	struct mb_json *o = mb_json_object(), *params = mb_json_array(), *series = mb_json_array();
	struct mb_json *points = mb_json_array(), *plot;

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
		point_label(sw, &sw->points[i], label, sizeof(label));
		fprintf(f, "  %s: %s\n", label, sw->points[i].reason ? sw->points[i].reason : "?");
		shown++;
	}
	if (sw->nr_refused > shown)
		fprintf(f, "  ...\n");
}

static int output(struct sweep *sw, int ran, struct mb_json *doc)
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
			refused_note(stdout, sw);
		}
		if (fflush(stdout))
			ret = -EIO;
	}
	return ret;
}

/* ---- running ---- */

static int run_all(struct sweep *sw, int *ran)
{
	struct mb_env *env = &sw->cli.env;
	bool bar = !env->quiet && !env->verbose && isatty(STDERR_FILENO);
	struct mb_progress prog;
	double est = 0;
	char line[1024], dur[32];
	FILE *devnull = NULL;

	for (int i = 0; i < sw->nr_runs; i++)
		est += run_estimate(&sw->envs[i]);
	if (!env->quiet) {
		mb_progress_duration(dur, sizeof(dur), est);
		fprintf(stderr, "Sweep: %d run%s%s, about %s\n", sw->nr_runs,
			sw->nr_runs > 1 ? "s" : "", sw->preset ? " (preset)" : "", dur);
	}
	/* Each run's kernel-style lines would bury the table: only -v shows them (on stderr). */
	if (!env->verbose) {
		devnull = fopen("/dev/null", "we");
		if (!devnull)
			return -errno;
	}
	mb_log_init(env->quiet, env->verbose, devnull ? devnull : stderr);
	mb_progress_start(&prog, sw->nr_runs, est, bar, !env->quiet && !env->verbose);
	for (long i = 0; i < sw->nr_points && !mb_interrupted(); i++) {
		struct spoint *p = &sw->points[i];

		if (p->run < 0)
			continue;
		point_label(sw, p, line, sizeof(line));
		mb_progress_begin(&prog, line);
		mb_run_execute(&sw->runs[p->run]);
		*ran = p->run + 1;
		point_line(sw, p, line, sizeof(line));
		mb_progress_end(&prog, run_estimate(&sw->envs[p->run]), line);
	}
	mb_progress_stop(&prog);
	mb_log_init(env->quiet, env->verbose,
		    env->format == MB_FORMAT_JSON && !env->output ? stderr : stdout);
	if (devnull)
		fclose(devnull);
	return 0;
}

static int max_producers(const struct sweep *sw)
{
	uint32_t max = 1;

	for (int i = 0; i < sw->nr_runs; i++)
		if (sw->envs[i].producers > max)
			max = sw->envs[i].producers;
	return (int)max;
}

static void sweep_free(struct sweep *sw)
{
	for (int i = 0; sw->runs && i < sw->nr_runs; i++)
		mb_run_free(&sw->runs[i]);
	free(sw->runs);
	free(sw->envs);
	for (long i = 0; sw->points && i < sw->nr_points; i++)
		free(sw->points[i].reason);
	free(sw->points);
	for (int i = 0; i < sw->nr_params; i++) {
		mb_sweep_values_free(&sw->params[i].vals);
		mb_json_free(sw->params[i].typed);
	}
	mb_cli_free(&sw->cli);
}

int mb_cmd_sweep(int argc, char **argv)
{
	struct sweep *sw = calloc(1, sizeof(*sw));
	struct mb_session session = { 0 };
	struct mb_json *doc = NULL;
	int status = MB_EXIT_USAGE, ran = 0, err;

	if (!sw) {
		mb_err("out of memory");
		return MB_EXIT_FAIL;
	}
	if (mb_cli_parse_cmd(argc - 1, argv + 1, &sw->cli, sweep_opts, &sw->args))
		goto out;
	sw->cli.env.argc = argc;
	sw->cli.env.argv = argv;
	mb_log_init(sw->cli.env.quiet, sw->cli.env.verbose, stderr);
	if (sw->cli.env.help || sw->args.list_presets) {
		if (sw->cli.env.help)
			usage(stdout);
		else
			list_presets(stdout);
		status = MB_EXIT_OK;
		goto out;
	}
	if (sw->cli.env.list) {
		mb_err("sweep: --list: use mapbench --list");
		goto out;
	}
	if (mb_cpuset_online(&sw->cli.env.online)) {
		mb_err("cannot read the online CPUs");
		status = MB_EXIT_FAIL;
		goto out;
	}
	err = sw->args.preset ? setup_preset(sw) : setup_benches(sw);
	if (!err)
		err = setup_params(sw);
	if (!err)
		err = make_points(sw);
	if (!err)
		err = prepare_runs(sw);
	if (!err)
		err = mb_session_check_options(&sw->cli);
	if (err) {
		if (err != -EINVAL) {
			mb_err("sweep: %s", err == -E2BIG ? "too many parameters" : strerror(-err));
			status = err == -E2BIG ? MB_EXIT_USAGE : MB_EXIT_FAIL;
		}
		goto out;
	}
	status = mb_session_begin(&session, &sw->cli.env, max_producers(sw));
	if (status)
		goto out;
	if (run_all(sw, &ran)) {
		status = MB_EXIT_FAIL;
		goto out;
	}
	status = mb_session_status(sw->runs, sw->nr_runs, ran);
	doc = mb_report_document(&sw->cli.env, sw->runs, ran);
	if (!doc || mb_json_set(doc, "sweep", sweep_json(sw, ran))) {
		mb_err("sweep: out of memory");
		status = MB_EXIT_FAIL;
		goto out;
	}
	if (output(sw, ran, doc) && status == MB_EXIT_OK)
		status = MB_EXIT_FAIL;
	status = mb_session_end(&session, doc, status);
out:
	mb_json_free(doc);
	mb_session_free(&session);
	sweep_free(sw);
	free(sw);
	return status;
}
