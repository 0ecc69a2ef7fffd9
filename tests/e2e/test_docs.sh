#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The docs against the binary: each option table marked "<!-- options of: mapbench ... -->"
# (docs/usage.md: the global options; docs/sweeps.md, docs/compare.md: the subcommands') lists
# exactly the options that help prints, and every bench option is named in its family's
# section of docs/benchmarks.md (tests/e2e/doc_options.py); every numeric option range the
# docs give is the one mapbench -h BENCH (or --help) prints (tests/e2e/doc_ranges.py);
# docs/benchmarks.md is what scripts/catalogue.sh makes of the families' parts and of
# mapbench --list --format md; the example commands of the README and the docs name only
# benches and options that exist.
. "$(dirname "$0")/lib.sh"

DOCS=("$ROOT"/docs/*.md "$ROOT/README.md")

check_ranges() {
	/usr/bin/python3 "$ROOT/tests/e2e/doc_ranges.py" "$MB" "$@" >"$OUT" 2>"$ERR"
	rc=$?
}

check_options() {
	/usr/bin/python3 "$ROOT/tests/e2e/doc_options.py" "$MB" "$@" >"$OUT" 2>"$ERR"
	rc=$?
}

# show: the checker's complaints under a failed check.
show() {
	[ "$rc" -eq 0 ] || sed 's/^/    /' "$OUT" | head -n 20
}

check_options tables "${DOCS[@]}"
check "the marked option tables list exactly the options their help prints" [ "$rc" -eq 0 ]
show
checked=$(sed -n 's/^checked \([0-9]*\) options$/\1/p' "$OUT")
check "the table check found the tables (${checked:-0} options, >= 50 expected)" \
	[ "${checked:-0}" -ge 50 ]
for t in "mapbench --help: Global options" "mapbench sweep --help" "mapbench compare --help" \
	"mapbench plot --help"; do
	check "a table is marked as '$t'" grep -qF -- "<!-- options of: $t" "${DOCS[@]}"
done

check_options benches "$ROOT/docs/benchmarks.md"
check "docs/benchmarks.md names every option of every bench in its family's section" \
	[ "$rc" -eq 0 ]
show

check_options examples "${DOCS[@]}"
check "the commands in the README and docs/ name benches and options that exist" [ "$rc" -eq 0 ]
show

check_ranges "${DOCS[@]}"
check "docs/*.md and README.md give the ranges mapbench -h prints" [ "$rc" -eq 0 ]
show
checked=$(sed -n 's/^checked \([0-9]*\) mentions$/\1/p' "$OUT")
check "the range check found the documented ranges (${checked:-0} compared, >= 40 expected)" \
	[ "${checked:-0}" -ge 40 ]

# docs/benchmarks.md is what scripts/catalogue.sh writes: the index mapbench --list --format md
# makes of the families' descriptors, then each family's part (src/families/<name>/family.md);
# each bench also has its row in its family's section ("## FAMILY"). A change is made in a
# family's part, then: scripts/catalogue.sh build/mapbench > docs/benchmarks.md.
"$ROOT/scripts/catalogue.sh" "$MB" >"$TMP/catalogue.md" 2>"$ERR"
rc=$?
check "docs/benchmarks.md is what scripts/catalogue.sh writes from src/families/*/family.md" \
	bash -c "[ $rc -eq 0 ] && cmp -s '$TMP/catalogue.md' '$ROOT/docs/benchmarks.md'"
[ "$rc" -ne 0 ] || diff "$ROOT/docs/benchmarks.md" "$TMP/catalogue.md" | sed 's/^/    /' | head -n 10
run --list
while read -r family bench; do
	check "docs/benchmarks.md has a row for $bench in '## $family'" awk -v f="$family" -v b="$bench" \
		'/^## / { sec = $2 } sec == f && index($0, "| `" b "`") == 1 { found = 1 }
		END { exit !found }' "$ROOT/docs/benchmarks.md"
done < <(awk '/^[a-z]+:$/ { f = substr($0, 1, length($0) - 1) } /^- / { print f, $2 }' "$OUT")

# The checkers themselves: a range that differs, and one that only names part of the range, fail.
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

# ... and a marked table that lacks an option, or lists one the help does not print, fails.
sed -e '/^| `--strict` /d' -e 's/^| `--net` /| `--netto` /' "$ROOT/docs/usage.md" \
	>"$TMP/usage.md"
check_options tables "$TMP/usage.md"
check "a global option missing from the table is found" \
	bash -c "[ $rc -eq 1 ] && grep -q -- '--strict is in its help, not in the table' '$OUT'"
check "an option the help does not print is found" grep -q -- '--netto is in the table, not' "$OUT"
printf '## harness\n\nnone\n' >"$TMP/cat.md"
check_options benches "$TMP/cat.md"
check "a bench option the catalogue does not name is found" \
	bash -c "[ $rc -eq 1 ] && grep -q -- 'does not name --nr_loops of bpf-loop' '$OUT'"
printf 'Run `mapbench map-lookup --nr_entires 10` or\n\n    mapbench map-lokup -a\n' \
	>"$TMP/ex.md"
check_options examples "$TMP/ex.md"
check "an example with a misspelt option or bench is found" \
	bash -c "[ $rc -eq 1 ] && grep -q -- '--nr_entires' '$OUT' && grep -q 'map-lokup' '$OUT'"

finish
