// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-perf's text lines: one Iter line per test from the sampler's per-test deltas, and
 * map_perf_test's result line per test and producer from extra.tests.
 */
#include <math.h>
#include <stdio.h>

#include "map_perf.h"
#include "util/json.h"
#include "output/report.h"

static void mp_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct mb_json *tests = mb_json_get(run->extra, "tests");

	for (size_t k = 0; k < mb_json_len(tests); k++) {
		const struct mb_json *o = mb_json_at(tests, k);
		const struct mb_json *prods = mb_json_get(o, "producers");
		double ope = mb_json_num(mb_json_get(o, "ops_per_event"), 1);

		for (size_t p = 0; p < mb_json_len(prods); p++) {
			const struct mb_json *po = mb_json_at(prods, p);
			const struct mb_json *r = mb_json_get(po, "map_ops_per_sec");
			const struct mb_json *cpu = mb_json_get(po, "cpu");
			double mops = mb_json_num(mb_json_get(r, "mean"), 0);
			double sdev = mb_json_num(mb_json_get(r, "stddev"), NAN);
			char sd[32];

			if (!r || !mb_json_is(r, MB_JSON_OBJECT))
				continue;
			/* map_perf_test's line, then the same in map operations. */
			fprintf(f, "%d:%s %lld events per sec = %.3f \u00B1 %s M map ops/s (%.0f map ops per event, %.2f ns per op",
				mb_json_is(cpu, MB_JSON_NUMBER) ? (int)mb_json_num(cpu, 0) : (int)p,
				mb_json_str(mb_json_get(o, "label"), ""), (long long)llround(mops / ope),
				mops / 1e6, mb_text_num(sd, sizeof(sd), 0, 3, sdev / 1e6), ope,
				mb_json_num(mb_json_get(mb_json_get(po, "ns_per_op"), "mean"), 0));
			if (mb_json_num(mb_json_get(po, "errors"), 0) > 0)
				fprintf(f, ", %.0f failed", mb_json_num(mb_json_get(po, "errors"), 0));
			fprintf(f, ")\n");
		}
	}
	/* A test's own figures (a part of the run): per second of in-kernel time, as above. */
	mb_text_frac_second.summary(f, run, sum);
}

/* One Iter line per test, in the kernel's words with the test's name: never a sum of tests. */
static void mp_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	const struct mp_state *st = run->priv;
	int np = st->nr_producers;

	for (int k = 0; k < st->nsel; k++) {
		int t = st->sel[k];
		double rate = 0;

		for (int p = 0; p < np; p++) {
			const struct mb_counters *d =
				&st->delta[((size_t)iter * np + p) * MP_NR + t];

			if (d->kernel_ns)
				rate += (double)d->ops * 1e3 / (double)d->kernel_ns;
		}
		mb_text_iter_prefix(f, run, iter, s);
		fprintf(f, "hits %8.3lfM/s (%7.3lfM/prod) %s\n", rate, rate / np, mp_tests[t].name);
	}
}

const struct mb_text_style map_perf_text = {
	.progress = mp_progress,
	.summary = mp_summary,
	.figures = mb_text_frac_figures,
};
