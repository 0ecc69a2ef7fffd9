// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/env.h"
#include "core/summary.h"
#include "result_line.h"
#include "util/iqr.h"
#include "util/stats.h"

int mb_result_line_compute(const double *ns_per_op, size_t n, struct mb_result_line *rl)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	struct mb_stats st;
	size_t m;
	int err;

	if (!v)
		return -ENOMEM;
	if (n)
		memcpy(v, ns_per_op, n * sizeof(*v));
	m = mb_iqr_filter(v, n);
	err = mb_stats_compute(v, m, &st);
	if (!err) {
		rl->samples = m;
		rl->median = st.median;
		/* One sample has no spread: 0, as a number, where a parser expects one. */
		rl->stddev = m > 1 ? st.stddev : 0;
		rl->cv = m > 1 && st.mean != 0 ? st.stddev / fabs(st.mean) * 100 : 0;
		rl->min = st.min;
		rl->p99 = mb_percentile_sorted(v, m, 99);
		rl->max = st.max;
	}
	free(v);
	return err;
}

int mb_result_line_format(char *buf, size_t len, const char *scenario,
			  const struct mb_result_line *rl)
{
	return snprintf(buf, len,
			"RESULT scenario=%s samples=%zu median=%.2f stddev=%.2f cv=%.2f min=%.2f p99=%.2f max=%.2f",
			scenario, rl->samples, rl->median, rl->stddev, rl->cv, rl->min, rl->p99,
			rl->max);
}

/* Append "/NAME=VALUE" to @buf (holding @n chars) if it fits; returns the new length. */
static size_t add_param(char *buf, size_t len, size_t n, const char *name, const char *value)
{
	int w;

	if (n >= len)
		return n;
	w = snprintf(buf + n, len - n, "/%s=%s", name, value);
	if (w < 0 || (size_t)w >= len - n) {
		buf[n] = '\0';	/* a parameter half written would name another scenario */
		return n;
	}
	return n + (size_t)w;
}

/* The global options that change what a run measures, where they are not at their default. */
static size_t add_globals(const struct mb_env *env, char *buf, size_t len, size_t n)
{
	char val[32];

	if (env->producers != 1) {
		snprintf(val, sizeof(val), "%u", env->producers);
		n = add_param(buf, len, n, "producers", val);
	}
	if (env->consumers_given) {
		snprintf(val, sizeof(val), "%u", env->consumers);
		n = add_param(buf, len, n, "consumers", val);
	}
	if (env->affinity)
		n = add_param(buf, len, n, "affinity", "true");
	/* call_us: a scenario names it only when it differs from its default. */
	if (env->call_us != MB_CALL_US_DEFAULT) {
		snprintf(val, sizeof(val), "%u", env->call_us);
		n = add_param(buf, len, n, "call_us", val);
	}
	return n;
}

const char *mb_result_line_scenario(const struct mb_run *run, char *buf, size_t len)
{
	const struct mb_opt *opts = run->bench->opts;
	char val[256];
	size_t n;

	int named = run->bench->result_scenario ? mb_opt_find(opts, run->bench->result_scenario) :
						  -1;

	/* The kernel's scenario names where the bench ports them, its own name elsewhere. */
	if (named >= 0 && run->args)
		mb_opt_format(&opts[named], run->args, buf, len);
	else
		snprintf(buf, len, "%s", run->bench->name);
	n = strlen(buf);
	if (run->part_name[0])
		n = add_param(buf, len, n, run->bench->part_param, run->part_name);
	for (int o = 0; opts && opts[o].name && o < 64; o++) {
		if (!(run->opts_given & (1ULL << o)) || o == named)
			continue;
		mb_opt_format(&opts[o], run->args, val, sizeof(val));
		n = add_param(buf, len, n, opts[o].name, val);
	}
	if (run->env)
		add_globals(run->env, buf, len, n);
	/* A scenario is one word: a parser splits the line at spaces. */
	for (char *c = buf; *c; c++)
		if (isspace((unsigned char)*c))
			*c = '_';
	return buf;
}

const char *mb_result_line_why_not(const struct mb_run *result)
{
	if (!result->runner || strcmp(result->runner, "kernel-loop"))
		return "it does not time in the kernel";
	if (!result->summary || !result->summary->has_kernel)
		return "no sample timed its ops in the kernel";
	return NULL;
}

int mb_result_line_print(FILE *f, const struct mb_run *result)
{
	struct mb_result_line rl;
	char scenario[512], line[1024];
	double *v;
	size_t n = 0;
	int err;

	if (mb_result_line_why_not(result))
		return -ENODATA;
	v = calloc((size_t)result->nr_samples + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* Each measured sample's in-kernel ns/op: what the Summary's latency_kernel is of. */
	for (int i = 0; i < result->nr_samples; i++)
		if (!result->samples[i].warmup)
			v[n++] = mb_sample_kernel_latency(&result->samples[i]);
	err = mb_result_line_compute(v, n, &rl);
	free(v);
	if (err)
		return err;
	mb_result_line_scenario(result, scenario, sizeof(scenario));
	mb_result_line_format(line, sizeof(line), scenario, &rl);
	fprintf(f, "%s\n", line);
	fflush(f);
	return 0;
}
