// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Bloom family results: the exact check of every answer, the measured false-positive rate next
 * to the theory for the filter's actual size and the with/without-bloom speed-up, into
 * run->extra (bloom_text.c shows them).
 */
#include <math.h>
#include <stdlib.h>

#include "bloom.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "bloom.skel.h"
#include "bloom_model.h"
#include "core/runner.h"
#include "util/json.h"
#include "util/log.h"
#include "util/stats.h"

const struct mb_metric_desc bl_fp_metrics[] = {
	{ "false_positive_rate", "fraction" },
	{ NULL, NULL },
};

const struct mb_counter_desc bl_counters[] = {
	[BL_FALSE_HITS] = { "false_hits", "ops",
			    "lookups of values never inserted that the filter answered \"maybe\"" },
	{ NULL, NULL, NULL },
};

uint64_t bl_present_in(const struct bl_state *st, const struct bl_prod *bp, uint64_t start,
		       uint64_t count)
{
	uint64_t len = st->region_len, n = count / len * bp->nr_present;

	for (uint64_t k = 0, j = start % len; k < count % len; k++) {
		n += (bp->present[j / 8] >> (j % 8)) & 1;
		if (++j == len)
			j = 0;
	}
	return n;
}

/* Lookups of absent values in @c: all of bloom-false-positive's, the misses of the others. */
static uint64_t bl_absent(enum bl_kind kind, uint64_t ops, uint64_t hits)
{
	return kind == BL_FP ? ops : ops - hits;
}

void bl_measure(struct mb_run *run, struct mb_sample *s)
{
	struct bl_state *st = run->priv;
	uint64_t absent = bl_absent(st->kind, s->total.ops, s->total.hits);

	s->metric[0] = absent ? (double)s->total.counter[BL_FALSE_HITS] / (double)absent : NAN;
}

/*
 * Every answer is known: the regions were built from numbered values. A slot that ran q ops
 * from cursor c must have found exactly the inserted values among positions c..c+q-1.
 */
static void bl_check(struct mb_run *run, struct bl_state *st)
{
	struct mb_json *o = mb_json_child(mb_run_extra(run), "check");
	const struct mb_slot *slots = st->skel->bss->mb_slots;
	uint64_t ops = 0, hits = 0, expected = 0, errors = 0;
	bool cursors = true, ok;

	for (int p = 0; p < st->nr_prod; p++) {
		const struct bl_prod *bp = &st->prod[p];
		const struct mb_slot *s = &slots[p];

		ops += s->ops;
		hits += s->hits;
		errors += s->errors;
		/* From position 0 until the comparison, then the comparison's calls. */
		expected += bl_present_in(st, bp, 0, s->ops - bp->cmp_ops_a) + bp->cmp_expected_a;
		if (!bp->cmp_ran) {
			cursors &= s->cursor == s->ops % st->region_len;
		} else {
			const struct mb_slot *b = &slots[p + st->nr_prod];

			ops += b->ops;
			hits += b->hits;
			errors += b->errors;
			expected += bp->cmp_expected_b;
			cursors &= bp->cmp_start_ok && s->cursor == bp->cmp_cursor_a &&
				   b->ops == bp->cmp_ops_b && (!b->ops || b->cursor == bp->cmp_cursor_b);
		}
	}
	ok = hits == expected && !errors && cursors;
	mb_json_set_num(o, "lookups", (double)ops);
	mb_json_set_num(o, "hits", (double)hits);
	mb_json_set_num(o, "expected_hits", (double)expected);
	mb_json_set_num(o, "errors", (double)errors);
	mb_json_set_bool(o, "ok", ok);
	if (!ok)
		mb_run_warn(run, "wrong answers: %llu hits where %llu values were inserted, %llu errors%s",
			    (unsigned long long)hits, (unsigned long long)expected,
			    (unsigned long long)errors, cursors ? "" : ", key cursors out of step");
}

static void bl_false_positives(struct mb_run *run, struct bl_state *st)
{
	const struct bloom_args *a = run->args;
	struct mb_json *o = mb_json_child(mb_run_extra(run), "false_positive");
	uint64_t absent = 0, fh = 0, distinct = 0;
	double theory = mb_bloom_fp_rate(st->nr_bits, a->nr_hash_funcs, a->nr_entries), rate;

	/* The measured samples, as in the Summary line. */
	for (int i = 0; i < run->nr_samples; i++) {
		const struct mb_sample *s = &run->samples[i];

		if (s->warmup)
			continue;
		absent += bl_absent(st->kind, s->total.ops, s->total.hits);
		fh += s->total.counter[BL_FALSE_HITS];
	}
	for (int p = 0; p < st->nr_prod; p++)
		distinct += st->region_len - st->prod[p].nr_present;
	/* Lookups cycle through each region: repeats add no information about the rate. */
	if (distinct > absent)
		distinct = absent;
	rate = absent ? (double)fh / (double)absent : NAN;
	mb_json_set_num(o, "absent_lookups", (double)absent);
	mb_json_set_num(o, "false_hits", (double)fh);
	mb_json_set(o, "rate", isnan(rate) ? mb_json_null() : mb_json_number(rate));
	mb_json_set_num(o, "theoretical_rate", theory);
	mb_json_set(o, "rate_over_theory", isnan(rate) || theory <= 0 ? mb_json_null() :
		    mb_json_number(rate / theory));
	/*
	 * The binomial standard error of a rate measured over that many distinct values, to
	 * judge the distance between measurement and theory.
	 */
	mb_json_set_num(o, "distinct_absent_values", (double)distinct);
	mb_json_set(o, "theory_stderr", !distinct ? mb_json_null() :
		    mb_json_number(sqrt(theory * (1 - theory) / (double)distinct)));
}

static struct mb_json *stats_obj(const double *v, size_t n)
{
	struct mb_json *o = mb_json_object();
	struct mb_stats st;

	if (mb_stats_compute(v, n, &st))
		return mb_json_null();
	mb_json_set_num(o, "median", st.median);
	mb_json_set_num(o, "mean", st.mean);
	mb_json_set_num(o, "p5", st.p5);
	mb_json_set_num(o, "p95", st.p95);
	return o;
}

static void bl_speedup(struct mb_run *run, struct bl_state *st)
{
	const struct bloom_args *a = run->args;
	size_t n = 0, k = 0;
	double *with, *without, *ratio;
	struct mb_json *o;
	struct mb_stats rs;

	for (int p = 0; p < st->nr_prod; p++)
		n += st->prod[p].nr_rounds;
	if (!n) {
		mb_json_set(mb_run_extra(run), "speedup", mb_json_null());
		mb_run_warn(run, "no comparison round ran: no speed-up figure");
		return;
	}
	with = calloc(n, sizeof(double));
	without = calloc(n, sizeof(double));
	ratio = calloc(n, sizeof(double));
	if (!with || !without || !ratio)
		goto out;
	for (int p = 0; p < st->nr_prod; p++) {
		for (uint32_t r = 0; r < st->prod[p].nr_rounds; r++, k++) {
			with[k] = st->prod[p].rounds[r].with_ns;
			without[k] = st->prod[p].rounds[r].without_ns;
			ratio[k] = without[k] / with[k];
		}
	}
	if (mb_stats_compute(ratio, n, &rs))
		goto out;
	o = mb_json_child(mb_run_extra(run), "speedup");
	/* ratio: throughput with the filter over throughput without (> 1: the filter pays). */
	mb_json_set_num(o, "ratio", rs.median);
	mb_json_set_num(o, "percent", (rs.median - 1.0) * 100.0);
	mb_json_set_num(o, "ratio_p5", rs.p5);
	mb_json_set_num(o, "ratio_p95", rs.p95);
	mb_json_set(o, "with_ns_per_op", stats_obj(with, n));
	mb_json_set(o, "without_ns_per_op", stats_obj(without, n));
	mb_json_set_num(o, "rounds", (double)n);
	mb_json_set_num(o, "hit_ratio", a->hit_ratio);
	mb_json_set_str(o, "method", "after the samples, on each producer's CPU: rounds of A-B-B-A turns over consecutive values of its region, each turn 2 ms unmeasured then 5 ms measured (in-kernel ns/op); median of the per-round ratios");
out:
	free(with);
	free(without);
	free(ratio);
}

void bl_finish(struct mb_run *run)
{
	struct bl_state *st = run->priv;

	bl_check(run, st);
	if (st->kind == BL_FP || st->kind == BL_HASH_BLOOM)
		bl_false_positives(run, st);
	if (st->kind == BL_HASH_BLOOM)
		bl_speedup(run, st);
}
