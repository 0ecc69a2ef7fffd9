#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The LRU quality benches: test_lru_dist's wording, counts that add up, known answers, both
# access paths, bad input, teardown.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

ncpu=$(nproc)

# LRU maps and programs (named mb_lru*) that no process holds: left behind by this family.
# (leftover_bpf counts every family's, and other runs on the machine race with it.)
lru_leftover() {
	local held maps progs
	held=$(held_bpf_ids | jq -R . | jq -s .)
	maps=$(bpftool -j map show 2>/dev/null | jq --argjson h "$held" \
		'[.[] | select((.name // "") | startswith("mb_lru")) | select(("map_id:" + (.id | tostring)) as $k | $h | index($k) | not)] | length')
	progs=$(bpftool -j prog show 2>/dev/null | jq --argjson h "$held" \
		'[.[] | select((.name // "") | startswith("mb_lru")) | select(("prog_id:" + (.id | tostring)) as $k | $h | index($k) | not)] | length')
	echo $((maps + progs))
}
before=$(lru_leftover)

# ---- lru-dist, text: test_lru_dist's lines, then one Summary line per variant ----
expect_rc 0 "lru-dist default" lru-dist --nr_keys 20000 --key_range 20000 --lru_size 1000
check "nr_cpus line first" bash -c "grep -v '^Setting up\|^Benchmark' $OUT | head -n1 | grep -qE '^nr_cpus:[0-9]+$'"
check "common header" grep -qxF "test_parallel_lru_dist (map_type:9 map_flags:0x0):" "$OUT"
check "no_common header" grep -qxF "test_parallel_lru_dist (map_type:9 map_flags:0x2):" "$OUT"
check "BPF LRU line" grep -qE '^    task:0 BPF LRU: nr_unique:[0-9]+\(/20000\) nr_misses:[0-9]+\(/20000\)$' "$OUT"
check "Perfect LRU line" grep -qE '^    task:0 Perfect LRU: nr_unique:[0-9]+\(/20000\) nr_misses:[0-9]+\(/20000\)$' "$OUT"
check "two Summary lines" [ "$(grep -c '^Summary: lru_hash ' "$OUT")" -eq 2 ]
check "a Summary line is the last line" bash -c "tail -n1 $OUT | grep -q '^Summary: lru_hash no_common'"
# The BPF line shows the perfect LRU's nr_unique, as test_lru_dist prints it.
u_bpf=$(grep -m1 'task:0 BPF LRU' "$OUT" | sed -E 's/.*nr_unique:([0-9]+).*/\1/')
u_pf=$(grep -m1 'task:0 Perfect LRU' "$OUT" | sed -E 's/.*nr_unique:([0-9]+).*/\1/')
check "same nr_unique on both lines ($u_bpf, $u_pf)" [ "$u_bpf" = "$u_pf" ]

# A text document (-o) carries the same Summary lines, rendered from the JSON results.
expect_rc 0 "lru-dist -o text" lru-dist --nr_keys 2000 --lru_size 100 -o "$TMP/dist.txt"
check "text document: bench name, then the Summary lines" \
	bash -c "diff <(grep '^Summary: ' $OUT) <(tail -n +2 $TMP/dist.txt) && head -n1 $TMP/dist.txt | grep -qx 'lru-dist:'"

# -q: only the Summary lines.
expect_rc 0 "lru-dist -q" -q lru-dist --nr_keys 2000 --lru_size 100
check "-q prints only Summary lines" [ "$(grep -vc '^Summary: ' "$OUT")" -eq 0 ]

# ---- lru-dist, JSON: the counts add up ----
# check_dist FILE TASKS ACCESSES: relations every lru-dist result must satisfy.
check_dist() {
	local f=$1 tasks=$2 n=$3 x='.results[0].extra'
	schema_check "$f"
	jq_check "status ok, summary null (one-shot)" "$f" '.results[0].status == "ok" and .results[0].summary == null'
	jq_check "trace length" "$f" "$x.trace.accesses == $n"
	jq_check "one result per task" "$f" "[$x.variants[] | .tasks | length == $tasks] | all"
	jq_check "task accesses = trace length" "$f" "[$x.variants[].tasks[] | .accesses == $n] | all"
	jq_check "total = sum of tasks" "$f" \
		"[$x.variants[] | .total.accesses == ([.tasks[].accesses] | add) and .total.bpf_misses == ([.tasks[].bpf_misses] | add) and .total.perfect_misses == ([.tasks[].perfect_misses] | add) and .total.unique_keys == ([.tasks[].unique_keys] | add)] | all"
	jq_check "hits + misses = accesses" "$f" \
		"[$x.variants[].tasks[] | .bpf_hits + .bpf_misses == .accesses and .perfect_hits + .perfect_misses == .accesses] | all"
	jq_check "unique keys <= misses <= accesses (first accesses always miss)" "$f" \
		"[$x.variants[].tasks[] | .unique_keys <= .bpf_misses and .bpf_misses <= .accesses and .unique_keys <= .perfect_misses and .perfect_misses <= .accesses] | all"
	jq_check "unique keys = the trace's" "$f" "$x as \$e | [\$e.variants[].tasks[] | .unique_keys == \$e.trace.unique_keys] | all"
	jq_check "extra = BPF - perfect" "$f" \
		"[$x.variants[] | (.tasks[], .total) | .extra_misses == .bpf_misses - .perfect_misses] | all"
	jq_check "miss ratios" "$f" \
		"[$x.variants[] | (.tasks[], .total) | ((.bpf_miss_ratio - .bpf_misses / .accesses) | fabs) < 1e-12] | all"
	jq_check "perfect misses = the perfect LRU's" "$f" \
		"$x as \$e | [\$e.variants[].tasks[] | .perfect_misses == \$e.perfect.misses_per_task] | all"
	jq_check "resident keys within capacity" "$f" \
		"[$x.variants[] | .total.resident_keys > 0 and .total.resident_keys <= .max_entries] | all"
	jq_check "no_common: a task keeps at most lru_size keys (its CPU's share)" "$f" \
		"$x as \$e | [\$e.variants[] | select(.lru == \"no_common\") | .tasks[] | .resident_keys <= \$e.lru_size] | all"
	jq_check "no insert failed" "$f" "[$x.variants[].total.insert_failures == 0] | all"
	jq_check "memlock reported per map" "$f" "[$x.memory[] | .memlock_bytes > 0] | all"
}

run lru-dist --nr_keys 20000 --key_range 20000 --lru_size 1000 --format json
check "lru-dist json exit 0" [ "$rc" -eq 0 ]
cp "$OUT" "$TMP/dist.json"
check_dist "$TMP/dist.json" 1 20000
jq_check "runner syscall" "$TMP/dist.json" '.results[0].runner == "syscall"'
jq_check "syscall path: a lookup per access, an insert per miss" "$TMP/dist.json" \
	'[.results[0].extra.variants[].tasks[] | .syscalls == .accesses + .bpf_misses] | all'
jq_check "both variants, common first" "$TMP/dist.json" \
	'[.results[0].extra.variants[].lru] == ["common", "no_common"]'
jq_check "no_common map holds lru_size per possible CPU" "$TMP/dist.json" \
	'.results[0].extra.variants[1].max_entries == 1000 * .results[0].extra.possible_cpus'

# The same seed gives the same trace, so the same perfect LRU figures.
run lru-dist --nr_keys 20000 --key_range 20000 --lru_size 1000 --map_flags common --format json
jq_check "same seed, same trace" "$OUT" \
	".results[0].extra.trace.unique_keys == $(jq .results[0].extra.trace.unique_keys "$TMP/dist.json") and .results[0].extra.perfect.misses_per_task == $(jq .results[0].extra.perfect.misses_per_task "$TMP/dist.json")"
run lru-dist --nr_keys 20000 --key_range 20000 --lru_size 1000 --map_flags common --seed 2 --format json
jq_check "another seed, another trace" "$OUT" \
	".results[0].extra.trace.unique_keys != $(jq .results[0].extra.trace.unique_keys "$TMP/dist.json")"

# --access bpf: a program replays the trace on the task's CPU.
run lru-dist --nr_keys 20000 --key_range 20000 --lru_size 1000 --access bpf --format json
check "lru-dist --access bpf exit 0" [ "$rc" -eq 0 ]
cp "$OUT" "$TMP/dist-bpf.json"
check_dist "$TMP/dist-bpf.json" 1 20000
jq_check "runner kernel-loop" "$TMP/dist-bpf.json" '.results[0].runner == "kernel-loop"'
jq_check "in-kernel time per access measured" "$TMP/dist-bpf.json" \
	'[.results[0].extra.variants[].total.kernel_ns_per_access > 0] | all'

# lru_percpu_hash, and several tasks on distinct CPUs.
run lru-dist --nr_keys 5000 --lru_size 300 --map_type lru_percpu_hash --format json
check "lru_percpu_hash exit 0" [ "$rc" -eq 0 ]
check_dist "$OUT" 1 5000
jq_check "map type lru_percpu_hash" "$OUT" '[.results[0].extra.variants[].map_type == "lru_percpu_hash"] | all'
if [ "$ncpu" -ge 2 ]; then
	run lru-dist --nr_keys 5000 --lru_size 300 --nr_tasks 2 --format json
	check "two tasks exit 0" [ "$rc" -eq 0 ]
	check_dist "$OUT" 2 5000
	jq_check "tasks on distinct CPUs" "$OUT" '[.results[0].extra.variants[0].tasks[].cpu] | unique | length == 2'
	jq_check "common map shared: lru_size x tasks" "$OUT" '.results[0].extra.variants[0].max_entries == 600'
	run lru-dist --nr_keys 5000 --lru_size 300 --nr_tasks 2 --access bpf --format json
	check "two tasks, bpf exit 0" [ "$rc" -eq 0 ]
	check_dist "$OUT" 2 5000
fi

# ---- known answers from a key file ----
for i in $(seq 10); do printf '1\n2\n3\n'; done >"$TMP/cyclic.keys"
run lru-dist --keys_file "$TMP/cyclic.keys" --lru_size 2 --format json
check_dist "$OUT" 1 30
jq_check "cyclic scan larger than the LRU: every access misses a perfect LRU" "$OUT" \
	'.results[0].extra.perfect.misses_per_task == 30 and .results[0].extra.trace.unique_keys == 3'
for access in syscall bpf; do
	run lru-dist --keys_file "$TMP/cyclic.keys" --lru_size 3 --access $access --format json
	jq_check "keys that fit miss once, BPF and perfect alike ($access)" "$OUT" \
		'[.results[0].extra.variants[].total | .perfect_misses == 3 and .bpf_misses == 3] | all'
done
# Keys above 62 bits are renumbered (the pattern, and so every figure, stays the same).
printf '18446744073709551615\n7\n18446744073709551615\n7\n' >"$TMP/big.keys"
run lru-dist --keys_file "$TMP/big.keys" --lru_size 2 --format json
jq_check "huge keys: dense key mapping" "$OUT" '.results[0].extra.trace.key_mapping == "dense"'
jq_check "huge keys: 2 misses, 2 hits" "$OUT" '[.results[0].extra.variants[].total.bpf_misses == 2] | all'
jq_check "trace from a file" "$OUT" '.results[0].extra.trace.source == "file" and .results[0].extra.trace.dist == null'

# ---- lru-loss ----
run lru-loss --nr_repeats 20000 --format json
check "lru-loss exit 0" [ "$rc" -eq 0 ]
cp "$OUT" "$TMP/loss.json"
schema_check "$TMP/loss.json"
x='.results[0].extra'
jq_check "both variants" "$TMP/loss.json" "[$x.variants[].lru] == [\"common\", \"no_common\"]"
jq_check "loss0: a perfect LRU loses exactly the 100 older keys" "$TMP/loss.json" \
	"[$x.variants[].loss0.perfect | .older_losses == 100 and .active_losses == 0 and .newer_losses == 0] | all"
jq_check "loss0: 1000 keys into 900 entries lose 100..1000, each group within its size" "$TMP/loss.json" \
	"[$x.variants[].loss0 | (.older_losses + .active_losses + .newer_losses) as \$l | \$l >= 100 and \$l <= 1000 and .older_losses <= 100 and .active_losses <= 800 and .newer_losses <= 100] | all"
jq_check "loss0: 1000 inserts and the hot lookups replayed" "$TMP/loss.json" \
	"[$x.variants[].loss0 | .operations == 1000 + .lookup_hits + .lookup_misses and .lookup_hits + .lookup_misses == 400400] | all"
jq_check "loss1: perfect loses none, BPF 0..1000" "$TMP/loss.json" \
	"[$x.variants[].loss1 | .perfect_losses == 0 and .losses >= 0 and .losses <= 1000] | all"
jq_check "parallel: one task per online CPU" "$TMP/loss.json" \
	"[$x.variants[].parallel.tasks | length == $ncpu] | all"
jq_check "parallel: losses of each task within its 1000 stable keys" "$TMP/loss.json" \
	"[$x.variants[].parallel.tasks[] | .losses <= 1000 and .perfect_losses <= 1000 and .operations == 21000] | all"
jq_check "parallel: totals add up" "$TMP/loss.json" \
	"[$x.variants[].parallel | .losses == ([.tasks[].losses] | add) and .perfect_losses == ([.tasks[].perfect_losses] | add)] | all"
check "loss0 line in test_lru_dist's wording" \
	grep -qE '^test_lru_loss0 \(map_type:9 map_flags:0x0\): older-elem-losses:[0-9]+\(/100\) active-elem-losses:[0-9]+\(/800\) newer-elem-losses:[0-9]+\(/100\)$' "$ERR"
check "loss1 line" grep -qE '^test_lru_loss1 \(map_type:9 map_flags:0x2\): nr_losses:[0-9]+\(/1000\)$' "$ERR"
check "parallel lines" grep -qE '^    task:0 nr_losses:[0-9]+$' "$ERR"

# Lookups from a program set the reference bit, syscall lookups do not: with the program
# the BPF LRU keeps more of the stable keys that are looked up all the time.
run lru-loss --nr_repeats 20000 --access bpf --map_flags no_common --format json
check "lru-loss --access bpf exit 0" [ "$rc" -eq 0 ]
bpf_lost=$(jq "$x.variants[0].parallel.losses" "$OUT")
sys_lost=$(jq "$x.variants[1].parallel.losses" "$TMP/loss.json")
check "reference bit: fewer stable keys lost with --access bpf ($bpf_lost < $sys_lost)" \
	[ "$bpf_lost" -lt "$sys_lost" ]
run lru-loss --nr_repeats 1000 --nr_tasks 1 --map_type lru_percpu_hash --map_flags common
check "lru-loss lru_percpu_hash exit 0" [ "$rc" -eq 0 ]
check "lru-loss Summary" grep -qE '^Summary: lru_percpu_hash common: loss0 ' "$OUT"

# ---- bad input: one line, exit 2, nothing run ----
: >"$TMP/empty.keys"
printf '1\n2\nabc\n' >"$TMP/bad.keys"
expect_usage "--keys_file $TMP/nonexistent: No such file or directory" lru-dist --keys_file "$TMP/nonexistent"
expect_usage "--keys_file $TMP: cannot read: Is a directory" lru-dist --keys_file "$TMP"
expect_usage "has no key" lru-dist --keys_file "$TMP/empty.keys"
expect_usage "line 3: not a key" lru-dist --keys_file "$TMP/bad.keys"
expect_usage "--lru_size 0: must be 1..10000000" lru-dist --lru_size 0
expect_usage "--dist zipf:0: must be zipf:THETA (0 < THETA <= 10), uniform or seq (zipf theta out of range)" lru-dist --dist zipf:0
expect_usage "--dist zipf:10.5: must be zipf:THETA (0 < THETA <= 10), uniform or seq" lru-dist --dist zipf:10.5
expect_usage "--dist zipf:x" lru-dist --dist zipf:x
expect_usage "--dist gauss: must be zipf:THETA (0 < THETA <= 10), uniform or seq (unknown distribution)" lru-dist --dist gauss
expect_usage "--nr_tasks $((ncpu + 1)): must be 1..$ncpu (one task per online CPU" lru-dist --nr_tasks $((ncpu + 1))
expect_usage "--nr_tasks $((ncpu + 1)): must be 1..$ncpu" lru-loss --nr_tasks $((ncpu + 1))
expect_usage "--nr_tasks 2: must be 1..1 (one task per CPU of --prod-affinity" lru-dist --prod-affinity 0 --nr_tasks 2
expect_usage "--dist: generates a trace, so it cannot go with --keys_file" lru-dist --keys_file "$TMP/bad.keys" --dist uniform
expect_usage "--map_type hash: must be one of lru_hash, lru_percpu_hash" lru-dist --map_type hash
expect_usage "--map_flags all: must be one of both, common, no_common" lru-loss --map_flags all
expect_usage "--nr_keys 0: must be" lru-dist --nr_keys 0

# SIGINT mid-replay: exit 130, result marked interrupted, no map or program left behind.
"$MB" lru-dist --nr_keys 3000000 --key_range 3000000 --lru_size 1000 --format json \
	-o "$TMP/int.json" >"$OUT" 2>"$ERR" &
pid=$!
# Wait until the replay runs (the bench has started, its map holds keys), then interrupt it.
holds_map() { held_bpf_ids "$1" | grep -q '^map_id:'; }
map_has_keys() {
	local id
	id=$(held_bpf_ids "$1" | sed -n 's/^map_id:\([0-9]*\)$/\1/p' | head -n1)
	[ -n "$id" ] && bpftool map getnext id "$id" >/dev/null 2>&1
}
wait_for "the run holds its LRU map while it replays" $pid holds_map $pid
wait_output_line "$OUT" "^Benchmark 'lru-dist' started" $pid
wait_for "the replay has put keys into the map" $pid map_has_keys $pid
kill -INT $pid
wait $pid
rc=$?
check "SIGINT exits 130 (got $rc)" [ "$rc" -eq 130 ]
jq_check "interrupted result written" "$TMP/int.json" '.results[0].status == "interrupted"'
check "no LRU map or program left behind" [ "$(lru_leftover)" -le "$before" ]
# What it measured is reported: the map it cut short over the accesses replayed (the perfect
# LRU over the same ones), the map it kept from starting named, in text, JSON and CSV alike.
jq_check "the map cut short: marked, over the accesses its task replayed" "$TMP/int.json" \
	'.results[0].extra | (.variants | length == 1) and (.variants[0] | .lru == "common" and
		.interrupted and .total.accesses > 0 and .total.accesses < 3000000 and
		.tasks[0].accesses == .total.accesses and
		.total.perfect_misses <= .total.accesses and .total.unique_keys <= .total.accesses)'
jq_check "the map not started is listed" "$TMP/int.json" \
	'.results[0].extra.not_run == [{"map_type": "lru_hash", "lru": "no_common"}]'
check "the Interrupted line says how far it got and what did not run" grep -qE \
	'^Interrupted: lru_hash common after [0-9]+ of 3000000 accesses \(its figures are over those\): not run: lru_hash no_common$' \
	"$OUT"
check "the Summary line of the map cut short says so" grep -qE \
	'^Summary: lru_hash common lru_size 1000 tasks 1: .* over [0-9]+ accesses, .*\(interrupted, syscall\)$' \
	"$OUT"
check "the JSON's figures are the interrupted run's text" bash -c \
	"/usr/bin/python3 '$ROOT/tests/e2e/figures_check.py' '$OUT' '$TMP/int.json' >/dev/null"

# lru-loss interrupted in its parallel test: the tests that ended are reported, that one not.
"$MB" lru-loss --nr_tasks 1 --nr_repeats 10000000 --map_flags common -o "$TMP/loss.json" \
	>"$OUT" 2>"$ERR" &
pid=$!
# The parallel test's map (1200 entries for one task) holds keys: loss0 and loss1 are over.
parallel_runs() {
	local id
	for id in $(held_bpf_ids "$1" | sed -n 's/^map_id:\([0-9]*\)$/\1/p'); do
		bpftool -j map show id "$id" 2>/dev/null | jq -e '.max_entries == 1200' >/dev/null &&
			bpftool map getnext id "$id" >/dev/null 2>&1 && return 0
	done
	return 1
}
wait_for "lru-loss runs its parallel test" $pid parallel_runs $pid
kill -INT $pid
wait $pid
rc=$?
check "lru-loss: SIGINT exits 130 (got $rc)" [ "$rc" -eq 130 ]
jq_check "lru-loss: the tests that ended are there, the one cut short is null" "$TMP/loss.json" \
	'.results[0] | .status == "interrupted" and (.extra.variants | length == 1) and
		(.extra.variants[0] | .interrupted and (.loss0.older_losses | type == "number") and
		 (.loss1.losses | type == "number") and .parallel == null)'
check "lru-loss: the Summary line says the parallel test did not run" grep -qE \
	'^Summary: lru_hash common: loss0 older [0-9]+/100 .*, loss1 [0-9]+/1000 \(perfect [0-9]+\), parallel not run \(interrupted, syscall\)$' \
	"$OUT"
check "lru-loss: the JSON's figures are the interrupted run's text" bash -c \
	"/usr/bin/python3 '$ROOT/tests/e2e/figures_check.py' '$OUT' '$TMP/loss.json' >/dev/null"

finish
