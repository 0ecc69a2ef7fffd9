#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Sweeps, presets, compare, plot, baselines and the noise preflight.
. "$(dirname "$0")/lib.sh"

CMP_SCHEMA=$ROOT/docs/comparison.schema.json

# ---- sweep ----

expect_rc 0 "small sweep" sweep bpf-loop --param nr_loops=1,10 "${FAST[@]}" -o "$TMP/s.json"
schema_check "$TMP/s.json"
jq_check "one result per point, in order" "$TMP/s.json" '[.results[].params.nr_loops] == [1, 10]'
jq_check "sweep object: params and points" "$TMP/s.json" \
	'.sweep.params == [{"name": "nr_loops", "scope": "bench", "values": [1, 10]}] and ([.sweep.points[].result] == [0, 1]) and .sweep.preset == null'
jq_check "every point measured" "$TMP/s.json" '[.results[].summary.samples] == [2, 2]'
check "table on stdout" grep -qE "^nr_loops +M ops/s +stddev +ns/op +CV % +status" "$OUT"
check "a table row per point" [ "$(grep -cE '^ +(1|10) +[0-9]' "$OUT")" -eq 2 ]
check "no kernel-style lines in the table" bash -c "! grep -q '^Iter ' $OUT"
check "a progress line per point on stderr" grep -q "^\[2/2\] bpf-loop nr_loops=10: " "$ERR"
check "the sweep's size and time up front" grep -q "^Sweep: 2 runs, about" "$ERR"
check "no fastest line where nothing is ranked" bash -c "! grep -q '^Fastest' $OUT"
jq_check "no fastest object either" "$TMP/s.json" '.sweep.fastest == null'

expect_rc 0 "ranges and a global parameter, csv" \
	sweep bpf-loop --param nr_loops=1..3 --param p=1,2 "${FAST[@]}" --format csv -q
check "csv header names the parameters" bash -c "head -n1 $OUT | grep -q '^nr_loops,producers,M ops/s,stddev,ns/op,CV %,status$'"
check "csv has the product: 6 rows" [ "$(grep -c ',ok' "$OUT")" -eq 6 ]
check "first parameter varies slowest" bash -c "sed -n 2,3p $OUT | cut -d, -f1,2 | tr '\n' ' ' | grep -q '^1,1 1,2 $'"
check "-q: no progress lines" bash -c "! grep -q '^\[1/6\]' $ERR"

expect_rc 0 "markdown table" sweep bpf-loop --param nr_loops=10k,100k "${FAST[@]}" --format md -q
check "md table" grep -q "^| nr_loops | M ops/s | stddev | ns/op | CV % | status |" "$OUT"
check "k suffixes become numbers" grep -q "^| 10000 | " "$OUT"

expect_rc 0 "json on stdout" sweep bpf-loop --param nr_loops=1,2 "${FAST[@]}" --format json -q
schema_check "$OUT"
jq_check "json holds the sweep" "$OUT" '.sweep.points | length == 2'

expect_rc 0 "--repeat 2, --fastest" sweep bpf-loop --param nr_loops=1,10 --repeat 2 \
	--fastest nr_loops "${FAST[@]}" -o "$TMP/rep.json" -q
jq_check "rounds run point after point, round after round" "$TMP/rep.json" \
	'[.sweep.points[] | [.round, .values.nr_loops]] == [[1, 1], [1, 10], [2, 1], [2, 10]]'
check "round column" grep -qE "^nr_loops +round " "$OUT"
# The value with the lowest ns/op (the table's: in-kernel here), its mean over the rounds.
jq_check "--fastest: the value of the lowest mean ns/op over the rounds, nothing else swept" \
	"$TMP/rep.json" '.sweep.fastest as $f | [.results[] | {v: .params.nr_loops,
	 ns: .summary.latency_kernel.mean}] | group_by(.v) |
	 map({v: .[0].v, ns: (map(.ns) | add / length)}) | min_by(.ns) as $b |
	 $f.param == "nr_loops" and $f.metric == "ns/op" and $f.by == [] and
	 ($f.groups | length) == 1 and $f.groups[0].at == {} and $f.groups[0].value == $b.v and
	 (($f.groups[0].ns_per_op - $b.ns) | fabs) <= 1e-9 * $b.ns'
schema_check "$TMP/rep.json"
check "... named in one line under the table" grep -qE '^Fastest nr_loops \(lowest ns/op\): (1|10)$' \
	"$OUT"
expect_usage "sweep: --fastest nope: must name a swept parameter (nr_loops)" sweep bpf-loop \
	--param nr_loops=1,2 --fastest nope

expect_rc 0 "a flag swept" sweep count-local --param affinity=false,true "${FAST[@]}" -o "$TMP/aff.json" -q
jq_check "affinity off then on" "$TMP/aff.json" '[.results[].config.affinity] == [false, true]'

expect_rc 0 "-v shows each run's own lines" sweep bpf-loop --param nr_loops=1,2 "${FAST[@]}" -v
check "Iter lines on stderr with -v" grep -q "^Iter " "$ERR"

# A point the bench refuses: an error, or skipped with --skip-invalid.
expect_usage "this bench has no consumers (must be 0) (--skip-invalid skips such points)" \
	sweep bpf-loop --param consumers=0,1 "${FAST[@]}"
expect_rc 0 "--skip-invalid" sweep bpf-loop --param consumers=0,1 --skip-invalid "${FAST[@]}" -o "$TMP/skip.json" -q
jq_check "refused point listed with its reason" "$TMP/skip.json" \
	'(.results | length) == 1 and .sweep.points[1].status == "refused" and (.sweep.points[1].reason | test("no consumers"))'
check "refused points noted under the table" grep -q "1 point refused by the bench" "$OUT"

# ---- presets ----

expect_rc 0 "--list-presets" sweep --list-presets
for p in bpf-loop bloom bloom-hashmap htab-mem lpm-entries hashmap-lookup; do
	check "preset $p listed" grep -qE "^  $p " "$OUT"
done
check "presets say what they reproduce" grep -q "from tools/testing/selftests/bpf/benchs/run_bench_bpf_loop.sh" "$OUT"

expect_rc 0 "preset bpf-loop, narrowed" sweep --preset bpf-loop --param producers=1 \
	--param nr_loops=10,100 "${FAST[@]}" -o "$TMP/preset.json" -q
schema_check "$TMP/preset.json"
jq_check "preset recorded, its -a applied, -w/-d from the command line" "$TMP/preset.json" \
	'.sweep.preset == "bpf-loop" and ([.results[].config.affinity] | all) and ([.results[].config.warmup] == [0, 0]) and .sweep.plot.x == "nr_loops"'
expect_rc 0 "a plain option fixes a preset's list" sweep --preset bpf-loop -p1 --param nr_loops=10 "${FAST[@]}" -o "$TMP/fix.json" -q
jq_check "producers not swept" "$TMP/fix.json" '[.sweep.params[].name] == ["nr_loops"] and .results[0].config.producers == 1'

# Presets of benches not in this build fail cleanly; once merged they are listed and run.
for p in bloom bloom-hashmap htab-mem lpm-entries hashmap-lookup; do
	bench=$(grep -A2 -E "^  $p " <("$MB" sweep --list-presets) | sed -n 2p | awk '{ print $1 }' | tr -d ',:')
	if ! "$MB" --list | grep -qE "^- $bench "; then
		expect_usage "preset $p needs bench '$bench', which is not in this build" sweep --preset "$p"
	fi
done

# ---- sweep: bad input ----

expect_usage "unknown bench 'nosuch'" sweep nosuch --param nr_loops=1
expect_usage "--param foo: not an option of bpf-loop" sweep bpf-loop --param foo=1,2
expect_usage "--param nr_loops: not an option of count-local" sweep count-local --param nr_loops=1,2
expect_usage "--param nr_loops: empty value list" sweep bpf-loop --param nr_loops=
expect_usage "empty value in '1,,2'" sweep bpf-loop --param nr_loops=1,,2
expect_usage "nr_loops: must be NAME=V1,V2" sweep bpf-loop --param nr_loops
expect_usage "--param nr_loops=0: bpf-loop: --nr_loops 0: must be 1..8388608" sweep bpf-loop --param nr_loops=0,1
expect_usage "range '5..1': the start is above the end" sweep bpf-loop --param nr_loops=5..1
expect_usage "--param nr_loops: 1k and 1000 are the same value" sweep bpf-loop --param nr_loops=1k,1000
expect_usage "--param nr_loops given twice" sweep bpf-loop --param nr_loops=1 --param nr_loops=2
expect_usage "--param nr_loops: also given as --nr_loops" sweep bpf-loop --nr_loops 5 --param nr_loops=1,2
expect_usage "--param format: --format cannot be swept" sweep bpf-loop --param format=json,csv
expect_usage "--param producers=0: --producers 0: must be 1..256" sweep bpf-loop --param p=0,1
expect_usage "--affinity maybe: must be true or false" sweep bpf-loop --param affinity=maybe
expect_usage "more than 10000 values" sweep bpf-loop --param nr_loops=1..20000
expect_usage "more than 100000 runs" sweep bpf-loop --param nr_loops=1..10000 --param call_us=5..100
expect_usage "sweep: no bench" sweep --param nr_loops=1
expect_usage "--preset nosuch: no such preset" sweep --preset nosuch
expect_usage "--preset bpf-loop and bench names (bpf-loop): give one or the other" sweep --preset bpf-loop bpf-loop
expect_usage "--repeat 0: must be 1..1000" sweep bpf-loop --repeat 0
expect_usage "--format md: only for the tables of sweep and compare" --format md count-local

# ---- compare ----

expect_rc 0 "base run" -w0 -d6 --interval_ms 100 -a bpf-loop --nr_loops 100 -o "$TMP/base.json" -q
expect_rc 0 "compare a run with itself" compare "$TMP/base.json" "$TMP/base.json" --fail-on-regression
check "no change" grep -qE "^bpf-loop +- +ns/op .* \+0\.0 % +1\.0000 +no change" "$OUT"
check "says which metric" grep -q "^Metric: in-kernel ns/op (lower is better)" "$OUT"
check "geometric mean 1" grep -q "^Geometric mean of the speed ratios new/base over 1 result: 1.000 (+0.0 %)" "$OUT"

# A synthetic run 1.5 times slower: every measured sample's ns/op up and throughput down. The
# base's samples are first made steady (2.00 .. 2.05 ns/op): a real run's spread depends on the
# machine and can exceed 1.5x on a busy one, and the exact p below needs separate sets.
jq '.results[0].samples |= (to_entries | map(.value.latency_kernel = 2 + 0.01 * .key |
	.value.throughput = 1e9 / .value.latency_kernel | .value))' "$TMP/base.json" >"$TMP/steady.json"
jq '.results[0].samples |= map(.latency_kernel *= 1.5 | .throughput /= 1.5)' "$TMP/steady.json" >"$TMP/slow.json"
expect_rc 0 "compare with a slower run" compare "$TMP/steady.json" "$TMP/slow.json"
check "regressed, +50 %" grep -qE "^bpf-loop .* \+50\.0 % +0\.0022 +regressed" "$OUT"
expect_rc 1 "--fail-on-regression exits 1" compare "$TMP/steady.json" "$TMP/slow.json" --fail-on-regression
check "--fail-on-regression says why" grep -q "fail-on-regression: 1 result regressed" "$ERR"
expect_rc 0 "the other way round: improved" compare "$TMP/slow.json" "$TMP/steady.json" --fail-on-regression
check "improved" grep -qE " -33\.3 % .* improved" "$OUT"
# Wall-clock throughput moves with other load (CV up to 50 % on a busy machine): a 10x slower
# synthetic run keeps the two sets of samples apart whatever the noise.
jq '.results[0].samples |= map(.throughput /= 10)' "$TMP/steady.json" >"$TMP/slow10.json"
expect_rc 0 "throughput compared on request" compare --metric throughput "$TMP/steady.json" "$TMP/slow10.json"
check "throughput: -90 %, regressed" grep -qE "M ops/s .* -90\.0 % .* regressed" "$OUT"
expect_rc 0 "--threshold 60: a 50 % change is no change" compare --threshold 60 "$TMP/steady.json" "$TMP/slow.json"
check "no change under the threshold" grep -q "no change" "$OUT"
expect_rc 0 "comparison as JSON" compare "$TMP/steady.json" "$TMP/slow.json" -o "$TMP/cmp.json"
schema_check "$TMP/cmp.json" "$CMP_SCHEMA"
jq_check "json verdict, p, method" "$TMP/cmp.json" \
	'.comparison.rows[0].verdict == "regressed" and .comparison.rows[0].method == "exact" and .comparison.counts.regressed == 1 and (.comparison.rows[0].change - 0.5 | fabs) < 1e-9'
check "-o json still shows the verdicts" grep -q "regressed" "$OUT"
expect_rc 0 "comparison as markdown" compare "$TMP/steady.json" "$TMP/slow.json" --format md
check "md comparison table" grep -q "^| bench | parameters | metric | base | new | change | p | verdict | note |" "$OUT"

# A real regression: the same bench with a slower setting (1 iteration per bpf_loop call
# instead of 100 pays the call for every iteration).
expect_rc 0 "slower setting" -w0 -d6 --interval_ms 100 -a bpf-loop --nr_loops 1 -o "$TMP/loop1.json" -q
expect_rc 0 "different parameters do not match" compare "$TMP/base.json" "$TMP/loop1.json"
check "both listed as unmatched" bash -c "grep -q 'Only in $TMP/base.json: bpf-loop nr_loops=100' $OUT && grep -q 'Only in $TMP/loop1.json: bpf-loop nr_loops=1' $OUT"
check "hint names the parameter" grep -q "Hint: bpf-loop differs in nr_loops 100 -> 1; --ignore nr_loops" "$OUT"
# nr_loops 1 costs only 15-50 % more than 100, less than this host's speed moves between runs:
# the verdict on a real regression is asked of two settings 20 times apart (a 4-byte key hashes
# in ~15 ns, a 512-byte one in ~300), which no host noise brings together.
expect_rc 0 "a fast setting" -w0 -d6 --interval_ms 100 -a map-lookup --key_size 4 -o "$TMP/key4.json" -q
expect_rc 0 "a slow setting" -w0 -d6 --interval_ms 100 -a map-lookup --key_size 512 -o "$TMP/key512.json" -q
expect_rc 1 "--ignore key_size: a real regression" compare --ignore key_size --fail-on-regression "$TMP/key4.json" "$TMP/key512.json"
check "regressed, and what differed" grep -qE "regressed +key_size 4 -> 512" "$OUT"

expect_rc 0 "too few samples" -w0 -d2 --interval_ms 100 bpf-loop --nr_loops 100 -o "$TMP/two.json" -q
expect_rc 0 "compare two-sample runs" compare "$TMP/two.json" "$TMP/two.json"
check "says there are too few samples" grep -q "too few samples (2 and 2: p cannot go below 0.33)" "$OUT"

echo '{"a": 1}' >"$TMP/other.json"
echo 'not json' >"$TMP/bad.json"
jq '.schema_version = 3' "$TMP/base.json" >"$TMP/v3.json"
expect_usage "compare: $TMP/other.json: not mapbench output" compare "$TMP/base.json" "$TMP/other.json"
expect_usage "compare: $TMP/bad.json: not JSON: line 1, column 1" compare "$TMP/bad.json" "$TMP/base.json"
expect_usage "schema_version 3: this mapbench reads schema_version 1 to 2" compare "$TMP/base.json" "$TMP/v3.json"
# A baseline of schema 1 (false_hits in every result's counters, no "counters", no headline)
# still compares: what compare reads did not move.
jq '.schema_version = 1 | del(.results[].summary.headline) |
    walk(if type == "object" and has("counters") then del(.counters) + {false_hits: 0} else . end)' \
	"$TMP/base.json" >"$TMP/v1.json"
expect_rc 0 "compare reads a schema 1 baseline" compare "$TMP/v1.json" "$TMP/base.json"
check "the schema 1 baseline's rows are compared" grep -qE "no change|within noise|improved|regressed" "$OUT"
expect_usage "compare: $TMP/none.json: No such file or directory" compare "$TMP/base.json" "$TMP/none.json"
expect_usage "compare: needs two files" compare "$TMP/base.json"
expect_usage "compare: --producers is not an option of compare" compare -p2 "$TMP/base.json" "$TMP/base.json"
expect_usage "compare: $TMP/cmp.json: a comparison, not results" compare "$TMP/cmp.json" "$TMP/base.json"
expect_usage "--metric fast: must be one of auto, throughput, latency" compare --metric fast "$TMP/base.json" "$TMP/base.json"

# ---- plot ----

expect_rc 0 "plot a sweep as SVG" plot "$TMP/s.json" -o "$TMP/s.svg"
check "valid SVG" /usr/bin/python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(not r.tag.endswith('svg'))" "$TMP/s.svg"
check "the axis is named" grep -q "nr_loops" "$TMP/s.svg"
expect_rc 0 "plot a sweep as PNG" plot "$TMP/rep.json" -o "$TMP/s.png"
check "valid PNG" /usr/bin/python3 -c "
import struct, sys
d = open(sys.argv[1], 'rb').read()
w, h = struct.unpack('>II', d[16:24])
sys.exit(not (d[:8] == b'\x89PNG\r\n\x1a\n' and d[12:16] == b'IHDR' and w > 100 and h > 100 and d[-8:-4] == b'IEND'))" "$TMP/s.png"
expect_rc 0 "plot a comparison" plot "$TMP/cmp.json" -o "$TMP/cmp.svg"
check "bar chart SVG" bash -c "/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' $TMP/cmp.svg && grep -q regressed $TMP/cmp.svg"
expect_rc 0 "plot options" plot "$TMP/preset.json" -o "$TMP/p.svg" --metric throughput --lines none --title "bpf_loop"
check "no temporary file left by plot" bash -c "[ \$(ls $TMP | grep -c '\.tmp\.') -eq 0 ]"
MAPBENCH_GNUPLOT=/nonexistent/gnuplot run plot "$TMP/s.json" -o "$TMP/nognuplot.svg"
check "without gnuplot: exit 1, says what to install, no file" \
	bash -c "[ $rc -eq 1 ] && grep -q 'install gnuplot-nox' $ERR && [ ! -e $TMP/nognuplot.svg ]"

expect_usage "plot: $TMP/base.json: not a sweep (no \"sweep\" object)" plot "$TMP/base.json" -o "$TMP/x.svg"
expect_usage "plot: -o $TMP/x.pdf: must end in .svg or .png" plot "$TMP/s.json" -o "$TMP/x.pdf"
expect_usage "plot: -o CHART.svg or -o CHART.png is required" plot "$TMP/s.json"
expect_usage "--x bogus: not a swept parameter (swept: nr_loops)" plot "$TMP/s.json" -o "$TMP/x.svg" --x bogus
expect_usage "plot: $TMP/other.json: not mapbench output" plot "$TMP/other.json" -o "$TMP/x.svg"
expect_usage "plot: --duration is not an option of plot" plot -d 3 "$TMP/s.json" -o "$TMP/x.svg"

# ---- baselines ----

export MAPBENCH_BASELINE_DIR=$TMP/baselines
expect_rc 0 "--save-baseline" -w0 -d6 --interval_ms 100 -a bpf-loop --nr_loops 100 -q --save-baseline b1
check "baseline file in the folder" [ -s "$TMP/baselines/b1.json" ]
schema_check "$TMP/baselines/b1.json"
expect_rc 0 "--baseline compares with it" -w0 -d6 --interval_ms 100 -a bpf-loop --nr_loops 100 -q --baseline b1
check "comparison printed after the run" grep -q "^Base: baseline b1 " "$OUT"
check "against this run" grep -q "^New:  this run " "$OUT"
# A baseline 3 times faster than any real run: this run regressed.
jq '.results[0].samples |= map(.latency_kernel /= 3 | .throughput *= 3)' "$TMP/baselines/b1.json" \
	>"$TMP/baselines/fast.json"
expect_rc 1 "--baseline --fail-on-regression" -w0 -d6 --interval_ms 100 -a bpf-loop --nr_loops 100 -q \
	--baseline fast --fail-on-regression
check "regression against the baseline" grep -q "regressed against baseline fast" "$ERR"
# The hint after an unmatched --baseline names --ignore, and --ignore works with --baseline.
expect_rc 0 "--baseline with other parameters" "${FAST[@]}" -a -q bpf-loop --nr_loops 10 \
	--baseline b1
check "--baseline: unmatched, the hint names --ignore" \
	grep -q "Hint: bpf-loop differs in nr_loops 100 -> 10; --ignore nr_loops" "$OUT"
expect_rc 0 "--baseline --ignore nr_loops" "${FAST[@]}" -a -q bpf-loop --nr_loops 10 --baseline b1 \
	--ignore nr_loops
check "--baseline --ignore: matched across the parameter" \
	grep -qE "^bpf-loop +nr_loops=100 .*nr_loops 100 -> 10" "$OUT"
check "--baseline --ignore: nothing left unmatched" bash -c "! grep -q '^Only in' '$OUT'"
expect_usage "--ignore: only with --baseline NAME (or in mapbench compare)" "${FAST[@]}" \
	count-local --ignore producers
expect_rc 0 "a sweep saved as a baseline" sweep bpf-loop --param nr_loops=1,10 "${FAST[@]}" -q --save-baseline sw
jq_check "the saved sweep" "$TMP/baselines/sw.json" '.sweep.points | length == 2'
expect_usage "--baseline no baseline 'nosuch' in $TMP/baselines" "${FAST[@]}" count-local --baseline nosuch
expect_usage "--save-baseline a/b: not a baseline name" "${FAST[@]}" count-local --save-baseline a/b
expect_usage "--threshold: only with --baseline NAME" "${FAST[@]}" count-local --threshold 5
expect_usage "--baseline $TMP/other.json: not mapbench output" "${FAST[@]}" count-local --baseline "$TMP/other.json"
unset MAPBENCH_BASELINE_DIR

# ---- noise preflight ----

expect_rc 0 "preflight recorded" "${FAST[@]}" count-local --format json
schema_check "$OUT"
jq_check "every check in the context" "$OUT" \
	'[.context.preflight.checks[].check] == ["cpu_governor", "turbo", "smt", "bpf_stats", "bpf_jit", "virtualization", "cpu_busy", "producers"]'
jq_check "warnings counted" "$OUT" \
	'.context.preflight.warnings == ([.context.preflight.checks[] | select(.status == "warning")] | length)'
np=$(( $(nproc) + 1 ))
expect_rc 77 "--strict refuses more producers than CPUs" --strict "${FAST[@]}" -p "$np" count-local
check "--strict says why" grep -q -- "--strict: refusing to measure: $np producers on" "$ERR"
check "--strict ran nothing" bash -c "! grep -q Summary $OUT"
expect_rc 77 "--strict refuses a sweep over too many producers" sweep count-local --strict --param p=1,$np "${FAST[@]}"

finish
