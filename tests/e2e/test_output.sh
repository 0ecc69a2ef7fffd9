#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Structured output: JSON against the schema, CSV shape, -o written atomically.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "json to stdout" -w1 -d3 --interval_ms 100 -a bpf-noop --format json
schema_check "$OUT"
jq_check "exactly D samples after W warm-up samples" "$OUT" \
	'[.results[0].samples[] | select(.warmup | not)] | length == 3'
jq_check "W warm-up samples kept and marked" "$OUT" \
	'[.results[0].samples[] | select(.warmup)] | length == 1'
jq_check "summary over D samples" "$OUT" '.results[0].summary.samples == 3'
# In-kernel loops stamp their calls: a sample's rate is over the time its counted calls covered.
jq_check "rates use the time the counted calls covered" "$OUT" \
	'[.results[0].samples[] | .covered_ns > 0 and ((.throughput - .ops * 1e9 / .covered_ns) | fabs < 1)] | all'
jq_check "context has kernel, CPU and libbpf" "$OUT" \
	'.context.kernel.release != "" and .context.cpu_model != "" and (.context.libbpf_version | startswith("v"))'
jq_check "context has the command line" "$OUT" '.context.command_line | index("bpf-noop") != null'
jq_check "params are present with defaults" "$OUT" '.results[0].params == {}'
check "progress goes to stderr when stdout carries JSON" grep -q "^Iter " "$ERR"
check "stdout is only the document" bash -c "head -c1 $OUT | grep -q '{'"

expect_rc 0 "json with bench params" "${FAST[@]}" bpf-loop --nr_loops 7 --format json
jq_check "every parameter, defaults filled in" "$OUT" '.results[0].params.nr_loops == 7'
schema_check "$OUT"

# One sample: the spread is unknown, shown as such (null, n/a, a note), never as 0.
ONE=(-w0 -d1 --interval_ms 100 bpf-loop)
expect_rc 0 "one sample, text" "${ONE[@]}"
check "one sample: Summary says ± n/a" grep -qE '^Summary: throughput +[0-9]+\.[0-9]+ ± +n/a M ops/s' "$OUT"
check "one sample: a note says one sample cannot show noise" grep -q '^Spread: unknown: one sample cannot show noise' "$OUT"
check "one sample: no CV of 0" bash -c "! grep -qE 'CV 0\\.00 %|± +0\\.000 ' '$OUT'"
check "one sample: the latency still scrapes ($(scrape_latency "$OUT"))" \
	bash -c "[[ '$(scrape_latency "$OUT")' =~ ^[0-9]+\.[0-9]+\ ns/op$ ]]"
# The kernel's ops scraper finds no figure ± figure: it prints the line, not a spread of 0.
check "one sample: the ops scraper gets no zero spread" bash -c "! [[ '$(scrape_ops "$OUT")' =~ ±\ 0\.000 ]]"
expect_rc 0 "one sample, JSON" "${ONE[@]}" -o "$TMP/one.json"
schema_check "$TMP/one.json"
jq_check "one sample: stddev and cv are null, n is 1" "$TMP/one.json" \
	'.results[0].summary | [.throughput, .latency_kernel] | all(.stddev == null and .cv == null and .n == 1)'
jq_check "one sample: every summary statistic has a null spread" "$TMP/one.json" \
	'[.results[0].summary | .[] | objects | select(has("stddev")) | .stddev == null and .cv == null] | all'
expect_rc 0 "one sample, CSV" "${ONE[@]}" --format csv
check "one sample: CSV stddev and cv are n/a" \
	grep -qE '^bpf-loop,[^,]*,summary,.*,throughput,ops/s,[0-9.e+]+,n/a,[0-9.e+]+,[0-9.e+]+,[0-9.e+]+,n/a,1$' "$OUT"
run compare "$TMP/one.json" "$TMP/one.json"
check "compare of one-sample documents: exit 0" [ "$rc" -eq 0 ]
check "compare of one-sample documents: ± n/a" grep -q '± n/a' "$OUT"
check "compare of one-sample documents: says the spread is unknown" \
	grep -q 'spread unknown: one sample in each cannot show noise' "$OUT"
run compare "$TMP/one.json" "$TMP/one.json" --format json
jq_check "compare JSON: stddev null on both sides" "$OUT" \
	'.comparison.rows | length > 0 and all(.base.stddev == null and .new.stddev == null)'

expect_rc 0 "csv" "${FAST[@]}" count-local --format csv
check "csv header" bash -c "head -n1 $OUT | grep -q '^bench,params,kind,iter,warmup,elapsed_ns,ops'"
check "csv has one row per sample" [ "$(grep -c ',sample,' "$OUT")" -eq 2 ]
check "csv has summary rows" grep -q ',summary,.*,throughput,ops/s,' "$OUT"
cols=$(awk -F, 'NR==1 { print NF }' "$OUT")
check "csv rows have the header's columns" bash -c "awk -F, -v n=$cols 'NF != n { exit 1 }' $OUT"

expect_rc 0 "-o file.json (format from the suffix)" "${FAST[@]}" count-local -o "$TMP/r.json"
schema_check "$TMP/r.json"
jq_check "counts read at the sample's end: rates use the actual elapsed time" "$TMP/r.json" \
	'[.results[0].samples[] | .covered_ns == .elapsed_ns and ((.throughput - .ops * 1e9 / .elapsed_ns) | fabs < 1)] | all'
check "text progress still on stdout with -o" grep -q "^Summary:" "$OUT"
check "no temporary file left" bash -c "[ \$(ls $TMP | grep -c tmp) -eq 0 ]"
expect_rc 0 "-o file.csv" "${FAST[@]}" count-local -o "$TMP/r.csv"
check "csv written" bash -c "head -n1 $TMP/r.csv | grep -q ^bench,"
expect_rc 0 "-o file.txt" "${FAST[@]}" count-local -o "$TMP/r.txt"
check "text document holds the Summary" grep -q "^Summary: hits" "$TMP/r.txt"

# An -o FILE that cannot be written is refused before anything runs: exit 2, one line naming
# -o, the path and why, no sample taken (-d60 would run for a minute) and nothing left behind.
LONG=(-w0 -d60)
refused_early() {
	local part=$1 t0=$SECONDS
	shift
	expect_usage "$part" "$@"
	check "refused before any sample: $*" \
		bash -c "[ $((SECONDS - t0)) -lt 30 ] && ! grep -q '^Iter' '$OUT' '$ERR'"
}
mkdir "$TMP/w" "$TMP/w/dir"
: >"$TMP/w/file"
refused_early "-o/--output $TMP/w/missing/r.json: directory $TMP/w/missing does not exist" \
	"${LONG[@]}" count-local -o "$TMP/w/missing/r.json"
check "a missing directory is not made" [ ! -e "$TMP/w/missing" ]
refused_early "-o/--output $TMP/w/file/r.json: $TMP/w/file is not a directory" \
	"${LONG[@]}" count-local -o "$TMP/w/file/r.json"
check "the file in the path is left as it was" [ ! -s "$TMP/w/file" ]
refused_early "-o/--output $TMP/w/dir: is a directory" "${LONG[@]}" count-local -o "$TMP/w/dir"
refused_early "-o/--output $TMP/w/dir/: is a directory" "${LONG[@]}" count-local -o "$TMP/w/dir/"
refused_early "-o/--output $TMP/w/new/: ends in '/'" "${LONG[@]}" count-local -o "$TMP/w/new/"
check "a directory given as -o is left empty" [ -z "$(ls -A "$TMP/w/dir")" ]
refused_early "-o/--output $TMP/w/dir: is a directory" sweep "${LONG[@]}" bpf-loop \
	--param nr_loops=1,10 -o "$TMP/w/dir"
MAPBENCH_BASELINE_DIR="$TMP/w/file/x" refused_early \
	"--save-baseline b: cannot make $TMP/w/file/x/b.json: $TMP/w/file is not a directory" \
	"${LONG[@]}" count-local --save-baseline b
refused_early "compare: -o/--output $TMP/w/missing/c.json: directory $TMP/w/missing does not exist" \
	compare "$TMP/r.json" "$TMP/r.json" -o "$TMP/w/missing/c.json"
refused_early "plot: -o $TMP/w/missing/p.svg: directory $TMP/w/missing does not exist" \
	plot "$TMP/r.json" -o "$TMP/w/missing/p.svg"
check "nothing left behind" [ "$(cd "$TMP/w" && find . | sort | tr '\n' ' ')" = ". ./dir ./file " ]

# A directory that takes no files: read-only (root may write where the mode says no, not on a
# read-only mount), here a read-only bind mount in a private mount namespace.
mkdir "$TMP/ro"
if unshare -m sh -c "mount --bind '$TMP/ro' '$TMP/ro' && mount -o remount,bind,ro '$TMP/ro' &&
		! touch '$TMP/ro/x' 2>/dev/null" 2>/dev/null; then
	t0=$SECONDS
	unshare -m sh -c "mount --bind '$TMP/ro' '$TMP/ro' && mount -o remount,bind,ro '$TMP/ro' &&
		exec '$MB' ${LONG[*]} count-local -o '$TMP/ro/r.json'" >"$OUT" 2>"$ERR"
	rc=$?
	check "-o into a read-only directory: exit 2 (got $rc)" [ "$rc" -eq 2 ]
	check "-o into a read-only directory: one line naming -o, the path and why" bash -c \
		"[ \$(wc -l <'$ERR') -eq 1 ] && grep -qF -- '-o/--output $TMP/ro/r.json: cannot create files in $TMP/ro: Read-only file system' '$ERR'"
	check "-o into a read-only directory: refused before any sample" \
		bash -c "[ $((SECONDS - t0)) -lt 30 ] && ! grep -q '^Iter' '$OUT' '$ERR'"
	check "-o into a read-only directory: nothing left" [ -z "$(ls -A "$TMP/ro")" ]
else
	echo "  SKIP [$NAME] -o into a read-only directory: no read-only bind mount here"
fi

# Several benches in one run: one document, one result each, in order; a table in text.
expect_rc 0 "two benches" "${FAST[@]}" count-global count-local --format json
jq_check "two results in order" "$OUT" '[.results[].bench] == ["count-global", "count-local"]'
expect_rc 0 "two benches, text" "${FAST[@]}" count-global count-local
check "summary table after several benches" grep -qE "^bench +parameters +M ops/s +ns/op" "$OUT"

finish
