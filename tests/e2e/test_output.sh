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
expect_rc 1 "-o into a missing directory fails" "${FAST[@]}" count-local -o /nonexistent/dir/r.json
check "-o error names the file" grep -q "/nonexistent/dir/r.json" "$ERR"

# Several benches in one run: one document, one result each, in order; a table in text.
expect_rc 0 "two benches" "${FAST[@]}" count-global count-local --format json
jq_check "two results in order" "$OUT" '[.results[].bench] == ["count-global", "count-local"]'
expect_rc 0 "two benches, text" "${FAST[@]}" count-global count-local
check "summary table after several benches" grep -qE "^bench +parameters +M ops/s +ns/op" "$OUT"

finish
