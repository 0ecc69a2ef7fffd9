#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Memory benches: htab-mem (three use cases, preallocated and not), map-mem (every map type,
# the streaming ones charged at creation only, local storage per owner beside a hash),
# memory accounting with and without a memory cgroup, every bad-input path, and no cgroup left
# behind: after success, errors, SIGINT and SIGTERM.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

# Folders mapbench makes its cgroups in: our v1 memory cgroup (or the v1 root), a v2 root.
cg_dirs() {
	local v1 v2
	v1=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup)
	v2=$(awk -F: '$1 == "0" { print $3; exit }' /proc/self/cgroup)
	for d in "/sys/fs/cgroup/memory$v1" /sys/fs/cgroup/memory /sys/fs/cgroup \
		 /sys/fs/cgroup/unified "/sys/fs/cgroup$v2" "/sys/fs/cgroup/unified$v2"; do
		[ -d "$d" ] && echo "$d"
	done | sort -u
}

# cgroups of a running mapbench process.
cgroups_of() {
	find $(cg_dirs) -maxdepth 1 -type d -name "mapbench-$1-*" 2>/dev/null | wc -l
}

STALE0=$(mapbench_cgroups)

# This family's BPF objects (mb_htab*, mb_mem*, htab_mem.*) left behind (other sessions'
# mb_* objects come and go).
mem_leftovers() {
	leftover_bpf '^(mb_htab|mb_mem|htab_mem)'
}
no_cgroup_left() {
	check "no cgroup left behind: $1" [ "$(mapbench_cgroups)" -le "$STALE0" ]
}

# The kernel's run_bench_htab_mem.sh scrapers (its %7.2lf pads after the plus-minus sign).
scrape_prod_op() { grep Summary "$1" | tail -n1 | sed -E 's/.* per-prod-op\s+([0-9]+\.[0-9]+ ± \s*[0-9]+\.[0-9]+k\/s).*/\1/'; }
scrape_avg_mem() { grep Summary "$1" | tail -n1 | sed -E 's/.* memory usage\s+([0-9]+\.[0-9]+ ± \s*[0-9]+\.[0-9]+MiB).*/\1/'; }
scrape_peak_mem() { grep Summary "$1" | tail -n1 | sed -E 's/.*peak memory usage\s+([0-9]+\.[0-9]+MiB).*/\1/'; }

# Is there a memory cgroup here (the checks of figures need one)?
run -w0 -d1 --interval_ms 100 htab-mem --format json
MEMCG=$(jq -r '.results[0].extra.memcg.available' "$OUT")

# ---- htab-mem: text in the kernel's wording ----
expect_rc 0 "htab-mem overwrite -p2" "${FAST[@]}" -p2 htab-mem --use-case overwrite
check "htab-mem prints one Iter line per sample" [ "$(grep -c '^Iter ' "$OUT")" -eq 2 ]
check "progress line wording" \
	grep -qE '^Iter   0 \( *-?[0-9]+\.[0-9]{3}us\): per-prod-op +[0-9]+\.[0-9]{2}k/s, memory usage ' "$OUT"
check "Summary is the last line" bash -c "tail -n1 $OUT | grep -q '^Summary: per-prod-op'"
v=$(scrape_prod_op "$OUT")
check "per-prod-op scraper parses the Summary ($v)" bash -c "[[ '$v' =~ ^[0-9]+\.[0-9]+\ ±\ +[0-9]+\.[0-9]+k/s$ ]]"
if [ "$MEMCG" = true ]; then
	v=$(scrape_avg_mem "$OUT")
	check "avg mem scraper parses the Summary ($v)" \
		bash -c "[[ '$v' =~ ^[0-9]+\.[0-9]+\ ±\ +[0-9]+\.[0-9]+MiB$ ]]"
	v=$(scrape_peak_mem "$OUT")
	check "peak mem scraper parses the Summary ($v)" bash -c "[[ '$v' =~ ^[0-9]+\.[0-9]+MiB$ ]]"
	check "the Memory note names the cgroup" grep -qE '^Memory: cgroup v[12] .*/mapbench-[0-9]+-[0-9]+' "$OUT"
fi
check "the Latency note gives ns per map operation" grep -qE '^Latency: in-kernel .* us per op \(64 map operations, [0-9.]+ ns each\)' "$OUT"
no_cgroup_left "htab-mem text"

# ---- htab-mem: every use case, preallocated and not ----
for uc in overwrite batch_add_batch_del add_del_on_diff_cpu; do
	for pre in "" --preallocated; do
		name="htab-mem $uc${pre:+ $pre}"
		expect_rc 0 "$name" "${FAST[@]}" -p2 htab-mem --use-case "$uc" $pre --format json
		jq_check "$name: ok, ops counted" "$OUT" \
			'.results[0].status == "ok" and .results[0].summary.totals.ops > 0'
		jq_check "$name: every op is 64 map operations, none failed" "$OUT" \
			'.results[0].summary.totals as $t | $t.errors == 0 and $t.hits == 64 * $t.ops'
		jq_check "$name: says what an op is" "$OUT" \
			'.results[0].extra.map_ops_per_op == 64 and (.results[0].extra.op | test("64 map operations"))'
		jq_check "$name: runner and trigger" "$OUT" \
			'.results[0].runner == "trigger" and (.results[0].extra.trigger | test("sys_enter"))'
		jq_check "$name: in-kernel ns per map op is sane (1..100000)" "$OUT" \
			'.results[0].extra.map_op_latency_ns > 1 and .results[0].extra.map_op_latency_ns < 100000'
		if [ "$MEMCG" = true ]; then
			jq_check "$name: memory per sample, no sample above the peak" "$OUT" \
				'.results[0] as $r | [$r.samples[].metrics.memory | . > 0 and . <= $r.extra.memcg.peak_bytes] | all'
			jq_check "$name: kernel memory below usage" "$OUT" \
				'[.results[0].samples[].metrics | .kmem <= .memory] | all'
		fi
		schema_check "$OUT"
	done
done
# ---- htab-mem: the trigger runner's attach points, each where the kernel takes the first ----
# MAPBENCH_REFUSE_TRIGGER stands in for a kernel that refuses an attach point.
MAPBENCH_REFUSE_TRIGGER=tp_btf "$MB" "${FAST[@]}" -p2 htab-mem --format json >"$OUT" 2>"$ERR"
rc=$?
check "htab-mem without tp_btf exits 0 (got $rc)" [ "$rc" -eq 0 ]
jq_check "htab-mem without tp_btf: the raw_tp programs ran, 64 map operations each" "$OUT" \
	'.results[0] | .extra.trigger == "raw_tp/sys_enter" and .summary.totals.ops > 0 and .summary.totals.hits == 64 * .summary.totals.ops'
MAPBENCH_REFUSE_TRIGGER=tp_btf,raw_tp,tp "$MB" "${FAST[@]}" htab-mem --format json >"$OUT" 2>"$ERR"
rc=$?
check "htab-mem with no attach point fails, exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "... saying what it could not load" grep -q "htab-mem: loading the hash map and its getpgid programs: " "$ERR"
jq_check "... and the result says so" "$OUT" \
	'.results[0].status == "failed" and .results[0].runner == "trigger" and (.results[0].reason | test("getpgid programs"))'
no_cgroup_left "htab-mem without an attach point"
# The getpgid tracepoint needs tracefs, which this machine may not mount: a mount namespace of
# the run's own mounts it.
if unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing' 2>/dev/null; then
	MAPBENCH_REFUSE_TRIGGER=tp_btf,raw_tp unshare -m sh -c \
		'mount -t tracefs nodev /sys/kernel/tracing && exec "$@"' sh \
		"$MB" "${FAST[@]}" -p2 htab-mem --use-case add_del_on_diff_cpu --format json >"$OUT" 2>"$ERR"
	rc=$?
	check "htab-mem on the getpgid tracepoint exits 0 (got $rc)" [ "$rc" -eq 0 ]
	jq_check "htab-mem on the getpgid tracepoint: its programs ran, 64 map operations each" "$OUT" \
		'.results[0] | .extra.trigger == "tp/syscalls/sys_enter_getpgid" and .summary.totals.ops > 0 and .summary.totals.hits == 64 * .summary.totals.ops'
else
	echo "  SKIP [$NAME] the getpgid tracepoint: no mount namespace with tracefs here"
fi

# The preallocated map holds all its entries from the start.
expect_rc 0 "htab-mem --preallocated --value-size 256" "${FAST[@]}" htab-mem --preallocated \
	--value-size 256 --format json
jq_check "preallocated memlock covers max_entries x value size" "$OUT" \
	'.results[0].extra.memory.htab.memlock_bytes >= 8192 * 256'
no_cgroup_left "htab-mem runs"

# ---- without a memory cgroup: memory unavailable, the rest runs ----
MAPBENCH_CGROUP_ROOT=/nonexistent "$MB" "${FAST[@]}" htab-mem >"$OUT" 2>"$ERR"
rc=$?
check "htab-mem without memcg exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "progress says unavailable" grep -q 'memory usage unavailable$' "$OUT"
check "Summary says unavailable" grep -q '^Summary: per-prod-op .*, memory usage unavailable, peak memory usage unavailable$' "$OUT"
check "the reason is given" grep -q '^Memory: unavailable: no memory cgroup' "$OUT"
MAPBENCH_CGROUP_ROOT=/nonexistent "$MB" "${FAST[@]}" htab-mem --format json >"$OUT" 2>"$ERR"
jq_check "JSON: memcg unavailable with its reason, metrics null" "$OUT" \
	'.results[0].extra.memcg.available == false and (.results[0].extra.memcg.reason | test("no memory cgroup")) and .results[0].summary.metrics.memory == null'
MAPBENCH_CGROUP_ROOT=/nonexistent "$MB" map-mem --map_type hash,array --format json >"$OUT" 2>"$ERR"
rc=$?
check "map-mem without memcg exits 0 (got $rc)" [ "$rc" -eq 0 ]
jq_check "map-mem without memcg: memlock only, reason per row" "$OUT" \
	'[.results[0].extra.footprint[].rows[] | .created_bytes == null and .memlock_filled_bytes > 0 and (.memcg_reason | test("no memory cgroup"))] | all'

# ---- map-mem: every map type at two sizes ----
# Ring sizes are whole pages: 1000 and 4000 both round up to one page (4 KiB or larger).
PG=$(getconf PAGESIZE)
expect_rc 0 "map-mem every type" map-mem --max_entries 1000,4000 --settle_ms 100 \
	--release_timeout_ms 3000 --format json
# "all": every type of --map-types but the four local storage ones.
NALL=$("$MB" --map-types --format json | jq '[.map_types[] | select(.name | test("^(task|sk|cgrp|inode)_storage$") | not)] | length')
jq_check "map-mem measured all $NALL types, three of them streaming" "$OUT" \
	".results[0].extra.footprint | length == $NALL and ([.[] | select(.stream)] | length == 3)"
jq_check "two rows per type (one where the size is fixed or capped alike), none failed" "$OUT" \
	'[.results[0].extra.footprint[] | select(.skipped == null) | ((.rows | length) == (if .size_rule and (.rows[0].max_entries < 1000) then 1 else 2 end)) and ([.rows[].error] | all(. == null))] | all'
jq_check "every filled row has memlock and entries" "$OUT" \
	'[.results[0].extra.footprint[] | select(.stream == null and .fill_reason == null) | .rows[] | .memlock_filled_bytes > 0 and .entries > 0] | all'
jq_check "types not filled say why, in the type and each row" "$OUT" \
	'[.results[0].extra.footprint[] | select(.fill_reason) | .fill_reason as $w | ($w | test("^not (applicable|filled): ")) and ([.rows[] | .fill_reason == $w and .filled_bytes == null] | all)] | all'
jq_check "ring sizes rounded up to a page multiple, said so; the perf event array as asked" "$OUT" \
	".results[0].extra.footprint as \$f | ([\$f.ringbuf, \$f.user_ringbuf | .rows | map(.max_entries) == [$PG, $PG] and map(.rounded_from) == [1000, 4000]] | all) and (\$f.perf_event_array.rows | map(.max_entries) == [1000, 4000] and map(.rounded_from) == [null, null])"
jq_check "streaming maps: memlock at creation, nothing filled" "$OUT" \
	'[.results[0].extra.footprint[] | select(.stream) | .rows[] | .memlock_created_bytes > 0 and .filled_bytes == null and (.fill_reason | test("^not applicable: "))] | all'
if [ "$MEMCG" = true ]; then
	F='.results[0].extra.footprint'
	jq_check "every map is charged, more at 4000 than at 1000 entries" "$OUT" \
		"[$F[] | select(.stream == null and .fill_reason == null and .skipped == null) | .rows[0].filled_bytes > 0 and .rows[1].filled_bytes > .rows[0].filled_bytes] | all"
	jq_check "streaming maps are charged at creation; the perf event array more at 4000 slots" "$OUT" \
		"([$F[] | select(.stream) | .rows[].created_bytes > 0] | all) and ($F.perf_event_array.rows | .[1].created_bytes > .[0].created_bytes)"
	jq_check "preallocated hash: charged at creation, holds key and value" "$OUT" \
		"$F.hash.rows[1] | .created_bytes >= 4000 * 12 and .filled_bytes - .created_bytes < 65536"
	jq_check "preallocated hash: memlock within 10 % of the charge" "$OUT" \
		"$F.hash.rows[1].memlock_error | fabs < 0.1"
	jq_check "array: 8-byte values cost 8..32 bytes per entry" "$OUT" \
		"$F.array.rows[1].bytes_per_entry | . >= 8 and . <= 32"
	jq_check "lpm_trie: nodes are charged on insert" "$OUT" \
		"$F.lpm_trie.rows[1] | .filled_bytes > .created_bytes + 4000 * 16"
	jq_check "closed maps are released (to within 256 KiB)" "$OUT" \
		"[$F[].rows[] | .closed_bytes < 262144 and (.close_release.reached or .close_release.settled)] | all"
	jq_check "types without delete say so" "$OUT" \
		"$F.array.rows[0].can_delete == false and $F.bloom_filter.rows[0].can_delete == false and $F.hash.rows[0].can_delete"
fi
schema_check "$OUT"

expect_rc 0 "map-mem hash no_prealloc" map-mem --map_type hash --map_flags no_prealloc \
	--max_entries 4000 --settle_ms 100 --release_timeout_ms 3000 --format json
if [ "$MEMCG" = true ]; then
	jq_check "no_prealloc: elements are charged on insert, memlock underestimates" "$OUT" \
		'.results[0].extra.footprint.hash.rows[0] | .filled_bytes > .created_bytes + 4000 * 16 and .memlock_error < 0'
	jq_check "no_prealloc: the release wait is reported" "$OUT" \
		'.results[0].extra.footprint.hash.rows[0].delete_release | .waited_ms >= 0 and (.reached or .settled)'
fi

# ---- map-mem: local storage per owner, beside a hash keyed by the owner's id ----
# Files are made under $TMPDIR: a folder of the test's own shows none is left behind.
mkdir -p "$TMP/owners"
TMPDIR=$TMP/owners expect_rc 0 "map-mem storage types" map-mem --map_type storage \
	--max_entries 100,400 --settle_ms 100 --release_timeout_ms 3000 --format json
F='.results[0].extra.footprint'
jq_check "four storage tables, no other (all leaves them out; storage names the four)" "$OUT" \
	"$F | keys == [\"cgrp_storage\", \"inode_storage\", \"sk_storage\", \"task_storage\"]"
jq_check "each: two rows of owners, none failed, the map made with max_entries 0" "$OUT" \
	"[$F[] | .storage.owner_kind != null and (.rows | map(.owners) == [100, 400]) and
	  ([.rows[] | .error == null and .hash.error == null and .max_entries == 0] | all)] | all"
jq_check "every owner's value read back; the hash beside it holds as many, keyed by 8-byte ids" "$OUT" \
	"[$F[] | .storage.hash.key_size == 8 and ([.rows[] | .entries == .owners and
	  .hash.entries == .owners and .hash.max_entries == .owners] | all)] | all"
jq_check "each row: bytes per owner, bytes per hash entry and their ratio" "$OUT" \
	"[$F[].rows[] | .bytes_per_owner > 0 and .hash_bytes_per_entry > 0 and .storage_vs_hash > 0] | all"
if [ "$MEMCG" = true ]; then
	# The owners live in a cgroup of their own: the map's cgroup gets the storage alone.
	jq_check "the storage is charged to the map's cgroup: at least a value per owner, more with more owners" "$OUT" \
		"[$F[].rows | (.[] | .filled_bytes - .created_bytes >= .owners * 8) and
		  .[1].filled_bytes > .[0].filled_bytes] | all"
	jq_check "the owners' own charge is measured apart" "$OUT" \
		"[$F[].rows[] | .owners_bytes > 0 and .owner_bytes_each > 0] | all"
	jq_check "storage and hash maps are released once closed (to within 256 KiB)" "$OUT" \
		"[$F[].rows[] | .closed_bytes < 262144 and .hash.closed_bytes < 262144] | all"
fi
check "no owner's file left behind" [ -z "$(ls -A "$TMP/owners")" ]
no_cgroup_left "map-mem storage types (owners' cgroup v2 directories too)"
schema_check "$OUT"
cp "$OUT" "$TMP/storage.json"
TMPDIR=$TMP/owners expect_rc 0 "map-mem storage text" map-mem --map_type hash,sk_storage \
	--max_entries 100 --settle_ms 100 --release_timeout_ms 3000
check "a storage table names owners and map" grep -q '^ *owners map  *entries ' "$OUT"
check "the storage row, then the hash's" bash -c \
	"grep -A1 '^ *100 sk_storage ' '$OUT' | grep -q '^ *100 hash (by owner id) '"
check "its note says max_entries 0 and what keys it" \
	grep -q 'note: sk_storage: a storage map has no capacity: made with max_entries 0' "$OUT"

# ---- map-mem: ring buffers, allocated whole at creation, never filled from user space ----
for t in ringbuf user_ringbuf; do
	expect_rc 0 "map-mem $t of 1 MiB" map-mem --map_type $t --max_entries 1048576 \
		--settle_ms 100 --release_timeout_ms 3000 --format json
	R=".results[0].extra.footprint.$t"
	jq_check "$t: a ring, one row of 1 MiB as asked, no error" "$OUT" \
		"$R.stream == \"ring\" and $R.key_size == 0 and $R.value_size == 0 and ($R.rows | length == 1) and ($R.rows[0] | .error == null and .max_entries == 1048576 and .rounded_from == null)"
	jq_check "$t: memlock at creation covers the 1 MiB of data pages" "$OUT" \
		"$R.rows[0].memlock_created_bytes >= 1048576"
	jq_check "$t: fill and delete not applicable: null, with the reason" "$OUT" \
		"$R.rows[0] | .filled_bytes == null and .deleted_bytes == null and .entries == null and .nr_entries == null and .memlock_filled_bytes == null and .fill_ms == null and .delete_ms == null and .fill_method == null and .can_delete == false and (.fill_reason | test(\"^not applicable: \"))"
	if [ "$MEMCG" = true ]; then
		jq_check "$t: the creation charge holds the 1 MiB ring, memlock within 10 % of it" "$OUT" \
			"$R.rows[0] | .created_bytes >= 1048576 and .compared_bytes == .created_bytes and (.memlock_error | fabs < 0.1)"
		jq_check "$t: released at close (to within 256 KiB)" "$OUT" \
			"$R.rows[0] | .closed_bytes < 262144 and (.close_release.reached or .close_release.settled)"
	fi
	schema_check "$OUT"
done
expect_rc 0 "map-mem streaming text" map-mem --map_type ringbuf,perf_event_array \
	--max_entries 65536 --release_timeout_ms 0
check "streaming rows: entries, filled, deleted, fill and delete n/a" \
	bash -c "[ \$(grep -cE '^ +65536 +n/a .* n/a .* n/a .* n/a +n/a\$' '$OUT') -eq 2 ]"
check "the ring's note: allocated at creation, fill and delete n/a" \
	grep -q '^ *note: ringbuf: max_entries is the ring.s bytes; the whole ring .* at creation; fill, delete: n/a' "$OUT"
check "the perf event array's note: the perf rings are not the map's memory" \
	grep -q "^ *note: perf_event_array: .*the per-CPU perf rings are perf's memory" "$OUT"
expect_rc 0 "map-mem ringbuf with the default size" map-mem --map_type ringbuf \
	--release_timeout_ms 0
RING10K=$(( PG > 16384 ? PG : 16384 ))
check "the default size is rounded up, and the note says so" grep -q \
	"sizes rounded up to a power of two multiple of the page size: 10000 -> $RING10K" "$OUT"

expect_rc 0 "map-mem text" map-mem --map_type hash,bloom_filter --max_entries 1000 \
	--release_timeout_ms 0
check "one table per map type" [ "$(grep -c '^map-mem: ' "$OUT")" -eq 2 ]
check "table header" grep -qE '^max_entries +entries +created +filled +percpu +B/entry +memlock +vs charged' "$OUT"
check "a row per size" grep -qE '^ +1000 +1000 ' "$OUT"
check "fill and delete times in the table" grep -qE '^max_entries .* fill +delete$' "$OUT"
check "the hash row has both times, the bloom filter no delete time" bash -c \
	"grep -qE '^ +1000 +1000 .* [0-9.]+ (ms|s) +[0-9.]+ (ms|s)\$' '$OUT' && grep -qE '^ +1000 +1000 .*no delete.* [0-9.]+ (ms|s) +-\$' '$OUT'"
check "no per-CPU note for maps without per-CPU values" bash -c "! grep -q 'note:' '$OUT'"

[ "$MEMCG" = true ] && check "without waiting: 'not waited'" grep -q 'not waited' "$OUT"
expect_rc 0 "map-mem text document" map-mem --map_type array --max_entries 1000 \
	--release_timeout_ms 0 -o "$TMP/mm.txt"
check "the text document has the table" grep -qE '^ +1000 +1000 ' "$TMP/mm.txt"

# ---- map-mem: per-CPU values, in the charge or not, said per table ----
expect_rc 0 "map-mem per-CPU, preallocated" map-mem --map_type percpu_hash,percpu_array \
	--max_entries 100000 --release_timeout_ms 0 -o "$TMP/pcpu.json"
check "preallocated per-CPU tables say their values are not in the charge" bash -c \
	"[ \$(grep -c 'per-CPU values are allocated with the map and are not in created/filled' '$OUT') -eq 2 ]"
ncpu=$(jq -r .context.possible_cpus "$TMP/pcpu.json")
F='.results[0].extra.footprint'
jq_check "preallocated: per-CPU values of every slot, not charged, added to what memlock is compared with" "$TMP/pcpu.json" \
	"[$F[] | .percpu_values_charged == false and (.rows[] | .percpu_values_bytes == .max_entries * 8 * $ncpu and (if .filled_bytes == null then .compared_bytes == null else .compared_bytes == .filled_bytes + .percpu_values_bytes and ((.memlock_error - (.memlock_filled_bytes - .compared_bytes) / .compared_bytes) | fabs) < 1e-9 end))] | all"
# 64-byte values: the per-CPU part (64 x CPUs per entry) outweighs the element itself.
expect_rc 0 "map-mem per-CPU, no_prealloc" map-mem --map_type percpu_hash --map_flags no_prealloc \
	--max_entries 4000 --value_size 64 --release_timeout_ms 0 -o "$TMP/pcpu-np.json"
check "no_prealloc per-CPU: the table says the values are in the charge" grep -q \
	'percpu_hash: per-CPU values are allocated on insert and are in created/filled' "$OUT"
check "no_prealloc per-CPU: never says they are not charged" bash -c \
	"! grep -q 'not in created/filled' '$OUT'"
jq_check "no_prealloc: values of the entries present, charged, memlock compared with the charge alone" "$TMP/pcpu-np.json" \
	"$F.percpu_hash | .percpu_values_charged == true and (.rows[0] | .percpu_values_bytes == .entries * 64 * $ncpu and (.filled_bytes == null or .compared_bytes == .filled_bytes))"
if [ "$MEMCG" = true ]; then
	# Measured on 6.18 (src/families/memory/README.md#map-mem): the charge of a preallocated per-CPU map
	# plus its per-CPU values is what memlock counts; the charge alone is short of it.
	# memory.current (v2) also holds up to 64 pages per CPU charged ahead.
	jq_check "preallocated per-CPU: memlock within 10 % of charged + per-CPU values" "$TMP/pcpu.json" \
		"(if .results[0].extra.memcg.charged_file == \"memory.current\" then 64 * 4096 * $ncpu else 0 end) as \$ahead | [$F[].rows[0] | (.memlock_filled_bytes - .compared_bytes | fabs) < 0.1 * .compared_bytes + \$ahead] | all"
	jq_check "preallocated per-CPU: the charge alone is below memlock by most of the values" "$TMP/pcpu.json" \
		"[$F[].rows[0] | .memlock_filled_bytes - .filled_bytes > 0.5 * .percpu_values_bytes] | all"
	jq_check "no_prealloc per-CPU: the values are charged on insert" "$TMP/pcpu-np.json" \
		"$F.percpu_hash.rows[0] | .filled_bytes - .created_bytes > .percpu_values_bytes"
fi

# ---- map-mem: progress on a terminal, never in the document ----
if command -v script >/dev/null; then
	script -qec "$MB map-mem --map_type hash --max_entries 1000 --release_timeout_ms 0 -o $TMP/tty.json" \
		"$TMP/tty.log" >/dev/null 2>&1
	check "on a terminal: the phases are shown" bash -c \
		"grep -q 'map-mem: hash, 1000 entries: filling' '$TMP/tty.log' && grep -q 'map-mem: hash, 1000 entries: deleting' '$TMP/tty.log'"
	check "the document has no progress" bash -c "! grep -q 'entries: filling' '$TMP/tty.json'"
	script -qec "$MB -q map-mem --map_type hash --max_entries 1000 --release_timeout_ms 0" \
		"$TMP/tty-q.log" >/dev/null 2>&1
	check "-q on a terminal: no progress" bash -c "! grep -q 'entries: filling' '$TMP/tty-q.log'"
fi
run map-mem --map_type hash --max_entries 1000 --release_timeout_ms 0 --format json
check "not a terminal: no progress on stderr or stdout" bash -c \
	"! grep -q 'entries: filling' '$ERR' && ! grep -q 'entries: filling' '$OUT'"

no_cgroup_left "map-mem runs"

# ---- errors: nothing left behind ----
expect_rc 1 "map-mem: a size the kernel refuses fails" map-mem --map_type percpu_hash \
	--value_size 40000 --max_entries 10
check "the row says why" grep -q "error: creating the map: the kernel refused the size (E2BIG)" "$OUT"
no_cgroup_left "failed map creation"
if command -v setpriv >/dev/null; then
	# Root without CAP_PERFMON: the cgroup is made, loading the programs fails.
	setpriv --bounding-set=-all,+bpf "$MB" "${FAST[@]}" htab-mem >"$OUT" 2>"$ERR"
	rc=$?
	check "htab-mem without CAP_PERFMON is skipped, exit 77 (got $rc)" [ "$rc" -eq 77 ]
	check "says CAP_PERFMON is missing" grep -q "CAP_PERFMON is missing" "$ERR"
	no_cgroup_left "set-up failed after the cgroup was made"
fi

# ---- bad input: one line, exit 2, nothing made ----
expect_usage "-p/--producers 3: --use-case add_del_on_diff_cpu needs an even number" \
	-p3 htab-mem --use-case add_del_on_diff_cpu
expect_usage "--value-size 5000: must be 1..4096" htab-mem --value-size 5000
expect_usage "--value-size 0: must be 1..4096" htab-mem --value-size 0
expect_usage "--use-case delete: must be one of overwrite, batch_add_batch_del, add_del_on_diff_cpu" \
	htab-mem --use-case delete
expect_usage "--max-entries 100: must be 0 or at least 128" -p2 htab-mem --max-entries 100
expect_usage "--preallocated takes no value" htab-mem --preallocated=1
expect_usage "--map_type tree: must be all, or names joined by ',': hash, percpu_hash" map-mem --map_type tree
expect_usage "--max_entries 0: must be 1..67108864" map-mem --max_entries 0
expect_usage "--max_entries 10k,: must be 1..67108864; up to 16 sizes joined by ',' (a sweep) (ends with ',')" map-mem --max_entries 10k,
expect_usage "--nr_entries 20000: must be at most the smallest --max_entries (10000)" \
	map-mem --max_entries 10k,1M --nr_entries 20000
expect_usage "--key_size 8: array keys are 4-byte indexes" map-mem --map_type array --key_size 8
expect_usage "--key_size 4: bloom_filter has no key" map-mem --map_type bloom_filter --key_size 4
expect_usage "--key_size 300: lpm_trie keys hold 1..256 data bytes" map-mem --map_type lpm_trie \
	--key_size 300
expect_usage "--value_size 8: hash_of_maps values are inner map fds (must be 4)" \
	map-mem --map_type hash_of_maps --value_size 8
expect_usage "--map_flags no_prealloc: array does not take no_prealloc" map-mem --map_type array \
	--map_flags no_prealloc
expect_usage "--map_flags 0x100000: no selected map type takes 0x100000; bits 0x100000 name no map flag (the flags:" \
	map-mem --map_flags 0x100000
expect_usage "--map_flags 0xdeadbeef: hash does not take no_common_lru|mmapable; bits 0xdeadba28 name no map flag" \
	map-mem --map_type hash --map_flags 0xdeadbeef
expect_usage "--key_size 1: hash keys of 1 bytes give 256 distinct keys, fewer than the 1000" \
	map-mem --map_type hash --key_size 1 --max_entries 1000
expect_usage "-p/--producers 2: this bench needs a single producer" -p2 map-mem
expect_usage "--max_entries 1000000: ringbuf sizes are bytes, a power of two from $(getconf PAGESIZE) (the page size) to 67108864" \
	map-mem --map_type ringbuf --max_entries 1M
expect_usage "--max_entries 12288: user_ringbuf sizes are bytes, a power of two from" \
	map-mem --map_type hash,user_ringbuf --max_entries 4096,12288
expect_usage "--max_entries 2048: ringbuf sizes are bytes" map-mem --map_type ringbuf --max_entries 2048
expect_usage "--key_size 4: ringbuf has no key (leave it out)" map-mem --map_type ringbuf --key_size 4
expect_usage "--value_size 8: user_ringbuf has no value (leave it out)" \
	map-mem --map_type user_ringbuf --value_size 8
expect_usage "--value_size 8: perf_event_array values are perf event fds (must be 4)" \
	map-mem --map_type perf_event_array --value_size 8
expect_usage "--max_entries 67108864: task_storage makes that many owners (threads); at most" \
	map-mem --map_type task_storage --max_entries 67108864
expect_usage "--max_entries 67108864: inode_storage makes that many owners (files); at most" \
	map-mem --map_type hash,inode_storage --max_entries 1000,67108864
expect_usage "--key_size 8: sk_storage keys are owner fds (must be 4" \
	map-mem --map_type sk_storage --key_size 8
expect_usage "--map_flags numa_node: task_storage does not take numa_node" \
	map-mem --map_type storage --map_flags numa_node
expect_usage "--map_type storages: must be all, or names joined by ','" map-mem --map_type storages
no_cgroup_left "bad input"

# ---- SIGINT / SIGTERM mid-run: the cgroup goes, partial results are kept ----
has_cgroup() { [ "$(cgroups_of "$1")" -gt 0 ]; }
if [ "$MEMCG" = true ]; then
	"$MB" -w0 -d100 --interval_ms 100 htab-mem --format json -o "$TMP/int.json" >"$OUT" 2>"$ERR" &
	pid=$!
	wait_for "htab-mem makes its cgroup" $pid has_cgroup $pid
	check "htab-mem runs in its own cgroup" [ "$(cgroups_of $pid)" -eq 1 ]
	wait_output_line "$OUT" '^Iter +0 ' $pid
	kill -INT $pid
	wait $pid
	rc=$?
	check "htab-mem: SIGINT exits 130 (got $rc)" [ "$rc" -eq 130 ]
	jq_check "htab-mem: interrupted result kept" "$TMP/int.json" \
		'.results[0].status == "interrupted" and .results[0].summary.samples >= 1'
	check "htab-mem: cgroup removed after SIGINT" [ "$(cgroups_of $pid)" -eq 0 ]

	# map-mem in a long fill (each map-in-map insert waits for RCU: 4M of them take tens of
	# seconds anywhere), signalled once its cgroup exists.
	"$MB" map-mem --map_type array_of_maps --max_entries 4M --format json \
		-o "$TMP/term.json" >"$OUT" 2>"$ERR" &
	pid=$!
	wait_for "map-mem makes its cgroup" $pid has_cgroup $pid
	kill -TERM $pid
	wait $pid
	rc=$?
	check "map-mem: SIGTERM exits 130 (got $rc)" [ "$rc" -eq 130 ]
	jq_check "map-mem: interrupted" "$TMP/term.json" '.results[0].status == "interrupted"'
	check "map-mem: cgroup removed after SIGTERM" [ "$(cgroups_of $pid)" -eq 0 ]

	# map-mem interrupted while it makes its owners (files): the owners go with it.
	mkdir -p "$TMP/sigowners"
	has_owner_files() { [ -n "$(find "$TMP/sigowners" -name 'o*' -print -quit)" ]; }
	n=$(jq '.results[0].extra.footprint.inode_storage.storage.max_owners' "$TMP/storage.json")
	TMPDIR=$TMP/sigowners "$MB" map-mem --map_type inode_storage --max_entries "$n" \
		--format json -o "$TMP/sig.json" >"$OUT" 2>"$ERR" &
	pid=$!
	wait_for "map-mem makes its owners" $pid has_owner_files
	kill -INT $pid
	wait $pid
	rc=$?
	check "map-mem storage: SIGINT exits 130 (got $rc)" [ "$rc" -eq 130 ]
	check "map-mem storage: no owner's file left after SIGINT" [ -z "$(ls -A "$TMP/sigowners")" ]
	check "map-mem storage: cgroups removed after SIGINT" [ "$(cgroups_of $pid)" -eq 0 ]

	# SIGKILL leaves no partial output but the cgroup stays; the next run removes it.
	"$MB" -w0 -d100 --interval_ms 100 htab-mem -o "$TMP/kill.json" >"$OUT" 2>"$ERR" &
	pid=$!
	wait_for "htab-mem makes its cgroup" $pid has_cgroup $pid
	kill -KILL $pid
	wait $pid 2>/dev/null
	check "SIGKILL: no partial output file" [ ! -e "$TMP/kill.json" ]
	check "SIGKILL: the killed run's cgroup is still there" [ "$(cgroups_of $pid)" -eq 1 ]
	expect_rc 0 "the next run" -w0 -d1 --interval_ms 100 htab-mem
	check "the next run removed the dead process's cgroup" [ "$(cgroups_of $pid)" -eq 0 ]
	check "and said so" grep -q "^Removed [0-9]* memory cgroups* left by mapbench processes that were killed" "$OUT"
fi
no_cgroup_left "signals"
check "no BPF program or map of ours left behind" [ "$(mem_leftovers)" -eq 0 ]

finish
