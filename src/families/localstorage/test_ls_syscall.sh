#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# local-storage-syscall: every storage type and op from user space, the round trip before
# timing, JSON and CSV, refusals, and no cgroup directory or file left behind (also on SIGINT).
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

B=local-storage-syscall
R='.results[0]'
# The cgroup v2 mount, as the bench finds it; files go to a temporary directory of this test's.
CG=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
export TMPDIR=$TMP/tmpdir
mkdir -p "$TMPDIR"
before=$(leftover_bpf)

# run_pid ARGS...: run mapbench in the background and wait for it: $rc, and its pid in $pid.
run_pid() {
	"$MB" "$@" >"$OUT" 2>"$ERR" &
	pid=$!
	wait $pid
	rc=$?
}

# nothing_left PID: no site directory of that process under the v2 mount, nothing in TMPDIR.
nothing_left() {
	! compgen -G "$CG/mapbench-$1-*" >/dev/null && [ -z "$(ls -A "$TMPDIR")" ]
}

for s in task sk cgrp inode; do
	for op in lookup update delete; do
		run_pid "${FAST[@]}" $B --storage $s --op $op --format json -o "$TMP/$s-$op.json"
		if [ "$rc" -eq 77 ]; then
			check "$s $op skipped with one sentence" [ "$(grep -c . "$ERR")" -ge 1 ]
			continue
		fi
		check "$s $op runs (rc $rc)" [ "$rc" -eq 0 ]
		jq_check "$s $op: ops > 0, every one succeeded, none failed" "$TMP/$s-$op.json" \
			"$R.summary.totals.ops > 0 and $R.summary.totals.errors == 0 and
			 $R.summary.totals.hits == $R.summary.totals.ops and $R.runner == \"syscall\""
		jq_check "$s $op: the round trip was made, extra names storage, owner and fd" \
			"$TMP/$s-$op.json" \
			"$R.extra.round_trip.user == true and $R.extra.storage == \"${s}_storage\" and
			 ($R.extra.owner | length) > 0 and ($R.extra.owner_fd | length) > 0 and
			 $R.extra.op == \"$op\" and ($R.extra.round_trip.second_fd | length) > 0"
		check "$s $op: nothing left behind" nothing_left $pid
	done
done
jq_check "task: BPF read the value back too (PIDFD_THREAD)" "$TMP/task-lookup.json" \
	"$R.extra.round_trip.bpf == (($R.extra.owner_fd | test(\"PIDFD_THREAD\")))"
jq_check "delete: the clock read inside each delete is reported" "$TMP/sk-delete.json" \
	"$R.extra.clock_read_ns > 0"

# Text and CSV; two producers, each with its own owner; the largest value.
run_pid "${FAST[@]}" -p2 $B --storage cgrp --value_size 65407
check "text: -p2, cgrp, largest value (rc $rc)" [ "$rc" -eq 0 ]
check "text: the Storage line says what keyed what" \
	grep -qE '^Storage: cgrp_storage, value 65407 B, owner a cgroup keyed by .*round trip' "$OUT"
check "text: the kernel's Summary line with ns/op" \
	grep -qE '^Summary: throughput +[0-9.]+ ± +[0-9.n/a]+ M ops/s .*latency +[0-9.]+ ns/op$' "$OUT"
check "text: nothing left behind" nothing_left $pid
run_pid "${FAST[@]}" $B --storage inode --op update --format csv
check "csv runs (rc $rc)" [ "$rc" -eq 0 ]
check "csv: sample rows with ops, params name storage and op" \
	grep -qE "^$B,storage=inode;op=update;value_size=4,sample,0,false,[0-9]+,[1-9][0-9]*," "$OUT"
check "csv: the latency figure" grep -qE "^$B,.*,figure,.*,latency,ns/op," "$OUT"
schema_check "$TMP/task-delete.json"

# Refusals: one line naming option, value and range, exit 2.
expect_usage "--storage hash: must be one of task, sk, cgrp, inode" $B --storage hash
expect_usage "--op get: must be one of lookup, update, delete" $B --op get
expect_usage "--value_size 3: must be 4..65407" $B --value_size 3
expect_usage "--value_size 65408: must be 4..65407" $B --value_size 65408

# SIGINT while timing (the owners are made before the first Iter line): exit 130, the cgroup
# directories and the files removed.
for s in cgrp inode; do
	interrupt_run -w0 -d100 --interval_ms 100 -p2 $B --storage $s
	check "$s: nothing left behind after SIGINT" nothing_left $!
done
check "no BPF program or map left behind" [ "$(leftover_bpf)" -le "$before" ]

finish
