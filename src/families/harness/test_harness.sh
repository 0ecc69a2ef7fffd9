#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The harness benches: output shape, kernel scrapers, sane values, per-producer accounting.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

expect_rc 0 "count-local" -w1 -d3 --interval_ms 200 count-local
check "count-local prints exactly W+D Iter lines" [ "$(grep -c '^Iter ' "$OUT")" -eq 4 ]
check "Iter prefix format" grep -qE '^Iter   0 \( *-?[0-9]+\.[0-9]{3}us\): hits ' "$OUT"
check "Summary is the last line" bash -c "tail -n1 $OUT | grep -q '^Summary: hits'"
hits=$(scrape_hits "$OUT")
check "run_common.sh hits scraper parses the Summary ($hits)" \
	bash -c "[[ '$hits' =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+M/s$ ]]"
total=$(scrape_total "$OUT")
check "run_common.sh total scraper parses the Summary ($total)" \
	bash -c "[[ '$total' =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+M/s$ ]]"

expect_rc 0 "count-global -p2" "${FAST[@]}" -p2 count-global --format json
jq_check "count-global counts operations" "$OUT" '.results[0].summary.throughput.mean > 1e6'

expect_rc 0 "bpf-noop" "${FAST[@]}" -a bpf-noop
ops=$(scrape_ops "$OUT")
lat=$(scrape_latency "$OUT")
check "ops scraper parses bpf-noop ($ops)" bash -c "[[ '$ops' =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+\ M\ ops/s$ ]]"
check "latency scraper parses bpf-noop ($lat)" bash -c "[[ '$lat' =~ ^[0-9]+\.[0-9]+\ ns/op$ ]]"
check "bpf-noop prints the in-kernel latency line" grep -q "^Latency: in-kernel" "$OUT"

expect_rc 0 "bpf-noop json" "${FAST[@]}" -a bpf-noop --format json
jq_check "bpf-noop runs in the kernel loop" "$OUT" '.results[0].runner == "kernel-loop"'
# Sanity, not speed: an empty op costs more than 0 and far less than a syscall.
jq_check "bpf-noop latency is sane (0.1..50 ns)" "$OUT" \
	'.results[0].summary.latency_kernel.mean > 0.1 and .results[0].summary.latency_kernel.mean < 50'
jq_check "loop overhead is measured" "$OUT" '.results[0].loop_overhead_ns > 0'
jq_check "the reference loop ran" "$OUT" '.results[0].summary.latency_reference.mean > 0'
# A sample counts the calls that ended in it, so a call begun in the sample before can take it
# past its own length (seen under SAN=1: 97.5 ms of sample, more of kernel time). The calls'
# in-kernel time lies within the wall time they covered, from one call's end to the next's.
jq_check "in-kernel time never exceeds the wall time its calls covered" "$OUT" \
	'[.results[0].samples[] | .covered_ns > 0 and .kernel_ns <= .covered_ns] | all'

# --net: each sample less the loop's share of an op, measured in that same sample.
expect_usage "--net: this bench is the empty loop" "${FAST[@]}" bpf-noop --net
expect_usage "--net: this bench is the empty loop" "${FAST[@]}" lpm-trie-noop --net
NET=(-w0 -d3 --interval_ms 200 -a --net --format json)
expect_rc 0 "map-lookup --net" "${NET[@]}" map-lookup
jq_check "--net reports the net latency" "$OUT" \
	'.results[0].config.net and (.results[0].summary.latency_kernel_net.mean < .results[0].summary.latency_kernel.mean)'
# Per sample: net = in-kernel ns/op - the sample's reference ns/op / ops per iteration.
net_rel='.results[0] as $r | ($r.params.nr_loops // 1) as $per |
	[$r.samples[] | select(.warmup | not) | .latency_kernel - .reference_ns / $per] as $v |
	(($v | add / length) - $r.summary.latency_kernel_net.mean | fabs) < 1e-6 * ($v | add / length | fabs) + 1e-9'
jq_check "map-lookup --net: the mean of each sample's net figure" "$OUT" "$net_rel"
# The warning appears exactly when the net figure is at or below zero or within 2 standard errors.
net_warn='.results[0] as $r | $r.summary.latency_kernel_net as $n |
	(($n.mean <= 0) or ($n.n > 1 and $n.mean < 2 * $n.stddev / ($n.n | sqrt))) as $noise |
	([$r.warnings[] | select(test("^--net: the net latency"))] | length) == (if $noise then 1 else 0 end)'
jq_check "map-lookup --net: warned exactly when within the noise" "$OUT" "$net_warn"
expect_rc 0 "bpf-loop --net" "${NET[@]}" bpf-loop --nr_loops 10
jq_check "bpf-loop --net: the loop's share is divided over the callback iterations" "$OUT" "$net_rel"
jq_check "bpf-loop --net: warned exactly when within the noise" "$OUT" "$net_warn"

expect_rc 0 "bpf-loop" "${FAST[@]}" -a bpf-loop --nr_loops 100 --format json
jq_check "bpf-loop counts callback iterations" "$OUT" \
	'.results[0].summary.totals.ops == .results[0].extra.helper_calls * 100 or .results[0].extra.helper_calls > 0'
jq_check "bpf-loop ran every callback iteration (no count warning)" "$OUT" \
	'.results[0].warnings | map(test("callback iterations")) | any | not'
warnings_check "bpf-loop: warnings are measured machine conditions only" "$OUT"

# -p2 -a: two producers, each pinned to its own CPU, each counted on its own. How much a
# second producer adds depends on the host (SMT siblings, neighbours, a vCPU's host thread), so
# the checks are the relations every machine keeps: the parts add up to the whole, both ran,
# CPU time and rates agree with the counts.
if [ "$(nproc)" -ge 2 ]; then
	run -w0 -d3 --interval_ms 200 -p2 -a count-local --format json
	cp "$OUT" "$TMP/local2.json"
	jq_check "per-producer results for -p2" "$OUT" '.results[0].producers | length == 2'
	jq_check "producers pinned to distinct CPUs" "$OUT" \
		'.results[0].config.producer_cpus | unique | length == 2'
	jq_check "count-local -p2: per-producer counts add up to each sample's total" "$OUT" \
		'[.results[0].samples[] | .ops == ([.producers[].ops] | add) and .cpu_ns == ([.producers[].cpu_ns] | add)] | all'
	jq_check "count-local -p2: both producers counted in every sample" "$OUT" \
		'[.results[0].samples[].producers[].ops > 0] | all'
	jq_check "count-local -p2: no producer ran longer than the sample (5 % clock slack)" "$OUT" \
		'[.results[0].samples[] | .elapsed_ns as $e | .producers[].cpu_ns <= 1.05 * $e] | all'
	jq_check "CPU share measured" "$OUT" \
		'.results[0].summary.cpu_share.mean > 0 and .results[0].summary.cpu_share.mean <= 1.05'
	jq_check "the CPU share is CPU time over the producers' wall time" "$OUT" \
		'.results[0] | (.summary.cpu_share.mean - ([.samples[] | .cpu_ns / (.elapsed_ns * 2)] | add / length) | fabs) < 1e-6'
	jq_check "per CPU-second: ops over CPU time" "$OUT" \
		'.results[0] | (.summary.throughput_per_cpu.mean / ([.samples[] | .ops * 1e9 / .cpu_ns] | add / length) - 1 | fabs) < 1e-6'
	jq_check "per producer: the total over 2" "$OUT" \
		'.results[0].summary | (.throughput_per_producer.mean * 2 / .throughput.mean - 1 | fabs) < 1e-9'
	jq_check "each producer's rate is its own count" "$OUT" \
		'.results[0] | [range(2) as $i | (.producers[$i].throughput.mean / ([.samples[] | .producers[$i].ops * 1e9 / .elapsed_ns] | add / length) - 1 | fabs) < 1e-6] | all'
	run -w0 -d3 --interval_ms 200 -p2 -a count-global --format json
	jq_check "count-global -p2: one shared counter, counted as a whole" "$OUT" \
		'.results[0] | .summary.totals.ops > 0 and ([.samples[].producers[].ops] | add) == 0 and ([.samples[].ops > 0] | all)'
	jq_check "count-global -p2: both producers ran on distinct CPUs" "$OUT" \
		'.results[0] | (.config.producer_cpus | unique | length == 2) and ([.samples[].producers[].cpu_ns > 0] | all)'
	echo "  info [$NAME] count-local -p2 $(jq '.results[0].summary.throughput_per_cpu.mean' \
		"$TMP/local2.json") ops per CPU-second each, count-global -p2 $(jq \
		'.results[0].summary.throughput_per_cpu.mean' "$OUT")"
fi

# More producers than CPUs: a warning and a flag.
np=$(( $(nproc) + 1 ))
expect_rc 0 "oversubscribed" "${FAST[@]}" -p "$np" count-local --format json
jq_check "oversubscribed flag" "$OUT" '.results[0].config.oversubscribed == true'
check "oversubscription warning" grep -q "producers on .* online CPUs" "$ERR"

finish
