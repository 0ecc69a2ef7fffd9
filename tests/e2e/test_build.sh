#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The Makefile: what a fresh machine sees before `make run` installs anything, and the libbpf
# flags the build takes from pkg-config. Dry runs (make -n) only: nothing is built.
. "$(dirname "$0")/lib.sh"

if ! command -v make >/dev/null; then
	echo "  SKIP [$NAME] no make"
	finish
fi

# A pkg-config that knows no libbpf, as on a machine where deps has not run yet.
cat >"$TMP/no-libbpf" <<'SH'
#!/bin/sh
echo "Package libbpf was not found in the pkg-config search path." >&2
exit 1
SH
# A pkg-config that knows libbpf, with flags the build must pass on.
cat >"$TMP/libbpf" <<'SH'
#!/bin/sh
case "$*" in
*--cflags*) echo -I/mb-test/include ;;
*--libs*) echo -L/mb-test/lib -lbpf ;;
esac
SH
chmod +x "$TMP/no-libbpf" "$TMP/libbpf"
# Run from `make SAN=1 e2e`, the outer make's variables (SAN=1: OUTPUT=build-san) would reach
# these makes through the environment: each starts from a clean one.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES SAN FUZZ OUTPUT STATIC

make -C "$ROOT" -n PKG_CONFIG="$TMP/no-libbpf" run >"$OUT" 2>"$ERR"
check "make run without libbpf: no pkg-config message before deps" \
	bash -c "! grep -q 'not found' '$OUT' '$ERR'"
check "make run still installs the packages first" grep -q "install-deps.sh" "$OUT"
make -C "$ROOT" -n PKG_CONFIG="$TMP/no-libbpf" test >"$OUT" 2>"$ERR"
check "make test without libbpf: no pkg-config message" bash -c "! grep -q 'not found' '$OUT' '$ERR'"

make -C "$ROOT" -n PKG_CONFIG="$TMP/libbpf" -W src/commands/main.c build/mapbench >"$OUT" 2>"$ERR"
check "the compile takes pkg-config's --cflags" grep -q -- "-I/mb-test/include .*-c src/commands/main.c" "$OUT"
check "the link takes pkg-config's --libs" grep -q -- "-L/mb-test/lib -lbpf .*-o build/mapbench" "$OUT"

# Per-family rebuilds: after one family's .bpf.c changes, only the objects that include its
# skeleton compile again (their -MMD files say so), then the archive and the link. Needs the
# build/ that make test made first; a tree never built would list every object. version.c is
# left out: it compiles whenever the git revision may have changed, which make -n cannot know.
if [ -f "$ROOT/build/obj/families/hash/hash.d" ]; then
	make -C "$ROOT" -n -W src/families/hash/hash.bpf.c build/mapbench >"$OUT" 2>"$ERR"
	check "touching hash.bpf.c rebuilds its object and skeleton" \
		grep -q "hash.bpf.c -o build/bpf/hash.bpf.o" "$OUT"
	check "touching hash.bpf.c compiles only the hash family's C files" bash -c \
		"grep -o -- '-c src/[^ ]*' '$OUT' | grep -v '^-c src/families/hash/\\|^-c src/util/version.c' | (! grep .)"
	check "touching hash.bpf.c compiles some of them" grep -q -- "-c src/families/hash/" "$OUT"
	check "touching hash.bpf.c relinks" grep -q -- "-o build/mapbench" "$OUT"
	make -C "$ROOT" -n -W src/families/lpm/lpm_trie.bpf.c build/mapbench >"$OUT" 2>"$ERR"
	check "touching lpm_trie.bpf.c compiles only the lpm family's C files" bash -c \
		"grep -o -- '-c src/[^ ]*' '$OUT' | grep -v '^-c src/families/lpm/\\|^-c src/util/version.c' | (! grep .)"
else
	echo "  SKIP [$NAME] per-family rebuilds: build/ was not built by make"
fi

# The tools come from the environment, as docs/usage.md says (make's own default CC is not
# "unset", so CC ?= would never apply).
CC=mb-test-cc CLANG=mb-test-clang BPFTOOL=mb-test-bpftool \
	make -C "$ROOT" -n -B OUTPUT="$TMP/out" "$TMP/out/mapbench" >"$OUT" 2>"$ERR"
check "CC from the environment compiles the C files" grep -q "^mb-test-cc .*-c src/" "$OUT"
check "CLANG from the environment compiles the BPF programs" grep -q "^mb-test-clang .*-target bpf" "$OUT"
check "BPFTOOL from the environment makes vmlinux.h and the skeletons" \
	grep -q "^mb-test-bpftool gen skeleton" "$OUT"
env -u CC make -C "$ROOT" -n -B OUTPUT="$TMP/out" "$TMP/out/mapbench" >"$OUT" 2>"$ERR"
check "without CC the build uses gcc" grep -q "^gcc .*-c src/" "$OUT"

# The embedded BPF objects keep their BTF (CO-RE, the skeletons) but lose the DWARF.
OBJS=$(ls "$(dirname "$MAPBENCH")"/bpf/*.bpf.o 2>/dev/null || true)
if [ -n "$OBJS" ] && command -v llvm-readelf >/dev/null; then
	# One readelf for all of them (a process costs ~85 ms on the test machines); awk names the
	# objects without .BTF and those with a .debug_ section.
	# shellcheck disable=SC2086
	llvm-readelf -S $OBJS >"$OUT" 2>&1
	awk '/^File: / { if (f != "" && !btf) print f; f = $2; btf = 0 }
	     / \.BTF / { btf = 1 }
	     END { if (f != "" && !btf) print f }' "$OUT" >"$TMP/no-btf"
	awk '/^File: / { f = $2 } / \.debug_/ { print f }' "$OUT" | sort -u >"$TMP/dwarf"
	check "every BPF object ($(grep -c '^File: ' "$OUT") of $(echo "$OBJS" | wc -w)) keeps its BTF" \
		bash -c "[ \"\$(grep -c '^File: ' '$OUT')\" -eq $(echo "$OBJS" | wc -w) ] && [ ! -s '$TMP/no-btf' ]"
	if [ -s "$TMP/no-btf" ]; then sed "s/^/    without BTF: /" "$TMP/no-btf"; fi
	check "no BPF object keeps its DWARF" [ ! -s "$TMP/dwarf" ]
	if [ -s "$TMP/dwarf" ]; then sed "s/^/    with DWARF: /" "$TMP/dwarf"; fi
fi

finish
