#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Structops family: struct-ops-create and struct-ops-register briefly, text and JSON, what the
# ops read back (maps of the value type, freed at the end; a congestion control usable while
# registered and gone after), bad input, SIGINT, and nothing left behind: BPF objects and
# registered congestion controls.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'
CC=/proc/sys/net/ipv4/tcp_available_congestion_control

so_leftovers() {
	leftover_bpf '^mb_so_'
}
before=$(so_leftovers)
cc_before=$(cat "$CC")

run "${FAST[@]}" struct-ops-create -o "$TMP/create.json"
check "struct-ops-create: exit 0" [ "$rc" -eq 0 ]
check "struct-ops-create: the notes name the value type, the maps read back and freed" bash -c \
	"grep -qE '^Map: struct_ops of bpf_struct_ops_tcp_congestion_ops \([0-9]+-byte value\); [1-9][0-9]* created, [1-9][0-9]* read back, 0 errors; .* freed after ' $OUT &&
	 grep -qE '^Summary: throughput ' $OUT"
jq_check "struct-ops-create: every map read back, the last ones freed, both steps timed, min <= max" \
	"$TMP/create.json" "$R.extra.ops_checked.read_back == $R.extra.ops_checked.ops and
	 $R.extra.ops_checked.ops >= $R.summary.totals.ops and $R.summary.totals.ops > 0 and
	 $R.extra.freed.gone == $R.extra.freed.last_maps and
	 $R.summary.metrics.create_ns.mean > 0 and $R.summary.metrics.close_ns.mean > 0 and
	 $R.extra.create_min_ns <= $R.extra.create_max_ns and
	 $R.summary.totals.counters.create_ns > 0"
schema_check "$TMP/create.json"

run "${FAST[@]}" struct-ops-register --format json
if [ "$rc" -eq 77 ]; then
	check "struct-ops-register skipped with one sentence why" [ "$(wc -l <"$ERR")" -ge 1 ]
else
	check "struct-ops-register: exit 0" [ "$rc" -eq 0 ]
	jq_check "struct-ops-register: each registration usable and gone after, both steps timed, set-up's steps recorded" \
		"$OUT" "$R.extra.ops_checked.usable_then_gone == $R.extra.ops_checked.ops and
		 $R.extra.ops_checked.ops > 0 and $R.extra.ops_checked.errors == 0 and
		 ($R.extra.congestion_control | test(\"^mb_[0-9]+$\")) and
		 $R.summary.metrics.register_ns.mean > 0 and $R.summary.metrics.unregister_ns.mean > 0 and
		 $R.extra.set_up_once.load_us > 0 and $R.extra.set_up_once.update_us > 0"
	interrupt_run -w0 -d100 --interval_ms 100 struct-ops-register
fi

expect_usage "-p/--producers 2: this bench needs a single producer" -p2 struct-ops-create
expect_usage "--nr_entries: not an option of struct-ops-register" struct-ops-register --nr_entries 5

check "no struct_ops BPF program or map left behind" [ "$(so_leftovers)" -le "$before" ]
check "no congestion control left registered ($(cat $CC))" [ "$(cat "$CC")" = "$cc_before" ]

finish
