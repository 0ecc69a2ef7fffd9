#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# local-storage-tasks-trace: where the kernel refuses fentry, skipped alone (exit 77, one
# sentence, no sleeper started) and in a list the others run; where it allows fentry, the
# kernel's SUMMARY lines. Everywhere, the run without its grace-period programs (the tests'
# MAPBENCH_LS_TRACE_NO_GP): sleepers up, the storage program counted, then no figure (exit 1),
# also on SIGINT (130), and nothing left behind; bad input refused with one line.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

B=local-storage-tasks-trace
SLEEPER=mb_ls_sleeper

# sleepers_are N PID: PID has N sleepers running.
sleepers_are() { [ "$(pgrep -P "$2" -x "$SLEEPER" | wc -l)" -eq "$1" ]; }

# none_alive FILE: no pid listed in FILE runs any more.
none_alive() {
	local p
	for p in $(cat "$1"); do
		alive "$p" && return 1
	done
	return 0
}

if run "$B" --nr_procs 10; [ "$rc" -eq 77 ]; then
	check "without fentry: one sentence naming what it needs" \
		[ "$(grep -c 'skipped: timing RCU Tasks Trace grace periods needs fentry on rcu_tasks_trace_pregp_step and rcu_tasks_trace_postgp' "$ERR")" -eq 1 ]
	check "without fentry: skipped before any sleeper was started" \
		bash -c "! grep -q 'Spun up' '$OUT' '$ERR'"
	expect_rc 0 "skipped in a list, the other bench runs" "${FAST[@]}" --format json \
		-o "$TMP/list.json" "$B" count-local
	jq_check "the list: this bench skipped with its reason, the other ok" "$TMP/list.json" \
		'[.results[] | {bench, status}] == [{"bench": "'"$B"'", "status": "skipped"},
						   {"bench": "count-local", "status": "ok"}] and
		 (.results[0].reason | test("needs fentry"))'
else
	# A kernel with trampolines: the timed run, never run where this file was written.
	expect_rc 0 "with fentry: runs" -w0 -d2 --interval_ms 500 "$B" --nr_procs 10 \
		-o "$TMP/gp.json"
	check "with fentry: the kernel's SUMMARY line" \
		grep -qP '^SUMMARY tasks_trace grace period latency\tavg [0-9.]+ us\tstddev ([0-9.]+|n/a) us$' \
		"$OUT"
	jq_check "with fentry: grace periods counted, in order" "$TMP/gp.json" \
		'.results[0].extra | .grace_periods > 0 and .gp_unexpected == 0'
fi

# Without the grace-period programs, a long run (30 s) interrupted once its sleepers are up and
# it has sampled: exit 130, every sleeper reaped.
MAPBENCH_LS_TRACE_NO_GP=1 "$MB" -w0 -d300 --interval_ms 100 --format json -o "$TMP/nogp.json" \
	"$B" --nr_procs 12 >"$OUT" 2>"$ERR" &
pid=$!
wait_for "12 sleepers up during the run" $pid sleepers_are 12 $pid
pgrep -P $pid -x "$SLEEPER" >"$TMP/sleepers"
wait_output_line "$OUT" '^Iter 1	 avg tasks_trace grace period latency	n/a ns$' $pid
kill -INT $pid
wait $pid
rc=$?
check "no grace-period programs, interrupted: exit 130 (got $rc)" [ "$rc" -eq 130 ]
check "interrupted: every sleeper reaped" none_alive "$TMP/sleepers"

MAPBENCH_LS_TRACE_NO_GP=1 expect_rc 1 "no grace-period programs: no figure, exit 1" \
	"${FAST[@]}" --format json -o "$TMP/nogp.json" "$B" --nr_procs 12
check "no grace-period programs: one line saying why" \
	[ "$(grep -c 'no grace period was timed: the grace-period programs were left out' "$ERR")" -eq 1 ]
jq_check "no grace-period programs: storage counted, no grace period, no figure" \
	"$TMP/nogp.json" \
	'.results[0] | .status == "failed" and .extra.trigger == "tp_btf/sys_enter" and
	 .extra.nr_procs == 12 and .extra.gp_attach == null and .extra.grace_periods == 0 and
	 .extra.get_fails == 0 and ([.samples[].ops] | add) > 0'
check "no sleeper of any run left" [ "$(pgrep -x "$SLEEPER" | wc -l)" -eq 0 ]
# (a program is freed a while after its process: leftover_bpf waits for that)
check "no program or map left" [ "$(leftover_bpf '^(mb_)?ls_trace')" -eq 0 ]

expect_usage "--nr_procs 0: must be 1..150000" "$B" --nr_procs 0
expect_usage "--nr_procs 150001: must be 1..150000" "$B" --nr_procs 150001
# More sleepers than the kernel's task limits leave: refused before any fork, with the limits.
if [ "$(cat /proc/sys/kernel/pid_max)" -lt 150000 ]; then
	expect_usage "kernel.pid_max $(cat /proc/sys/kernel/pid_max)" "$B" --nr_procs 150000
fi
expect_usage "--kthread_pid 4194305: must be 0..4194304" "$B" --kthread_pid 4194305
expect_usage "--kthread_pid 4194304: must be 0 (none) or a running task's pid" "$B" \
	--kthread_pid 4194304
expect_usage "this bench needs a single producer" -p2 "$B"

finish
