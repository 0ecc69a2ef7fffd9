#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The localstorage family: the kernel's local storage benches and mapbench's own.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

# local-storage-tasks-trace needs fentry; where the kernel refuses it, alone it exits 77 with
# one sentence, and in a list the other benches run.
if run local-storage-tasks-trace; [ "$rc" -eq 77 ]; then
	check "tasks-trace without fentry: one sentence naming what it needs" \
		grep -q 'needs fentry on rcu_tasks_trace_pregp_step and rcu_tasks_trace_postgp' "$ERR"
	expect_rc 0 "tasks-trace skipped in a list, the other bench runs" "${FAST[@]}" \
		local-storage-tasks-trace count-local
	check "the other bench's Summary is there" grep -q '^Summary:' "$OUT"
else
	check "tasks-trace where fentry loads: skipped with its reason (rc $rc)" [ "$rc" -eq 77 ]
fi
expect_usage "--nr_procs 150001" local-storage-tasks-trace --nr_procs 150001

finish
