#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Reuseport family: every bench briefly on TCP and UDP, text and JSON, what the ops read back
# (the slots' cookies, each selection taken by the selected socket), bad input, SIGINT, and
# nothing left behind: BPF objects, and sockets on the runs' ports.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'

rp_leftovers() {
	leftover_bpf '^mb_rp_'
}
before=$(rp_leftovers)
ports=()

# port FILE: the run's port, remembered for the leftover check.
port_of() {
	ports+=("$(jq -r "$R.extra.port" "$1")")
}

# ---- update and lookup: every op succeeded, the slots read back what the ops left ----
run "${FAST[@]}" reuseport-update --nr_entries 8 -o "$TMP/upd.json"
check "reuseport-update: exit 0" [ "$rc" -eq 0 ]
check "reuseport-update: the notes name the group, the ops and the slots read back" bash -c \
	"grep -qE '^Group: 9 tcp sockets on 127.0.0.1:[0-9]+, 8 slots; op: bpf_map_update_elem' $OUT &&
	 grep -qE '^Ops checked: [1-9][0-9]* ops, [1-9][0-9]* ok, 0 errors; slots read back: 8, as the ops left them$' $OUT &&
	 grep -qE '^Summary: throughput ' $OUT"
jq_check "reuseport-update: syscall runner, every op ok, as many as the samples counted or more" \
	"$TMP/upd.json" "$R.runner == \"syscall\" and $R.extra.sockets == 9 and
	 $R.extra.ops_checked.ok == $R.extra.ops_checked.ops and $R.extra.ops_checked.errors == 0 and
	 $R.extra.ops_checked.ops >= $R.summary.totals.ops and $R.summary.totals.ops > 0 and
	 $R.extra.read_back.equal and $R.extra.read_back.slots == 8"
port_of "$TMP/upd.json"
schema_check "$TMP/upd.json"

expect_rc 0 "reuseport-lookup udp, two producers" "${FAST[@]}" -p2 reuseport-lookup --proto udp \
	--nr_entries 4 --format json
jq_check "reuseport-lookup: every lookup returned its slot's cookie, both producers counted" "$OUT" \
	"$R.extra.proto == \"udp\" and $R.extra.sockets == 4 and $R.extra.ops_checked.errors == 0 and
	 ([$R.samples[].producers[] | .ops > 0 and .hits == .ops] | all) and $R.extra.read_back.equal"
port_of "$OUT"

# ---- select: each datagram or connection taken by the socket the program selected ----
for proto in $(san_pick udp tcp -- udp); do
	expect_rc 0 "reuseport-select $proto" "${FAST[@]}" reuseport-select --proto "$proto" \
		--format json
	jq_check "reuseport-select $proto: one program run and selection per op, each socket took what it was selected for, nothing left queued, a helper time below the span" \
		"$OUT" "$R.runner == \"packets\" and $R.extra.proto == \"$proto\" and
		 (.results[0].extra.ops_checked | .ops > 0 and .ok == .ops and .errors == 0 and
		  .program_runs == .ops and .selected == .ops and .select_errors == 0 and
		  .slots_differing == 0 and .left_queued == 0) and
		 $R.summary.metrics.clock_ns.mean > 0 and
		 $R.summary.latency_kernel.mean >= $R.summary.metrics.select_ns.mean and
		 ($R.extra.test_run | type == \"string\")"
	port_of "$OUT"
done

# ---- bad input: one line, exit 2 ----
expect_usage "--nr_entries 0: must be 1..4096" reuseport-update --nr_entries 0
expect_usage "--nr_entries 5000: must be 1..4096" reuseport-select --nr_entries 5000
expect_usage "--proto sctp: must be one of tcp, udp" reuseport-lookup --proto sctp
expect_usage "-p/--producers 2: this bench needs a single producer" -p2 reuseport-update

# ---- SIGINT in the middle of a run: exit 130 ----
interrupt_run -w0 -d100 --interval_ms 100 reuseport-select --proto tcp

# ---- nothing left behind ----
check "no reuseport BPF program or map left behind" [ "$(rp_leftovers)" -le "$before" ]
left=0
for p in "${ports[@]}"; do
	left=$((left + $(ss -Htuan "sport = :$p" | wc -l)))
done
check "no socket left on the runs' ports (${ports[*]})" [ "$left" -eq 0 ]

finish
