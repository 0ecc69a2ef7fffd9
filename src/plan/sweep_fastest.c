// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench sweep: which value of one swept parameter is fastest (lowest mean ns/op, the
 * table's figure, pooled over rounds) at each combination of the others, by bench. The
 * parameter is --fastest NAME, or the one a bench of the sweep declares (.sweep_fastest)
 * where the sweep varies it. The document's sweep.fastest carries it, and one line under the
 * table says it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/group_min.h"
#include "util/json.h"
#include "util/log.h"
#include "core/bench.h"
#include "core/summary.h"
#include "sweep_cmd.h"

double sweep_point_latency(const struct mb_run *run, const struct mb_summary *sum)
{
	return sum->has_kernel ? mb_summary_latency(run, sum) : sum->latency_wall.mean;
}

static int swept(const struct sweep *sw, const char *name)
{
	for (int i = 0; i < sw->nr_params; i++)
		if (mb_opt_name_eq(sw->params[i].name, name))
			return i;
	return -1;
}

/*
 * The first parameter a bench of the sweep names as its own to rank, where the sweep gives it
 * two values or more.
 */
static int declared(const struct sweep *sw)
{
	for (int s = 0; s < sw->nr_series; s++)
		for (int b = 0; b < sw->series[s].nr_benches; b++) {
			const char *name = sw->series[s].benches[b]->sweep_fastest;
			int k = name ? swept(sw, name) : -1;

			if (k >= 0 && sw->params[k].vals.n > 1)
				return k;
		}
	return -1;
}

int sweep_setup_fastest(struct sweep *sw)
{
	const char *name = sw->args.fastest;
	char names[256];
	size_t n = 0;

	sw->fastest = name ? swept(sw, name) : declared(sw);
	if (!name || sw->fastest >= 0)
		return 0;
	names[0] = '\0';
	for (int i = 0; i < sw->nr_params && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      sw->params[i].name);
	mb_err("sweep: --fastest %s: must name a swept parameter (%s)", name,
	       sw->nr_params ? names : "none is swept");
	return -EINVAL;
}

/* Whether series @s sweeps parameter @k. */
static bool in_series(const struct sseries *se, int k)
{
	for (int i = 0; i < se->nr_params; i++)
		if (se->params[i] == k)
			return true;
	return false;
}

/*
 * Group numbers: series by series (those that sweep the ranked parameter), bench by bench,
 * then the other parameters' values in the order of the product. @base[s]: series s's first.
 */
static int group_bases(const struct sweep *sw, int *base)
{
	long total = 0;

	for (int s = 0; s < sw->nr_series; s++) {
		const struct sseries *se = &sw->series[s];
		long n = se->nr_benches;

		base[s] = (int)total;
		if (!in_series(se, sw->fastest))
			continue;
		for (int i = 0; i < se->nr_params && n <= MB_SWEEP_MAX_POINTS; i++)
			if (se->params[i] != sw->fastest)
				n *= sw->params[se->params[i]].vals.n;
		total += n;
		if (total > MB_SWEEP_MAX_POINTS)
			return -E2BIG;
	}
	return (int)total;
}

static int group_of(const struct sweep *sw, const int *base, const struct spoint *p)
{
	const struct sseries *se = &sw->series[p->series];
	long g = 0;

	while (g < se->nr_benches && se->benches[g] != p->bench)
		g++;
	for (int i = 0; i < se->nr_params; i++)
		if (se->params[i] != sw->fastest)
			g = g * sw->params[se->params[i]].vals.n + p->idx[se->params[i]];
	return base[p->series] + (int)g;
}

/* Whether the sweep's groups need the bench named: several benches, or several series. */
static bool many_benches(const struct sweep *sw)
{
	return sw->nr_series > 1 || sw->series[0].nr_benches > 1;
}

/* A group's place: the bench where there are several, and the other swept values. */
static struct mb_json *group_at(const struct sweep *sw, const struct spoint *p)
{
	struct mb_json *at = mb_json_object();

	if (many_benches(sw))
		mb_json_set_str(at, "bench", p->bench->name);
	for (int k = 0; k < sw->nr_params; k++)
		if (k != sw->fastest && p->idx[k] >= 0)
			mb_json_set(at, sw->params[k].name,
				    mb_json_copy(mb_json_at(sw->params[k].typed, (size_t)p->idx[k])));
	return at;
}

static struct mb_json *groups_json(const struct sweep *sw, const struct mb_group_min *m,
				   const long *first)
{
	struct mb_json *groups = mb_json_array();

	for (int g = 0; g < m->groups; g++) {
		struct mb_json *o;
		double ns;
		int c;

		if (first[g] < 0)
			continue;
		o = mb_json_object();
		c = mb_group_min_best(m, g, &ns);
		mb_json_set(o, "at", group_at(sw, &sw->points[first[g]]));
		mb_json_set(o, "value", c < 0 ? mb_json_null() :
			    mb_json_copy(mb_json_at(sw->params[sw->fastest].typed, (size_t)c)));
		mb_json_set(o, "ns_per_op", c < 0 ? mb_json_null() : mb_json_number(ns));
		mb_json_append(groups, o);
	}
	return groups;
}

/* The other parameters the groups differ by, in order ("bench" first where several). */
static struct mb_json *by_json(const struct sweep *sw)
{
	struct mb_json *by = mb_json_array();

	if (many_benches(sw))
		mb_json_append(by, mb_json_string("bench"));
	for (int k = 0; k < sw->nr_params; k++) {
		bool used = false;

		for (int s = 0; s < sw->nr_series && !used; s++)
			used = in_series(&sw->series[s], sw->fastest) &&
			       in_series(&sw->series[s], k);
		if (k != sw->fastest && used)
			mb_json_append(by, mb_json_string(sw->params[k].name));
	}
	return by;
}

static void add_points(const struct sweep *sw, int ran, const int *base,
		       struct mb_group_min *m, long *first)
{
	for (long i = 0; i < sw->nr_points; i++) {
		const struct spoint *p = &sw->points[i];
		const struct mb_run *run;
		int g;

		if (p->idx[sw->fastest] < 0)
			continue;
		g = group_of(sw, base, p);
		if (first[g] < 0)
			first[g] = i;
		if (p->run < 0 || p->run >= ran)
			continue;
		run = mb_run_result(&sw->runs[p->run], 0);
		if (run->status == MB_RUN_OK && run->summary)
			mb_group_min_add(m, g, p->idx[sw->fastest],
					 sweep_point_latency(run, run->summary));
	}
}

struct mb_json *sweep_fastest_json(const struct sweep *sw, int ran)
{
	int base[MAX_SERIES], groups;
	struct mb_group_min m;
	struct mb_json *o;
	long *first;

	if (sw->fastest < 0 || (groups = group_bases(sw, base)) <= 0 ||
	    mb_group_min_init(&m, groups, sw->params[sw->fastest].vals.n))
		return NULL;
	first = malloc((size_t)groups * sizeof(*first));
	if (!first) {
		mb_group_min_free(&m);
		return NULL;
	}
	for (int g = 0; g < groups; g++)
		first[g] = -1;
	add_points(sw, ran, base, &m, first);
	o = mb_json_object();
	mb_json_set_str(o, "param", sw->params[sw->fastest].name);
	mb_json_set_str(o, "metric", "ns/op");
	mb_json_set(o, "by", by_json(sw));
	mb_json_set(o, "groups", groups_json(sw, &m, first));
	free(first);
	mb_group_min_free(&m);
	return o;
}

void sweep_fastest_line(FILE *f, const struct mb_json *fastest)
{
	const struct mb_json *by, *groups;
	char val[256];

	if (!fastest || !mb_json_is(fastest, MB_JSON_OBJECT))
		return;
	by = mb_json_get(fastest, "by");
	groups = mb_json_get(fastest, "groups");
	fprintf(f, "Fastest %s (lowest ns/op)", mb_json_str(mb_json_get(fastest, "param"), "?"));
	for (size_t i = 0; i < mb_json_len(by); i++)
		fprintf(f, "%s%s", i ? ", " : " at each ", mb_json_str(mb_json_at(by, i), "?"));
	fputc(':', f);
	for (size_t g = 0; g < mb_json_len(groups); g++) {
		const struct mb_json *grp = mb_json_at(groups, g);
		const struct mb_json *at = mb_json_get(grp, "at");

		fputc(g ? ';' : ' ', f);
		for (size_t i = 0; i < mb_json_len(by); i++) {
			const struct mb_json *v = mb_json_get(at, mb_json_str(mb_json_at(by, i), ""));

			/* "-": a series that does not sweep it, as in the table. */
			mb_json_scalar_text(v, val, sizeof(val));
			fprintf(f, "%s%s", i ? " " : (g ? " " : ""), v ? val : "-");
		}
		mb_json_scalar_text(mb_json_get(grp, "value"), val, sizeof(val));
		fprintf(f, "%s%s", mb_json_len(by) ? ": " : "",
			mb_json_is(mb_json_get(grp, "value"), MB_JSON_NULL) ? "none ran" : val);
	}
	fputc('\n', f);
}
