#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Runs every tests/e2e/test_*.sh (or those named as arguments) against $MAPBENCH.
set -u
cd "$(dirname "$0")/e2e" || exit 1
: "${MAPBENCH:?set MAPBENCH to the mapbench binary}"
if [ "$(id -u)" -ne 0 ]; then
	echo "run-e2e: the end-to-end tests need root (they load BPF programs)" >&2
	exit 77
fi
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(test_*.sh)
failed=()
start=$(date +%s)
for t in "${tests[@]}"; do
	t0=$(date +%s)
	if ! bash "./$(basename "$t")"; then
		failed+=("$t")
	fi
	[ -n "${E2E_TIMES:-}" ] && echo "  time [$t] $(( $(date +%s) - t0 )) s"
done
echo "e2e: ${#tests[@]} files, ${#failed[@]} failed, $(( $(date +%s) - start )) s"
[ ${#failed[@]} -eq 0 ]
