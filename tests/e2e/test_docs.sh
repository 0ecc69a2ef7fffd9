#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The docs against the binary: every numeric option range docs/benchmarks.md and README.md give
# is the one mapbench -h BENCH (or --help) prints (tests/e2e/doc_ranges.py); the index of
# docs/benchmarks.md is the one mapbench --list --format md prints.
. "$(dirname "$0")/lib.sh"

check_ranges() {
	/usr/bin/python3 "$ROOT/tests/e2e/doc_ranges.py" "$MB" "$@" >"$OUT" 2>"$ERR"
	rc=$?
}

check_ranges "$ROOT/docs/benchmarks.md" "$ROOT/README.md"
check "docs/benchmarks.md and README.md give the ranges mapbench -h prints" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$OUT" | head -n 20
checked=$(sed -n 's/^checked \([0-9]*\) mentions$/\1/p' "$OUT")
check "the range check found the documented ranges (${checked:-0} compared, >= 35 expected)" \
	[ "${checked:-0}" -ge 35 ]

# The index of docs/benchmarks.md is what mapbench --list --format md makes of the families'
# descriptors; each bench also has its row in its family's section ("## FAMILY").
sed -n '/^<!-- begin: mapbench --list --format md -->$/,/^<!-- end: /p' \
	"$ROOT/docs/benchmarks.md" | sed '1d;$d' >"$TMP/index.md"
run --list --format md
check "docs/benchmarks.md's index is current (mapbench --list --format md)" \
	bash -c "[ $rc -eq 0 ] && [ -s '$OUT' ] && cmp -s '$OUT' '$TMP/index.md'"
cmp -s "$OUT" "$TMP/index.md" || diff "$TMP/index.md" "$OUT" | sed 's/^/    /' | head -n 10
run --list
while read -r family bench; do
	check "docs/benchmarks.md has a row for $bench in '## $family'" awk -v f="$family" -v b="$bench" \
		'/^## / { sec = $2 } sec == f && index($0, "| `" b "`") == 1 { found = 1 }
		END { exit !found }' "$ROOT/docs/benchmarks.md"
done < <(awk '/^[a-z]+:$/ { f = substr($0, 1, length($0) - 1) } /^- / { print f, $2 }' "$OUT")

# The checker itself: a range that differs, and one that only names part of the range, fail.
printf '## harness\n\n| bench | options |\n|---|---|\n| `bpf-loop` | `--nr_loops N` (1..999) |\n' \
	>"$TMP/wrong.md"
check_ranges "$TMP/wrong.md"
check "a documented range that differs is found" \
	bash -c "[ $rc -eq 1 ] && grep -q 'wrong.md:5: --nr_loops: the docs say 1..999, mapbench -h prints bpf-loop 1..8388608' '$OUT'"
printf '## hash\n\n| option | default | range |\n|---|---|---|\n| `--key_size B` | 4 | 4..65536 |\n' \
	>"$TMP/wide.md"
check_ranges "$TMP/wide.md"
check "a documented range wider than mapbench's is found" [ "$rc" -eq 1 ]
printf '## lpm\n\n`--prefix_len L` (1..32; 1..128 with `--key_bits 128`)\n' >"$TMP/narrow.md"
check_ranges "$TMP/narrow.md"
check "a range with a narrower case beside the full one agrees" [ "$rc" -eq 0 ]

finish
