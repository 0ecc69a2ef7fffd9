#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --latency: ops timed one by one in the in-kernel loop, and on the syscall and batch paths in the
# producer's thread. The percentiles are ordered, the count
# is the measured samples' ops over the sampling rate (to within the calls in flight when a
# sample was read), text, JSON and CSV say the same, and where nothing can be timed the result
# says why; the benches whose op is empty, and --loop bpf_loop, refuse it.
. "$(dirname "$0")/lib.sh"

SHORT=(-w1 -d2 --interval_ms 200)
JSON=$TMP/lat.json
CSV=$TMP/lat.csv

expect_rc 0 "map-lookup hash --latency" "${SHORT[@]}" --latency map-lookup --map_type hash \
	-o "$JSON" -o "$CSV"
cp "$JSON" "$TMP/kernel.json"
schema_check "$JSON"
jq_check "ops were timed, and nothing says they were not" "$JSON" \
	'.results[0].latency_ns | .why == null and .count > 0 and .every == 8192 and .ops_per_timed == 1'
jq_check "p50 <= p90 <= p99 <= p999 <= max, all above 0" "$JSON" \
	'.results[0].latency_ns | 0 < .p50 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .p999 and .p999 <= .max'
jq_check "the timer's own cost is measured" "$JSON" '.results[0].latency_ns.timer_ns > 0'
# The distribution itself: its buckets, lowest first, add up to count, and each percentile
# lies in the bucket where the running count reaches its rank (ceil(p/100 x count)).
BUCKETS_OK='.buckets as $b | .count as $n | ($b | length) > 0 and ([$b[][2]] | add) == $n and
	 ([range(1; $b | length) | $b[.][0] > $b[. - 1][1]] | all) and ([$b[] | .[0] <= .[1]] | all) and
	 ([[[50, .p50], [90, .p90], [99, .p99], [99.9, .p999]][] | .[0] as $p | .[1] as $v
	  | ([$p / 100 * $n | ceil, 1] | max) as $rank
	  | [foreach $b[] as $r (0; . + $r[2]; [., $r])] | map(select(.[0] >= $rank))[0][1]
	  | .[0] <= $v and $v <= .[1]] | all)'
jq_check "the buckets add up to count and hold the percentiles they name" "$JSON" \
	".results[0].latency_ns | $BUCKETS_OK"
# One iteration in 8192 (every) of the measured samples, on average: the gaps are drawn from
# 4096 .. 12288, so n timed ops span n * 8192 ops to within a standard deviation of
# 0.29 * sqrt(n) gaps (six allowed); a sample's histogram is read a moment after its counters,
# so each of the two ends may be off by the timed ops of one call in flight, and the last one
# to three ops of a call (run one by one after the steps of four) are never timed.
jq_check "count: the measured ops over every, within a call at each end" "$JSON" \
	'.results[0] | .latency_ns.every as $k | [.samples[] | select(.warmup | not)] as $m
	 | ($m | map(.ops) | add) as $ops | ($m | map(.calls) | add) as $calls
	 | (.latency_ns.count - $ops / $k | fabs)
	   <= 2 * ($ops / $calls) / $k + 3 * $calls / $k + 2 + 1.75 * ($ops / $k | sqrt)'
jq_check "the CSV's latency row has the JSON's figures" "$JSON" \
	"$(printf '.results[0].latency_ns | .count == %s and .p99 == %s' \
		"$(awk -F, '$3 == "latency" { print $(NF - 1) }' "$CSV")" \
		"$(awk -F, '$3 == "latency" { print $(NF - 4) }' "$CSV")")"
check "the CSV's header ends with the latency columns" \
	grep -q ',labels,latency_p50,latency_p90,latency_p99,latency_p999,latency_max,latency_count,timer_ns$' "$CSV"
check "every CSV row has the header's columns" \
	awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$CSV"

# Text: the Per-op line before the Summary, which stays the last line.
expect_rc 0 "map-lookup --latency, text" "${SHORT[@]}" --latency map-lookup
check "the Per-op line gives the percentiles and the timer" \
	grep -qE '^Per-op: p50 [0-9.]+, p90 [0-9.]+, p99 [0-9.]+, p99\.9 [0-9.]+, max [0-9.]+ ns over [0-9]+ timed ops \(1 in 8192\); timer [0-9.]+ ns, included$' "$OUT"
check "the Summary line is still the last" bash -c "tail -n1 '$OUT' | grep -q '^Summary:'"

# Without --latency: no key, no line, no columns.
expect_rc 0 "map-lookup without --latency" -w0 -d1 --interval_ms 100 map-lookup -o "$JSON" -o "$CSV"
cp "$JSON" "$TMP/plain.json"
jq_check "no latency_ns without --latency" "$JSON" '.results[0] | has("latency_ns") | not'
check "no latency columns without --latency" bash -c "head -n1 '$CSV' | grep -q ',labels\$'"

# Nothing to time: the result says why.
MAPBENCH_REFUSE_MAY_GOTO=1 "$MB" -w0 -d1 --interval_ms 100 --latency map-lookup \
	--format json >"$OUT" 2>"$ERR"
check "bpf_loop fallback: the run still works" [ $? -eq 0 ]
cp "$OUT" "$JSON"
schema_check "$JSON"
MAPBENCH_REFUSE_MAY_GOTO=1 "$MB" -w0 -d1 --interval_ms 100 --latency map-lookup >"$OUT" 2>"$ERR"
check "bpf_loop fallback, text: the Per-op line says not available, and why" \
	grep -q '^Per-op: not available: ops are timed in the may_goto loop only' "$OUT"
jq_check "bpf_loop fallback: no op timed, and why" "$JSON" \
	'.results[0].latency_ns | .count == 0 and .p50 == null and .buckets == [] and
	 (.why | test("may_goto loop only"))'
# The syscall path: one op in 64 timed with the wall clock in the producer's thread.
expect_rc 0 "map-lookup --path syscall --latency" "${SHORT[@]}" --latency map-lookup \
	--path syscall -o "$JSON" -o "$CSV"
cp "$JSON" "$TMP/syscall.json"
schema_check "$JSON"
jq_check "syscall path: ops timed one in 64, ordered percentiles, the timer measured" "$JSON" \
	'.results[0].latency_ns | .why == null and .every == 64 and .ops_per_timed == 1 and
	 0 < .p50 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .p999 and .p999 <= .max and
	 .timer_ns > 0'
jq_check "syscall path: the buckets add up to count and hold the percentiles" "$JSON" \
	".results[0].latency_ns | $BUCKETS_OK"
# Counters are published every 256 ops and the histograms read a moment after them: each end
# of the measured samples may be off by a few timed ops, never by a share of them.
jq_check "syscall path: count is the measured ops over 64" "$JSON" \
	'.results[0] | ([.samples[] | select(.warmup | not) | .ops] | add) as $ops
	 | (.latency_ns.count - $ops / 64 | fabs) <= 0.02 * $ops / 64 + 16'
jq_check "syscall path: the CSV's latency row has the JSON's count" "$JSON" \
	"$(printf '.results[0].latency_ns.count == %s' \
		"$(awk -F, '$3 == "latency" { print $(NF - 1) }' "$CSV")")"
expect_rc 0 "map-mixed --path syscall --latency, text" -w0 -d1 --interval_ms 100 --latency \
	map-mixed --path syscall
check "map-mixed: its three calls timed together, one iteration in 64" \
	grep -qE '^Per-op: p50 [0-9.]+, .* over [0-9]+ timed iterations \(1 in 64\); timer [0-9.]+ ns, included$' "$OUT"
# The batch path: one batch call in 8 timed whole (its 256 elements), from user space.
expect_rc 0 "map-lookup --path batch --latency" "${SHORT[@]}" --latency map-lookup \
	--path batch -o "$JSON"
schema_check "$JSON"
jq_check "batch path: calls timed one in 8, ordered percentiles, the timer measured" "$JSON" \
	'.results[0].latency_ns | .why == null and .every == 8 and .ops_per_timed == 256 and
	 0 < .p50 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .p999 and .p999 <= .max and
	 .timer_ns > 0'
jq_check "batch path: the buckets add up to count and hold the percentiles" "$JSON" \
	".results[0].latency_ns | $BUCKETS_OK"
# n timed calls span n gaps of 4 .. 12 calls, 8 on average (a standard deviation of
# 0.32 sqrt(n) timed calls over them; six allowed), and each end of the measured samples may
# be off by a few calls (counters published after each call, histograms read a moment later).
jq_check "batch path: count is the measured calls over 8" "$JSON" \
	'.results[0] | ([.samples[] | select(.warmup | not) | .calls] | add) as $calls
	 | (.latency_ns.count - $calls / 8 | fabs) <= 8 + 2 * ($calls / 8 | sqrt)'
expect_rc 0 "map-update --path batch --latency, text" -w0 -d1 --interval_ms 100 --latency \
	map-update --path batch --batch_size 64
check "the Per-op line says what was timed: batch calls of 64 ops, one in 8" \
	grep -qE '^Per-op: p50 [0-9.]+, .* over [0-9]+ timed batch calls of 64 ops \(1 in 8\); timer [0-9.]+ ns, included$' "$OUT"

# ---- plot --latency: the distributions of the runs above ----
# The script (-v prints it) plots a data block per result: its CDF never falls, stays in 0..1
# and ends at 1.
CDF_OK='/^\$L[0-9]+ << EOD$/ { inb = 1; n++; px = -1; py = -1; next }
	/^EOD$/ { if (py != 1) bad = 1; inb = 0; next }
	inb { if ($1 < px || $2 < py || $2 < 0 || $2 > 1) bad = 1; px = $1; py = $2 }
	END { exit bad || n != 2 }'
expect_rc 0 "plot --latency: two runs' CDFs" plot --latency -v "$TMP/kernel.json" \
	"$TMP/syscall.json" -o "$TMP/lat.svg"
check "plot --latency: a valid SVG" /usr/bin/python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(not r.tag.endswith('svg'))" "$TMP/lat.svg"
check "plot --latency: a line per run, titled by what differs" \
	grep -q 'map-lookup path=kernel (kernel.json), [0-9]* timed' "$TMP/lat.svg"
check "plot --latency: each CDF rises to 1 and never falls" awk "$CDF_OK" "$ERR"
check "plot --latency: each CDF's last point is the top of its last bucket" bash -c "
	[ \"\$(awk '/^EOD\$/ && p != \"\" { print p } { p = /^[0-9]/ ? \$1 : \"\" }' '$ERR' | tr '\n' ' ')\" = \
	  \"\$(jq -r '.results[0].latency_ns.buckets[-1][1]' '$TMP/kernel.json' '$TMP/syscall.json' | tr '\n' ' ')\" ]"
expect_rc 0 "plot --latency --hist as PNG" plot --latency --hist "$TMP/kernel.json" -o "$TMP/lat.png"
check "plot --latency --hist: a PNG" bash -c "head -c 8 '$TMP/lat.png' | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'"
expect_rc 0 "plot --latency with a run without it" plot --latency "$TMP/plain.json" \
	"$TMP/kernel.json" -o "$TMP/lat2.svg"
check "the run without latency_ns: one line that says so" bash -c \
	"[ \$(wc -l <'$ERR') -eq 2 ] && grep -q 'plain.json: result 1 (map-lookup): no latency_ns: it ran without --latency; not drawn' '$ERR'"
run plot --latency "$TMP/plain.json" -o "$TMP/lat3.svg"
check "no result with latency_ns: exit 2, says so, no chart" bash -c \
	"[ $rc -eq 2 ] && grep -q 'no result has a latency distribution to draw' '$ERR' && [ ! -e '$TMP/lat3.svg' ]"
expect_usage "plot: --hist: draws a latency distribution: only with --latency" plot \
	"$TMP/kernel.json" -o "$TMP/x.svg" --hist
expect_usage "plot: --cdf and --hist: one chart at a time" plot --latency --cdf --hist \
	"$TMP/kernel.json" -o "$TMP/x.svg"
expect_usage "plot: --x: an option of a sweep's chart, not of --latency's" plot --latency \
	--x nr_entries "$TMP/kernel.json" -o "$TMP/x.svg"

expect_usage "--latency: this bench's op is empty" -w0 -d1 --latency bpf-noop
expect_usage "--latency: ops are timed in the may_goto loop only" -w0 -d1 --latency \
	--loop bpf_loop map-lookup

finish
