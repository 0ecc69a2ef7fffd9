#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Every format carries the same data under the same names: for every bench (the one-shot ones
# too), the figures of a JSON document and of a CSV document are the numbers the same run's
# text printed (-o FILE writes the document, the text goes to stdout), checked by
# tests/e2e/figures_check.py; both documents have the same figures (names, units, labels). One run
# writes both (-o FILE.json -o FILE.csv), as a user keeping both would.
. "$(dirname "$0")/lib.sh"

# Each bench briefly; the one-shot benches small.
bench_args() {
	case $1 in
	map-mem) echo --map_type hash,percpu_hash,ringbuf --max_entries 4096 ;;
	lru-dist) echo --nr_keys 5000 ;;
	lru-loss) echo --nr_repeats 1000 ;;
	lpm-trie-free) echo --nr_entries 1000 ;;
	map-perf) echo --test hash_prealloc,array_lookup ;;
	esac
}

# figures_check DESC ARGS...: tests/e2e/figures_check.py ARGS succeeds. Queued, and judged
# all at once by figures_check_queued (one python for every check, not three per bench).
figures_check() {
	local IFS=$'\t'
	printf '%s\n' "$*" >>"$TMP/figures-queue"
}

figures_check_queued() {
	local verdict desc said
	[ -s "$TMP/figures-queue" ] || return 0
	/usr/bin/python3 "$ROOT/tests/e2e/figures_check.py" --batch "$TMP/figures-queue" \
		>"$TMP/fc.out" 2>&1
	check "every queued figures check was judged" \
		[ "$(grep -c $'^ok\t\\|^fail\t' "$TMP/fc.out")" -eq "$(wc -l <"$TMP/figures-queue")" ]
	while IFS=$'\t' read -r verdict desc said; do
		if [ "$verdict" = ok ]; then pass "$desc ($said)"; else fail "$desc: $said"; fi
	done <"$TMP/fc.out"
}

# run_formats NAME ARGS...: a run writing its documents to $TMP/NAME.json and $TMP/NAME.csv,
# its text (stdout) to $TMP/NAME.txt. Sets $rc.
run_formats() {
	local name=$1
	shift
	run "$@" -o "$TMP/$name.json" -o "$TMP/$name.csv"
	cp "$OUT" "$TMP/$name.txt"
}

benches=$("$MB" --list | sed -n 's/^- \([a-z0-9-]*\) .*/\1/p')
check "the bench list is read" [ -n "$benches" ]
# Every bench, and the styles only an option reaches: NAME=BENCH OPTION...
runs=($benches "map-lookup-syscall=map-lookup --path syscall"
      "map-insert-batch=map-insert --path batch --batch_size 64"
      "bloom-lookup-p2=-p2 bloom-lookup" "map-lookup-net=--net map-lookup")
for r in "${runs[@]}"; do
	b=${r%%=*}
	# shellcheck disable=SC2207
	if [ "$b" = "$r" ]; then
		args=("${FAST[@]}" "$b" $(bench_args "$b"))
	else
		args=("${FAST[@]}" ${r#*=})
	fi
	run_formats "$b" "${args[@]}"
	if [ "$rc" -eq 77 ]; then
		echo "  SKIP [$NAME] $b: $(tail -n1 "$ERR")"
		continue
	fi
	check "$b: the run exits 0 (got $rc)" [ "$rc" -eq 0 ]
	schema_check "$TMP/$b.json"
	figures_check "$b: the JSON's figures are what its text printed" \
		"$TMP/$b.txt" "$TMP/$b.json"
	figures_check "$b: the CSV's figures are what its text printed" \
		"$TMP/$b.txt" "$TMP/$b.csv"
	figures_check "$b: the JSON and the CSV have the same figures" --keys \
		"$TMP/$b.json" "$TMP/$b.csv"
done

# A one-shot bench's CSV is its table, not a header alone.
for b in map-mem lru-dist lru-loss map-in-map-replace; do
	[ -s "$TMP/$b.csv" ] || continue
	check "$b: the CSV has figure rows" bash -c "grep -q '^$b,.*,figure,' '$TMP/$b.csv'"
	check "$b: the CSV's rows have the header's fields" /usr/bin/python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
sys.exit(not all(len(r) == len(rows[0]) for r in rows))' "$TMP/$b.csv"
done

# The text's names are the figures' names: the streaming benches' "drops" are the misses.
if [ -s "$TMP/rb-custom.json" ]; then
	jq_check "rb-custom: the figure drops is summary.misses" "$TMP/rb-custom.json" \
		'.results[0] | (.figures[] | select(.name == "drops" and .unit == "ops/s") | .value)
			== .summary.misses.mean'
fi

# The empty loop's ops are all hits: the Iter lines' "hits" is summary.hits, and total.
jq_check "bpf-noop: hits, total and throughput are one figure" "$TMP/bpf-noop.json" \
	'.results[0].summary | .hits.mean > 0 and .hits.mean == .throughput.mean and
		.total.mean == .throughput.mean'
jq -r '.results[0].samples[].throughput' "$TMP/bpf-noop.json" >"$TMP/noop.tput"
sed -n 's/^Iter .*: hits *\([0-9.]*\)M\/s .*/\1/p' "$TMP/bpf-noop.txt" >"$TMP/noop.iter"
check "bpf-noop: each Iter line's hits is its sample's throughput" /usr/bin/python3 -c '
import sys
t = [float(x) for x in open(sys.argv[1])]
i = [float(x) for x in open(sys.argv[2])]
sys.exit(not (t and len(t) == len(i) and all(abs(a / 1e6 - b) <= 0.0005 for a, b in zip(t, i))))' \
	"$TMP/noop.tput" "$TMP/noop.iter"

# One sample: the spread is unknown in every format ("± n/a" with a space before the unit,
# null, n/a), and the figures still agree.
for b in bpf-noop count-local htab-mem bpf-hashmap-full-update; do
	args=(-w0 -d1 --interval_ms 100 "$b")
	run_formats "$b-d1" "${args[@]}"
	check "$b -d1: the run exits 0 (got $rc)" [ "$rc" -eq 0 ]
	schema_check "$TMP/$b-d1.json"
	figures_check "$b -d1: the JSON's figures are what its text printed" \
		"$TMP/$b-d1.txt" "$TMP/$b-d1.json"
	jq_check "$b -d1: a figure's spread is null" "$TMP/$b-d1.json" \
		'[.results[0].figures[] | select(has("stddev"))] | length > 0 and all(.stddev == null)'
	figures_check "$b -d1: the CSV's figures are what its text printed" \
		"$TMP/$b-d1.txt" "$TMP/$b-d1.csv"
	check "$b -d1: the text shows '± n/a' apart from its unit" \
		grep -qE '± +n/a (M|k|MiB|M ops)' "$TMP/$b-d1.txt"
done
check "bpf-hashmap-full-update -d1: its own line says '± n/a, 1 sample'" \
	grep -qE '^[0-9]+:hash_map_full_perf [0-9]+ events per sec \(± n/a, 1 sample\)$' \
	"$TMP/bpf-hashmap-full-update-d1.txt"

figures_check_queued
finish
