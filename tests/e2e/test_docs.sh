#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The docs against the binary: each option table marked "<!-- options of: mapbench ... -->"
# (docs/usage.md: the global options; docs/sweeps.md, docs/compare.md: the subcommands') lists
# exactly the options that help prints; each family of --list has its part of the catalogue,
# src/families/<name>/README.md, with a row for each of its benches and every option they take
# (tests/e2e/doc_options.py); every numeric option range the docs give is the one
# mapbench -h BENCH (or --help) prints (tests/e2e/doc_ranges.py); the whole catalogue that
# scripts/catalogue.sh (make catalogue) makes holds the index and every part; the relative
# links of the docs and the parts lead somewhere (tests/e2e/doc_links.py); the example
# commands of the README and the docs name only benches and options that exist.
. "$(dirname "$0")/lib.sh"

DOCS=("$ROOT"/docs/*.md "$ROOT/README.md")
PARTS=("$ROOT"/src/families/*/README.md)

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

check_options benches "${PARTS[@]}"
check "each family's README names every option of every bench of the family" [ "$rc" -eq 0 ]
show

check_options examples "${DOCS[@]}" "${PARTS[@]}"
check "the commands in the README and docs/ name benches and options that exist" [ "$rc" -eq 0 ]
show

check_ranges "${DOCS[@]}" "${PARTS[@]}"
check "docs/*.md, README.md and the families' READMEs give the ranges mapbench -h prints" \
	[ "$rc" -eq 0 ]
show
checked=$(sed -n 's/^checked \([0-9]*\) mentions$/\1/p' "$OUT")
check "the range check found the documented ranges (${checked:-0} compared, >= 40 expected)" \
	[ "${checked:-0}" -ge 40 ]

# Each family of --list has its part of the catalogue in its folder, src/families/<name>/README.md,
# which starts "## <name>" and has a row for each of its benches.
run --list
while read -r family benches; do
	part=$ROOT/src/families/$family/README.md
	check "src/families/$family/README.md starts with '## $family'" \
		bash -c "[ \"\$(head -n 1 '$part' 2>/dev/null)\" = '## $family' ]"
	for bench in $benches; do
		check "src/families/$family/README.md has a row for $bench" \
			grep -q "^| \`$bench\` |" "$part"
	done
done < <(awk '/^[a-z0-9-]+:$/ { if (f) print f, b; f = substr($0, 1, length($0) - 1); b = "" }
	/^- / { b = b " " $2 } END { if (f) print f, b }' "$OUT")

# The whole catalogue (make catalogue: scripts/catalogue.sh) is the index --list --format md
# prints, then every family's part in the order of families.def, only its link targets
# rewritten; its links, as the docs' and the parts', lead somewhere.
PAGE=$TMP/docs/benchmarks.md
"$ROOT/scripts/catalogue.sh" "$MB" "$PAGE" 2>"$ERR"
rc=$?
check "scripts/catalogue.sh writes the whole catalogue" bash -c "[ $rc -eq 0 ] && [ -s '$PAGE' ]"
if [ "$rc" -eq 0 ]; then
	"$MB" --list --format md >"$TMP/index.md"
	check "the catalogue's index is what mapbench --list --format md prints" bash -c \
		"sed -n '/^<!-- begin: mapbench --list --format md -->$/,/^<!-- end: /p' '$PAGE' |
		 sed '1d;\$d' | cmp -s - '$TMP/index.md'"
	names=$(sed -n 's/^MB_FAMILY(\([a-z0-9_]*\))$/\1/p' "$ROOT/src/families/families.def")
	sed -n 's|^<!-- src/families/\(.*\)/README.md -->$|\1|p' "$PAGE" >"$TMP/order"
	check "the catalogue has every family's part, in the order of families.def" \
		cmp -s "$TMP/order" <(printf '%s\n' $names)
	nolinks() { sed 's/](\([^)]*\))/]()/g'; }
	for name in $names; do
		awk -v m="<!-- src/families/$name/README.md -->" '$0 == m { on = 1; next }
			on && /^<!-- src\/families\// { exit } on' "$PAGE" |
			sed '${/^$/d}' | nolinks >"$TMP/have"
		nolinks <"$ROOT/src/families/$name/README.md" >"$TMP/want"
		check "the catalogue holds src/families/$name/README.md whole" \
			cmp -s "$TMP/have" "$TMP/want"
	done
else
	PAGE=
fi
/usr/bin/python3 "$ROOT/tests/e2e/doc_links.py" "${DOCS[@]}" "${PARTS[@]}" ${PAGE:+"$PAGE"} \
	>"$OUT" 2>"$ERR"
rc=$?
check "the relative links of the docs, the families' READMEs and the catalogue lead somewhere" \
	[ "$rc" -eq 0 ]
show

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

# ... and a link to a file that is not there, or to a heading a page does not have, is found.
mkdir -p "$TMP/links"
printf '# A page\n\n## The `index`\n' >"$TMP/links/page.md"
printf '# Links\n\n[a](page.md#the-index) [b](nothere.md) [c](page.md#nothere)\n' \
	>"$TMP/links/links.md"
/usr/bin/python3 "$ROOT/tests/e2e/doc_links.py" "$TMP/links/links.md" >"$OUT" 2>"$ERR"
rc=$?
check "a link to a missing file or heading is found, a good one is not" bash -c \
	"[ $rc -eq 1 ] && grep -q ':3: nothere.md: no such file' '$OUT' &&
	 grep -q ':3: page.md#nothere: page.md has no heading' '$OUT' &&
	 ! grep -q '#the-index' '$OUT'"

finish
