#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Runs the end-to-end tests against $MAPBENCH: every tests/e2e/test_*.sh (the binary as a whole
# and the tree) and every src/families/<name>/test_*.sh (a family's own, in its folder), in
# the order of their names, or those named as arguments (a name alone, test_hash.sh, is found
# in either place).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
: "${MAPBENCH:?set MAPBENCH to the mapbench binary}"
if [ "$(id -u)" -ne 0 ]; then
	echo "run-e2e: the end-to-end tests need root (they load BPF programs)" >&2
	exit 77
fi

# find_test NAME: the path of the test file NAME; one of the two places, never both.
find_test() {
	local found=("$root"/tests/e2e/"$1" "$root"/src/families/*/"$1") have=()
	local f
	for f in "${found[@]}"; do
		[ -f "$f" ] && have+=("$f")
	done
	if [ ${#have[@]} -eq 0 ]; then
		echo "run-e2e: $1: no such file in tests/e2e/ or src/families/*/" >&2
		return 1
	elif [ ${#have[@]} -gt 1 ]; then
		echo "run-e2e: $1: ${#have[@]} files of that name (${have[*]#$root/}): a test's" \
			"name must be unique" >&2
		return 1
	fi
	echo "${have[0]}"
}

tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
	tests=($(cd "$root" && ls tests/e2e/test_*.sh src/families/*/test_*.sh |
		 awk -F/ '{ print $NF }' | LC_ALL=C sort))
fi
paths=()
for t in "${tests[@]}"; do
	p=$(find_test "$(basename "$t")") || exit 2
	paths+=("$p")
done
# A file that exits 77 found nothing it could test here (a kernel feature the machine lacks,
# said in its SKIP line): skipped, not failed.
failed=()
skipped=()
start=$(date +%s)
for p in "${paths[@]}"; do
	t=$(basename "$p")
	t0=$(date +%s)
	(cd "$(dirname "$p")" && bash "./$t")
	rc=$?
	if [ "$rc" -eq 77 ]; then
		skipped+=("$t")
	elif [ "$rc" -ne 0 ]; then
		failed+=("$t")
	fi
	[ -n "${E2E_TIMES:-}" ] && echo "  time [$t] $(( $(date +%s) - t0 )) s"
done
echo "e2e: ${#tests[@]} files, ${#failed[@]} failed${failed[*]:+ (${failed[*]})}," \
	"${#skipped[@]} skipped${skipped[*]:+ (${skipped[*]})}, $(( $(date +%s) - start )) s"
[ ${#failed[@]} -eq 0 ]
