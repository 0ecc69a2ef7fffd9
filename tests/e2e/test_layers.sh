#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The structure of src/ (docs/architecture.md): includes and calls go down the layers only,
# no family uses another's files, no circle of calls between files, no function over 80 lines.
# The calls come from the objects of the binary under test (nm), so this checks what was built.
. "$(dirname "$0")/lib.sh"

structure() {
	/usr/bin/python3 "$ROOT/tests/e2e/$1" "${@:2}" >"$OUT" 2>"$ERR"
	rc=$?
}

# After a check of the real tree: what it found.
show() {
	[ "$rc" -eq 0 ] || sed 's/^/    /' "$OUT" | head -n 20
}

structure layers.py includes "$ROOT/src"
check "every include goes to the same layer or one below, never to another family" [ "$rc" -eq 0 ]
show
OBJ=$(dirname "$MB")/obj
if [ -d "$OBJ" ] && command -v nm >/dev/null; then
	structure layers.py calls "$OBJ" "$ROOT/src"
	check "every call goes down the layers, with no circle between files" [ "$rc" -eq 0 ]
	show
else
	echo "  SKIP [$NAME] calls: no objects beside $MB or no nm"
fi
structure func_length.py "$ROOT/src" 80
check "no function of src/ is over 80 lines" [ "$rc" -eq 0 ]
show

# The checkers themselves, on a scratch tree: an include that goes up, a circle, a long function.
mkdir -p "$TMP/src/util" "$TMP/src/core" "$TMP/src/families/a" "$TMP/src/families/b"
echo '#include "core/x.h"' >"$TMP/src/util/up.c"
touch "$TMP/src/core/x.h"
structure layers.py includes "$TMP/src"
check "an include of a layer above is found" bash -c "[ $rc -eq 1 ] && grep -q 'util/up.c:1: includes core/x.h' '$OUT'"
rm "$TMP/src/util/up.c"
echo '#include "families/b/y.h"' >"$TMP/src/families/a/z.c"
touch "$TMP/src/families/b/y.h"
structure layers.py includes "$TMP/src"
check "an include of another family's file is found" [ "$rc" -eq 1 ]
if command -v gcc >/dev/null && command -v nm >/dev/null; then
	mkdir -p "$TMP/obj/core"
	printf 'void b(void);\nvoid a(void);\nvoid a(void) { b(); }\n' >"$TMP/src/core/a.c"
	printf 'void a(void);\nvoid b(void);\nvoid b(void) { a(); }\n' >"$TMP/src/core/b.c"
	gcc -c "$TMP/src/core/a.c" -o "$TMP/obj/core/a.o" && gcc -c "$TMP/src/core/b.c" -o "$TMP/obj/core/b.o"
	structure layers.py calls "$TMP/obj" "$TMP/src"
	check "a circle of calls is found" bash -c "[ $rc -eq 1 ] && grep -q 'circle: core/a.c <-> core/b.c' '$OUT'"
fi
{ echo 'int f(void)'; echo '{'; for i in $(seq 78); do echo "	i$i();"; done; echo '}'; } >"$TMP/src/core/long.c"
structure func_length.py "$TMP/src" 80
check "a function of 81 lines is found" bash -c "[ $rc -eq 1 ] && grep -q 'long.c:1: 81 lines' '$OUT'"

finish
