#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The output's shape stays as it is: the text of the default suite, the JSON of a bench of every
# family and a CSV document have the lines, labels, units, keys and types of the golden files
# tests/golden/*.shape, whatever the measured numbers (tests/e2e/shape.py says what a shape keeps
# and what it leaves out, and why).
#
# A deliberate change of the output updates the golden files (review the diff before committing):
#   MAPBENCH_GOLDEN_UPDATE=1 MAPBENCH=$PWD/build/mapbench ./tests/run-e2e.sh test_shape.sh
# The shapes hold a few things of the machine (the kernel's loop kind, cgroup v1 or v2, whether
# fentry loads): tests/golden/MACHINE names the machine they were made on, and on another one
# this test is skipped (make the golden files there from the unchanged code first).
. "$(dirname "$0")/lib.sh"

GOLDEN=$ROOT/tests/golden
# Short runs that still have a warm-up and a spread (two samples); one sample in SUITE1.
RUN=(-w1 -d2 --interval_ms 100)
RUN1=(-w0 -d1 --interval_ms 100)
# A bench of each family; map-perf is a run split in parts, lpm-trie-free times in the kernel.
JSON_BENCHES=(bpf-noop map-lookup map-perf htab-mem map-mem lpm-trie-lookup lpm-trie-free
	      bloom-false-positive lru-dist)

# What of the machine the shapes show: kernel, architecture, cgroup file system.
machine() {
	echo "$(uname -r) $(uname -m) $(stat -fc %T /sys/fs/cgroup)"
}

UPDATE=${MAPBENCH_GOLDEN_UPDATE:-}
if [ -n "$UPDATE" ]; then
	mkdir -p "$GOLDEN"
	machine >"$GOLDEN/MACHINE"
elif [ "$(cat "$GOLDEN/MACHINE" 2>/dev/null)" != "$(machine)" ]; then
	echo "  SKIP [$NAME] golden shapes made on '$(cat "$GOLDEN/MACHINE" 2>/dev/null)', this is '$(machine)'"
	finish
fi

# shape_check NAME KIND FILE: the KIND (json, text, csv) shape of FILE is tests/golden/NAME.shape.
shape_check() {
	local name=$1 kind=$2 file=$3 shape=$TMP/$1.shape
	if ! /usr/bin/python3 "$ROOT/tests/e2e/shape.py" "$kind" "$file" >"$shape" 2>"$TMP/shape.err"; then
		fail "$name: no shape: $(tail -n 1 "$TMP/shape.err")"
	elif [ -n "$UPDATE" ]; then
		cp "$shape" "$GOLDEN/$name.shape"
		echo "  wrote tests/golden/$name.shape"
		pass "$name: golden file written"
	elif diff -u --label "tests/golden/$name.shape" --label "now" "$GOLDEN/$name.shape" \
		"$shape" >"$TMP/shape.diff"; then
		pass "$name: shape as tests/golden/$name.shape"
	else
		: >"$ERR" # the run's stderr (warnings, progress) says nothing about the shape
		fail "$name: shape differs from tests/golden/$name.shape (- golden, + now; the first 80 lines):"
		head -n 80 "$TMP/shape.diff" | sed 's/^/    /'
	fi
}

# The default suite: no bench names, text on stdout (warnings go to stderr).
expect_rc 0 "default suite" "${RUN[@]}"
cp "$OUT" "$TMP/suite.txt"
shape_check suite.txt text "$TMP/suite.txt"
expect_rc 0 "default suite, one sample" "${RUN1[@]}"
cp "$OUT" "$TMP/suite1.txt"
shape_check suite-one-sample.txt text "$TMP/suite1.txt"

for b in "${JSON_BENCHES[@]}"; do
	expect_rc 0 "$b --format json" "${RUN[@]}" "$b" --format json
	cp "$OUT" "$TMP/$b.json"
	shape_check "$b.json" json "$TMP/$b.json"
done

expect_rc 0 "map-lookup --format csv" "${RUN[@]}" map-lookup --format csv
cp "$OUT" "$TMP/map-lookup.csv"
shape_check map-lookup.csv csv "$TMP/map-lookup.csv"

finish
