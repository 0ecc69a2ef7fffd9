#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Adding a family is one folder and one line: a copy of the tracked tree gets the demo family of
# tests/fixtures/demo_family/ as src/families/demo/ and MB_FAMILY(demo) in families.def, builds,
# and its mapbench lists and runs demo-noop. The copy starts from build/'s objects where make
# built them, so only what the new family touches compiles (a tree never built compiles all).
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
mkdir "$COPY/src/families/demo"
cp "$ROOT"/tests/fixtures/demo_family/* "$COPY/src/families/demo/"
echo 'MB_FAMILY(demo)' >>"$COPY/src/families/families.def"
git -C "$COPY" add -N src/families/demo
git -C "$COPY" diff --numstat >"$OUT"
nr_files=$(ls "$ROOT/tests/fixtures/demo_family" | wc -l)
if grep -qx '1	0	src/families/families.def' "$OUT" &&
   [ "$(grep -vc '	src/families/demo/' "$OUT")" -eq 1 ] &&
   [ "$(grep -c '	src/families/demo/' "$OUT")" -eq "$nr_files" ]; then
	pass "the change is the new folder ($nr_files files) and one line of families.def"
else
	fail "the change is not the new folder and one line of families.def:"
	sed 's/^/    /' "$OUT"
fi

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

"$DEMO" demo-noop -w0 -d1 >"$OUT" 2>"$ERR"
rc=$?
check "demo-noop -w0 -d1: exit 0 and a Summary line" bash -c \
	"[ $rc -eq 0 ] && grep -q '^Summary: hits' '$OUT'"
"$DEMO" demo-noop -w0 -d1 --interval_ms 100 --format json -o "$TMP/demo.json" >"$OUT" 2>"$ERR"
rc=$?
check "demo-noop --format json: exit 0" [ "$rc" -eq 0 ]
schema_check "$TMP/demo.json"
jq_check "the document holds demo-noop's result, measured in user space" "$TMP/demo.json" \
	'.results | length == 1 and .[0].bench == "demo-noop" and .[0].status == "ok" and
	 .[0].runner == "user" and .[0].summary.totals.ops > 0 and
	 .[0].summary.totals.hits == .[0].summary.totals.ops'

finish
