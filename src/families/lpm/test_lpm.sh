#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The LPM trie benches: every op runs and counts, lookups never miss, memory is reported, the
# free says how it was timed, relations that hold everywhere, every bad-input path.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

# Only this family's objects and cgroups of exited processes: other runs on the machine race.
LPM_OBJECTS='^mb_(lpm|lf_|free|fentry_probe)'
before=$(leftover_bpf "$LPM_OBJECTS")
cgroups_before=$(mapbench_cgroups)
ALL=(lpm-trie-noop lpm-trie-baseline lpm-trie-lookup lpm-trie-insert lpm-trie-update
     lpm-trie-delete lpm-trie-free)

# Every op, briefly, in one document.
expect_rc 0 "the seven benches" "${FAST[@]}" -a "${ALL[@]}" --nr_entries 1000 --format json \
	-o "$TMP/all.json"
schema_check "$TMP/all.json"
jq_check "seven results, all ok" "$TMP/all.json" \
	'[.results[].status] == ["ok","ok","ok","ok","ok","ok","ok"]'
jq_check "every op has non-zero throughput" "$TMP/all.json" \
	'[.results[].summary.throughput.mean > 0] | all'
jq_check "every result reports the trie's memory" "$TMP/all.json" \
	'[.results[].extra.memory.trie | .memlock_bytes > 0 and .entries == 1000 and .bytes_per_entry > 0] | all'
jq_check "charged memory: measured above memlock (intermediate nodes), or says why not" \
	"$TMP/all.json" '[.results[].extra.memory.trie | if .charged_bytes == null
	 then (.charged_reason | length > 0)
	 else .charged_bytes > .memlock_bytes and .charged_bytes_per_entry > 0 end] | all'
jq_check "every result reports its key set" "$TMP/all.json" \
	'[.results[].extra.keys | .key_bits == 32 and .groups == [{"prefix_len": 32, "entries": 1000}]] | all'
jq_check "no map operation failed" "$TMP/all.json" '[.results[].summary.totals.errors == 0] | all'
jq_check "map ops all hit (lookup, insert, update, delete)" "$TMP/all.json" \
	'[.results[2,3,4,5].summary.totals | .hits == .ops] | all'
jq_check "op benches run in the kernel loop" "$TMP/all.json" \
	'[.results[0:6][].runner == "kernel-loop"] | all'
jq_check "insert emptied and delete refilled the trie, outside the timed part" "$TMP/all.json" \
	'.results[3].extra.empties > 0 and .results[5].extra.refills > 0 and
	 .results[3].summary.totals.excluded_ns > 0 and .results[5].summary.totals.excluded_ns > 0'
jq_check "free says how it was timed (text and JSON agree)" "$TMP/all.json" \
	'.results[6].extra.free.method as $m | ($m == "fentry" or $m == "workqueue-tracepoints") and
	 .results[6].runner == (if $m == "fentry" then "fentry" else "tracepoint" end) and
	 (.results[6].extra.free.measures | test("bpf_map_free_deferred"))'
jq_check "free measured every trie it timed" "$TMP/all.json" \
	'.results[6].summary.totals | .ops > 0 and .hits == .ops and .kernel_ns > 0'
jq_check "noop < baseline < lookup (in-kernel ns/op)" "$TMP/all.json" \
	'[.results[0,1,2].summary.latency_kernel.mean] | .[0] < .[1] and .[1] < .[2]'

# Text: the kernel's Summary lines, scrapable; the notes mapbench adds.
expect_rc 0 "lookup text" "${FAST[@]}" -a lpm-trie-lookup --nr_entries 1000
check "lookup Summary scrapes as throughput ($(scrape_ops "$OUT"))" \
	bash -c "[[ '$(scrape_ops "$OUT")' =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+\ M\ ops/s$ ]]"
check "lookup Summary scrapes as latency ($(scrape_latency "$OUT"))" \
	bash -c "[[ '$(scrape_latency "$OUT")' =~ ^[0-9]+\.[0-9]+\ ns/op$ ]]"
check "memory line" grep -qE '^Memory: trie of 1000 entries: memlock [0-9.]+ KiB, [0-9.]+ B/entry .*; charged ' "$OUT"
expect_rc 0 "insert text" "${FAST[@]}" lpm-trie-insert --nr_entries 500
check "insert Summary (fractional second) scrapes as latency" \
	bash -c "[[ '$(scrape_latency "$OUT")' =~ ^[0-9]+\.[0-9]+\ ns/op$ ]]"
expect_rc 0 "free text" "${FAST[@]}" lpm-trie-free --nr_entries 500
check "free Summary in K ops/s and ms/op, as the kernel's" \
	grep -qE '^Summary: throughput +[0-9.]+ ± +[0-9.]+ K ops/s \( *[0-9.]+K ops/prod\), latency +[0-9.]+ ms/op$' "$OUT"
check "free names its method" grep -qE '^Method: in-kernel time of .*bpf_map_free_deferred' "$OUT"
check "free: no libbpf noise" bash -c "! grep -q libbpf $ERR"

# fentry/fexit forced: measured where the kernel allows trampolines, else skipped with the reason.
run "${FAST[@]}" lpm-trie-free --nr_entries 100 --free_method fentry --format json
if [ "$rc" -eq 0 ]; then
	jq_check "forced fentry is used" "$OUT" '.results[0].extra.free.method == "fentry"'
else
	check "forced fentry without trampolines: exit 77 (got $rc)" [ "$rc" -eq 77 ]
	check "the skip says why" grep -q "cannot time the free by fentry/fexit on bpf_map_free_deferred: " "$ERR"
	check "the skip has no libbpf noise" bash -c "! grep -q libbpf $ERR"
	jq_check "the skipped result carries the reason" "$OUT" \
		'.results[0].status == "skipped" and (.results[0].reason | test("fentry"))'
fi

# Lookups never miss, whatever the keys: IPv6-sized, mixed lengths, random, two producers.
expect_rc 0 "lookup 128-bit mixed random -p2" "${FAST[@]}" -p2 -a lpm-trie-lookup --key_bits 128 \
	--prefix_dist mixed --random --nr_entries 5000 --format json
jq_check "every lookup found its own entry" "$OUT" \
	'.results[0].summary.totals | .ops > 0 and .hits == .ops and .errors == 0'
jq_check "mixed lengths: /48 is the largest group" "$OUT" \
	'.results[0].extra.keys.groups | max_by(.entries).prefix_len == 48'
jq_check "prefix_len defaults to the key width" "$OUT" '.results[0].params.prefix_len == 128'
expect_rc 0 "update/delete at a short prefix" "${FAST[@]}" lpm-trie-update lpm-trie-delete \
	--prefix_len 12 --nr_entries 4096 --prefix_dist mixed --format json
jq_check "short mixed prefixes: no failed update or delete" "$OUT" \
	'[.results[].summary.totals | .ops > 0 and .errors == 0] | all'

# Lookup in 1M entries is slower than in 100 (in-kernel ns/op; generous margin).
expect_rc 0 "lookup, 100 entries" -w0 -d2 --interval_ms 200 -a lpm-trie-lookup --nr_entries 100 \
	--format json -o "$TMP/small.json"
expect_rc 0 "lookup, 1M entries" -w0 -d2 --interval_ms 200 -a lpm-trie-lookup --nr_entries 1M \
	--format json -o "$TMP/large.json"
small=$(jq '.results[0].summary.latency_kernel.mean' "$TMP/small.json")
large=$(jq '.results[0].summary.latency_kernel.mean' "$TMP/large.json")
check "lookup in 1M entries ($large ns) slower than in 100 ($small ns), by 1.5x at least" \
	awk "BEGIN { exit !($large > 1.5 * $small) }"
jq_check "1M lookups never miss" "$TMP/large.json" '.results[0].summary.totals.errors == 0'

# Bad input: one line, exit 2, nothing run.
expect_usage "--prefix_len 0: must be 1..128" lpm-trie-lookup --prefix_len 0
expect_usage "--prefix_len 33: must be 1..32 with --key_bits 32" lpm-trie-lookup --prefix_len 33
expect_usage "--prefix_len 129: must be 1..128" lpm-trie-lookup --key_bits 128 --prefix_len 129
expect_usage "--nr_entries 0: must be 1..100000000" lpm-trie-update --nr_entries 0
expect_usage "--nr_entries 300: must be 1..256 with --prefix_len 8" lpm-trie-lookup \
	--nr_entries 300 --prefix_len 8
expect_usage "--nr_entries 3: must be 1..2 with --prefix_len 1" lpm-trie-free --nr_entries 3 \
	--prefix_len 1 --prefix_dist mixed
for op in insert delete free; do
	expect_usage "--random: not for this bench" lpm-trie-$op --random
	expect_usage "-p/--producers 2: this bench needs a single producer" -p2 lpm-trie-$op
done
expect_usage "--random: not for this bench" lpm-trie-lookup lpm-trie-delete --random
expect_usage "--key_bits 64: must be one of 32, 128" lpm-trie-lookup --key_bits 64
expect_usage "--prefix_dist zipf: must be one of fixed, mixed" lpm-trie-lookup --prefix_dist zipf
expect_usage "--free_method kprobe: must be one of auto, fentry, workqueue" lpm-trie-free \
	--free_method kprobe
expect_usage "--free_method: not an option of lpm-trie-lookup" lpm-trie-lookup --free_method fentry

check "no BPF program or map left behind" [ "$(leftover_bpf "$LPM_OBJECTS")" -le "$before" ]
check "no memory cgroup left behind" [ "$(mapbench_cgroups)" -le "$cgroups_before" ]
finish
