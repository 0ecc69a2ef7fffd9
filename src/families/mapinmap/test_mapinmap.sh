#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# map-in-map-replace: every case of both outer types reads back as written, its distribution
# is ordered (min <= p50 <= p90 <= p99 <= max), the text's Summary lines are the JSON's cases,
# the CSV carries the figures, the verdict is there, bad input is one line (exit 2), and no
# program or map of the bench is left behind.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

mim_leftovers() {
	leftover_bpf '^(mb_mim|mim_)'
}
STALE0=$(mim_leftovers)
R='.results[0]'
N=20
# A case stops at --max_case_ms (2 s by default): 20 grace periods can take longer than that
# on a loaded machine, so these runs, which must make all N calls, give it a minute.
CAP=(--max_case_ms 60000)

for t in $(san_pick array_of_maps hash_of_maps -- array_of_maps); do
	# One run: the text on stdout, the JSON to a file.
	expect_rc 0 "$t: text and JSON" map-in-map-replace --map_type "$t" --nr_updates $N \
		"${CAP[@]}" -o "$TMP/$t.json"
	check "$t: one Summary line per case, each $N calls" \
		[ "$(grep -cE "^Summary: [a-z-]+: $N calls, mean [0-9.]+ us, p50 [0-9.]+ us, p90 [0-9.]+ us, p99 [0-9.]+ us, max [0-9.]+ us$" "$OUT")" -ge 5 ]
	check "$t: a Verdict line" grep -q '^Verdict: ' "$OUT"
	schema_check "$TMP/$t.json"
	jq_check "$t: every case made and read back its $N calls" "$TMP/$t.json" \
		"[$R.extra.cases[] | .calls == $N and .verified == $N] | all"
	jq_check "$t: control, replace, insert and delete ran, and grace-period or why not" \
		"$TMP/$t.json" "[$R.extra.cases[].case] as \$c |
		 ([\"control\", \"replace\", \"insert\", \"delete\"] | all(. as \$n | \$c | index(\$n))) and
		 ((\$c | index(\"grace-period\")) or ($R.extra.grace_period_not_run | type == \"string\"))"
	jq_check "$t: each distribution is ordered" "$TMP/$t.json" \
		"[$R.extra.cases[] | .min_us <= .p50_us and .p50_us <= .p90_us and
		  .p90_us <= .p99_us and .p99_us <= .max_us and .min_us <= .mean_us and
		  .mean_us <= .max_us and .min_us > 0] | all"
	jq_check "$t: the old inner maps' ids are gone after replace and delete" "$TMP/$t.json" \
		"[$R.extra.cases[] | select(.case == \"replace\" or .case == \"delete\") |
		  .old_ids_gone == $N] | all"
	jq_check "$t: the control never sleeps; the verdict is a sentence" "$TMP/$t.json" \
		"($R.extra.cases[] | select(.case == \"control\") | .sleeps_per_call == 0) and
		 ($R.extra.verdict.sentence | length > 20)"
	jq_check "$t: waits counted, or why not" "$TMP/$t.json" \
		"($R.extra.cases[] | select(.case == \"replace\") | .synchronize_rcu) != null or
		 ($R.extra.waits_not_counted | type == \"string\")"
	jq_check "$t: the reader read the outer map while its case ran, or why not" "$TMP/$t.json" \
		"($R.extra.cases[] | select(.case == \"replace-reader\") | .reader.runs > 0 and
		  .reader.found > 0) // ($R.extra.reader_not_run | type == \"string\")"
done

# The figures are the Summary lines' numbers, in the JSON and in the CSV.
run map-in-map-replace --nr_updates 20 --reader_us 0 --format csv -o "$TMP/m.csv"
check "CSV run exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "the CSV has the p99 figure of replace" grep -q '^map-in-map-replace,.*,figure,.*,p99,us,.*case=replace' "$TMP/m.csv"
check "--reader_us 0: no replace-reader line" bash -c "! grep -q '^Summary: replace-reader' '$OUT'"
if [ "$E2E_SAN" != 1 ]; then
	cp "$OUT" "$TMP/m.txt"
	check "the CSV's figures are what the text printed" \
		bash -c "/usr/bin/python3 \"$ROOT/tests/e2e/figures_check.py\" \"$TMP/m.txt\" \"$TMP/m.csv\" >/dev/null"
	run map-in-map-replace --nr_updates 20 --inner_type hash --map_type hash_of_maps \
		--max_entries 3 --reader_us 50
	check "hash_of_maps of hash maps, 3 slots, a short reader: exits 0 (got $rc)" [ "$rc" -eq 0 ]
	expect_rc 0 "--max_case_ms 1 stops each case early" map-in-map-replace --max_case_ms 1 \
		--nr_updates 100000 --reader_us 0
	check "a capped case says so" grep -q 'stopped at --max_case_ms' "$OUT"
fi

# Bad input: one line, exit 2, nothing made.
expect_usage "--map_type array: must be one of" map-in-map-replace --map_type array
expect_usage "--inner_type array_of_maps: must be one of" map-in-map-replace --inner_type array_of_maps
expect_usage "--max_entries 0: must be 1..65536" map-in-map-replace --max_entries 0
expect_usage "--nr_updates 0: must be 1..1000000" map-in-map-replace --nr_updates 0
expect_usage "--reader_us 100001: must be 0..100000" map-in-map-replace --reader_us 100001
expect_usage "map-in-map-replace" -p2 map-in-map-replace
if [ "$(nproc)" -ge 2 ]; then
	run -a --prod-affinity 1 map-in-map-replace --nr_updates 5 --format json
	jq_check "--prod-affinity 1: the updater on CPU 1, the reader on CPU 0" "$OUT" \
		"$R.extra.cpus.updater == 1 and $R.extra.cpus.reader == 0"
fi

check "no program or map of the bench left behind" [ "$(mim_leftovers)" -le "$STALE0" ]
finish
