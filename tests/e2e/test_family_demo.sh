#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Adding a family is one folder and one line: a copy of the tracked tree gets the demo family of
# tests/fixtures/demo_family/ as src/families/demo/ (its C, its BPF, its part of the catalogue
# and its own e2e test) and MB_FAMILY(demo) in families.def. The copy builds, its generated
# files are regenerated as the family's author would (the catalogue, the fuzz dictionary), and
# the copy passes the tree's own checks (docs, command line, layers) and the demo's test; git
# sees the folder, the line and the generated files, nothing else. The copy starts from
# build/'s objects where make built them, so only what the new family touches compiles (a tree
# never built compiles all).
. "$(dirname "$0")/lib.sh"

for tool in make clang git; do
	if ! command -v "$tool" >/dev/null; then
		echo "  SKIP [$NAME] no $tool"
		finish
	fi
done
if ! git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "  SKIP [$NAME] $ROOT is not a git checkout (the copy is made of its tracked files)"
	finish
fi

# The tracked files as they are in the working tree (times kept: make then trusts the objects).
COPY=$TMP/tree
mkdir -p "$COPY"
(cd "$ROOT" && git ls-files -z | while IFS= read -r -d '' f; do
	[ -e "$f" ] && printf '%s\0' "$f"
done | xargs -0 cp -a --parents -t "$COPY")
if [ -f "$ROOT/build/obj/families/registry.o" ] && [ -f "$ROOT/build/vmlinux.h" ]; then
	mkdir -p "$COPY/build"
	cp -a "$ROOT/build/vmlinux.h" "$ROOT/build/obj" "$ROOT/build/bpf" "$ROOT/build/skel" \
		"$COPY/build/"
fi
git -C "$COPY" init -q && git -C "$COPY" add -A

# The new family: its folder, and one line in the list.
FIXTURE=$ROOT/tests/fixtures/demo_family
mkdir "$COPY/src/families/demo"
cp -a "$FIXTURE"/* "$COPY/src/families/demo/"
echo 'MB_FAMILY(demo)' >>"$COPY/src/families/families.def"

# As in test_build: the outer make's variables (SAN=1 under make SAN=1 e2e) stay out.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES SAN FUZZ OUTPUT STATIC
t0=$SECONDS
make -C "$COPY" -j2 OUTPUT=build >"$TMP/make.log" 2>&1
mrc=$?
check "the copy builds with the demo family (make -j2, $((SECONDS - t0)) s)" [ "$mrc" -eq 0 ]
[ "$mrc" -eq 0 ] || sed 's/^/    /' "$TMP/make.log" | tail -n 20
check "the build compiled the family's BPF program and C files" bash -c \
	"grep -q 'bpf/demo.bpf.o' '$TMP/make.log' && grep -q 'obj/families/demo/demo.o' '$TMP/make.log' &&
	 grep -q 'obj/families/demo/family.o' '$TMP/make.log'"
DEMO=$COPY/build/mapbench
if [ ! -x "$DEMO" ]; then
	finish
fi

"$DEMO" --list >"$OUT" 2>"$ERR"
check "--list shows demo-noop under its family, after the others" bash -c \
	"[ \"\$(tail -n 2 '$OUT' | sed 's/ .*//' | tr '\n' ' ')\" = 'demo: - ' ] &&
	 tail -n 1 '$OUT' | grep -qE '^- demo-noop +a user-space count'"
check "--list keeps every bench of the tree before it" bash -c \
	"'$MB' --list | cmp -s - <(head -n -2 '$OUT')"

# The generated files, made as the family's author makes them (docs/adding-a-family.md).
(cd "$COPY" && scripts/catalogue.sh build/mapbench >docs/benchmarks.md &&
	scripts/fuzz-dict.sh cli build/mapbench >tests/fuzz/cli.dict) 2>"$ERR"
check "scripts/catalogue.sh and scripts/fuzz-dict.sh regenerate the copy's files" [ $? -eq 0 ]
nr_part=$(wc -l <"$FIXTURE/family.md")
check "the catalogue ends with the demo's part, after the others'" bash -c \
	"tail -n $((nr_part + 2)) '$COPY/docs/benchmarks.md' | head -n 2 |
	 cmp -s - <(printf '\n<!-- src/families/demo/family.md -->\n') &&
	 tail -n $nr_part '$COPY/docs/benchmarks.md' | cmp -s - '$FIXTURE/family.md'"
check "the catalogue's index has the demo family and demo-noop" bash -c \
	"grep -qF '| [demo](#demo) | a demo: the smallest family | \`demo-noop\` |' \
	 '$COPY/docs/benchmarks.md' &&
	 grep -qF '| \`demo-noop\` | demo | a user-space count' '$COPY/docs/benchmarks.md'"
# A family without its part stops the script, naming the file, before it writes a line.
mv "$COPY/src/families/demo/family.md" "$TMP/family.md"
(cd "$COPY" && scripts/catalogue.sh build/mapbench) >"$OUT" 2>"$ERR"
rc=$?
mv "$TMP/family.md" "$COPY/src/families/demo/family.md"
check "scripts/catalogue.sh refuses a family without its family.md, writing nothing" bash -c \
	"[ $rc -eq 1 ] && [ ! -s '$OUT' ] &&
	 grep -qx 'catalogue: src/families/demo/family.md: no such file .*' '$ERR'"
: >"$ERR"

# The copy passes the tree's checks that a family concerns, then the demo's own test, found
# by its name in its folder as make test finds it.
for t in test_docs.sh test_cli.sh test_layers.sh test_demo.sh; do
	MAPBENCH=$DEMO "$COPY/tests/run-e2e.sh" "$t" >"$TMP/e2e.log" 2>&1
	rc=$?
	check "the copy passes $t ($(grep -o '[0-9]* checks' "$TMP/e2e.log" | head -n 1))" \
		[ "$rc" -eq 0 ]
	[ "$rc" -eq 0 ] || grep -v '^  ok ' "$TMP/e2e.log" | sed 's/^/    /' | head -n 20
done

# What git sees, after all that: the folder, the line, and the two generated files, which only
# gain lines; no other file changed, and none new (build/ aside, which git ignores).
git -C "$COPY" add -N src/families/demo
git -C "$COPY" diff --numstat >"$OUT"
nr_files=$(ls "$FIXTURE" | wc -l)
before=$failures
check "git sees the new folder ($nr_files files), one line and the generated files" \
	bash -c "grep -qx '1	0	src/families/families.def' '$OUT' &&
	 grep -qE '^[1-9][0-9]*	0	docs/benchmarks.md$' '$OUT' &&
	 grep -qE '^[1-9][0-9]*	0	tests/fuzz/cli.dict$' '$OUT' &&
	 [ \"\$(grep -c '	src/families/demo/' '$OUT')\" -eq $nr_files ] &&
	 [ \"\$(grep -vc '	src/families/demo/' '$OUT')\" -eq 3 ]"
[ "$failures" -eq "$before" ] || sed 's/^/    /' "$OUT"
git -C "$COPY" status --porcelain --untracked-files=all >"$OUT"
check "no file is new outside the family's folder" bash -c "! grep '^??' '$OUT'"

finish
