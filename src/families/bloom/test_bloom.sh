#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Bloom filter family: every bench briefly, the kernel's scrapers, exact answers, the
# false-positive rate against hash count and theory, the speed-up, and every bad input.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'

# Unheld BPF objects with this family's names (other benches may run on the machine meanwhile,
# from other builds: their objects are not this test's business), counted once their deferred
# release has had its time (leftover_bpf).
bloom_leftovers() {
	leftover_bpf '^(mb_bloom(_lookup|_update|_fp|_fill)?|mb_hash_(no)?bloom|mb_bl_(hash|vals|query))$'
}
before=$(bloom_leftovers)

# ---- each bench runs, kernel-style text ----
for b in bloom-lookup bloom-update hashmap-without-bloom hashmap-with-bloom; do
	expect_rc 0 "$b" "${FAST[@]}" "$b"
	check "$b prints W+D Iter lines" [ "$(grep -c '^Iter ' "$OUT")" -eq 2 ]
	check "$b ends with the Summary line" bash -c "tail -n1 $OUT | grep -q '^Summary: hits'"
	total=$(scrape_total "$OUT")
	check "$b: run_common.sh total scraper ($total)" \
		bash -c "[[ '$total' =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+M/s$ ]]"
done
check "hashmap-with-bloom prints the speed-up" grep -qE "^Speed-up: with bloom [0-9.]+ ns/op, without [0-9.]+ ns/op: [0-9.]+x" "$OUT"
check "hashmap-with-bloom prints measured and theoretical false positives" \
	grep -qE "^False positives: [0-9.]+ % measured .* [0-9.]+ % in theory" "$OUT"

expect_rc 0 "bloom-false-positive" "${FAST[@]}" bloom-false-positive
check "false-positive progress wording" \
	grep -qE "^Iter   0 \( *-?[0-9.]+us\): [0-9]+ false hits of [0-9]+ total operations. Percentage = [0-9]+\.[0-9]{2} %$" "$OUT"
pct=$(scrape_percentage "$OUT")
check "run_common.sh percentage scraper ($pct)" bash -c "[[ '$pct' =~ ^[0-9]+\.[0-9]+$ ]]"
check "the filter line gives bits and theory" \
	grep -qE "^Filter: 8192 bits \(1024 bytes, 8.19 bits/entry\) for 1000 entries, 3 hash functions" "$OUT"
expect_rc 0 "-q keeps only Iter and Summary" "${FAST[@]}" -q bloom-false-positive
check "-q drops the bloom lines" bash -c "! grep -qE '^(Filter|False positives):' $OUT"

# ---- JSON: runner, exact answers, filter size confirmed by the kernel ----
for b in bloom-lookup bloom-update bloom-false-positive hashmap-without-bloom hashmap-with-bloom; do
	expect_rc 0 "$b json" "${FAST[@]}" "$b" --nr_entries 5000 --format json
	jq_check "$b: in-kernel loop, every answer right" "$OUT" \
		"$R.runner == \"kernel-loop\" and $R.extra.check.ok and $R.extra.check.errors == 0 and $R.extra.check.lookups > 0"
	# No warning of a defect; one of the machine exactly when the figures show it.
	warnings_check "$b: warnings are measured machine conditions only" "$OUT"
	schema_check "$OUT"
done
cp "$OUT" "$TMP/hwb.json"
jq_check "filter bits from the kernel's rule (5000 x 3 -> 21000 -> 32768), confirmed by memlock" \
	"$TMP/hwb.json" "$R.extra.filter.nr_bits == 32768 and $R.extra.filter.nr_bits_confirmed"
jq_check "hashmap-with-bloom reports the speed-up in the same result" "$TMP/hwb.json" \
	"$R.extra.speedup.ratio > 0 and $R.extra.speedup.rounds > 0 and $R.extra.speedup.with_ns_per_op.median > 0 and $R.extra.speedup.without_ns_per_op.median > 0"
jq_check "speed-up percent is the ratio's" "$TMP/hwb.json" \
	"($R.extra.speedup.percent - ($R.extra.speedup.ratio - 1) * 100 | fabs) < 1e-9"
jq_check "hashmap-with-bloom has a per-sample false-positive metric" "$TMP/hwb.json" \
	"[$R.samples[].metrics.false_positive_rate | . > 0 and . < 1] | all"
jq_check "default hit ratio 0: every lookup misses" "$TMP/hwb.json" \
	"$R.summary.totals.hits == 0 and $R.summary.totals.misses == $R.summary.totals.ops"

# --hit_ratio: the share of inserted values among the lookups, checked answer by answer.
expect_rc 0 "hashmap-with-bloom --hit_ratio 0.5 -p2" "${FAST[@]}" -p2 -a hashmap-with-bloom \
	--nr_entries 5000 --hit_ratio 0.5 --format json
jq_check "queries have the hit ratio" "$OUT" "($R.extra.queries.hit_ratio - 0.5 | fabs) < 0.001"
jq_check "about half the lookups hit (exact count checked)" "$OUT" \
	"$R.extra.check.ok and ($R.summary.totals.hits / $R.summary.totals.ops - 0.5 | fabs) < 0.05"
jq_check "two producers, both measured" "$OUT" "([$R.producers[].throughput.mean > 0] | all) and ($R.producers | length) == 2"
expect_rc 0 "hashmap-without-bloom --hit_ratio 1" "${FAST[@]}" hashmap-without-bloom \
	--hit_ratio 1 --format json
jq_check "all hits, no false-positive figure without a filter" "$OUT" \
	"$R.summary.totals.misses == 0 and $R.extra.check.ok and ($R.extra | has(\"false_positive\") | not) and
	 $R.summary.totals.counters == {}"

# ---- value sizes: 256 works (the kernel's u8 wraps it to 0), 2 with the uniqueness limit ----
expect_rc 0 "--value_size 256" "${FAST[@]}" bloom-lookup --value_size 256 --format json
jq_check "value_size 256 is used" "$OUT" \
	"$R.params.value_size == 256 and $R.extra.filter.value_size == 256 and $R.extra.check.ok"
expect_rc 0 "hashmap-with-bloom --value_size 256" "${FAST[@]}" hashmap-with-bloom \
	--value_size 256 --hit_ratio 0.3 --format json
jq_check "256-byte keys: answers right" "$OUT" "$R.extra.check.ok"
expect_rc 0 "--value_size 2, all 65536 values inserted, lookups" "${FAST[@]}" bloom-update \
	--value_size 2 --nr_entries 65536 --format json
jq_check "every 2-byte value inserted and found" "$OUT" "$R.extra.check.ok"
expect_rc 0 "--value_size 2 false positives" "${FAST[@]}" bloom-false-positive \
	--value_size 2 --nr_entries 30000 --format json
jq_check "2-byte values: false positives near theory" "$OUT" \
	"$R.extra.false_positive.rate_over_theory > 0.8 and $R.extra.false_positive.rate_over_theory < 1.25"

# ---- false positives fall as hash functions rise, and follow the theory ----
# 188000 entries: each step from k to k+1 lowers the theory by 20 % or more (bit counts are
# rounded to powers of two), and 188000 distinct absent values make that step > 7 sigma.
prev=
for k in 1 2 3 4 5; do
	run "${FAST[@]}" bloom-false-positive --nr_entries 188000 --nr_hash_funcs "$k" --format json
	cp "$OUT" "$TMP/fp$k.json"
	rate=$(jq "$R.extra.false_positive.rate" "$OUT")
	jq_check "k=$k: measured rate within 0.8..1.25 of the theory ($rate)" "$OUT" \
		"$R.extra.false_positive.rate_over_theory > 0.8 and $R.extra.false_positive.rate_over_theory < 1.25"
	jq_check "k=$k: the Summary percentage is the measured rate" "$OUT" \
		"($R.summary.totals.counters.false_hits / $R.summary.totals.ops - $R.extra.false_positive.rate | fabs) < 1e-12"
	if [ -n "$prev" ]; then
		check "k=$k: rate $rate below 0.95 x k=$((k - 1))'s $prev" \
			awk "BEGIN { exit !($rate < 0.95 * $prev) }"
	fi
	[ "$k" -eq 1 ] && first=$rate
	prev=$rate
done
check "k=5 has under a tenth of k=1's false positives ($prev vs $first)" \
	awk "BEGIN { exit !($prev < $first / 10) }"
# false_hits is the family's own counter: declared by the bench, summed over its samples.
jq_check "false_hits is bloom-false-positive's counter, the samples' sum in its totals" \
	"$TMP/fp1.json" \
	"($R.summary.counters | keys) == [\"false_hits\"] and
	 ([$R.samples[] | select(.warmup | not) | .counters.false_hits] | add) ==
	 $R.summary.totals.counters.false_hits and $R.summary.headline.counts == \"ops\""

# ---- bad input: one line, exit 2, nothing run ----
expect_usage "--nr_hash_funcs 0: must be 1..15" bloom-lookup --nr_hash_funcs 0
expect_usage "--nr_hash_funcs 16: must be 1..15" hashmap-with-bloom --nr_hash_funcs 16
expect_usage "--value_size 1: must be 2..256" bloom-update --value_size 1
expect_usage "--value_size 257: must be 2..256" bloom-false-positive --value_size 257
expect_usage "--nr_entries 0: must be 1..4294967295" hashmap-without-bloom --nr_entries 0
expect_usage "--nr_entries 4294967296: must be 1..4294967295" bloom-lookup --nr_entries 4294967296
expect_usage "--nr_entries abc" bloom-lookup --nr_entries abc
expect_usage "--nr_entries 65537: must be 1..65536 with --value_size 2 (not enough unique values)" \
	bloom-lookup --value_size 2 --nr_entries 65537
expect_usage "--nr_entries 16777217: must be 1..16777216 with --value_size 3" \
	hashmap-with-bloom --value_size 3 --nr_entries 16777217 --hit_ratio 1
expect_usage "--nr_entries 65536: must be 1..65535 with --value_size 2 (every value is inserted" \
	bloom-false-positive --value_size 2 --nr_entries 65536
expect_usage "or use --hit_ratio 1" hashmap-with-bloom --value_size 2 --nr_entries 65536
expect_usage "--hit_ratio 1.5: must be 0..1" hashmap-with-bloom --hit_ratio 1.5
expect_usage "--hit_ratio -0.1: must be 0..1" hashmap-without-bloom --hit_ratio -0.1
expect_usage "--hit_ratio: not an option of bloom-lookup" bloom-lookup --hit_ratio 0.5
expect_usage "-p/--producers 129: must be 1..128" -p129 hashmap-with-bloom
for b in bloom-lookup bloom-update bloom-false-positive hashmap-without-bloom hashmap-with-bloom; do
	expect_usage "-c/--consumers 1: this bench has no consumers" -c1 "$b"
done

# ---- SIGINT in the middle: exit 130, nothing left behind ----
interrupt_run -w0 -d100 --interval_ms 100 hashmap-with-bloom --nr_entries 100000
check "no bloom BPF program or map left behind" [ "$(bloom_leftovers)" -le "$before" ]

finish
