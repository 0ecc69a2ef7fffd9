#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Write the whole catalogue of benches as one page: a heading, the index that
# `mapbench --list --format md` makes of the families' descriptors, then each family's own part,
# src/families/<name>/README.md, in the order of src/families/families.def. The page is made,
# never committed (`make catalogue` writes build/docs/benchmarks.md): a family's part is read
# and edited in its folder, and adding a family changes no file outside it but families.def.
#
# A part's relative links lead from its folder; in the page they are rewritten to lead from
# the page's folder, so they still resolve there.
#
# Usage: scripts/catalogue.sh MAPBENCH OUT.md
set -eu
export LC_ALL=C

usage='usage: scripts/catalogue.sh MAPBENCH OUT.md'
bin=${1:?$usage}
out=${2:?$usage}
root=$(cd "$(dirname "$0")/.." && pwd)
fams=$root/src/families

# Everything is read and checked before the page is written: a family without its part stops
# the script with one message, and no page, or a page cut short, is left behind.
index=$("$bin" --list --format md)
names=$(sed -n 's/^MB_FAMILY(\([a-z0-9_]*\))$/\1/p' "$fams/families.def")
for name in $names; do
	part=src/families/$name/README.md
	if [ ! -f "$fams/$name/README.md" ]; then
		echo "catalogue: $part: no such file (the family's part of the catalogue)" >&2
		exit 1
	fi
	if [ "$(head -n 1 "$fams/$name/README.md")" != "## $name" ]; then
		echo "catalogue: $part: its first line must be '## $name'" >&2
		exit 1
	fi
done

mkdir -p "$(dirname "$out")"
dir=$(cd "$(dirname "$out")" && pwd)
tmp=$(mktemp "$dir/.catalogue.XXXXXX")
trap 'rm -f "$tmp"' EXIT

# rebase PREFIX: a part's Markdown with each relative link target (not a URL, not an anchor
# alone, not inside a fenced code block) put behind PREFIX, "a/../" pairs folded.
rebase() {
	awk -v prefix="$1" '
	function fold(p,	n, i, k, seg, keep) {
		n = split(p, seg, "/")
		k = 0
		for (i = 1; i <= n; i++) {
			if (seg[i] == "." || seg[i] == "")
				continue
			if (seg[i] == ".." && k > 0 && keep[k] != "..")
				k--
			else
				keep[++k] = seg[i]
		}
		p = ""
		for (i = 1; i <= k; i++)
			p = p (i > 1 ? "/" : "") keep[i]
		return p
	}
	/^```/ { fence = !fence }
	fence { print; next }
	{
		line = $0
		res = ""
		while (match(line, /\]\([^) ]+\)/)) {
			target = substr(line, RSTART + 2, RLENGTH - 3)
			if (target !~ /^(#|\/|[a-z]+:)/)
				target = fold(prefix "/" target)
			res = res substr(line, 1, RSTART - 1) "](" target ")"
			line = substr(line, RSTART + RLENGTH)
		}
		print res line
	}'
}

rel() { realpath -m --relative-to="$dir" "$1"; }

{
	cat <<EOF
<!-- Made by scripts/catalogue.sh (make catalogue) from src/families/*/README.md; edit those. -->
# Benchmark catalogue

Every bench of this mapbench: the index, then each family's part, as the family's folder holds
it. What the parts have in common, and how the page is made:
[docs/benchmarks.md]($(rel "$root/docs/benchmarks.md")).

## Index

<!-- begin: mapbench --list --format md -->
EOF
	printf '%s\n' "$index"
	echo '<!-- end: mapbench --list --format md -->'
	for name in $names; do
		printf '\n<!-- src/families/%s/README.md -->\n' "$name"
		rebase "$(rel "$fams/$name")" <"$fams/$name/README.md"
	done
} >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
trap - EXIT
