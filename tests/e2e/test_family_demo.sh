#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Adding a family is one folder and one line: a copy of the tracked tree gets the demo family of
# tests/fixtures/demo_family/ as src/families/demo/ (its C, its BPF, its part of the catalogue,
# README.md, and its own e2e test) and MB_FAMILY(demo) in families.def. The copy builds, make
# catalogue's page and the fuzz dictionary (made, never committed) take the family in, the copy
# passes the tree's own checks (docs, command line, layers, output shapes: adding a family changes
# no other bench's output) and the demo's test, and git sees the folder and the line, nothing
# else. The copy starts from build/'s objects where make built them, so only what the new family
# touches compiles (a tree never built compiles all).
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
git -C "$COPY" init -q && git -C "$COPY" add -A &&
	git -C "$COPY" -c user.name=mapbench -c user.email=mapbench@localhost \
		-c commit.gpgsign=false commit -q --no-verify -m 'the tree'

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

# What is made from the families, never committed, takes the demo in: make catalogue's page ends
# with the demo's part (its links rewritten to lead from build/docs/), the index names it, and
# the fuzz dictionary names its bench.
make -C "$COPY" OUTPUT=build catalogue >"$TMP/make.log" 2>&1
rc=$?
PAGE=$COPY/build/docs/benchmarks.md
check "make catalogue writes the copy's catalogue" bash -c "[ $rc -eq 0 ] && [ -s '$PAGE' ]"
sed 's|](../../../docs/|](../../docs/|' "$FIXTURE/README.md" >"$TMP/part.md"
nr_part=$(wc -l <"$TMP/part.md")
check "the catalogue ends with the demo's part, after the others', its links leading from there" \
	bash -c "tail -n $((nr_part + 2)) '$PAGE' | head -n 2 |
	 cmp -s - <(printf '\n<!-- src/families/demo/README.md -->\n') &&
	 tail -n $nr_part '$PAGE' | cmp -s - '$TMP/part.md' &&
	 grep -q '](../../docs/adding-a-family.md)' '$TMP/part.md' &&
	 [ -f '$COPY/build/docs/../../docs/adding-a-family.md' ]"
check "the catalogue's index has the demo family and demo-noop" bash -c \
	"grep -qF '| [demo](#demo) | a demo: the smallest family | \`demo-noop\` |' '$PAGE' &&
	 grep -qF '| \`demo-noop\` | demo | a user-space count' '$PAGE'"
"$COPY/scripts/fuzz-dict.sh" cli "$DEMO" >"$TMP/cli.dict" 2>"$ERR"
check "the copy's fuzz dictionary names demo-noop" grep -qx '"demo-noop"' "$TMP/cli.dict"
# A family without its part stops the script, naming the file, and no page is written.
mv "$COPY/src/families/demo/README.md" "$TMP/README.md"
"$COPY/scripts/catalogue.sh" "$DEMO" "$TMP/none/page.md" >"$OUT" 2>"$ERR"
rc=$?
mv "$TMP/README.md" "$COPY/src/families/demo/README.md"
check "scripts/catalogue.sh refuses a family without its README.md, writing nothing" bash -c \
	"[ $rc -eq 1 ] && [ ! -s '$OUT' ] && [ ! -e '$TMP/none' ] &&
	 grep -qx 'catalogue: src/families/demo/README.md: no such file .*' '$ERR'"
: >"$ERR"

# The copy passes the tree's checks that a family concerns, then the demo's own test, found
# by its name in its folder as make test finds it.
for t in test_docs.sh test_cli.sh test_layers.sh test_shape.sh test_demo.sh; do
	MAPBENCH=$DEMO "$COPY/tests/run-e2e.sh" "$t" >"$TMP/e2e.log" 2>&1
	rc=$?
	check "the copy passes $t ($(grep -o '[0-9]* checks' "$TMP/e2e.log" | head -n 1))" \
		[ "$rc" -eq 0 ]
	[ "$rc" -eq 0 ] || grep -v '^  ok ' "$TMP/e2e.log" | sed 's/^/    /' | head -n 20
done

# What git sees, after all that: the folder and the line, nothing else (build/ aside, which git
# ignores): no file changed but families.def, by one added line, and none is new outside the
# family's folder.
git -C "$COPY" status --porcelain --untracked-files=all >"$OUT"
nr_files=$(ls "$FIXTURE" | wc -l)
before=$failures
check "git status shows the new folder ($nr_files files) and families.def, nothing else" \
	bash -c "grep -qx ' M src/families/families.def' '$OUT' &&
	 [ \"\$(grep -c '^?? src/families/demo/' '$OUT')\" -eq $nr_files ] &&
	 [ \"\$(wc -l <'$OUT')\" -eq $((nr_files + 1)) ]"
[ "$failures" -eq "$before" ] || sed 's/^/    /' "$OUT"
git -C "$COPY" add -N src/families/demo
git -C "$COPY" diff --numstat >"$OUT"
before=$failures
check "git diff: one line added to families.def, the folder's files, nothing else" \
	bash -c "grep -qx '1	0	src/families/families.def' '$OUT' &&
	 [ \"\$(grep -c '	src/families/demo/' '$OUT')\" -eq $nr_files ] &&
	 [ \"\$(grep -vc '	src/families/demo/' '$OUT')\" -eq 1 ]"
[ "$failures" -eq "$before" ] || sed 's/^/    /' "$OUT"

finish
