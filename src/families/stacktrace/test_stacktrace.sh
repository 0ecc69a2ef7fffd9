#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# stacktrace family: stack-trace-get-stackid briefly on the kernel stack (text, JSON and CSV of
# one run), with more traces than buckets (-EEXIST without reuse, none with it), on the user
# stack; the ops read back and the map walked; every bad input; nothing left behind.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'
B=stack-trace-get-stackid

st_leftovers() {
	leftover_bpf '^mb_st_'
}
before=$(st_leftovers)

# ---- three traces of four frames in 1024 buckets: every call returns an id ----
expect_rc 0 "$B kernel stack, text, JSON and CSV" "${FAST[@]}" $B --stacks 3 --depth 4 \
	-o "$TMP/k.json" -o "$TMP/k.csv"
check "$B prints W+D Iter lines and the hits/drops Summary line" bash -c \
	"[ \$(grep -c '^Iter ' $OUT) -eq 2 ] && tail -n1 $OUT | grep -q '^Summary: hits'"
check "the notes name the map, the ops read back and the map walked" bash -c \
	"grep -qE '^Map: stack_trace, 1024 ids \(1024 buckets\), 4 frames kept; kernel stack, 3 distinct traces, no reuse' $OUT &&
	 grep -qE '^Ops read back: [1-9][0-9]* calls, [1-9][0-9]* ids returned, 0 -EEXIST, 0 -ENOMEM, 0 errors$' $OUT &&
	 grep -qE '^Map walked: 3 stack ids, [0-9.]+ frames each on average, [1-4] at most$' $OUT"
jq_check "$B: in-kernel loop, every call returned an id, three ids of at most four frames" \
	"$TMP/k.json" "$R.runner == \"kernel-loop\" and $R.extra.map.value_size == 32 and
	 $R.extra.ops_checked.ops > 0 and
	 $R.extra.ops_checked.ids_returned == $R.extra.ops_checked.ops and
	 $R.extra.ops_checked.ops >= $R.summary.totals.ops and
	 $R.summary.totals.hits == $R.summary.totals.ops and
	 $R.extra.map_walk.stack_ids == 3 and $R.extra.map_walk.frames_max <= 4 and
	 $R.summary.latency_kernel.mean > 0"
warnings_check "$B: warnings are measured machine conditions only" "$TMP/k.json"
schema_check "$TMP/k.json"
check "CSV: a header, and two sample rows in which every call returned an id" \
	bash -c "head -n1 $TMP/k.csv | grep -q '^bench,params,kind,iter,warmup,elapsed_ns,ops,hits,misses,' &&
		 [ \$(awk -F, '\$1 == \"$B\" && \$3 == \"sample\" && \$7 > 0 && \$8 == \$7 && \$9 == 0' \
			$TMP/k.csv | wc -l) -eq 2 ]"

# ---- four traces in two buckets: two share one, so without reuse -EEXIST ----
expect_rc 0 "$B collisions" "${FAST[@]}" $B --stacks 4 --max_entries 2 --format json
jq_check "$B: four traces, two buckets: ids and -EEXIST add up to the calls, no -ENOMEM" "$OUT" \
	"$R.extra.ops_checked.eexist > 0 and $R.extra.ops_checked.enomem == 0 and
	 $R.extra.ops_checked.ids_returned + $R.extra.ops_checked.eexist ==
	 $R.extra.ops_checked.ops and $R.summary.totals.misses > 0 and
	 ($R.extra.map_walk.stack_ids | . >= 1 and . <= 2)"

if [ "$E2E_SAN" != 1 ]; then
	# With reuse a collision replaces the bucket's trace (or, the map full, -ENOMEM).
	expect_rc 0 "$B collisions --reuse" "${FAST[@]}" $B --stacks 4 --max_entries 2 --reuse \
		--format json
	jq_check "$B --reuse: no -EEXIST; ids and -ENOMEM add up to the calls" "$OUT" \
		"$R.extra.map.reuse_stackid and $R.extra.ops_checked.eexist == 0 and
		 $R.extra.ops_checked.ids_returned + $R.extra.ops_checked.enomem ==
		 $R.extra.ops_checked.ops and $R.summary.totals.counters.enomem ==
		 ($R.summary.totals.ops - $R.summary.totals.hits)"
	# The producer's user stack: frames kept are at most --depth.
	expect_rc 0 "$B --user" "${FAST[@]}" $B --user --depth 8 --max_entries 64 --format json
	jq_check "$B --user: ids returned, the map holds user traces of at most 8 frames" "$OUT" \
		"$R.extra.map.stack == \"user\" and $R.extra.ops_checked.ids_returned > 0 and
		 $R.extra.ops_checked.errors == 0 and
		 ($R.extra.map_walk.stack_ids | . >= 1 and . <= 64) and
		 $R.extra.map_walk.frames_max <= 8"
fi

# ---- bad input: one line, exit 2 ----
expect_usage "--depth 0: must be 1..127" $B --depth 0
expect_usage "--depth 128: must be 1..127" $B --depth 128
expect_usage "--stacks 17: must be 1..16" $B --stacks 17
expect_usage "--max_entries 0: must be 1..65536" $B --max_entries 0
expect_usage "--max_entries 65537: must be 1..65536" $B --max_entries 65537

check "no stacktrace BPF program or map left behind" [ "$(st_leftovers)" -le "$before" ]

finish
