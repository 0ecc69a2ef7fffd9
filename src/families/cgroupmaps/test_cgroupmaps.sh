#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# cgroupmaps family: both cgroup array benches in text, JSON and CSV, every op's answer read
# back (1 in the cgroup, 0 below it), two producers, the map covered by --map-types, the
# cgroup gone after each run and after SIGINT, no BPF object left behind.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'
before=$(leftover_bpf '^mb_cga_')

# gone FILE: the cgroup the result names is removed.
gone() {
	local dir
	dir=$(jq -r "$R.extra.cgroup // empty" "$1")
	[ -n "$dir" ] && [ ! -e "$dir" ]
}

# UNDER: the ops that answer 1, read back (extra) and in the samples (summary).
declare -A UNDER=([cgroup-array-in]=ops [cgroup-array-out]=0)
for b in cgroup-array-in cgroup-array-out; do
	expect_rc 0 "$b" "${FAST[@]}" "$b" -o "$TMP/$b.json" -o "$TMP/$b.csv"
	check "$b prints the cgroup and the ops read back" bash -c \
		"grep -qE '^Cgroup: /.*/mapbench-[0-9]+-[0-9]+, ' $OUT &&
		 grep -qE '^Ops read back: [1-9][0-9]* ops, [0-9]+ answered 1 \(under\), [0-9]+ answered 0, 0 errors$' $OUT &&
		 tail -n1 $OUT | grep -q '^Summary: throughput'"
	u=0 us=0
	[ "${UNDER[$b]}" = ops ] && u="$R.extra.ops_checked.ops" us="$R.summary.totals.ops"
	jq_check "$b: in-kernel loop, every op answered as due ($u under), each op counted" \
		"$TMP/$b.json" "$R.runner == \"kernel-loop\" and $R.extra.ops_checked.ops > 0 and
		 $R.extra.ops_checked.errors == 0 and $R.extra.ops_checked.under == $u and
		 $R.extra.ops_checked.under + $R.extra.ops_checked.not_under ==
		 $R.extra.ops_checked.ops and $R.extra.ops_checked.ops >= $R.summary.totals.ops and
		 $R.summary.totals.hits == $R.summary.totals.ops and
		 $R.summary.totals.counters.under == $us and
		 $R.summary.metrics.op_ns.mean > 0"
	check "$b: the CSV has the under counter" grep -q 'counters.under' "$TMP/$b.csv"
	check "$b: its cgroup is removed" gone "$TMP/$b.json"
	warnings_check "$b: warnings are measured machine conditions only" "$TMP/$b.json"
done
schema_check "$TMP/cgroup-array-in.json"

if [ "$E2E_SAN" != 1 ]; then
	expect_rc 0 "cgroup-array-in -p2" "${FAST[@]}" -p2 cgroup-array-in --format json
	jq_check "two producers in the cgroup: every op of each answered 1" "$OUT" \
		"($R.samples[0].producers | length) == 2 and
		 $R.extra.ops_checked.under == $R.extra.ops_checked.ops"
	check "-p2: its cgroup is removed" gone "$OUT"
fi

expect_rc 0 "--map-types" --map-types --format json
jq_check "--map-types: cgroup_array is covered by both benches" "$OUT" \
	'[.. | objects | select(.name? == "cgroup_array" and has("benches"))] | length == 1 and
	 (.[0].covered and .[0].benches == ["cgroup-array-in", "cgroup-array-out"])'

# ---- SIGINT with the process in the cgroup: exit 130, the cgroup and the BPF objects gone ----
interrupt_run -w0 -d100 --interval_ms 100 cgroup-array-in
check "the cgroup is removed after SIGINT" bash -c \
	"d=\$(sed -nE 's/^Cgroup: (.*), the producers are in it$/\1/p' $OUT); [ -n \"\$d\" ] && [ ! -e \"\$d\" ]"
check "no cgroup array BPF program or map left behind" \
	[ "$(leftover_bpf '^mb_cga_')" -le "$before" ]

finish
