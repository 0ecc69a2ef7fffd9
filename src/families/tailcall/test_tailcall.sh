#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The tailcall family: each bench once in the in-kernel loop, 32 ops per call, the ops read back
# (the target, the direct callee and the fall-throughs counted what the loop ran), the slot
# update's time, text, JSON and CSV from each run, the bpf_loop skip, the prog_array coverage,
# bad input, nothing left behind.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'
X="$R.extra.ops_checked"

tc_leftovers() {
	leftover_bpf '^mb_tc_'
}
before=$(tc_leftovers)

# What each bench's callees must have counted, in ops of the loop.
declare -A WANT=(
	[prog-array-tail-call]="$X.target_runs == $X.ops and $X.fell_through == 0"
	[prog-array-tail-call-var]="$X.target_runs == $X.ops and $X.fell_through == 0"
	[prog-array-tail-miss]="$X.target_runs == 0 and $X.fell_through == $X.ops"
	[bpf-direct-call]="$X.target_runs == $X.ops and $X.fell_through == 0"
	[bpf-call-empty]="$X.target_runs == 0 and $X.fell_through == 0"
)
benches=$(san_pick prog-array-tail-call prog-array-tail-call-var prog-array-tail-miss \
	bpf-direct-call bpf-call-empty \
	-- prog-array-tail-call prog-array-tail-miss)
for b in $benches; do
	expect_rc 0 "$b" "${FAST[@]}" "$b" -o "$TMP/$b.json" -o "$TMP/$b.csv"
	# The text, on stdout: the stock ops lines.
	check "$b: the text ends with the throughput and latency Summary line" \
		bash -c "tail -n1 $OUT | grep -qE '^Summary: throughput .* latency +[0-9.]+ ns/op'"
	cp "$TMP/$b.json" "$OUT"
	jq_check "$b: in-kernel loop, 32 ops per call, every op did what it says" "$OUT" \
		"$R.runner == \"kernel-loop\" and $R.extra.ops_per_call == 32 and $X.ok and
		 $X.ops > 0 and $X.ops % 32 == 0 and $X.as_expected == $X.ops and
		 $X.ops >= $R.summary.totals.ops and $R.summary.totals.hits == $R.summary.totals.ops and
		 (${WANT[$b]}) and ($R.extra.op | length > 0) and ($R.extra.method | length > 0)"
	warnings_check "$b: warnings are measured machine conditions only" "$OUT"
	check "$b: the CSV has the two sample rows" bash -c \
		"[ \$(awk -F, '\$1 == \"$b\" && \$3 == \"sample\"' $TMP/$b.csv | wc -l) -eq 2 ]"
done
schema_check "$OUT"
jq_check "prog-array-tail-call timed the slot update" "$TMP/prog-array-tail-call.json" \
	"$R.extra.slot_update.updates > 0 and $R.extra.slot_update.ns_per_update > 0"

# prog_array is covered by both tail-call benches.
expect_rc 0 "--map-types" --map-types --format json
jq_check "--map-types lists the tail-call benches for prog_array" "$OUT" \
	'.map_types[] | select(.name == "prog_array") |
	 .benches == ["prog-array-tail-call", "prog-array-tail-call-var", "prog-array-tail-miss"]'

# The verifier refuses a tail call in a bpf_loop callback: the tail-call benches skip there.
expect_rc 77 "prog-array-tail-miss --loop bpf_loop skips" "${FAST[@]}" prog-array-tail-miss \
	--loop bpf_loop
check "the skip says why" grep -q "refuses a tail call in a bpf_loop callback" "$ERR"

expect_usage "--nr_entries: not an option of prog-array-tail-call" \
	prog-array-tail-call --nr_entries 5

check "no tailcall BPF program or map left behind" [ "$(tc_leftovers)" -le "$before" ]

finish
