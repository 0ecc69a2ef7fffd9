#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# local-storage-sk-get and -sk-create-delete: socket storage gets (create+delete pairs) in a
# loop inside tp_btf/sock_recv_length, in text, JSON and CSV; the round trip through the
# socket's fd; every op read back hit; the attach point in extra and the text; the refused
# attach point's skip; the refusals; nothing left behind.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

B=local-storage-sk-get

# figures TEXT DOC: the document's figures are the numbers its run's text printed.
figures() {
	/usr/bin/python3 "$ROOT/tests/e2e/figures_check.py" "$1" "$2" >/dev/null
}

# ops_read_back FILE: the text's "Ops read back: N ops, N hits, 0 errors", N > 0.
ops_read_back() {
	awk '/^Ops read back:/ { f = 1; ok = ($4 == $6 && $8 == 0 && $4 > 0) }
	     END { exit !(f && ok) }' "$1"
}

json=$TMP/sk.json
expect_rc 0 "$B runs (2 producers, 3 maps)" "${FAST[@]}" -p2 $B --nr_maps 3 -o "$json"
check "Summary line with the in-kernel ns/op" grep -q '^Summary: throughput .* ns/op$' "$OUT"
check "the round trip: 6 values (3 maps, 2 sockets) equal" \
	grep -qE '^Round trip: 6 values written by BPF.*read back through the producer.s socket fd: equal$' "$OUT"
check "every get read back hit, 0 errors" ops_read_back "$OUT"
check "Storage line with the attach point and the loop" \
	grep -qE '^Storage: sk_storage, 3 maps per owner.*program: tp_btf/sock_recv_length, run by recv\(\).*may_goto loop$' "$OUT"
check "Latency line: in-kernel ns per op" grep -q '^Latency: in-kernel [0-9.]* ns/op' "$OUT"
schema_check "$json"
jq_check "JSON extra: attach point, syscall, round trip, ops read back" "$json" \
	'.results[0] | .status == "ok" and .extra.storage == "sk_storage" and .extra.nr_maps == 3 and
	 .extra.trigger == "tp_btf/sock_recv_length" and .extra.syscall == "recv" and
	 .extra.loop == "may_goto" and .extra.ops_per_call >= 1000 and
	 .extra.round_trip.equal and .extra.round_trip.values_checked == 6 and
	 .extra.ops_checked.errors == 0 and .extra.ops_checked.ops > 0 and
	 .extra.ops_checked.hits == .extra.ops_checked.ops and
	 .summary.totals.hits == .summary.totals.ops and .summary.totals.errors == 0'
jq_check "the ops are gets: a whole number of reads of ops_per_call" "$json" \
	'.results[0].extra | .ops_checked.ops % .ops_per_call == 0'

# create+delete: the same loop, each op a get with F_CREATE and a delete.
C=local-storage-sk-create-delete
expect_rc 0 "$C runs (2 maps)" "${FAST[@]}" $C --nr_maps 2 -o "$TMP/cd.json"
check "$C: every op read back hit, 0 errors" ops_read_back "$OUT"
schema_check "$TMP/cd.json"
jq_check "$C: JSON extra: the pair, the attach point, the round trip" "$TMP/cd.json" \
	'.results[0] | .status == "ok" and (.extra.op | test("^create\\+delete pair")) and
	 .extra.trigger == "tp_btf/sock_recv_length" and .extra.round_trip.values_checked == 2 and
	 .extra.ops_checked.hits == .extra.ops_checked.ops and .extra.ops_checked.errors == 0'
expect_usage "$C: --nr_maps 1001: must be 1..1000" $C --nr_maps 1001

# The figures of the JSON and the CSV are those the text printed.
expect_rc 0 "$B: JSON and CSV with its text" "${FAST[@]}" $B --nr_maps 17 -o "$TMP/f.json" \
	-o "$TMP/f.csv"
check "JSON figures are the text's" figures "$OUT" "$TMP/f.json"
check "CSV figures are the text's" figures "$OUT" "$TMP/f.csv"
expect_rc 0 "$B: CSV on stdout" "${FAST[@]}" $B --format csv
check "CSV rows of its samples and summary" \
	grep -qE "^$B,storage=sk;nr_maps=1,summary,.*,throughput," "$OUT"

# A kernel without tp_btf on sock_recv_length (the env stands in): alone, one sentence, 77.
MAPBENCH_REFUSE_TRIGGER=sock_recv expect_rc 77 "refused attach point: skipped" $B
check "the skip's sentence names the attach point" \
	grep -q "skipped: .*reached from a tp_btf program on sock_recv_length, which this kernel does not accept" "$ERR"
check "local-storage-get --storage sk points here" bash -c \
	"'$MB' local-storage-get --storage sk 2>&1 | grep -q 'use local-storage-sk-get or local-storage-sk-create-delete'"
# The other storage types are local-storage-get's: each bench skips the other's (one sweep over
# storage=task,sk,cgrp runs each type once), and nothing is made first.
expect_rc 77 "--storage task: skipped" -w0 -d1 $B --storage task
check "the skip names the bench that times it" \
	grep -q "skipped: --storage task: .*local-storage-get times the others" "$ERR"
expect_rc 77 "create-delete --storage cgrp: skipped" -w0 -d1 $C --storage cgrp
check "the skip names the bench that times it" \
	grep -q "skipped: --storage cgrp: .*local-storage-create-delete times the others" "$ERR"
expect_usage "$B: --storage x" $B --storage x

expect_usage "$B: --nr_maps 0: must be 1..1000" $B --nr_maps 0
expect_usage "$B: --nr_maps 1001: must be 1..1000" $B --nr_maps 1001
expect_usage "$B: --nr_maps x" $B --nr_maps x

check "no BPF program or map left behind" [ "$(leftover_bpf)" -eq 0 ]

finish
