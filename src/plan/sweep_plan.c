// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench sweep: from the command line (or a preset) to the points. Resolves each parameter
 * to a sweepable global option or an option of every bench, checks its values, builds the
 * series and lays out the points in the order they run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/log.h"
#include "families/registry.h"
#include "session.h"
#include "sweep_cmd.h"

/* Global options a sweep can vary; the others describe the output, not the measurement. */
static const char *const sweepable_globals[] = {
	"warmup", "duration", "producers", "consumers", "affinity", "interval_ms", "call_us", "net",
	NULL,
};

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
int sweep_apply_value(const struct mb_opt *opt, void *args, const char *value, char *msg,
		      size_t len)
{
	bool b;

	if (opt->type != MB_OPT_FLAG)
		return mb_opt_apply(opt, args, value, msg, len);
	if (!parse_bool(value, &b))
		return mb_opt_error(msg, len, opt->name, value, "true or false", NULL);
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
		mb_json_scalar_text(mb_json_at(p->typed, i), c[i].text, sizeof(c[i].text));
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
			if (sweep_apply_value(p->opt, &scratch_env, val, msg, sizeof(msg))) {
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
				      sweep_apply_value(&bench->opts[i], args, val, msg,
							sizeof(msg));
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

int sweep_setup_preset(struct sweep *sw)
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
		if (sweep_apply_value(&mb_global_opts[gi], &sw->cli.env, pr->globals[g + 1], msg,
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

int sweep_setup_benches(struct sweep *sw)
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

int sweep_setup_params(struct sweep *sw)
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
int sweep_make_points(struct sweep *sw)
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
