#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# xdp-lb: the kernel's 24 scenario names listed; each scenario runs (under the sanitizers a
# few), its check before timing found the verdict, the output packet and the connection-table
# misses the scenario implies, and the per-CPU stats read back agree with the loop's counts;
# the RESULT line names the kernel's scenario; --latency times single packets; bad input and a
# kernel without may_goto.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

# One sample of 100 ms, no linearity check (the -p2 run below makes it): 24 runs, one process.
RUN1=(-w0 -d1 --interval_ms 100 --no-linearity)
F2='(-?[0-9]+\.[0-9]{2})'
RESULT_RE="^RESULT scenario=([^ ]+) samples=([0-9]+) median=$F2 stddev=$F2 cv=$F2 min=$F2 p99=$F2 max=$F2\$"
ALL_JSON=$TMP/all.json

expect_rc 0 "xdp-lb --list-scenarios" xdp-lb --list-scenarios
check "24 scenarios, one a line: a name, then what it does" \
	[ "$(grep -cE '^[a-z0-9-]+ +[A-Za-z].+$' "$OUT")" -eq 24 -a "$(wc -l <"$OUT")" -eq 24 ]
check "the kernel's names, first and last" \
	bash -c "head -n1 '$OUT' | grep -q '^tcp-v4-lru-hit ' && tail -n1 '$OUT' | grep -q '^drop-v6-frag '"
check "a list, not a run" bash -c "! grep -q 'Setting up' '$OUT' '$ERR'"
mapfile -t ALL < <(awk '{ print $1 }' "$OUT")

# Each scenario (a run each, in one process): a figure, the check's findings, the read-back.
read -r -a PICK <<<"$(san_pick "${ALL[@]}" -- tcp-v4-lru-hit tcp-v6-ch tcp-v4-lru-miss \
	pass-non-ip drop-v6-frag)"
args=()
for s in "${PICK[@]}"; do
	args+=(xdp-lb --scenario "$s")
done
expect_rc 0 "${#PICK[@]} scenarios" "${RUN1[@]}" "${args[@]}" --format json -o "$ALL_JSON"
jq_check "one result per scenario, each ok, in the order asked" "$ALL_JSON" \
	"[.results[].params.scenario] == $(printf '%s\n' "${PICK[@]}" | jq -R . | jq -sc .) and
	 ([.results[].status == \"ok\"] | all)"
for s in "${PICK[@]}"; do
	R=".results[] | select(.params.scenario == \"$s\")"
	jq_check "$s: a figure in ns per packet, of packets that all got the scenario's verdict" \
		"$ALL_JSON" \
		"$R | .extra.scenario == \"$s\" and .summary.latency_kernel.mean > 0 and
		 .summary.totals.ops > 0 and .summary.totals.hits == .summary.totals.ops and
		 .summary.totals.errors == 0 and .extra.loop_packets >= .summary.totals.ops and
		 (.extra.verdicts | .tx + .pass + .drop) == .extra.loop_packets"
	jq_check "$s: the check before timing: verdict, output packet and misses as expected" \
		"$ALL_JSON" \
		"$R | .extra.check | .ok and .packets == 64 and .verdict == .expected_verdict and
		 .output_bytes == .expected_output_bytes and .lru_misses == .expected_lru_misses"
	jq_check "$s: the stats' misses are the loop's; the VIP's packets all sent ones" \
		"$ALL_JSON" \
		"$R | .extra.lru.misses == .extra.loop_lru_misses and
		 .extra.lru.packets == .extra.verdicts.tx"
done

# What the scenarios imply, by hand for some (packets: 14 + 20 or 40 + 20 + 16 bytes).
jq_check_by() {
	local s=$1 desc=$2 filter=$3
	[[ " ${PICK[*]} " == *" $s "* ]] || return 0
	jq_check "$s: $desc" "$ALL_JSON" ".results[] | select(.params.scenario == \"$s\") | $filter"
}
jq_check_by tcp-v4-lru-hit "XDP_TX with 20 bytes of IPIP in front, no miss, none timed" \
	'.extra.check.verdict == 3 and .extra.check.output_bytes == 90 and
	 .extra.check.lru_misses == 0 and .extra.lru.misses == 0'
jq_check_by tcp-v6-ch "40 bytes of IPv6 in front, every packet a miss (the VIP bypasses the LRU)" \
	'.extra.check.output_bytes == 130 and .extra.check.lru_misses == 64 and
	 .extra.lru.misses == .extra.loop_packets'
jq_check_by tcp-v4-lru-miss "one miss in the check (the call's new flow), then mostly misses" \
	'.extra.check.lru_misses == 1 and .extra.lru.misses > .extra.loop_packets / 2'
jq_check_by pass-non-ip "XDP_PASS, the packet back as it came, nothing to a VIP" \
	'.extra.check.verdict == 2 and .extra.check.output_bytes == 30 and .extra.lru.packets == 0'
jq_check_by drop-v6-frag "XDP_DROP, no packet out, nothing to a VIP" \
	'.extra.check.verdict == 1 and .extra.check.output_bytes == 0 and
	 .extra.verdicts.drop == .extra.loop_packets and .extra.lru.packets == 0'
schema_check "$ALL_JSON"

# The default scenario, two producers, the linearity check through the XDP call.
expect_rc 0 "xdp-lb -p2" -w0 -d2 --interval_ms 100 -p2 xdp-lb --format json -o "$TMP/p2.json"
jq_check "the default is tcp-v4-lru-hit; both producers' packets read back; N vs 2N timed" \
	"$TMP/p2.json" \
	'.results[0] | .params.scenario == "tcp-v4-lru-hit" and
	 ([.samples[] | .producers[] | .ops > 0] | all) and
	 .extra.verdicts.tx == .extra.loop_packets and .loop.linearity.ratio > 0'

# --machine-readable: the kernel's line, its scenario the kernel's name.
expect_rc 0 "xdp-lb --machine-readable" --machine-readable "${FAST[@]}" xdp-lb \
	--scenario udp-v4-lru-hit
line=$(grep '^RESULT' "$OUT")
scen=
[[ $line =~ $RESULT_RE ]] && scen=${BASH_REMATCH[1]}
check "one RESULT line in the kernel's format, scenario=udp-v4-lru-hit" \
	[ "$(grep -c '^RESULT' "$OUT")" -eq 1 -a "$scen" = udp-v4-lru-hit ]

# --latency: the timed twin of the XDP loop, one packet in 8192 timed on its own, after the
# same check before timing and with the same read-back (status ok). The count is the measured
# samples' packets over 8192 to within a call's timed packets at each end (the histograms are
# read a moment after the counters) and six standard deviations of the random gaps.
LAT_JSON=$TMP/lat.json
expect_rc 0 "xdp-lb --latency" -w1 -d2 --interval_ms 200 --latency xdp-lb \
	--scenario udp-v6-lru-hit -o "$LAT_JSON"
schema_check "$LAT_JSON"
jq_check "packets timed, the check and the read-back passed" "$LAT_JSON" \
	'.results[0] | .status == "ok" and .extra.check.ok and .latency_ns.why == null and
	 .latency_ns.count > 0 and .latency_ns.every == 8192 and .latency_ns.timer_ns > 0'
jq_check "p50 <= p90 <= p99 <= p999 <= max, all above 0" "$LAT_JSON" \
	'.results[0].latency_ns | 0 < .p50 and .p50 <= .p90 and .p90 <= .p99 and
	 .p99 <= .p999 and .p999 <= .max'
jq_check "the buckets add up to count" "$LAT_JSON" \
	'.results[0].latency_ns | (.buckets | length) > 0 and ([.buckets[][2]] | add) == .count'
jq_check "count: the measured packets over 8192, within a call at each end" "$LAT_JSON" \
	'.results[0] | [.samples[] | select(.warmup | not)] as $m
	 | ($m | map(.ops) | add) as $ops | ($m | map(.calls) | add) as $calls
	 | (.latency_ns.count - $ops / 8192 | fabs)
	   <= 2 * ($ops / $calls) / 8192 + 2 + 1.75 * ($ops / 8192 | sqrt)'
check "the text's Per-op line" grep -qE '^Per-op: p50 [0-9.]+, .* timed ops \(1 in 8192\)' "$OUT"

# Bad input, and a kernel without may_goto.
expect_usage "--scenario tcp-v4-bogus" xdp-lb --scenario tcp-v4-bogus
check "the message says where the list is" grep -q -- "--list-scenarios" "$ERR"
expect_usage "--loop bpf_loop" --loop bpf_loop xdp-lb
MAPBENCH_REFUSE_MAY_GOTO=1 expect_rc 77 "xdp-lb without may_goto" "${RUN1[@]}" xdp-lb
check "one sentence: what the kernel lacks" grep -q "may_goto instruction (it needs Linux 6.9" "$ERR"

finish
