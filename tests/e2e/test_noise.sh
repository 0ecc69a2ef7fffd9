#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The noise verdicts against real competing load: a busy loop pinned to the producer's CPU, from
# the start, started mid-run, or for a part of the run. Whether a quiet run has flags depends on
# the machine, so those runs only check that each flag and verdict follows from the samples by
# the documented rules (docs/methodology.md, "Noise").
. "$(dirname "$0")/lib.sh"

# The last online CPU: the producer and the busy loop share it.
CPU=$(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/online)

# CPU time (ns) a process has had so far.
cpu_ns_of() {
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f\n", ($14 + $15) * 1e9 / hz }' "/proc/$1/stat"
}

# The preemption ratio is (elapsed x producers - waits) / CPU time; a sample is flagged
# "preempted" exactly when it is above the threshold and the judged figure is a wall-clock rate
# (in-kernel time leaves the lost CPU out: there it is only counted, in noise.lost_cpu).
PREEMPT_RELATION='.results[0] as $r | $r.summary.noise_checks.preempted as $c |
	$r.summary.noise as $n | $c.basis == "cpu" and
	([$r.samples[] | select(.warmup | not) |
	(if .cpu_ns > 0 then (.elapsed_ns * $r.config.producers - .wait_ns) / .cpu_ns else null end)
	as $q | ($q == null and .preempt_ratio == null or
		 (($q - .preempt_ratio) | fabs) <= 1e-6 * $q) and
	(any(.flags[]; . == "preempted") ==
	 ($q != null and $q > $c.threshold and $n.figure == "throughput"))] | all) and
	$n.lost_cpu == ([$r.samples[] | select((.warmup | not) and .preempt_ratio != null and
		.preempt_ratio > $c.threshold)] | length)'
# reference_moved counts the samples whose reference is further than threshold from the run's.
REF_RELATION='.results[0] as $r | $r.summary.noise as $n |
	$r.summary.noise_checks.reference as $c |
	$n.reference_moved == ([$r.samples[] | select(.warmup | not) |
	select(.reference_ns != null and $n.reference_ns != null and
	 ((.reference_ns / $n.reference_ns - 1) | fabs) > $c.threshold)] | length)'
# "outlier" exactly when the judged figure is further than max(MADS scaled MADs, floor) from
# the median (from min_samples samples on); a flagged sample names a cause, the others none;
# the verdict's reasons follow its figures.
VERDICT_RELATION='def median: sort | if length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	.results[0] as $r | $r.summary.noise as $n | $r.summary.noise_checks as $c |
	[$r.samples[] | select(.warmup | not)] as $s |
	[$s[] | if $n.figure == "throughput" then .throughput else .latency_kernel end] as $f |
	($f | median) as $m | ([$f[] | . - $m | fabs] | median) as $mad |
	([range($s | length) | ($f[.] - $m | fabs) as $d |
	  (($s | length) >= $c.outlier.min_samples and $d > $c.outlier.mads * 1.4826 * $mad and
	   $d > $c.outlier.floor * ($m | fabs)) == any($s[.].flags[]; . == "outlier")] | all) and
	([$s[] | ((.flags | length) > 0) == (.cause != null)] | all) and
	(($n.why | index(["spread"]) != null) == ($n.cv != null and $n.cv > $c.noisy.cv)) and
	(($n.why | index(["shift"]) != null) ==
	 ($n.mean_shift != null and ($n.mean_shift | fabs) > $n.shift_bound)) and
	($r.summary.noisy == (($n.why | length) > 0)) and
	($r.summary.noisy_samples == ([$s[] | select((.flags | length) > 0)] | length))'
preempted() {
	jq '[.results[0].samples[] | select(any(.flags[]; . == "preempted"))] | length' "$1"
}

# ---- point 5: syscall- and trigger-driven benches judge by the producer's CPU clock ----
HM=(-w0 -d20 --interval_ms 100 -p1 --prod-affinity "$CPU" htab-mem --format json)
expect_rc 0 "htab-mem, no competing thread" "${HM[@]}" -o "$TMP/hm-quiet.json"
schema_check "$TMP/hm-quiet.json"
jq_check "htab-mem quiet: preempted exactly when wall/CPU > threshold" "$TMP/hm-quiet.json" \
	"$PREEMPT_RELATION"
quiet=$(preempted "$TMP/hm-quiet.json")
echo "  info [$NAME] htab-mem without a competing thread: $quiet of 20 samples preempted"

busy_start "$CPU"
b0=$(cpu_ns_of "$busy_pid")
t0=$(date +%s%N)
expect_rc 0 "htab-mem, a busy loop on the producer's CPU" "${HM[@]}" -o "$TMP/hm-busy.json"
share=$(( ($(cpu_ns_of "$busy_pid") - b0) * 100 / ($(date +%s%N) - t0) ))
busy_stop
check "the busy loop took >= 20 % of CPU $CPU ($share %)" [ "$share" -ge 20 ]
jq_check "htab-mem busy: preempted exactly when wall/CPU > threshold" "$TMP/hm-busy.json" \
	"$PREEMPT_RELATION"
n=$(preempted "$TMP/hm-busy.json")
check "htab-mem busy: >= 18 of 20 samples preempted ($n)" [ "$n" -ge 18 ]

# Every other kind of runner: the same relation, on the same CPU clock.
for b in "bpf-noop" "map-lookup --path syscall" "count-local" "lpm-trie-free --nr_entries 2000"; do
	# shellcheck disable=SC2086
	expect_rc 0 "$b" -w0 -d5 --interval_ms 100 -p1 --prod-affinity "$CPU" $b --format json \
		-o "$TMP/rel.json"
	jq_check "$b: preempted exactly when wall/CPU > threshold" "$TMP/rel.json" \
		"$PREEMPT_RELATION"
	jq_check "$b: flags and verdict follow the judged figure" "$TMP/rel.json" \
		"$VERDICT_RELATION"
done
# Whether the producer waits at all depends on the machine (a short free can be over before
# the wait starts, as seen with a busy loop on each CPU): the waits are only bounded here; their
# accounting is unit-tested (tests/unit/test_noise.c).
jq_check "lpm-trie-free: its waits are within the producer's wall time" "$TMP/rel.json" \
	'.results[0] | .summary.totals.wait_ns >= 0 and
	 .summary.totals.wait_ns <= ([.samples[].elapsed_ns] | add)'
# Producer pairs that sleep for each other's turn.
if [ "$(nproc)" -ge 2 ]; then
	expect_rc 0 "htab-mem add/delete pairs" -w0 -d5 --interval_ms 100 -p2 -a htab-mem \
		--use-case add_del_on_diff_cpu --format json -o "$TMP/pairs.json"
	jq_check "pairs: preempted exactly when (wall - waits)/CPU > threshold" "$TMP/pairs.json" \
		"$PREEMPT_RELATION"
fi

# ---- point 6: the reference, and a load started mid-run ----
expect_rc 0 "bpf-noop" -w0 -d10 --interval_ms 200 -p1 --prod-affinity "$CPU" bpf-noop \
	--format json -o "$TMP/ref.json"
schema_check "$TMP/ref.json"
jq_check "reference_moved counts the samples whose median moved > threshold" "$TMP/ref.json" \
	"$REF_RELATION"
jq_check "bpf-noop: flags and verdict follow the judged figure" "$TMP/ref.json" \
	"$VERDICT_RELATION"
jq_check "several reference calls per sample" "$TMP/ref.json" \
	'[.results[0].samples[] | .reference_calls] | max >= 4'
jq_check "the reference costs < 1 % of the producer's time" "$TMP/ref.json" \
	'.results[0] | .summary.totals.ref_ns < 0.01 * ([.samples[].elapsed_ns] | add)'

# The busy loop starts once sample 2 is printed; every sample after the one still running when
# it has started (the lines printed by then tell which) begins after it. bpf-noop's figure is
# its in-kernel ns/op, which the lost CPU does not enter: reported, never flagged for it.
"$MB" -w0 -d12 --interval_ms 200 -p1 --prod-affinity "$CPU" bpf-noop --format json \
	-o "$TMP/mid.json" >"$OUT" 2>"$ERR" &
pid=$!
wait_output_line "$OUT" '^Iter   2 ' $pid
busy_start "$CPU"
started=$(grep -c '^Iter ' "$OUT")
wait $pid
rc=$?
busy_stop
check "bpf-noop with a load started mid-run exits 0 (got $rc)" [ "$rc" -eq 0 ]
from=$((started + 1))
jq_check "every sample from $from on lost its CPU" "$TMP/mid.json" \
	"[.results[0] | .summary.noise_checks.preempted.threshold as \$t | .samples[] |
	  select(.iter >= $from) | .preempt_ratio > \$t] | all"
jq_check "mid-run load: the lost CPU is counted, not flagged" "$TMP/mid.json" \
	"$PREEMPT_RELATION"
jq_check "mid-run load: reference_moved as the samples say" "$TMP/mid.json" "$REF_RELATION"
jq_check "mid-run load: flags and verdict follow the judged figure" "$TMP/mid.json" \
	"$VERDICT_RELATION"

# ---- a real disturbance of a user-space bench: count-local's rate is its producer's CPU ----
# A busy loop shares the producer's CPU from sample 4 until three whole samples have run beside
# it (started and stopped on the printed lines, however long starting it took on a loaded
# machine): those samples are flagged preempted, and the result is marked noisy. Samples outside
# that span may or may not be flagged (the machine is shared).
"$MB" -w0 -d40 --interval_ms 200 -p1 --prod-affinity "$CPU" count-local --format json \
	-o "$TMP/cl.json" >"$OUT" 2>"$ERR" &
pid=$!
wait_output_line "$OUT" '^Iter   4 ' $pid
busy_start "$CPU"
first=$(( $(grep -c '^Iter ' "$OUT") + 1 ))
wait_output_line "$OUT" "^Iter $(printf '%3d' $((first + 2))) " $pid
last=$(( $(grep -c '^Iter ' "$OUT") - 1 ))
busy_stop
wait $pid
rc=$?
check "count-local with a load on its CPU for a while exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "the load covered whole samples ($first..$last)" [ "$last" -ge "$first" ]
jq_check "count-local: samples $first..$last flagged preempted" "$TMP/cl.json" \
	"[.results[0].samples[] | select(.iter >= $first and .iter <= $last) |
	  any(.flags[]; . == \"preempted\") and .cause == \"preempted\"] | all"
jq_check "count-local: the result is marked noisy" "$TMP/cl.json" '.results[0].summary.noisy'
jq_check "count-local: preempted exactly when wall/CPU > threshold" "$TMP/cl.json" \
	"$PREEMPT_RELATION"
jq_check "count-local: flags and verdict follow the judged figure" "$TMP/cl.json" \
	"$VERDICT_RELATION"
grep -q '^Noise: .*preempted [1-9][0-9]*.*: noisy' "$OUT"
check "count-local: the Noise line names the preempted samples and the verdict" [ $? -eq 0 ]
finish
