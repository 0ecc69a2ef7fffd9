#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# user-ringbuf: a known number of records from user-space producers, drained in BPF, every one
# accounted for (received or dropped, none lost or seen twice), with one and two producers; the
# kernel-style Summary line; every bad input.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'
N=200000

ur_leftovers() {
	leftover_bpf '^(mb_ur_(drain|ring|stamps)|user_rin\.(bss|rodata))$'
}
before=$(ur_leftovers)

# ---- a known number of records, every one accounted for ----
for p in 1 2; do
	expect_rc 0 "user-ringbuf -p $p runs" -w0 -d1 --format json -p "$p" user-ringbuf --rb-records $N
	cp "$OUT" "$TMP/p$p.json"
	if [ "$(jq -r "$R.status" "$TMP/p$p.json")" = skipped ]; then
		echo "  SKIP [$NAME] $(jq -r "$R.reason" "$TMP/p$p.json")"
		finish
	fi
	schema_check "$TMP/p$p.json"
	jq_check "-p $p: each producer made exactly $N attempts" "$TMP/p$p.json" \
		"$R.extra.records.attempted == $N * $p"
	jq_check "-p $p: received + dropped == attempted" "$TMP/p$p.json" \
		"$R.extra.records | .received + .dropped == .attempted"
	jq_check "-p $p: nothing lost, nothing seen twice, check ok" "$TMP/p$p.json" \
		"$R.extra.records | .lost == 0 and .duplicated == 0 and .ok == true"
	jq_check "-p $p: the consumer names its busy poll" "$TMP/p$p.json" \
		"$R.extra.consumer.how | test(\"bpf_user_ringbuf_drain.*busy poll\")"
	jq_check "-p $p: the drain counts its empty (busy-poll) calls" "$TMP/p$p.json" \
		"$R.extra.drain | .calls >= .empty_calls"
done
jq_check "-p 2 serialises its producers" "$TMP/p2.json" \
	"$R.extra.drain.producer_lock | test(\"mutex\")"

# ---- the kernel's Summary line ----
expect_rc 0 "user-ringbuf text output" "${FAST[@]}" user-ringbuf
check "Summary line in the kernel's shape" grep -qE \
	'^Summary: hits +[0-9]+\.[0-9]+ ± +([0-9]+\.[0-9]+|n/a)M/s \( *[0-9]+\.[0-9]+M/prod\), drops +[0-9]+\.[0-9]+ ±' \
	"$OUT"
hits=$(scrape_hits "$OUT")
check "run_bench_ringbufs.sh hits scraper ($hits)" \
	bash -c "[[ '$hits' =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+M/s$ ]]"

# ---- bad input: one line naming the option, exit 2 ----
expect_usage "--rb-size 5000: must be a power of two" user-ringbuf --rb-size 5000
expect_usage "--rb-record-size 12: must be a multiple of 8" user-ringbuf --rb-record-size 12
expect_usage "--rb-record-size 4096: must be at most" user-ringbuf --rb-size 4096 \
	--rb-record-size 4096
expect_usage "-c/--consumers 0" -c 0 user-ringbuf
expect_usage "-c/--consumers 2: must be 1" -c 2 user-ringbuf
for o in --rb-b2b --rb-use-output --rb-sampled "--rb-sample-rate 10" "--perfbuf-sz 8"; do
	# shellcheck disable=SC2086
	expect_usage "${o%% *}: not for user-ringbuf" user-ringbuf $o
done

expect_usage "--rb-check: not for user-ringbuf (its BPF consumer checks every record" user-ringbuf \
	--rb-check counts
jq_check "its records are checked each (the BPF consumer's check)" "$TMP/p1.json" \
	"$R.extra.records.check == \"records\" and $R.extra.records.checksum_ok"

check "no user-ringbuf BPF program or map left behind" [ "$(ur_leftovers)" -le "$before" ]
finish
