#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# local-storage-owners: owners of every kind made and destroyed with 0, 1 and N storages, the
# storages really attached (one update each), refusals, nothing left behind (also on SIGINT).
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

B=local-storage-owners
R='.results[0]'
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
	run_pid "${FAST[@]}" $B --storage $s --nr_maps 4 --format json -o "$TMP/$s.json"
	if [ "$rc" -eq 77 ]; then
		check "$s skipped with one sentence" [ "$(grep -c . "$ERR")" -ge 1 ]
		continue
	fi
	check "$s runs (rc $rc)" [ "$rc" -eq 0 ]
	jq_check "$s: rounds > 0, none failed, 0 + 1 + 4 updates attached storage in each" \
		"$TMP/$s.json" \
		"$R.summary.totals.ops > 0 and $R.summary.totals.errors == 0 and
		 $R.summary.totals.hits == $R.summary.totals.ops and
		 $R.summary.totals.calls == 5 * $R.summary.totals.ops"
	jq_check "$s: ns per owner with 0, 1 and N storages, and per attaching update" \
		"$TMP/$s.json" \
		"[$R.summary.metrics | .owner_ns_0, .owner_ns_1, .owner_ns_n, .attach_ns |
		  .mean > 0] | all"
	jq_check "$s: extra names storage, owner, its fd and nr_maps" "$TMP/$s.json" \
		"$R.extra.storage == \"${s}_storage\" and ($R.extra.owner_fd | length) > 0 and
		 $R.extra.nr_maps == 4"
	check "$s: nothing left behind" nothing_left $pid
done

run_pid "${FAST[@]}" -p2 $B --storage cgrp
check "text: -p2, cgrp (rc $rc)" [ "$rc" -eq 0 ]
check "text: the Owners line sets 0, 1 and 16 storages side by side" \
	grep -qE '^Owners: cgroup .* with no storage [0-9.]+, 1 storage [0-9.]+ \([+-][0-9.]+\), 16 storages [0-9.]+ \([+-][0-9.]+, [+-][0-9.]+ per map\)' "$OUT"
check "text: the Summary line" grep -qE '^Summary: throughput .* latency +[0-9.]+ ns/op$' "$OUT"
check "text: nothing left behind" nothing_left $pid
run_pid "${FAST[@]}" $B --storage sk --format csv
check "csv runs (rc $rc)" [ "$rc" -eq 0 ]
check "csv: sample rows with ops" \
	grep -qE "^$B,storage=sk;nr_maps=16,sample,0,false,[0-9]+,[1-9][0-9]*," "$OUT"
schema_check "$TMP/inode.json"

expect_usage "--nr_maps 1: must be 2..1000" $B --nr_maps 1
expect_usage "--nr_maps 1001: must be 2..1000" $B --nr_maps 1001
expect_usage "--storage hash: must be one of task, sk, cgrp, inode" $B --storage hash

# SIGINT while owners are made and destroyed: exit 130, the site directories removed.
for s in cgrp inode; do
	interrupt_run -w0 -d100 --interval_ms 100 $B --storage $s
	check "$s: nothing left behind after SIGINT" nothing_left $!
done
check "no BPF program or map left behind" [ "$(leftover_bpf)" -le "$before" ]

finish
