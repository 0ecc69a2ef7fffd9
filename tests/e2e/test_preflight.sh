#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The preflight's cpu_busy check against a real competing task: a busy loop on a CPU that the
# run's producers use is found and named, and every verdict follows from what it measured (the
# machine may be busy or quiet: the test judges the check, not the machine).
. "$(dirname "$0")/lib.sh"
# The window a user's run watches, not the tests' shorter one; and a bad value is said once.
unset MAPBENCH_PREFLIGHT_MS

BUSY='.context.preflight.checks[] | select(.check == "cpu_busy")'
ncpu=$(nproc)
last=$(( $(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/online) ))

# busy_verdict_check DESC FILE: a warning exactly when the recorded figures show a busy pinned
# CPU (pinned) or fewer CPUs below the threshold than producers (not pinned).
busy_verdict_check() {
	jq_check "$1" "$2" "[$BUSY] | length == 1 and (.[0] | .measured as \$m |
		(if \$m.pinned then ([\$m.cpus[] | .busy_pct >= \$m.threshold_pct] | any)
		 else \$m.free_cpus < \$m.threads end) == (.status == \"warning\") and
		 \$m.window_ms == 200 and .value >= ([\$m.cpus[].busy_pct] | max // 0))"
}

# ---- whatever else runs: the verdict follows from the figures ----
expect_rc 0 "pinned run" -w0 -d1 --interval_ms 100 --prod-affinity "$last" count-local \
	--format json
schema_check "$OUT"
busy_verdict_check "pinned: the verdict follows from the figures" "$OUT"
jq_check "pinned: the pinned CPU is the one judged" "$OUT" \
	"[$BUSY | .measured.cpus[].cpu] == [$last] and ($BUSY | .measured.pinned)"
expect_rc 0 "unpinned run" -w0 -d1 --interval_ms 100 count-local --format json
busy_verdict_check "unpinned: the verdict follows from the figures" "$OUT"
jq_check "unpinned: every online CPU judged, only busy ones listed" "$OUT" \
	"$BUSY | .measured as \$m | (\$m.pinned | not) and \$m.threads == 1 and
	 \$m.free_cpus == $ncpu - ([\$m.cpus[] | select(.busy_pct >= \$m.threshold_pct)] | length) and
	 ([\$m.cpus[] | .busy_pct >= \$m.threshold_pct] | all)"

# ---- a busy loop on the CPU the producer is pinned to ----
busy_start "$last"
expect_rc 0 "pinned to the busy CPU" -w0 -d1 --interval_ms 100 --prod-affinity "$last" \
	count-local --format json
busy_verdict_check "busy CPU: the verdict follows from the figures" "$OUT"
jq_check "busy CPU: warned, CPU $last measured busy" "$OUT" \
	"$BUSY | .status == \"warning\" and .measured.cpus[0].cpu == $last and
	 .measured.cpus[0].busy_pct >= .measured.threshold_pct and .value == .measured.cpus[0].busy_pct"
jq_check "busy CPU: the message says what was measured" "$OUT" \
	"$BUSY | .measured.cpus[0] as \$c | .message |
	 capture(\"^CPU $last was (?<b>[0-9]+) % busy \\\\(steal (?<s>[0-9]+) %\\\\) over 200 ms before the run\") |
	 ((.b | tonumber) - \$c.busy_pct | fabs) <= 0.5 and ((.s | tonumber) - \$c.steal_pct | fabs) <= 0.5"
jq_check "busy CPU: counted among the warnings" "$OUT" \
	'.context.preflight.warnings == ([.context.preflight.checks[] | select(.status == "warning")] | length)'
check "busy CPU: the warning is printed" grep -qE "^mapbench: warning: preflight: CPU $last was [0-9]+ % busy \(steal [0-9]+ %\) over 200 ms before the run: other tasks compete" "$ERR"

# Unpinned, as many producers as CPUs: one of them is taken.
expect_rc 0 "unpinned, one producer per CPU" -w0 -d1 --interval_ms 100 -p "$ncpu" count-local \
	--format json
jq_check "unpinned: too few idle CPUs, warned" "$OUT" \
	"$BUSY | .status == \"warning\" and .measured.free_cpus < $ncpu and
	 (.message | test(\"CPU $last was [0-9]+ % busy .* of $ncpu online CPUs left for $ncpu producer\"))"
busy_verdict_check "unpinned: the verdict follows from the figures" "$OUT"

# --strict refuses to measure on it.
expect_rc 77 "--strict with a busy pinned CPU" --strict -w0 -d1 --interval_ms 100 \
	--prod-affinity "$last" count-local
check "--strict names the busy CPU" grep -q -- "--strict: refusing to measure: CPU $last was " "$ERR"
check "--strict ran nothing" bash -c "! grep -q Summary $OUT"

# Pinned elsewhere: the busy CPU is not the run's business.
if [ "$ncpu" -ge 2 ]; then
	other=$(awk -F'[-,]' '{ print $1 }' /sys/devices/system/cpu/online)
	expect_rc 0 "pinned to another CPU" -w0 -d1 --interval_ms 100 --prod-affinity "$other" \
		count-local --format json
	jq_check "another CPU: only CPU $other judged" "$OUT" "[$BUSY | .measured.cpus[].cpu] == [$other]"
	busy_verdict_check "another CPU: the verdict follows from the figures" "$OUT"
fi
busy_stop

# The tests' shorter window is recorded as what it was; a value out of range is said, once,
# and the default watched.
MAPBENCH_PREFLIGHT_MS=20 expect_rc 0 "a 20 ms window" -w0 -d1 --interval_ms 100 count-local \
	--format json
jq_check "the 20 ms window is recorded" "$OUT" "[$BUSY | .measured.window_ms] == [20]"
MAPBENCH_PREFLIGHT_MS=5 expect_rc 0 "a window out of range" -w0 -d1 --interval_ms 100 \
	count-local --format json
check "out of range: one warning naming the variable and its range" \
	[ "$(grep -c 'MAPBENCH_PREFLIGHT_MS=5: must be 10..1000 (ms); the preflight watches 200 ms' "$ERR")" -eq 1 ]
jq_check "out of range: the default window is watched" "$OUT" \
	"[$BUSY | .measured.window_ms] == [200]"

finish
