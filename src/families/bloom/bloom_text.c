// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The bloom family's text lines: the filter, the false positives, the speed-up and a failed
 * check before the kernel's Summary line (not with -q), from what bloom_result.c stored in
 * run->extra.
 */
#include <math.h>
#include <stdio.h>

#include "bloom.h"
#include "core/runner.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"

static double num(const struct mb_json *o, const char *key)
{
	return mb_json_num(mb_json_get(o, key), NAN);
}

static void bl_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *o;

	if (mb_log_quiet())
		return;
	o = mb_json_get(run->extra, "filter");
	if (o)
		fprintf(f, "Filter: %.0f bits (%.0f bytes, %.2f bits/entry) for %.0f entries, %.0f hash functions (optimal %.1f): theoretical false-positive rate %.4f %%\n",
			num(o, "nr_bits"), num(o, "bitset_bytes"), num(o, "bits_per_entry"),
			num(o, "nr_entries"), num(o, "nr_hash_funcs"), num(o, "optimal_hash_funcs"),
			num(o, "theoretical_fp_rate") * 100);
	o = mb_json_get(run->extra, "false_positive");
	if (o && mb_json_is(mb_json_get(o, "rate"), MB_JSON_NUMBER))
		fprintf(f, "False positives: %.4f %% measured (%.0f of %.0f lookups of absent values), %.4f %% in theory (measured / theory %.3f)\n",
			num(o, "rate") * 100, num(o, "false_hits"), num(o, "absent_lookups"),
			num(o, "theoretical_rate") * 100, num(o, "rate_over_theory"));
	o = mb_json_get(run->extra, "speedup");
	if (mb_json_is(o, MB_JSON_OBJECT))
		fprintf(f, "Speed-up: with bloom %.3f ns/op, without %.3f ns/op: %.3fx (%+.1f %%) at hit ratio %.2f, median of %.0f interleaved rounds (p5 %.3fx, p95 %.3fx)\n",
			num(mb_json_get(o, "with_ns_per_op"), "median"),
			num(mb_json_get(o, "without_ns_per_op"), "median"), num(o, "ratio"),
			num(o, "percent"), num(o, "hit_ratio"), num(o, "rounds"),
			num(o, "ratio_p5"), num(o, "ratio_p95"));
	o = mb_json_get(run->extra, "check");
	if (o && !mb_json_truthy(mb_json_get(o, "ok")))
		fprintf(f, "Check: FAILED: %.0f hits where %.0f inserted values were looked up, %.0f errors\n",
			num(o, "hits"), num(o, "expected_hits"), num(o, "errors"));
}

/* The kernel's reporters with the bloom lines before their Summary. */
MB_TEXT_WITH_NOTES(bl_text_hits_drops, mb_text_hits_drops, bl_notes);
MB_TEXT_WITH_NOTES(bl_text_false_hits, mb_text_false_hits, bl_notes);
