#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Arena family: arena-alloc and arena-access briefly, text, JSON and CSV, what set-up checked
# (pages BPF marked seen through the mmap, first touches faulted, words read on the other side),
# bad input, and nothing left behind. Skips (77) where the kernel has no arena.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'

ar_leftovers() {
	leftover_bpf '^mb_ar'
}
before=$(ar_leftovers)

# ---- arena-alloc: text on stdout, JSON and CSV to files from one run ----
run "${FAST[@]}" arena-alloc --page_cnt 4 -o "$TMP/alloc.json" -o "$TMP/alloc.csv"
if [ "$rc" -eq 77 ]; then
	echo "  SKIP [$NAME] $(cat "$ERR")"
	exit 77
fi
check "arena-alloc --page_cnt 4: exit 0" [ "$rc" -eq 0 ]
check "arena-alloc: the notes name the arena and the pages seen from user space" bash -c \
	"grep -qE '^Arena: 8 pages \(32768 bytes\), mmapped; op: bpf_arena_alloc_pages \+ bpf_arena_free_pages$' $OUT &&
	 grep -qE '^Checked: 4 pages BPF allocated and marked, seen through the mmap$' $OUT &&
	 grep -qE '^Summary: throughput ' $OUT"
jq_check "arena-alloc: in-kernel time, every allocation succeeded, 4 pages each" "$TMP/alloc.json" \
	"$R.runner == \"syscall-prog\" and $R.summary.totals.ops > 0 and
	 $R.summary.totals.errors == 0 and $R.summary.totals.kernel_ns > 0 and
	 $R.summary.totals.counters.pages == 4 * $R.summary.totals.ops and
	 $R.extra.check.pages_seen == 4 and $R.extra.arena.pages == 8"
schema_check "$TMP/alloc.json"
check "CSV: two sample rows counting 4 pages an op" \
	[ "$(awk -F, '$1 == "arena-alloc" && $3 == "sample" && $7 > 0 &&
		$11 == "pages=" 4 * $7' "$TMP/alloc.csv" | wc -l)" -eq 2 ]

# ---- arena-access: each side and op; the checks of set-up ----
for so in $(san_pick user:read user:write bpf:read bpf:write -- user:write bpf:read); do
	s=${so%%:*} o=${so#*:}
	expect_rc 0 "arena-access --side $s --op $o" "${FAST[@]}" arena-access --pages 64 \
		--side "$s" --op "$o" --format json
	runner=user
	[ "$s" = bpf ] && runner=syscall-prog
	jq_check "arena-access $s $o: 64 pages faulted in once each, words read on the other side, 8 bytes an op" \
		"$OUT" "$R.runner == \"$runner\" and $R.extra.side == \"$s\" and
		 $R.extra.check.first_touch_pages == 64 and
		 $R.extra.check.first_touch_faults >= 64 and
		 $R.extra.check.words_checked == 2 * 64 * 512 and
		 $R.summary.totals.ops > 0 and $R.summary.totals.errors == 0 and
		 $R.summary.totals.counters.bytes == 8 * $R.summary.totals.ops and
		 (($R.summary.totals.kernel_ns > 0) == (\"$s\" == \"bpf\"))"
done

# ---- bad input: one line, exit 2 ----
expect_usage "--page_cnt 0: must be 1..512" arena-alloc --page_cnt 0
expect_usage "--page_cnt 513: must be 1..512" arena-alloc --page_cnt 513
expect_usage "--pages 0: must be 1..65536" arena-access --pages 0
expect_usage "--side kernel: must be one of user, bpf" arena-access --side kernel
expect_usage "--op rw: must be one of read, write" arena-access --op rw
expect_usage "--pages: not an option of arena-alloc" arena-alloc --pages 4

check "no arena BPF program or map left behind" [ "$(ar_leftovers)" -le "$before" ]

finish
