#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# local-storage-get and local-storage-create-delete: task and cgroup storage in the op loop,
# in text, JSON and CSV; the round trip before timing; the ops read back; the skipped types;
# the refusals; nothing left behind.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

# ops_read_back FILE: the text's "Ops read back: N ops, N hits, 0 errors", N > 0.
ops_read_back() {
	awk '/^Ops read back:/ { f = 1; ok = ($4 == $6 && $8 == 0 && $4 > 0) }
	     END { exit !(f && ok) }' "$1"
}

for bench in local-storage-get local-storage-create-delete; do
	for st in task cgrp; do
		json=$TMP/$bench-$st.json
		# Text on stdout and the JSON document from the same run.
		expect_rc 0 "$bench --storage $st runs" "${FAST[@]}" "$bench" --storage "$st" \
			--nr_maps 3 -o "$json"
		check "$bench $st: Summary line" grep -q '^Summary: throughput .* ns/op$' "$OUT"
		check "$bench $st: the round trip, 3 values equal" \
			grep -qE '^Round trip: 3 values written by BPF.*read back through .*: equal$' "$OUT"
		check "$bench $st: every op read back hit, 0 errors" ops_read_back "$OUT"
		check "$bench $st: Storage line" grep -q "^Storage: ${st}_storage, 3 maps per owner" "$OUT"
		schema_check "$json"
		jq_check "$bench $st: JSON extra" "$json" \
			'.results[0] | .status == "ok" and .extra.storage == "'"$st"'_storage" and
			 .extra.nr_maps == 3 and (.extra.program | test("^raw_tp")) and
			 .extra.round_trip.equal and .extra.round_trip.values_checked == 3 and
			 .extra.ops_checked.errors == 0 and .extra.ops_checked.ops > 0 and
			 .extra.ops_checked.hits == .extra.ops_checked.ops and
			 .summary.totals.hits == .summary.totals.ops and .summary.totals.errors == 0'
	done
done
jq_check "task: the owner is the current task, read through its thread's pidfd" \
	"$TMP/local-storage-get-task.json" \
	'.results[0].extra | .owner == "current task" and (.round_trip.read_by | test("pidfd"))'
jq_check "cgrp: the owner is a cgroup v2 folder, read through its fd" \
	"$TMP/local-storage-get-cgrp.json" \
	'.results[0].extra | (.owner | test("^its cgroup v2 /")) and
	 (.round_trip.read_by | test("cgroup v2 folder"))'
jq_check "create-delete: one op is a create+delete pair" \
	"$TMP/local-storage-create-delete-task.json" '.results[0].extra.op | test("^create\\+delete pair")'

for bench in local-storage-get local-storage-create-delete; do
	expect_rc 0 "$bench: CSV" "${FAST[@]}" "$bench" --storage cgrp --format csv
	check "$bench: CSV rows of its samples and summary" \
		grep -qE "^$bench,storage=cgrp;nr_maps=1,summary,.*,throughput," "$OUT"
done

# The bpf_loop twin of MB_LOOP_PROG_PRE: its callback gets the owner from the stack.
expect_rc 0 "bpf_loop kind runs" "${FAST[@]}" --loop bpf_loop local-storage-get --storage cgrp \
	--nr_maps 2
check "bpf_loop kind: every op read back hit, 0 errors" ops_read_back "$OUT"

# The types the op loop cannot reach: alone, one sentence and exit 77.
expect_rc 77 "--storage sk: skipped" local-storage-get --storage sk
check "sk: its sentence" grep -q 'skipped: --storage sk: a socket.s storage needs a socket' "$ERR"
expect_rc 77 "--storage inode: skipped" local-storage-create-delete --storage inode
check "inode: its sentence, with the BPF LSM's state and how to enable it" \
	grep -qE 'skipped: --storage inode: .*LSM programs only.*(lsm=|BPF LSM is active).*LSM program' "$ERR"

expect_usage "local-storage-get: --nr_maps 0: must be 1..1000" local-storage-get --nr_maps 0
expect_usage "local-storage-create-delete: --nr_maps 1001: must be 1..1000" \
	local-storage-create-delete --nr_maps 1001
expect_usage "--storage foo: must be one of task, sk, cgrp, inode" local-storage-get --storage foo
expect_usage "-p 2: must be 1 with --storage cgrp" -p2 local-storage-create-delete --storage cgrp

check "no BPF program or map left behind" [ "$(leftover_bpf)" -eq 0 ]

finish
