#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The in-kernel loop: which kind ran, said in text and JSON; the kernel's own evidence (the
# translated program, the JIT image) shows no call per op in the may_goto loop, no private
# stack in either loop, and an inlined bpf_loop, or the run warns about it.
. "$(dirname "$0")/lib.sh"

SHORT=(-w0 -d1 --interval_ms 100)
BENCHES=(bpf-noop map-lookup lpm-trie-lookup bloom-lookup map-perf bpf-hashmap-lookup)

expect_rc 0 "bpf-noop --loop auto" "${SHORT[@]}" --loop auto bpf-noop --format json
auto=$(jq -r '.results[0].loop.kind' "$OUT")
jq_check "auto resolves to a kind and says why" "$OUT" \
	'(.results[0].loop.kind | IN("may_goto", "bpf_loop")) and (.results[0].loop.reason | length > 0)'
# A fallback is never silent: it is in the warnings, with its reason.
jq_check "auto: bpf_loop only with a warning that says so" "$OUT" \
	'.results[0].loop.kind == "may_goto" or
	 ([.results[0].warnings[] | select(test("in-kernel loop: .*may_goto"))] | length == 1)'
echo "  info [$NAME] this kernel's loop: $auto"

# The fallback, as on a kernel before 6.9 (the probe is told to report a refusal).
MAPBENCH_REFUSE_MAY_GOTO=1 "$MB" "${SHORT[@]}" bpf-noop --format json >"$OUT" 2>"$ERR"
check "refused probe: the run still works" [ $? -eq 0 ]
jq_check "refused probe: bpf_loop ran" "$OUT" '.results[0].loop.kind == "bpf_loop"'
jq_check "refused probe: the fallback is in the warnings, with its reason" "$OUT" \
	'[.results[0].warnings[] | select(test("in-kernel loop: .*refused a may_goto probe"))] | length == 1'
check "refused probe: the fallback is on stderr" grep -q "refused a may_goto probe" "$ERR"
MAPBENCH_REFUSE_MAY_GOTO=1 "$MB" "${SHORT[@]}" --loop may_goto bpf-noop >"$OUT" 2>"$ERR"
check "refused probe, --loop may_goto: skipped (77)" [ $? -eq 77 ]
check "the skip names the missing instruction" grep -q "may_goto instruction" "$ERR"

kinds=(bpf_loop)
[ "$auto" = may_goto ] && kinds+=(may_goto)

for kind in "${kinds[@]}"; do
	for b in "${BENCHES[@]}"; do
		args=("${SHORT[@]}" --loop "$kind" "$b")
		[ "$b" = map-perf ] && args+=(--test hash_prealloc)
		expect_rc 0 "$b --loop $kind" "${args[@]}" --format json
		jq_check "$b --loop $kind: that kind ran" "$OUT" \
			".results[0].loop.kind == \"$kind\" and .results[0].loop.requested == \"$kind\""
		jq_check "$b --loop $kind: the empty loop's cost is measured" "$OUT" \
			'.results[0].loop.cost_ns > 0 and .results[0].loop_overhead_ns == .results[0].loop.cost_ns'
		# The JIT's own image: a private stack puts a save and restore around every call.
		jq_check "$b --loop $kind: no private stack" "$OUT" \
			'.results[0].loop.private_stack != true'
		if [ "$kind" = may_goto ] && [ "$b" != bpf-hashmap-lookup ]; then
			jq_check "$b --loop may_goto: no call per op in the translated program" "$OUT" \
				'.results[0].loop.subprog_calls == 0'
		fi
		if [ "$kind" = bpf_loop ]; then
			# Inlined, or a warning that says it was not: never a silent helper call.
			jq_check "$b --loop bpf_loop: inlined, or warned" "$OUT" \
				'.results[0].loop.bpf_loop_inlined != false or
				 ([.results[0].warnings[] | select(test("did not inline"))] | length == 1)'
		fi
	done
done

# Text says which loop ran.
expect_rc 0 "bpf-noop text --loop bpf_loop" "${SHORT[@]}" --loop bpf_loop bpf-noop
check "the Latency line names the bpf_loop loop" grep -qE '^Latency: .*; the same loop \(bpf_loop\): [0-9.]+ ns/op' "$OUT"
expect_rc 0 "bpf-noop text --loop auto" "${SHORT[@]}" bpf-noop
check "the Latency line names the loop that ran" grep -qE "^Latency: .*; the same loop \\($auto\\): [0-9.]+ ns/op" "$OUT"

expect_usage "--loop" "${SHORT[@]}" --loop sometimes bpf-noop

# The linearity self-check of the kernel's 2026 method (methodology.md, "Linearity"): N and
# 2N iterations per call after the samples. Its figures are checked, never its verdict: the
# machine's noise decides that.
LIN='.results[0].loop.linearity'
expect_rc 0 "map-lookup: linearity" "${SHORT[@]}" map-lookup --format json
jq_check "map-lookup: the check's N, ratio and medians" "$OUT" \
	"$LIN.n > 0 and $LIN.ratio > 0 and $LIN.median_n_ns > 0 and $LIN.median_2n_ns > 0"
jq_check "map-lookup: the ratio is the medians' (2N over N)" "$OUT" \
	"($LIN.ratio - $LIN.median_2n_ns / $LIN.median_n_ns | if . < 0 then -. else . end) < 1e-9"
jq_check "map-lookup: ok is |ratio - 2| / 2 <= 5 %" "$OUT" \
	"($LIN.ok | type == \"boolean\") and
	 $LIN.ok == (($LIN.ratio - 2 | if . < 0 then -. else . end) / 2 <= 0.05)"
jq_check "map-lookup: a failed check is one warning with its ratio, a passed one none" "$OUT" \
	"(if $LIN.ok then 0 else 1 end) as \$want |
	 [.results[0].warnings[] | select(test(\"^linearity: 2N ops took [0-9.]+ times as long as N \\\\(N=[0-9]+\"))] |
	 length == \$want"
expect_rc 0 "map-lookup -v: linearity line" "${SHORT[@]}" -v map-lookup
check "-v: the Linearity line gives the ratio and N" \
	grep -qE '^Linearity: 2N iterations took [0-9.]+ times as long as N \(N=[0-9]+, median of 5 calls each\)' "$OUT"
expect_rc 0 "map-lookup --no-linearity" "${SHORT[@]}" --no-linearity map-lookup --format json
jq_check "--no-linearity: the loop is reported, the check is not" "$OUT" \
	".results[0].loop != null and $LIN == null"
# Calls that end before N (the range refilled between calls): no ratio rather than a wrong one.
expect_rc 0 "map-insert: no linearity" "${SHORT[@]}" map-insert --format json
jq_check "map-insert: its calls end early: no check" "$OUT" "$LIN == null"
for b in "map-lookup --path syscall" map-scan; do
	# shellcheck disable=SC2086
	expect_rc 0 "$b: another runner" "${SHORT[@]}" $b --format json
	jq_check "$b: not the op loop, no linearity" "$OUT" \
		'.results[0].runner != "kernel-loop" and .results[0].loop.linearity == null'
done

finish
