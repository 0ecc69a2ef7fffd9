#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Structured output: JSON against the schema, CSV shape, -o written atomically (regular files),
# in place (devices, FIFOs) or through symbolic links.
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
ONE=(-w0 -d1 --interval_ms 100 --no-linearity bpf-loop)
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
	grep -qE '^bpf-loop,[^,]*,summary,.*,throughput,ops/s,[0-9.e+]+,n/a,[0-9.e+]+,[0-9.e+]+,[0-9.e+]+,n/a,1,$' "$OUT"
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
# -o again: the same results in more formats, each from its suffix (the first keeps --format's).
expect_rc 0 "-o file.csv -o file.txt -o file2.json" "${FAST[@]}" count-local -o "$TMP/r.csv" \
	-o "$TMP/r.txt" -o "$TMP/r2.json"
check "csv written" bash -c "head -n1 $TMP/r.csv | grep -q ^bench,"
check "text document holds the Summary" grep -q "^Summary: hits" "$TMP/r.txt"
schema_check "$TMP/r2.json"
check "the documents are of one run: the same samples" bash -c \
	"[ \"\$(jq -r '.results[0].samples[].ops' '$TMP/r2.json' | tr '\n' ' ')\" = \
	   \"\$(awk -F, '\$3 == \"sample\" { printf \"%s \", \$7 }' '$TMP/r.csv')\" ]"

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

# A suffix that names a format other than --format is refused before anything runs; without
# --format the suffix picks it.
refused_early "-o/--output $TMP/x.json: suffix .json contradicts --format csv" \
	"${LONG[@]}" count-local --format csv -o "$TMP/x.json"
refused_early "-o/--output $TMP/x.csv: suffix .csv contradicts --format json" \
	"${LONG[@]}" count-local --format json -o "$TMP/x.csv"
refused_early "-o/--output $TMP/x.md: suffix .md: Markdown is only for the tables" \
	"${LONG[@]}" count-local -o "$TMP/x.md"
refused_early "compare: -o/--output $TMP/x.json: suffix .json contradicts --format csv" \
	compare "$TMP/r.json" "$TMP/r.json" --format csv -o "$TMP/x.json"
refused_early "sweep: -o/--output $TMP/x.csv: suffix .csv, but -o gets the JSON document" \
	sweep "${LONG[@]}" bpf-loop --param nr_loops=1,10 -o "$TMP/x.csv"
refused_early "-o/--output $TMP/x: a second -o needs a suffix that names its format" \
	"${LONG[@]}" count-local -o "$TMP/x.json" -o "$TMP/x"
refused_early "-o/--output $TMP/x.json: given twice" \
	"${LONG[@]}" count-local -o "$TMP/x.json" -o "$TMP/x.json"
refused_early "-o/--output $TMP/x.txt: at most 4 -o files" "${LONG[@]}" count-local \
	-o "$TMP/x.json" -o "$TMP/x.csv" -o "$TMP/x2.csv" -o "$TMP/x2.json" -o "$TMP/x.txt"
refused_early "sweep: -o/--output $TMP/x.csv: -o given again, but sweep writes one document" \
	sweep "${LONG[@]}" bpf-loop --param nr_loops=1,10 -o "$TMP/x.json" -o "$TMP/x.csv"
refused_early "compare: -o/--output $TMP/x.csv: -o given again" \
	compare "$TMP/r.json" "$TMP/r.json" -o "$TMP/x.json" -o "$TMP/x.csv"
check "nothing written for a contradicting suffix or a refused -o" bash -c \
	"! ls $TMP/x.* $TMP/x2.* 2>/dev/null"
expect_rc 0 "--format csv -o x.csv agree" "${FAST[@]}" count-local --format csv -o "$TMP/agree.csv"
check "the CSV written" bash -c "head -n1 $TMP/agree.csv | grep -q ^bench,"
expect_rc 0 "compare -o c.csv: CSV from the suffix" compare "$TMP/r.json" "$TMP/r.json" \
	-o "$TMP/c.csv"
check "compare: the CSV written" bash -c "head -n1 $TMP/c.csv | grep -q ^bench,"


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

# -o on what is not a regular file (nodes this test makes, never /dev itself): a character
# device or a FIFO is written in place and stays what it was; its write errors fail the run.
N=$TMP/n
mkdir "$N"
node_kind() { stat -c %F "$1"; }
ended() { ! alive "$1"; }
if mknod "$N/null" c 1 3 && mknod "$N/full" c 1 7; then
	expect_rc 0 "-o a character device (c 1 3)" "${FAST[@]}" count-local -o "$N/null"
	check "the device stays a character device" \
		[ "$(node_kind "$N/null")" = "character special file" ]
	expect_rc 1 "-o a full device (c 1 7): the write fails, exit 1" "${FAST[@]}" count-local \
		-o "$N/full"
	check "the failed write names -o, the path and why" \
		grep -qxF -- "mapbench: -o/--output $N/full: No space left on device" "$ERR"
	check "the full device stays a character device" \
		[ "$(node_kind "$N/full")" = "character special file" ]
	run compare "$TMP/r.json" "$TMP/r.json" -o "$N/full"
	check "compare -o a full device: exit 1 naming -o and the path (got $rc)" bash -c \
		"[ $rc -eq 1 ] && grep -qF -- '-o/--output $N/full: No space left on device' '$ERR'"
	run sweep "${FAST[@]}" bpf-loop --param nr_loops=1,10 -q -o "$N/full"
	check "sweep -o a full device: exit 1 naming -o and the path (got $rc)" bash -c \
		"[ $rc -eq 1 ] && grep -qF -- '-o/--output $N/full: No space left on device' '$ERR'"
	check "the full device stays one after compare and sweep" \
		[ "$(node_kind "$N/full")" = "character special file" ]
	rm -f "$N/null" "$N/full"
else
	echo "  SKIP [$NAME] -o a character device: mknod not permitted here"
fi

mkfifo "$N/fifo"
cat "$N/fifo" >"$N/fifo.out" &
reader=$!
expect_rc 0 "-o a FIFO with a reader" "${FAST[@]}" count-local -o "$N/fifo" --format json
wait_for "the FIFO's reader got to the end of the document" "-" ended "$reader" ||
	kill "$reader" 2>/dev/null
wait "$reader"
check "the FIFO stays a FIFO" [ "$(node_kind "$N/fifo")" = "fifo" ]
schema_check "$N/fifo.out"
rm -f "$N/fifo" "$N/fifo.out"

# A symbolic link is followed: the file it names gets the document, the link stays a link,
# no temporary file is left beside either. A link that names nothing is refused (as cp does).
mkdir "$N/real"
echo old >"$N/real/r.json"
ln -s real/r.json "$N/link.json"
expect_rc 0 "-o a symbolic link" "${FAST[@]}" count-local -o "$N/link.json"
check "the link stays a link" [ -L "$N/link.json" ]
check "the link still names the same file" [ "$(readlink "$N/link.json")" = real/r.json ]
schema_check "$N/real/r.json"
check "nothing else beside the link or the target" \
	[ "$(cd "$N" && find . | sort | tr '\n' ' ')" = ". ./link.json ./real ./real/r.json " ]
echo old >"$N/real/r.json"
expect_rc 0 "compare -o a symbolic link" compare "$TMP/r.json" "$TMP/r.json" --format json \
	-o "$N/link.json"
check "compare: the link stays, the target holds the comparison" bash -c \
	"[ -L '$N/link.json' ] && jq -e .comparison '$N/real/r.json' >/dev/null"
echo old >"$N/real/r.json"
expect_rc 0 "sweep -o a symbolic link" sweep "${FAST[@]}" bpf-loop --param nr_loops=1,10 -q \
	-o "$N/link.json"
check "sweep: the link stays, the target holds the sweep" bash -c \
	"[ -L '$N/link.json' ] && jq -e .sweep '$N/real/r.json' >/dev/null"
if command -v "${MAPBENCH_GNUPLOT:-gnuplot}" >/dev/null; then
	ln -s real/c.svg "$N/chart.svg"
	: >"$N/real/c.svg"
	expect_rc 0 "plot -o a symbolic link" plot "$N/real/r.json" -o "$N/chart.svg"
	check "plot: the link stays, the target holds the chart" bash -c \
		"[ -L '$N/chart.svg' ] && grep -q '<svg' '$N/real/c.svg'"
	if mknod "$N/null.svg" c 1 3; then
		expect_rc 0 "plot -o a character device (c 1 3)" plot "$N/real/r.json" \
			-o "$N/null.svg"
		check "plot: the device stays a character device" \
			[ "$(node_kind "$N/null.svg")" = "character special file" ]
	fi
	rm -f "$N/chart.svg" "$N/real/c.svg" "$N/null.svg"
else
	echo "  SKIP [$NAME] plot -o a symbolic link: no gnuplot"
fi
mkdir "$N/bl"
ln -s ../real/r.json "$N/bl/b.json"
MAPBENCH_BASELINE_DIR="$N/bl" expect_rc 0 "--save-baseline onto a symbolic link" "${FAST[@]}" \
	-q count-local --save-baseline b
check "baseline: the link stays, the target holds the results" bash -c \
	"[ -L '$N/bl/b.json' ] && jq -e '.results[0].bench == \"count-local\"' \
		'$N/real/r.json' >/dev/null"
ln -s nothere.json "$N/dangling.json"
refused_early "-o/--output $N/dangling.json: symbolic link to nothere.json, which does not exist" \
	"${LONG[@]}" count-local -o "$N/dangling.json"
refused_early "compare: -o/--output $N/dangling.json: symbolic link to nothere.json" \
	compare "$TMP/r.json" "$TMP/r.json" -o "$N/dangling.json"
check "a dangling link makes nothing" [ ! -e "$N/nothere.json" ]

# Several benches in one run: one document, one result each, in order; a table in text.
expect_rc 0 "two benches" "${FAST[@]}" count-global count-local --format json
jq_check "two results in order" "$OUT" '[.results[].bench] == ["count-global", "count-local"]'
expect_rc 0 "two benches, text" "${FAST[@]}" count-global count-local
check "summary table after several benches" grep -qE "^bench +parameters +M ops/s +ns/op" "$OUT"
# -q: the Iter and Summary lines only, no table (on the terminal, nor in a text document).
expect_rc 0 "two benches, -q" "${FAST[@]}" -q count-global count-local
check "-q: only Iter and Summary lines, no table" bash -c \
	"[ \$(grep -c '^Summary: ' '$OUT') -eq 2 ] && ! grep -qvE '^(Iter +[0-9]+ |Summary: )' '$OUT'"
expect_rc 0 "two benches, -q, a text document" "${FAST[@]}" -q count-global count-local \
	-o "$TMP/q.txt"
check "-q: no table in the text document" bash -c \
	"grep -q '^Summary: ' '$TMP/q.txt' && ! grep -qE '^bench +parameters' '$TMP/q.txt'"

# The document holds what ran: a 64-bit seed exactly (a double would name another seed), and
# an argument that is not UTF-8 as U+FFFD, so that the document stays valid JSON.
expect_rc 0 "map-lookup --seed 2^64-1" -q -w0 -d1 map-lookup --nr_entries 100 \
	--seed 18446744073709551615 -o "$TMP/seed.json"
check "the seed is written exactly" grep -q '"seed": 18446744073709551615' "$TMP/seed.json"
expect_rc 0 "an output path that is not UTF-8" -q -w0 -d1 count-local -o "$TMP/"$'x\xff'.json
check "a document with a non-UTF-8 argument is valid JSON" python3 -c \
	'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); sys.exit("\ufffd" not in d["context"]["command_line"][-1])' \
	"$TMP/"$'x\xff'.json

finish
