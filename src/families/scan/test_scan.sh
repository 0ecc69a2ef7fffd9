#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Scan family: map-scan by every method on every map type, in one sweep of small maps (half
# full and full): each walk found the entries filled, each once (the bench's check by count
# and fingerprint, which a miscounting walk trips), drains left the map empty and were
# refilled, the syscalls each method makes; the methods a type lacks refused; text, JSON and
# CSV; every bad input with one line and nothing created; SIGINT; nothing left behind.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'
# One walk or more is all a run needs here: one sample of 50 ms.
QUICK=(-w0 -d1 --interval_ms 50)
scan_leftovers() {
	leftover_bpf '^mb_(scan|fill)'
}
before=$(scan_leftovers)

# ---- every method on every type, preallocated and not: two sweeps ----
# The hash maps at 200 entries of 300 slots, preallocated, no_prealloc and (LRU) without a
# common list; the arrays (always full), the trie and the map-in-map full at 4 slots (each
# delete from a map-in-map waits for an RCU grace period, which takes long on a busy machine;
# a batch holds the largest bucket: 4). A flag a type does not take is a refused point.
methods=get_next_key,lookup_batch,lookup_and_delete_batch,delete,iter,for_each
expect_rc 0 "every method on the hash maps (one sweep)" sweep map-scan \
	--param "map_type=$(san_pick hash,percpu_hash,lru_hash,lru_percpu_hash -- hash,lru_percpu_hash)" \
	--param "map_flags=0,no_prealloc,no_common_lru" \
	--param "method=$methods" --skip-invalid -w0 -d1 --interval_ms 10 --max_entries 300 \
	--fill 200 --batch_size 64 -q -o "$TMP/hash.json"
# map-scan ranks its methods: under the table, the fastest at each other swept value.
check "the fastest method at each type and flags, on one line under the table" grep -qE \
	'^Fastest method \(lowest ns/op\) at each map_type, map_flags: hash 0: [a-z_]+; hash no_prealloc: [a-z_]+; hash no_common_lru: none ran; ' \
	"$OUT"
jq_check "... the method of the lowest ns/op among the points of each that ran" "$TMP/hash.json" \
	'.results as $r | .sweep.fastest as $f | [.sweep.points[] | select(.result != null) |
	 $r[.result] as $x | select($x.status == "ok") | {at: (.values | del(.method)),
	 m: .values.method, ns: $x.summary.latency_wall.mean}] as $p |
	 $f.param == "method" and $f.by == ["map_type", "map_flags"] and
	 ($f.groups | length) == ([.sweep.points[].values | del(.method)] | unique | length) and
	 all($f.groups[]; .at as $a | [$p[] | select(.at == $a)] as $c |
	  if ($c | length) == 0 then .value == null and .ns_per_op == null
	  else ($c | min_by(.ns)) as $b | .value == $b.m and .ns_per_op == $b.ns end)'
expect_rc 0 "every method on the arrays and the trie (one sweep)" sweep map-scan \
	--param "map_type=$(san_pick array,percpu_array,lpm_trie -- array,lpm_trie)" \
	--param "map_flags=0,no_prealloc" \
	--param "method=$methods" --skip-invalid -w0 -d1 --interval_ms 50 --max_entries 4 \
	--batch_size 4 -q -o "$TMP/rest.json"
# A map-in-map's drain waits for a grace period per delete: 4 take 45 ms on a quiet machine
# here, and a sample must hold a whole walk, so its samples are longer.
expect_rc 0 "every method on the map-in-map (one sweep)" sweep map-scan \
	--param "map_type=hash_of_maps" --param "map_flags=0,no_prealloc" \
	--param "method=$methods" --skip-invalid -w0 -d1 --interval_ms 400 --max_entries 4 \
	--batch_size 4 -q -o "$TMP/hom.json"
# The fields the checks read, once: the documents carry every sample.
jq -s '{results: [.[].results[] | {params, status, reason, extra: {walk: .extra.walk},
	summary: {totals: .summary.totals}}], points: (map(.sweep.points) | add)}' \
	"$TMP/hash.json" "$TMP/rest.json" "$TMP/hom.json" >"$TMP/sweep.json"
S="$TMP/sweep.json"
ok='[.results[] | select(.status == "ok")]'
jq_check "every point that ran found each present entry once in every walk, and said so" "$S" \
	"$ok | length >= 20 and all(.[]; .extra.walk as \$w | \$w.checked and \$w.walks >= 1 and
	 \$w.entries_per_walk == \$w.present and
	 .summary.totals.counters.entries == \$w.walks * \$w.present and
	 .summary.totals.ops == \$w.walks)"
jq_check "every point the bench took ran (the iterator's may be skipped)" "$S" \
	"[.results[] | select(.status != \"ok\" and .params.method != \"iter\")] | length == 0"
# Every pair of type and flags the bench takes, by every method but the iterator.
jq_check "each type ran preallocated and not (LRU: with and without a common list)" "$S" \
	"[$ok[] | select(.params.method == \"get_next_key\") | .extra.walk |
	  \"\\(.map_type) \\(.map_flags)\"] as \$p |
	 [\"hash 0\", \"hash no_prealloc\", \"lru_percpu_hash 0\",
	  \"lru_percpu_hash no_common_lru\", \"array 0\", \"lpm_trie no_prealloc\",
	  \"hash_of_maps 0\", \"hash_of_maps no_prealloc\"] - \$p == []"
jq_check "the hash maps hold the 200 entries filled, the others all 4 slots" "$S" \
	"$ok | all(.[]; .extra.walk.present == (if .extra.walk.max_entries == 300 then 200 else 4
	 end))"
jq_check "drains (lookup_and_delete_batch, delete) were refilled after every walk, each left
	the map empty (the separate walk the bench makes, or the run fails)" "$S" \
	"$ok | map(select(.params.method | test(\"delete\"))) | length >= 12 and
	 all(.[]; .extra.walk.refills >= .extra.walk.walks)"
# n entries: a start lookup (not in a trie), n + 1 get_next_key and n lookups or deletes. A
# batch of B: arrays floor(n/B) + 1 calls (the last finds the end); hash maps end a batch
# at a bucket's edge and the end may come with the last entries: ceil(n/B) or one or two more.
jq_check "syscalls per walk: get_next_key and delete 2n+2 (trie: 2n+1), batches about n/B, for_each 1" \
	"$S" "$ok | all(.[]; .extra.walk as \$w | \$w.present as \$n | .params.batch_size as \$b |
	 \$w.syscalls_per_walk as \$c | (\$n / \$b | ceil) as \$k | .params.method as \$m |
	 if \$m == \"get_next_key\" then \$c == 2 * \$n + (if .params.map_type == \"lpm_trie\"
	   then 1 else 2 end)
	 elif \$m == \"delete\" then \$c == 2 * \$n + 2
	 elif \$m == \"for_each\" then \$c == 1
	 elif .params.map_type | test(\"array\") then \$c == (\$n / \$b | floor) + 1
	 else \$c >= \$k and \$c <= \$k + 2 end)"
jq_check "the iterator ran or was skipped with the one sentence why" "$S" \
	"[.results[] | select(.params.method == \"iter\")] | length > 0 and
	 all(.[]; .status == \"ok\" or (.status == \"skipped\" and
	 (.reason | test(\"^--method iter: this kernel refuses iterator programs\"))))"
# The methods and the flags each type lacks: refused before the run, by name.
lacks='{hash_of_maps: ["iter", "for_each"], array: ["lookup_and_delete_batch", "delete"],
	percpu_array: ["lookup_and_delete_batch", "delete"],
	lpm_trie: ["lookup_batch", "lookup_and_delete_batch", "delete", "iter", "for_each"]}'
noflag='{hash: "no_common_lru", percpu_hash: "no_common_lru", lru_hash: "no_prealloc",
	lru_percpu_hash: "no_prealloc", array: "no_prealloc", percpu_array: "no_prealloc"}'
jq_check "the methods and flags a type lacks, and only they, are refused naming both" "$S" \
	"$lacks as \$l | $noflag as \$f | [.points[] | .values as \$v |
	 (\$l[\$v.map_type] // [] | index(\$v.method) != null) as \$nom |
	 (\$f[\$v.map_type] == \$v.map_flags) as \$nof |
	 if .status == \"refused\" then
	   (\$nom and (.reason | test(\"have no such walk\"))) or
	   (\$nof and (.reason | test(\"do not take them\")))
	 else (\$nom or \$nof) == false end] | length > 0 and all"

# ---- the check trips on a walk that sees one entry twice and misses another ----
MAPBENCH_SCAN_MISCOUNT=3 expect_rc 1 "a miscounting walk fails" "${QUICK[@]}" map-scan \
	--max_entries 100 --fill 10
check "... with one line: the same count, not the same entries, no figure" \
	grep -q "found 10 entries (not the same ones) where it holds 10, each once: no figure" "$ERR"
check "... and no Summary" bash -c "! grep -q '^Summary' '$OUT'"

# ---- text, JSON and CSV of one run; the fill as a fraction, a percentage and a count ----
expect_rc 0 "map-scan delete, fill 0.1 of 1000" "${QUICK[@]}" map-scan --method delete \
	--max_entries 1000 --fill 0.1 -o "$TMP/d.json" -o "$TMP/d.csv"
check "the text names the map and the walk's figures" bash -c \
	"grep -qE '^Map: hash \(flags 0\), 1000 slots, 100 entries \(10 %\)$' '$OUT' &&
	 grep -qE '^Walk: delete, [0-9.]+ us per walk, [0-9.]+ ns per entry, [0-9.]+ ns per slot, 202.0 syscalls and 100 entries per walk, [0-9]+ walks, each checked$' '$OUT' &&
	 grep -qE '^Summary: throughput +[0-9.]+ ± +[0-9.n/a]+ K ops/s .*latency +[0-9.]+ (ns|ms)/op$' '$OUT'"
jq_check "JSON: ns per walk = ns per entry x 100 = ns per slot x 1000, memory reported" \
	"$TMP/d.json" "$R.extra.walk as \$w | (\$w.ns_per_entry * 100 - \$w.ns_per_walk | fabs) < 1e-6 *
	 \$w.ns_per_walk and (\$w.ns_per_slot * 1000 - \$w.ns_per_walk | fabs) < 1e-6 * \$w.ns_per_walk
	 and $R.extra.memory.map.max_entries == 1000 and $R.runner == \"syscall\""
check "CSV: the walks' summary rows" grep -q '^map-scan,.*counters.entries' "$TMP/d.csv"
expect_rc 0 "an empty map" "${QUICK[@]}" map-scan --method lookup_and_delete_batch --fill 0 \
	--format json
jq_check "an empty map: walks of 0 entries, no ns per entry, no refill" "$OUT" \
	"$R.extra.walk.present == 0 and $R.extra.walk.ns_per_entry == null and
	 $R.extra.walk.refills == 0 and $R.extra.walk.walks > 0"

# ---- walks under change: what they saw of the entries the writer never touches ----
# (A restart is also a second sight of the walk's first key; the writer's keys may be seen
# more than once a walk, after a restart.)
expect_rc 0 "get_next_key under --churn" "${QUICK[@]}" map-scan --method get_next_key \
	--max_entries 2000 --fill 500 --churn 50 --format json
jq_check "--churn: the writer ran; restarts, entries seen twice or missed counted, within bounds" \
	"$OUT" "$R.extra.walk as \$w | \$w.churn as \$c | \$w.checked == false and \$c.keys == 50 and
	 \$c.writer_ops > 0 and \$c.walks >= \$w.walks and \$c.walks >= 1 and \$c.missed >= 0 and
	 \$c.restarts <= \$c.seen_twice and
	 \$c.churned_seen >= 0 and \$c.missed <= \$c.walks * 500"

# ---- the stall probe: a thread on the walker's CPU timed its longest time off it ----
# ... during the walks, and beside the walker spinning in user space as long (the baseline).
# An almost empty map: 0.001 % of 100000 slots, one entry; 100 ms, room for the walker's
# turns of walks (20 ms) and of spinning.
expect_rc 0 "--stall_probe -a, --fill 0.001%" -w0 -d1 --interval_ms 100 -a map-scan \
	--max_entries 100000 --fill 0.001% --stall_probe -o "$TMP/stall.json"
jq_check "--fill 0.001% of 100000: one entry" "$TMP/stall.json" "$R.extra.walk.present == 1"
jq_check "--stall_probe: the probe timed a longest gap during the walks and beside the spinning walker (baseline), and their difference" \
	"$TMP/stall.json" "$R.extra.walk.stall as \$s | \$s.baseline as \$b |
	 [\$s, \$b] | all(.[]; .probe_ns > 0 and .longest_ns >= 0 and
	  .longest_ns <= .probe_ns and .gaps_over_1ms >= 0 and
	  .share_in_long_gaps >= 0 and .share_in_long_gaps <= 1) and
	 \$s.added_ns == \$s.longest_ns - \$b.longest_ns"
check "... and the Stall line gives both and what the walks add" grep -qE \
	'^Stall: a thread on the walker.s CPU was kept off it for [0-9.]+ ms at most during the walks \([0-9]+ gaps of 1 ms or more\), [0-9.]+ ms at most beside the walker spinning in user space as long \([0-9]+ gaps\): the walks add -?[0-9.]+ ms( \(the baseline watched .* too short to compare, give longer samples\))?$' \
	"$OUT"

# A run shorter than a turn of walks (20 ms) still has its baseline: the walker spins at the
# end until the probe timed it.
expect_rc 0 "--stall_probe, a 10 ms run" -w0 -d1 --interval_ms 10 -a map-scan --max_entries 1000 \
	--fill 10 --stall_probe --format json
jq_check "... the baseline was measured" "$OUT" \
	"$R.extra.walk.stall.baseline.probe_ns > 0 and ($R.extra.walk.stall.added_ns | type) == \"number\""

# ---- bad input: one line, exit 2, nothing created ----
# Refused before set-up (which prints "Setting up" first): nothing on stdout.
scan_usage() {
	expect_usage "$@"
	check "... refused before anything was set up" [ ! -s "$OUT" ]
}
scan_usage "--fill 301: must be 0..300 (--max_entries)" map-scan --max_entries 300 --fill 301
scan_usage "--fill 101%: must be" map-scan --fill 101%
scan_usage "--batch_size 0: must be 1..1048576" map-scan --batch_size 0
scan_usage "--method delete: array maps have no such walk (theirs: get_next_key, lookup_batch, iter, for_each)" \
	map-scan --map_type array --method delete
scan_usage "--method lookup_batch: lpm_trie maps have no such walk (theirs: get_next_key)" \
	map-scan --map_type lpm_trie --method lookup_batch
scan_usage "--fill 10: must be 100% (array maps hold every slot)" map-scan --map_type array \
	--fill 10
scan_usage "--fill 1.5: must be" map-scan --fill 1.5
scan_usage "--map_flags no_common_lru: hash maps do not take them" map-scan \
	--map_flags no_common_lru
scan_usage "--map_flags no_prealloc: lru_hash maps do not take them" map-scan --map_type lru_hash \
	--map_flags no_prealloc
scan_usage "--max_entries 16777217: must be 1..16777216" map-scan --max_entries 16777217
scan_usage "--max_entries 16777216: must be smaller (a percpu_array map of it takes about" \
	map-scan --map_type percpu_array --max_entries 16777216 --value_size 65536
scan_usage "--value_size 8: must be 4 (hash_of_maps values" map-scan --map_type hash_of_maps \
	--value_size 8
scan_usage "-p/--producers 2: this bench needs a single producer" -p2 map-scan
# A batch smaller than a bucket: the kernel's ENOSPC, one line (at run time: exit 1).
# 16 keys in 16 buckets: two share one, but for a chance of 16!/16^16 (1e-6).
expect_rc 1 "a batch smaller than a bucket fails" "${QUICK[@]}" map-scan --max_entries 16 \
	--fill 16 --batch_size 1 --method lookup_batch
check "... naming --batch_size, on one line" \
	bash -c "[ \"\$(grep -c 'map-scan:' '$ERR')\" -eq 1 ] &&
		 grep -q 'map-scan: --batch_size 1: a bucket of the map holds more entries than one batch' '$ERR'"
scan_usage "--churn 10: walks under change are get_next_key and lookup_batch walks, not delete" \
	map-scan --method delete --churn 10
scan_usage "--churn 10: walks under change are of hash and percpu_hash maps, not lru_hash" \
	map-scan --map_type lru_hash --method get_next_key --churn 10
scan_usage "--stall_probe: give -a or --prod-affinity too" map-scan --stall_probe
scan_usage "--churn 101: must be 0..100 (--max_entries less the 900 entries of --fill)" \
	map-scan --max_entries 1000 --fill 900 --churn 101

# ---- SIGINT during a run; nothing left behind ----
interrupt_run -w0 -d100 --interval_ms 100 map-scan --method lookup_and_delete_batch \
	--max_entries 1000
check "no scan BPF program or map left behind" [ "$(scan_leftovers)" -le "$before" ]
finish
