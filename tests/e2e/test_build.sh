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

make -C "$ROOT" -n PKG_CONFIG="$TMP/libbpf" -W src/main.c build/mapbench >"$OUT" 2>"$ERR"
check "the compile takes pkg-config's --cflags" grep -q -- "-I/mb-test/include .*-c src/main.c" "$OUT"
check "the link takes pkg-config's --libs" grep -q -- "-L/mb-test/lib -lbpf .*-o build/mapbench" "$OUT"

finish
