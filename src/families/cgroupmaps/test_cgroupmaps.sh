#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# cgroupmaps family: the cgroup array benches (the task's and the packet's helper) in text,
# JSON and CSV, every op's answer read back (1 in the cgroup, 0 below it), two producers on
# one; cgroup-storage-get on both storage types, every call's value read back, the map empty;
# the three types covered by --map-types; the cgroup gone after each run and after SIGINT; bad
# input; no BPF object left behind (only objects no process holds count: a run of another
# test at the same time leaves none).
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'

# gone FILE: the cgroup the result names is removed.
gone() {
	local dir
	dir=$(jq -r "$R.extra.cgroup // empty" "$1")
	[ -n "$dir" ] && [ ! -e "$dir" ]
}

# UNDER: the ops that answer 1, read back (extra) and in the samples (summary).
declare -A UNDER=([cgroup-array-in]=ops [cgroup-array-out]=0 [cgroup-array-skb-in]=ops
		  [cgroup-array-skb-out]=0)
declare -A HELPER=([cgroup-array-in]=bpf_current_task_under_cgroup
		   [cgroup-array-out]=bpf_current_task_under_cgroup
		   [cgroup-array-skb-in]=bpf_skb_under_cgroup [cgroup-array-skb-out]=bpf_skb_under_cgroup)
# Under the sanitizers one: the SIGINT run below is cgroup-array-in's.
for b in $(san_pick cgroup-array-in cgroup-array-out cgroup-array-skb-in cgroup-array-skb-out -- \
	cgroup-array-skb-out); do
	# cgroup-array-out runs with two producers, each of whose ops must answer 0.
	np=1
	[ "$b" = cgroup-array-out ] && np=2
	expect_rc 0 "$b -p$np" "${FAST[@]}" -p$np "$b" -o "$TMP/$b.json" -o "$TMP/$b.csv"
	check "$b prints the cgroup and the ops read back" bash -c \
		"grep -qE '^Cgroup: /.*/mapbench-[0-9]+-[0-9]+, .*; asked by ${HELPER[$b]}$' $OUT &&
		 grep -qE '^Ops read back: [1-9][0-9]* ops, [0-9]+ answered 1 \(under\), [0-9]+ answered 0, 0 errors$' $OUT &&
		 tail -n1 $OUT | grep -q '^Summary: throughput'"
	u=0 us=0
	[ "${UNDER[$b]}" = ops ] && u="$R.extra.ops_checked.ops" us="$R.summary.totals.ops"
	jq_check "$b: in-kernel loop, every op answered as due ($u under), each op counted" \
		"$TMP/$b.json" "$R.runner == \"kernel-loop\" and $R.extra.ops_checked.ops > 0 and
		 $R.extra.helper == \"${HELPER[$b]}\" and
		 $R.extra.ops_checked.errors == 0 and $R.extra.ops_checked.under == $u and
		 $R.extra.ops_checked.under + $R.extra.ops_checked.not_under ==
		 $R.extra.ops_checked.ops and $R.extra.ops_checked.ops >= $R.summary.totals.ops and
		 $R.summary.totals.hits == $R.summary.totals.ops and
		 ([$R.samples[].producers | length == $np] | all) and
		 $R.summary.totals.counters.under == $us and
		 $R.summary.metrics.op_ns.mean > 0"
	check "$b: the CSV has the under counter" grep -q 'counters.under' "$TMP/$b.csv"
	check "$b: its cgroup is removed" gone "$TMP/$b.json"
	warnings_check "$b: warnings are measured machine conditions only" "$TMP/$b.json"
done
schema_check "$TMP/cgroup-array-skb-out.json"

# ---- cgroup storage: test_run's own storage, each call's value equal to its ops ----
for t in $(san_pick cgroup_storage percpu_cgroup_storage -- percpu_cgroup_storage); do
	expect_rc 0 "cgroup-storage-get --map_type $t" "${FAST[@]}" cgroup-storage-get \
		--map_type "$t" -o "$TMP/$t.json"
	check "$t: the notes name the storage and the ops read back" bash -c \
		"grep -qE '^Storage: $t of a cgroup_skb program run by test_run: .*; the map holds 0 keys$' $OUT &&
		 grep -qE '^Ops read back: [1-9][0-9]* ops in ([1-9][0-9]*) calls, the value equal to the call.s ops after \\1, not after 0$' $OUT"
	jq_check "$t: in-kernel loop, every call's value read back equal to its ops, the map empty" \
		"$TMP/$t.json" "$R.runner == \"kernel-loop\" and $R.loop.kind == \"may_goto\" and
		 $R.extra.map_type == \"$t\" and $R.extra.map_entries == 0 and
		 $R.extra.ops_checked.calls > 0 and $R.extra.ops_checked.calls_value_wrong == 0 and
		 $R.extra.ops_checked.calls_value_equal == $R.extra.ops_checked.calls and
		 $R.extra.ops_checked.ops >= $R.summary.totals.ops and $R.summary.totals.ops > 0 and
		 $R.summary.totals.hits == $R.summary.totals.ops and
		 ([$R.samples[].producers | length == $np] | all) and $R.summary.metrics.op_ns.mean > 0"
	warnings_check "$t: warnings are measured machine conditions only" "$TMP/$t.json"
done

expect_rc 0 "--map-types" --map-types --format json
jq_check "--map-types: the three cgroup types are covered by this family's benches" "$OUT" \
	'[.. | objects | select(has("benches") and has("covered"))] as $t |
	 ($t | map(select(.name == "cgroup_array"))[0].benches ==
	  ["cgroup-array-in", "cgroup-array-out", "cgroup-array-skb-in", "cgroup-array-skb-out"]) and
	 ([$t[] | select(.name == "cgroup_storage" or .name == "percpu_cgroup_storage") |
	   .covered and .benches == ["cgroup-storage-get"]] | length == 2 and all)'

# ---- bad input: one line, exit 2 ----
expect_usage "--map_type hash: must be one of cgroup_storage, percpu_cgroup_storage" \
	cgroup-storage-get --map_type hash
expect_usage "-p/--producers 2: this bench needs a single producer" -p2 cgroup-storage-get
expect_usage "-p/--producers 2: this bench needs a single producer" -p2 cgroup-array-skb-in
expect_usage "--map_type: not an option of cgroup-array-in" cgroup-array-in --map_type hash

# ---- SIGINT with the process in the cgroup: exit 130, the cgroup and the BPF objects gone ----
interrupt_run -w0 -d100 --interval_ms 100 cgroup-array-in
check "the cgroup is removed after SIGINT" bash -c \
	"d=\$(sed -nE 's/^Cgroup: (.*), the producers are in it; .*/\1/p' $OUT); [ -n \"\$d\" ] && [ ! -e \"\$d\" ]"
check "no cgroupmaps BPF program or map left behind" \
	[ "$(leftover_bpf '^mb_cg[as]_')" -eq 0 ]

finish
