#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Every bench once, briefly, under valgrind memcheck: no invalid access, no definite or
# indirect leak. Not part of make test (slow); make valgrind runs it.
set -u
cd "$(dirname "$0")/.." || exit 1
MB=${MAPBENCH:-build/mapbench}
QUICK=(-w0 -d1 --interval_ms 100)

# Benches whose defaults are slow under valgrind get smaller settings here.
bench_args() {
	case "$1" in
	map-mem) echo --max_entries 1000 --settle_ms 50 --release_timeout_ms 2000 ;;
	*) ;;
	esac
}

fail=0
mapfile -t benches < <("$MB" --list | sed -n 's/^- \([^ ]*\).*/\1/p')
for b in "${benches[@]}"; do
	# shellcheck disable=SC2046
	valgrind -q --suppressions=scripts/valgrind.supp --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect "$MB" -q "${QUICK[@]}" "$b" $(bench_args "$b") \
		>/dev/null 2>/tmp/valgrind.$$.log
	rc=$?
	if [ "$rc" -eq 99 ] || grep -q '^==[0-9]*==' /tmp/valgrind.$$.log; then
		echo "  VALGRIND $b: errors"
		grep '^==' /tmp/valgrind.$$.log | head -n 30
		fail=1
	else
		echo "  VALGRIND $b: clean (exit $rc)"
	fi
done
rm -f /tmp/valgrind.$$.log
exit $fail
