#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Hash family: every map type x op on the kernel and syscall paths, the batch path, the
# per-producer key streams, errors counted as errors, LRU capacity, the kernel benches,
# map-perf, relations that hold on any machine, and every bad-input path.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

# Two samples of 50 ms: a producer starved for one sample on a busy machine still counts.
SHORT=(-w0 -d2 --interval_ms 50 --no-linearity)
OPS6=(map-lookup map-lookup-miss map-update map-insert map-delete map-mixed)
OPS3=(map-lookup map-lookup-miss map-update)

# ---- every map type x op, kernel and syscall paths ----
# Under the sanitizers one type of each kind (plain, LRU and per-CPU, array, map-in-map).
for t in $(san_pick hash percpu_hash lru_hash lru_percpu_hash array percpu_array array_of_maps \
	   hash_of_maps -- hash lru_percpu_hash percpu_array array_of_maps); do
	case $t in *array) ops=("${OPS3[@]}") ;; *) ops=("${OPS6[@]}") ;; esac
	for p in kernel syscall; do
		j=$TMP/m-$t-$p.json
		expect_rc 0 "$t $p: ${ops[*]}" "${SHORT[@]}" -a "${ops[@]}" --map_type "$t" \
			--nr_entries 256 --path "$p" -o "$j"
		[ -s "$j" ] || continue
		runner=$([ "$p" = kernel ] && echo kernel-loop || echo syscall)
		# Failing results listed by name, so that a failure says which and why.
		jq_check "$t $p: all ok, right runner, ops counted, no errors, hits + misses = ops" "$j" \
			"[.results[] | select(.status != \"ok\" or .runner != \"$runner\" or (.summary.totals | .ops == 0 or .errors != 0 or .hits + .misses != .ops)) | {bench, status, reason, totals: .summary.totals}] == []"
		jq_check "$t $p: lookups hit, lookup-miss misses" "$j" \
			'[.results[] | select(.bench == "map-lookup-miss") | .summary.totals.hits == 0] + [.results[] | select(.bench == "map-lookup") | .summary.totals.misses == 0] | all'
		jq_check "$t $p: memory, setup time and op cost reported" "$j" \
			'[.results[] | .extra.memory.map.memlock_bytes > 0 and .extra.setup_ns >= 0 and .summary.metrics.op_ns.mean > 0] | all'
		# Per entry present, not per slot: map-insert's map is empty after set-up.
		jq_check "$t $p: bytes per entry over the entries present" "$j" \
			'[.results[] | .extra.memory.map | if .entries == 0 then .bytes_per_entry == null else .bytes_per_entry == .memlock_bytes / .entries and .entries <= .max_entries end] | all'
		jq_check "$t $p: map-insert's map is empty at set-up, the others hold their keys" "$j" \
			'[.results[] | (.extra.memory.map.entries == 0) == (.bench == "map-insert")] | all'
		if [ "$p" = kernel ]; then
			jq_check "$t kernel: in-kernel ns/op reported" "$j" \
				'[.results[] | .summary.latency_kernel.mean > 0] | all'
		fi
	done
done
schema_check "$TMP/m-hash-kernel.json"
jq_check "map-mixed counts 3 map ops per iteration" "$TMP/m-hash-kernel.json" \
	'.results[] | select(.bench == "map-mixed") | .extra.ops_per_iteration == 3 and .summary.totals.ops % 3 == 0'
jq_check "map-in-map: one inner map per online CPU" "$TMP/m-array_of_maps-kernel.json" \
	".results[0].extra.map_in_map.inner_maps == $(nproc)"

# ---- fill order: the kernel bench's layout by default, bucket order when asked ----
expect_rc 0 "map-lookup default fill order" "${SHORT[@]}" -a map-lookup --nr_entries 1000 \
	-o "$TMP/fo-key.json"
jq_check "the default fill is the kernel bench's layout: key order" "$TMP/fo-key.json" \
	'.results[0] | .params.fill_order == "key" and .extra.setup.fill_order == "key"'
expect_rc 0 "map-lookup --fill_order bucket" "${SHORT[@]}" -a map-lookup --nr_entries 1000 \
	--fill_order bucket -o "$TMP/fo-bucket.json"
# A kernel that does not let programs read map fields fills in key order: extra.setup says so.
jq_check "--fill_order bucket: the order used is reported, every lookup hits" "$TMP/fo-bucket.json" \
	'.results[0] | .params.fill_order == "bucket" and (.extra.setup.fill_order | . == "bucket" or . == "key") and .summary.totals.misses == 0 and .summary.totals.errors == 0 and .summary.totals.ops > 0'

# ---- one-key maps: every stream wraps or ends after one key ----
expect_rc 0 "one-key maps" "${SHORT[@]}" map-lookup map-update map-delete map-mixed \
	--nr_entries 1 -o "$TMP/one.json"
jq_check "one-key maps: ok, no errors" "$TMP/one.json" \
	'[.results[] | .status == "ok" and .summary.totals.errors == 0 and .summary.totals.ops > 0] | all'

# ---- batch path ----
expect_rc 0 "batch path" "${SHORT[@]}" -a map-lookup map-update map-insert map-delete \
	--path batch --batch_size 64 --nr_entries 1000 -o "$TMP/batch.json"
jq_check "batch: ops, no errors, several elements per call" "$TMP/batch.json" \
	'[.results[] | .status == "ok" and .summary.totals.errors == 0 and .summary.totals.ops > 2 * .summary.totals.calls] | all'
jq_check "user paths: CPU time per op and the CPU share are measured" "$TMP/batch.json" \
	'[.results[] | .summary.metrics.op_ns.mean > 0 and .summary.metrics.cpu_share.mean > 0 and .summary.metrics.cpu_share.mean <= 1.05] | all'

# ---- text output: the kernel's scrapers ----
expect_rc 0 "map-lookup text" "${SHORT[@]}" -d2 map-lookup --nr_entries 1000
check "ops scraper parses map-lookup ($(scrape_ops "$OUT"))" \
	bash -c "[[ '$(scrape_ops "$OUT")' =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+\ M\ ops/s$ ]]"
check "map line names memory and setup" grep -q "^Map: hash, .*memlock .* B/entry.*setup" "$OUT"
expect_rc 0 "map-delete syscall text" "${SHORT[@]}" map-delete --path syscall --nr_entries 200
check "latency scraper parses a syscall-path Summary" \
	bash -c "[[ '$(scrape_latency "$OUT")' =~ ^[0-9]+\.[0-9]+\ ns/op$ ]]"

# ---- per-producer key streams and ranges ----
if [ "$(nproc)" -ge 2 ]; then
	for b in map-insert map-delete; do
		for p in kernel syscall; do
			expect_rc 0 "$b -p2 $p" "${SHORT[@]}" -d2 -p2 -a "$b" --nr_entries 1001 --path $p \
				--key_dist uniform -o "$TMP/p2.json"
			jq_check "$b -p2 $p: disjoint ranges cover the keys" "$TMP/p2.json" \
				'.results[0].extra.key_streams | .[0].base == 0 and .[0].base + .[0].range == .[1].base and .[1].base + .[1].range == 1001'
			# Over all samples: on a loaded machine one sample may end before a
			# producer's call does and count no ops for it (the run warns so).
			jq_check "$b -p2 $p: both producers work, none fails" "$TMP/p2.json" \
				'.results[0] | .summary.totals.errors == 0 and ([range(2) as $i | [.samples[].producers[$i].ops] | add > 0] | all) and (.producers | length == 2)'
		done
	done
	expect_rc 0 "map-lookup -p2 uniform" "${SHORT[@]}" -p2 -a map-lookup --key_dist uniform \
		--nr_entries 1000 -o "$TMP/p2l.json"
	jq_check "lookup streams: same keys, own starts" "$TMP/p2l.json" \
		'.results[0].extra.key_streams | .[0].range == .[1].range and .[0].start != .[1].start'
	# An LRU map with little head room evicts under two updating CPUs: failed updates are
	# errors, never hits.
	expect_rc 0 "lru update, tight head room" -w0 -d2 --interval_ms 100 -p2 -a map-update \
		--map_type lru_hash --nr_entries 1000 --max_entries 1100 -o "$TMP/lru.json"
	jq_check "evicted keys: failed updates are errors, hits + errors = ops" "$TMP/lru.json" \
		'.results[0].summary.totals | .errors > 0 and .hits + .errors == .ops'
	jq_check "evictions are explained in a warning" "$TMP/lru.json" \
		'.results[0].warnings | map(test("LRU map evicts")) | any'
fi
expect_rc 1 "an LRU fill that evicts fails" "${SHORT[@]}" map-lookup --map_type lru_hash \
	--nr_entries 1000 --max_entries 1000
check "the eviction is explained" grep -q "evicted .* keys while being filled" "$ERR"
expect_rc 0 "zipf lookups" "${SHORT[@]}" map-lookup --key_dist zipf:0.99 --nr_entries 1000 \
	-o "$TMP/zipf.json"
jq_check "zipf lookups hit" "$TMP/zipf.json" \
	'.results[0].summary.totals | .errors == 0 and .hits == .ops and .ops > 0'

# ---- BPF_F_NO_COMMON_LRU: capacity is per CPU ----
ncpu=$(jq -r .context.possible_cpus "$TMP/zipf.json")
expect_rc 0 "no_common_lru" "${SHORT[@]}" -a map-update --map_type lru_hash \
	--map_flags no_common_lru --nr_entries 1000 -o "$TMP/nc.json"
jq_check "no_common_lru: max_entries = (keys + 64) per possible CPU, no eviction" "$TMP/nc.json" \
	".results[0] | .extra.max_entries == 1064 * $ncpu and .params.max_entries == 1000 and .extra.max_entries_headroom == 1064 * $ncpu - 1000 and .extra.lru.capacity_per_cpu == 1064 and .extra.lru.common == false and .summary.totals.errors == 0"

# ---- LRU head room: said in the output, not in the parameters that match ----
expect_rc 0 "lru_hash at 1000 entries" "${SHORT[@]}" map-lookup --map_type lru_hash \
	--nr_entries 1000 -o "$TMP/hr-lru.json"
check "the Map line says the head room" grep -qE "Map: lru_hash, flags 0, $((1000 + 256 * ncpu)) entries \(1000 asked \+ $((256 * ncpu)) LRU head room\)" "$OUT"
jq_check "head room in extra, params hold the entries asked for" "$TMP/hr-lru.json" \
	".results[0] | .params.max_entries == 1000 and .extra.max_entries == 1000 + 256 * $ncpu and .extra.max_entries_headroom == 256 * $ncpu and .extra.memory.map.max_entries == .extra.max_entries"
expect_rc 0 "hash at 1000 entries" "${SHORT[@]}" map-lookup --map_type hash --nr_entries 1000 \
	-o "$TMP/hr-hash.json"
jq_check "no head room for a hash map" "$TMP/hr-hash.json" \
	'.results[0] | .extra.max_entries_headroom == 0 and .params.max_entries == 1000'
expect_rc 0 "LRU vs hash at the same size match with --ignore map_type" compare \
	--ignore map_type,inner_type "$TMP/hr-hash.json" "$TMP/hr-lru.json" -o "$TMP/hr-cmp.json"
jq_check "one row, nothing unmatched" "$TMP/hr-cmp.json" \
	'(.comparison.rows | length) == 1 and (.comparison.only_in_base | length) == 0 and (.comparison.only_in_new | length) == 0'
expect_rc 0 "--max_entries given: taken as given" "${SHORT[@]}" map-lookup --map_type lru_hash \
	--nr_entries 1000 --max_entries 5000 -o "$TMP/hr-given.json"
jq_check "a given max_entries has no head room added" "$TMP/hr-given.json" \
	'.results[0] | .params.max_entries == 5000 and .extra.max_entries == 5000 and .extra.max_entries_headroom == 0'

# ---- relations that hold on any machine (generous margins, not speed) ----
run -w0 -d3 --interval_ms 100 -a map-lookup --map_type array --nr_entries 10000 -o "$TMP/a.json"
run -w0 -d3 --interval_ms 100 -a map-lookup --map_type hash --nr_entries 10000 -o "$TMP/h.json"
a=$(jq '.results[0].summary.latency_kernel.median' "$TMP/a.json")
h=$(jq '.results[0].summary.latency_kernel.median' "$TMP/h.json")
check "array lookup ($a ns) cheaper than hash lookup ($h ns)" \
	awk "BEGIN { exit !($a > 0 && $a < 0.7 * $h) }"
run -w0 -d3 --interval_ms 100 -a map-update --path syscall --nr_entries 10000 -o "$TMP/s.json"
run -w0 -d3 --interval_ms 100 -a map-update --path batch --nr_entries 10000 -o "$TMP/b.json"
s=$(jq '.results[0].summary.metrics.op_ns.median' "$TMP/s.json")
b=$(jq '.results[0].summary.metrics.op_ns.median' "$TMP/b.json")
check "batch update per element ($b ns) cheaper than single syscalls ($s ns)" \
	awk "BEGIN { exit !($b > 0 && $b < 0.8 * $s) }"

# ---- the kernel benches ----
expect_rc 0 "bpf-hashmap-lookup" -w0 -d2 --interval_ms 100 -a bpf-hashmap-lookup \
	--nr_entries 1000 --max_entries 1000 --nr_loops 100000
check "kernel-style per-CPU line" grep -qE '^cpu[0-9]{2}: lookup [0-9.]+M ± [0-9.]+M events/sec' "$OUT"
expect_rc 0 "bpf-hashmap-lookup json" -w0 -d2 --interval_ms 100 -a bpf-hashmap-lookup \
	--nr_entries 1000 --max_entries 1000 --nr_loops 100000 --key_size 16 -o "$TMP/hml.json"
jq_check "bpf-hashmap-lookup: every lookup hits; mean over every sample" "$TMP/hml.json" \
	'.results[0] | .summary.totals.errors == 0 and .summary.totals.hits == .summary.totals.ops and .extra.per_producer[0].events_per_sec.n == 2 and .extra.ops_per_run == 100000'
# Rates of long calls (1M lookups each, the default): over the time the counted calls covered,
# not whole calls over the sample's elapsed time, which takes steps of one call's ops (5-25 %
# of the rate here). The test fails when some sample's rate lies on that coarse grid.
expect_rc 0 "bpf-hashmap-lookup: long calls" -w0 -d5 --interval_ms 200 -a bpf-hashmap-lookup \
	-o "$TMP/hmq.json"
jq_check "long calls: each sample's rate is its ops over the time its calls covered" \
	"$TMP/hmq.json" \
	'[.results[0].samples[] | select(.ops > 0) | .covered_ns > 0 and .producers[0].covered_ns == .covered_ns and (.throughput * .covered_ns / 1e9 / .ops - 1 | fabs) < 1e-9] | (length > 0 and all)'
jq_check "long calls: no rate in steps of a call coarser than 0.1 % of it" "$TMP/hmq.json" \
	'.results[0] | .extra.ops_per_run as $k | [.samples[] | select(.ops > 0) | ($k * 1e9 / .elapsed_ns) as $step | (.throughput / $step) as $x | select($step / .throughput > 0.001 and (($x - ($x | round)) | fabs) < 1e-6)] == []'
# A call longer than a sample (8M lookups, >= 40 ms anywhere, in 10 ms samples) leaves samples
# without a completed call: a warning says so, exactly when some sample has none.
expect_rc 0 "bpf-hashmap-lookup: calls longer than a sample" -w0 -d3 --interval_ms 10 -a \
	bpf-hashmap-lookup --nr_loops 8M -o "$TMP/hmo.json"
for f in hmq hmo; do
	jq_check "$f: the long-call warning exactly when a sample has no completed call" "$TMP/$f.json" \
		'.results[0] | ([.warnings[] | select(test("ended before a producer.s call did"))] | length > 0) == ([.samples[] | select(.producers[0].calls == 0)] | length > 0)'
done
jq_check "calls longer than a sample: warned" "$TMP/hmo.json" \
	'[.results[0].warnings[] | select(test("a call takes longer than --interval_ms 10"))] | length == 1'
m=$(jq '.results[0].summary.latency_kernel.median' "$TMP/hml.json")
run -w0 -d2 --interval_ms 100 -a map-lookup --nr_entries 1000 --max_entries 1000 --key_size 16 \
	-o "$TMP/ml.json"
l=$(jq '.results[0].summary.latency_kernel.median' "$TMP/ml.json")
check "map-lookup ($l ns) and bpf-hashmap-lookup ($m ns) agree within 2x on the same map" \
	awk "BEGIN { exit !($l > 0 && $m > 0 && $l < 2 * $m && $m < 2 * $l) }"
expect_rc 0 "bpf-hashmap-full-update" -w0 -d2 --interval_ms 100 -a bpf-hashmap-full-update
check "kernel-style full-update line" grep -qE '^[0-9]+:hash_map_full_perf [0-9]+ events per sec' "$OUT"
run -w0 -d2 --interval_ms 100 -a bpf-hashmap-full-update -o "$TMP/fu.json"
jq_check "full map: every update fails with E2BIG (misses), none succeeds" "$TMP/fu.json" \
	'.results[0].summary.totals | .misses == .ops and .errors == 0 and .ops > 0'

# ---- map-perf ----
expect_rc 0 "map-perf: all eleven tests" -w0 -d2 --interval_ms 100 -a map-perf -o "$TMP/mp.json"
jq_check "map-perf: eleven results in map ops/s, one test each, with map ops per event" "$TMP/mp.json" \
	'.results | length == 11 and ([.[] | .extra.tests | length == 1 and (.[0] | .ops_per_event > 0 and .producers[0].map_ops_per_sec.mean > 0 and .producers[0].errors == 0)] | all)'
schema_check "$TMP/mp.json"
expect_rc 0 "map-perf --test_mask 0x81" "${SHORT[@]}" map-perf --test_mask 0x81 -o "$TMP/mp2.json"
jq_check "test_mask picks map_perf_test's bits 0 and 7, one result each" "$TMP/mp2.json" \
	'[.results[] | [.params.test, .params.test_mask, .extra.test_mask]] == [["hash_prealloc", 1, "0x1"], ["hash_lookup", 128, "0x80"]]'

# Two tests: one result, one Summary per test, each that test's own figures (never a blend).
expect_rc 0 "map-perf, two tests" "${SHORT[@]}" map-perf --test hash_prealloc,array_lookup
check "two tests: two Summary lines" [ "$(grep -c '^Summary:' "$OUT")" -eq 2 ]
# Each Summary repeats the M map ops/s of the test line just above it.
check "two tests: each Summary is its test's line" bash -c "awk '
	/^[0-9]+:.* events per sec = / { for (i = 1; i <= NF; i++) if (\$i == \"=\") want = \$(i + 1) }
	/^Summary:/ { n++; if (\$3 != want) bad = 1; want = \"\" }
	END { exit !(n == 2 && !bad) }' '$OUT'"
check "two tests: the Iter lines name their test" bash -c \
	"grep -q '^Iter .* hash_prealloc\$' '$OUT' && grep -q '^Iter .* array_lookup\$' '$OUT'"
expect_rc 0 "map-perf, two tests, JSON" "${SHORT[@]}" map-perf --test hash_prealloc,array_lookup \
	-o "$TMP/mp3.json"
jq_check "two tests: one result each, named in params.test, with only its own test" "$TMP/mp3.json" \
	'[.results[] | .params.test] == ["hash_prealloc", "array_lookup"] and ([.results[] | .params.test as $t | [.extra.tests[].name] == [$t] and (.extra.memory | keys) == [$t]] | all)'
jq_check "two tests: each summary is its test's in-kernel figures" "$TMP/mp3.json" \
	'[.results[] | .extra.tests[0].producers[0] as $p | (.summary.kernel_throughput.mean / $p.map_ops_per_sec.mean - 1 | fabs) < 1e-9 and (.summary.latency_kernel.mean / $p.ns_per_op.mean - 1 | fabs) < 1e-9 and .summary.totals.ops == $p.ops] | all'
jq_check "two tests: the samples count each test's own ops" "$TMP/mp3.json" \
	'[.results[] | ([.samples[].ops] | add) == .extra.tests[0].producers[0].ops + ([.samples[] | select(.warmup) | .ops] | add // 0)] | all'
schema_check "$TMP/mp3.json"
run compare "$TMP/mp3.json" "$TMP/mp3.json"
check "compare matches each test with itself, one row each" bash -c \
	"grep -q '^map-perf  *test=hash_prealloc .* no change' '$OUT' && grep -q '^map-perf  *test=array_lookup .* no change' '$OUT'"
expect_usage "sweep: map-perf: a point would give 2 results (one per test)" \
	sweep map-perf --test hash_prealloc,array_lookup --param max_entries=1000,2000
expect_rc 0 "sweep over map-perf's tests" sweep "${SHORT[@]}" -q map-perf \
	--param test=hash_prealloc,array_lookup -o "$TMP/mps.json"
jq_check "sweep over the tests: one result per point, each its test" "$TMP/mps.json" \
	'[.results[] | .params.test] == ["hash_prealloc", "array_lookup"] and [.sweep.points[].result] == [0, 1]'
expect_rc 0 "map-perf --test lpm_kmalloc" "${SHORT[@]}" map-perf --test lpm_kmalloc \
	--max_entries 100 -o "$TMP/mplpm.json"
check "map_perf_test's LPM line" grep -qE '^[0-9]+:lpm_perf kmalloc [0-9]+ events per sec = .*\(32 map ops per event' "$OUT"
# The trie holds at most 100 of its random prefixes (duplicates replace): memlock per prefix
# held, not per slot of the capacity.
jq_check "map-perf lpm_kmalloc: bytes per prefix held, capacity as max_entries" "$TMP/mplpm.json" \
	'.results[0].extra.memory.lpm_kmalloc | .max_entries == 100 and .entries >= 1 and .entries <= 100 and .bytes_per_entry == .memlock_bytes / .entries and .memlock_counts == "present"'
jq_check "map-perf: an empty map has no bytes per entry" "$TMP/mp2.json" \
	'.results[0].extra.memory.hash_prealloc | .entries == 0 and .bytes_per_entry == null and .max_entries == 1000 and .memlock_counts == "capacity"'

# ---- bad input: one line, exit 2, nothing run ----
expect_usage "cannot delete elements" map-delete --map_type array
expect_usage "cannot delete elements" map-insert --map_type array_of_maps --inner_type percpu_array
expect_usage "do not take no_common_lru" map-lookup --map_type hash --map_flags no_common_lru
expect_usage "do not take no_prealloc" map-update --map_type lru_hash --map_flags no_prealloc
expect_usage "must be <= --max_entries 1000" map-lookup --nr_entries 2000 --max_entries 1000
expect_usage "room for one more key per producer" map-mixed --nr_entries 1000 --max_entries 1000
expect_usage "--key_size 8: array maps take keys of exactly 4 bytes" map-lookup --map_type array --key_size 8
expect_usage "--key_size 1024: must be 4..512" map-lookup --key_size 1024
expect_usage "--key_size 3: must be 4..512" map-lookup --key_size 3
expect_usage "take values of 1..32768 bytes on this kernel" map-update --map_type percpu_hash --value_size 40000
expect_usage "--key_dist zipf:11: must be seq, uniform or zipf:THETA (0 < THETA <= 10) (zipf theta out of range)" map-lookup --key_dist zipf:11
expect_usage "zipf theta out of range" map-lookup --key_dist zipf:0
expect_usage "seq or uniform" map-delete --key_dist zipf:1
expect_usage "--map_type tree: must be hash, percpu_hash, lru_hash, lru_percpu_hash, array, percpu_array, array_of_maps, hash_of_maps" map-lookup --map_type tree
expect_usage "not an inner map type" map-lookup --map_type hash_of_maps --inner_type hash_of_maps
expect_usage "only for array_of_maps and hash_of_maps" map-lookup --inner_type hash
expect_usage "LRU capacity is per CPU" map-lookup --map_type lru_hash --map_flags no_common_lru --nr_entries 1000 --max_entries 1000
expect_usage "no keyed batch lookup" map-lookup-miss --path batch
expect_usage "--batch_size 8: only with --path batch" map-update --batch_size 8
expect_usage "--nr_entries 1: must be >= 2 (map-insert gives each of the 2 producers its own keys)" -p2 map-insert --nr_entries 1
expect_usage "--map_flags" map-lookup --map_flags bogus
# Bits that name no flag are said to be that, not only the flags the type refuses.
expect_usage "--map_flags 0xdeadbeef: hash maps do not take no_common_lru|mmapable (they take no_prealloc|numa_node|rdonly_prog|wronly_prog|zero_seed); bits 0xdeadba28 name no map flag (the flags: no_prealloc 0x1," \
	map-lookup --map_flags 0xdeadbeef
expect_usage "rdonly_prog" map-update --map_flags rdonly_prog
expect_usage "must be <= --max_entries 1000" bpf-hashmap-lookup --nr_entries 2000
expect_usage "--nr_loops 0: must be 1..8388608" bpf-hashmap-lookup --nr_loops 0
expect_usage "must be >= --nr_entries" bpf-hashmap-lookup --nr_loops 10 --nr_entries 20 --max_entries 100
expect_usage "unknown test" map-perf --test hash
expect_usage "--test_mask 2048: must be 0..2047" map-perf --test_mask 2048
expect_usage "give one of them" map-perf --test all --test_mask 1

# ---- nothing left behind ----
check "no BPF program or map left behind" [ "$(leftover_bpf)" -eq 0 ]

finish
