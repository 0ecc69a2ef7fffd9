#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The command line: --list, --help, and every bad-input path of the global options.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "--list" --list
check "--list header" grep -qx "Available benchmarks:" "$OUT"
check "--list groups by family" grep -qx "harness:" "$OUT"
check "--list has one '- name' line per bench" grep -qE "^- bpf-noop +in-kernel" "$OUT"
expect_rc 0 "-l" -l

expect_rc 0 "--help" --help
check "--help lists global options" grep -q -- "--prod-affinity CPUSET" "$OUT"
check "--help lists bench options with default and range" \
	grep -qE -- "--nr_loops N.*default 10; 1\.\.8388608" "$OUT"
# --version: the version and git revision every document's context carries.
expect_rc 0 "--version" --version
check "--version is one line: mapbench VERSION (git REVISION)" \
	grep -qxE "mapbench [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]{7,40}|unknown)(-dirty)?\)" "$OUT"
check "--version prints nothing else" bash -c "[ \$(wc -l <'$OUT') -eq 1 ] && [ ! -s '$ERR' ]"
cp "$OUT" "$TMP/version"
expect_rc 0 "a run for its context" -w0 -d1 --interval_ms 50 count-local --format json
check "--version matches the JSON context's version and git_revision" bash -c \
	"[ \"\$(jq -r '\"mapbench \(.context.version) (git \(.context.git_revision))\"' '$OUT')\" = \"\$(cat '$TMP/version')\" ]"
check "--help lists --version" bash -c "$MB --help | grep -q -- '--version'"
expect_usage "sweep: --version: use mapbench --version" sweep --version bpf-loop

expect_rc 0 "-h BENCH" -h count-local
check "-h BENCH omits other benches' options" bash -c "! grep -q -- --nr_loops $OUT"
check "-h BENCH without options says so" grep -qx "count-local has no options of its own." "$OUT"
# -h BENCH: the bench's own options first and alone, then one line pointing to mapbench -h.
expect_rc 0 "-h bpf-loop" -h bpf-loop
check "-h BENCH starts with the bench's options" bash -c "head -n1 '$OUT' | grep -qx 'Options of bpf-loop:'"
check "-h BENCH lists the bench's options" grep -qE -- "--nr_loops N.*default 10; 1\.\.8388608" "$OUT"
check "-h BENCH prints no global option" \
	bash -c "! grep -qE -- '^ +(-[a-z], )?--(warmup|duration|producers|output|format|list)' '$OUT'"
check "-h BENCH points to mapbench --help for the global options" \
	bash -c "tail -n1 '$OUT' | grep -q 'Global options.*: mapbench --help$'"
expect_rc 0 "-h with two benches" -h bpf-loop lpm-trie-lookup
check "-h BENCH BENCH: each bench's options, no global option" bash -c \
	"grep -q -- --nr_loops '$OUT' && grep -q -- --prefix_len '$OUT' && ! grep -q -- '--warmup' '$OUT'"
expect_usage "unknown bench 'bpf-nop'; did you mean bpf-noop" -h bpf-nop

# The fuzzers' dictionaries name every bench, option and value (--list, --help: made by the fuzz
# build from its binary) and every document key (docs/*.schema.json: committed).
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/scripts/fuzz-dict.sh" cli "$MAPBENCH" >"$TMP/cli.dict" 2>"$ERR"
rc=$?
check "scripts/fuzz-dict.sh cli MAPBENCH writes a dictionary" \
	bash -c "[ $rc -eq 0 ] && [ -s '$TMP/cli.dict' ]"
{
	"$MAPBENCH" --list | sed -n 's/^- \([a-z0-9-]*\) .*/\1/p'
	"$MAPBENCH" --help | grep -oE -- '--[a-zA-Z0-9_-]+'
} | sort -u | sed 's/.*/"&"/' >"$TMP/words"
check "the cli dictionary names every bench of --list and every option of --help" \
	bash -c "[ -s '$TMP/words' ] &&
	 sort -u '$TMP/cli.dict' | comm -23 '$TMP/words' - | cmp -s - /dev/null"
check "tests/fuzz/doc.dict is current (scripts/fuzz-dict.sh doc > tests/fuzz/doc.dict)" \
	bash -c "'$root/scripts/fuzz-dict.sh' doc | cmp -s - '$root/tests/fuzz/doc.dict'"

# Bad input: one line naming the option, the value and the range; exit 2; nothing run.
expect_usage "--duration 0: must be 1..86400" -d 0 count-local
# -q asks for fewer lines, -v for more: together they are refused, naming both.
expect_usage "-q/--quiet and -v/--verbose: one asks for fewer lines" -q -v count-local
expect_usage "-q/--quiet and -v/--verbose" --quiet --verbose -d1 count-local
expect_usage "sweep: -q/--quiet and -v/--verbose" sweep -q -v bpf-loop --param nr_loops=1,2
expect_usage "--duration 5x: must be 1..86400 (not a number)" -d 5x count-local
expect_usage "--duration x: must be 1..86400 (not a number)" --duration=x count-local
expect_usage "--warmup -1: must be 0..3600 (not a number)" -w -1 count-local
expect_usage "--producers 0: must be 1..256" -p0 count-local
expect_usage "--producers 257: must be 1..256" -p 257 count-local
expect_usage "--producers 99999999999999999999: must be 1..256" -p 99999999999999999999 count-local
expect_usage "--consumers -1: must be 0..256 (not a number)" -c -1 count-local
expect_usage "--interval_ms 5: must be 10..60000" --interval_ms 5 count-local
expect_usage "--format xml: must be one of text, json, csv" --format xml count-local
expect_usage "--prod-affinity -1: must be a CPU list like 0-3,8 (negative CPU number)" --prod-affinity -1 count-local
expect_usage "--prod-affinity 3-1: must be a CPU list like 0-3,8 (reversed range)" --prod-affinity 3-1 count-local
expect_usage "--prod-affinity 1,,2: must be a CPU list like 0-3,8 (empty item)" --prod-affinity 1,,2 count-local
expect_usage "--cons-affinity : must be a CPU list like 0-3,8 (empty list)" --cons-affinity "" count-local
expect_usage "--prod-affinity: CPU 4095 is not online" --prod-affinity 4095 count-local
expect_usage "--prod-affinity: 1 CPUs given for 2 producers" -p2 --prod-affinity 0 count-local
expect_usage "-c/--consumers 1: this bench has no consumers" -c1 count-local
expect_usage "unknown option --no-such" --no-such count-local
expect_usage "unknown option -x" -x count-local
expect_usage "-d/--duration needs a value" count-local -d
expect_usage "--affinity takes no value" --affinity=1 count-local
expect_usage "'sweep' is a subcommand: write it first" -d1 sweep map-lookup --param nr_entries=1k
expect_usage "'compare' is a subcommand: write it first" -q compare a.json b.json
# Each subcommand's help lists its own options with what they do there, and none of a run's.
for verb in sweep compare plot; do
	expect_rc 0 "$verb --help" "$verb" --help
	cp "$OUT" "$TMP/$verb.help"
	check "$verb --help: -h is this help, not bench names" \
		grep -qE -- '^  -h, --help +Show this help$' "$TMP/$verb.help"
	check "$verb --help: no run-only wording (bench names, Iter and Summary lines of a run)" \
		bash -c "! grep -E -- 'with bench names|Only the Iter and Summary' '$TMP/$verb.help'"
	# mapbench -h VERB: the same help, not "write it first".
	expect_rc 0 "-h $verb" -h "$verb"
	check "-h $verb prints $verb --help" cmp -s "$OUT" "$TMP/$verb.help"
done
check "compare --help: no -v (compare has no debug messages)" \
	bash -c "! grep -E -- '-v, --verbose' '$TMP/compare.help'"
check "compare --help: no libbpf" bash -c "! grep -q libbpf '$TMP/compare.help'"
check "plot --help: -o is the chart" grep -qE -- "-o, --output FILE +The chart" "$TMP/plot.help"
expect_usage "compare: --verbose is not an option of compare" compare -v a.json b.json
expect_usage "'sweep' is a subcommand: write it first" -q sweep map-lookup
expect_usage "unknown bench 'bpf-nop'; did you mean bpf-noop" bpf-nop
expect_usage "unknown bench 'zzzzzzzzzzzzzzzz'" zzzzzzzzzzzzzzzz
expect_usage "bpf-loop: --nr_loops 0: must be 1..8388608" bpf-loop --nr_loops 0
expect_usage "--nr_loops: not an option of count-local" count-local --nr_loops 5
expect_usage "--nr_loops needs a value" bpf-loop --nr_loops

# Bench options before the first bench name apply to all; after bench names, to the names
# they follow.
expect_rc 0 "options scoped by position" -w0 -d1 --interval_ms 50 --nr_loops 3 bpf-loop \
	--nr_loops 7 bpf-loop --nr_loops 50 --format json
jq_check "each bench got its own value" "$OUT" '[.results[].params.nr_loops] == [7, 50]'
expect_rc 0 "options after a group of names" -w0 -d1 --interval_ms 50 bpf-loop bpf-loop \
	--nr_loops 9 --format json
jq_check "both benches of the group got it" "$OUT" '[.results[].params.nr_loops] == [9, 9]'
expect_usage "--nr_loops: not an option of count-local (mapbench --help BENCH" \
	bpf-loop --nr_loops 5 count-local --nr_loops 5

# '-' and '_' are interchangeable; --name=value works; short options cluster.
expect_rc 0 "--nr-loops and --interval-ms spellings" bpf-loop --nr-loops=5 -w0 -d1 --interval-ms 50
expect_rc 0 "clustered short flags -aq" -aq -w0 -d1 --interval_ms 50 count-local
check "-q hides the set-up lines" bash -c "! grep -q 'Setting up' $OUT"
check "-q keeps the Summary" grep -q "^Summary:" "$OUT"

finish
