#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# local-storage-create: both storage types in text, JSON and CSV; the creates the programs
# counted against the ops reported; the create hook and the kmalloc counter named; the kmalloc
# fallback where every counter is refused; bad input refused; no cgroup left behind.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

B=local-storage-create
# (a sample in which no thread finished a round of creates, on a slow or busy machine, has no
# kmallocs per create: n/a)
ITER='^Iter +[0-9]+ \( *-?[0-9.]+us\): creates +[0-9.]+k/s \( *[0-9.]+k/prod\), +([0-9.]+|n/a) kmallocs/create$'
SUMMARY='^Summary: creates +[0-9.]+ ± +([0-9.]+|n/a) ?k/s \( *[0-9.]+k/prod\), +([0-9.]+|n/a) kmallocs/create$'
V2=/sys/fs/cgroup
[ -f $V2/cgroup.controllers ] || V2=/sys/fs/cgroup/unified

# gone FILE: the cgroup a result's extra names (if any) is removed.
gone() {
	local dir
	dir=$(jq -r '.results[0].extra.cgroup // empty' "$1")
	[ -z "$dir" ] || [ ! -e "$dir" ]
}

# The create hook of a storage type: the text's line, and the JSON's extra.create_hook.
hook_re() {
	if [ "$1" = socket ]; then
		echo '(cgroup/sock_create \(lsm\.s/socket_post_create refused\)|lsm\.s/socket_post_create)$'
	else
		echo 'tp_btf/sched_process_fork$'
	fi
}
hook_jq() {
	if [ "$1" = socket ]; then
		echo '(.create_hook == "cgroup/sock_create" or .create_hook == "lsm.s/socket_post_create")'
	else
		echo '.create_hook == "tp_btf/sched_process_fork"'
	fi
}

for type in socket task; do
	J=$TMP/$type.json
	expect_rc 0 "$type: text and JSON" "${FAST[@]}" $B --storage-type "$type" --format json -o "$J"
	check "$type: one Iter line per sample, the kernel's wording" [ "$(grep -cE "$ITER" "$OUT")" -eq 2 ]
	check "$type: the kernel's Summary line" grep -qE "$SUMMARY" "$OUT"
	check "$type: the text names the create hook" \
		grep -qE "^Create hook: $(hook_re "$type")" "$OUT"
	check "$type: the text names the kmalloc counter" \
		grep -qE '^Kmallocs: (raw_tp|tp_btf|tp)/(kmem/)?kmalloc \(pid\): ' "$OUT"
	jq_check "$type: the creates the programs counted are the ops the producers reported" "$J" \
		'.results[0] | .extra.creates_counted == .extra.creates_published and
		 .extra.creates_counted >= ([.samples[].ops] | add) and .summary.totals.ops > 0 and
		 .summary.totals.counters.create_errs == 0 and .extra.create_errs == 0'
	jq_check "$type: the hook and the kmalloc counter named, kmallocs per create counted" "$J" \
		".results[0].extra | $(hook_jq "$type") and (.kmalloc_counter | test(\"kmalloc [(]pid[)]$\")) and .kmallocs_per_create > 0 and
		 .storage_type == \"$type\" and .batch_size == 32"
	jq_check "$type: figures creates/s, per producer, kmallocs per create" "$J" \
		'[.results[0].figures[] | .name + " " + .unit] ==
		 ["creates ops/s", "creates ops/s per producer", "kmallocs kmallocs/create"]'
	check "$type: the figures are the text's" python3 "$ROOT/tests/e2e/figures_check.py" "$OUT" "$J"
	schema_check "$J"
	check "$type: no cgroup left behind" gone "$J"
	C=$TMP/$type.csv
	expect_rc 0 "$type: CSV" "${FAST[@]}" $B --storage-type "$type" --format csv -o "$C"
	check "$type: CSV figures are the text's" python3 "$ROOT/tests/e2e/figures_check.py" "$OUT" "$C"
	check "$type: CSV samples carry the error counters" \
		grep -qE '^local-storage-create,.*,sample,.*create_errs=0;owner_errs=0' "$C"
done
jq_check "task storage needs no cgroup" "$TMP/task.json" '.results[0].extra.cgroup == null'

# --kmalloc_scope all: the kernel's system-wide count.
expect_rc 0 "--kmalloc_scope all" "${FAST[@]}" $B --storage-type task --kmalloc_scope all \
	--format json -o "$TMP/all.json"
jq_check "--kmalloc_scope all names its scope" "$TMP/all.json" \
	'.results[0].extra | (.kmalloc_counter | test("kmalloc [(]all[)]$")) and .kmallocs > 0'

# ---- every kmalloc counter refused (MAPBENCH_REFUSE_KMALLOC): the fallback, in one sentence ----
MAPBENCH_REFUSE_KMALLOC=raw_tp,tp_btf,tp "$MB" "${FAST[@]}" $B --format json -o "$TMP/fb.json" \
	>"$OUT" 2>"$ERR"
rc=$?
check "no kmalloc counter: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "no kmalloc counter: the sentence and what is shown instead" grep -qE \
	"^Kmallocs: no kmalloc tracepoint program loads here \(raw_tp/kmalloc refused .*\): (the memory cgroup's kmem bytes per create are shown instead: [0-9.-]+ B/create|nor a memory cgroup figure)" \
	"$OUT"
check "no kmalloc counter: the Summary shows n/a kmallocs/create" \
	grep -qE '^Summary: creates .*, +n/a kmallocs/create$' "$OUT"
jq_check "no kmalloc counter: null figures, the reason, and kmem per create or why not" \
	"$TMP/fb.json" '.results[0] | .extra.kmalloc_counter == null and .extra.kmallocs_per_create == null
	 and (.extra.kmalloc_unavailable | test("tp/kmem/kmalloc refused")) and
	 ((.extra.kmem_bytes_per_create | type) == "number" or (.extra.memcg_unavailable | type) == "string")
	 and ([.figures[] | select(.name == "kmallocs")][0].value == null) and .summary.totals.ops > 0'
check "no kmalloc counter: the figures are the text's" \
	python3 "$ROOT/tests/e2e/figures_check.py" "$OUT" "$TMP/fb.json"
check "no kmalloc counter: no cgroup left behind" gone "$TMP/fb.json"
mc=$(jq -r '.results[0].extra.memcg // empty' "$TMP/fb.json")
check "no kmalloc counter: the memory cgroup is removed" [ -z "$mc" -o ! -e "$mc" ]

# ---- bad input: one line, exit 2 ----
expect_usage "local-storage-create: --storage-type inode: must be one of socket, task" \
	$B --storage-type inode
expect_usage "local-storage-create: --batch-size 0: must be 1..1024" $B --batch-size 0
expect_usage "local-storage-create: --batch-size 1025: must be 1..1024" $B --batch-size 1025
expect_usage "local-storage-create: --kmalloc_scope cpu: must be one of pid, all" \
	$B --kmalloc_scope cpu

# ---- SIGINT while the process is in its cgroup: the cgroup goes with it ----
"$MB" -w0 -d100 --interval_ms 100 $B >"$OUT" 2>"$ERR" &
pid=$!
if wait_for "the run joined a cgroup of its own" $pid grep -q "^0::.*/mapbench-$pid-" \
	"/proc/$pid/cgroup"; then
	dir=$V2$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
	check "its cgroup is there while it runs: $dir" [ -d "$dir" ]
	wait_output_line "$OUT" '^Iter ' $pid
	kill -INT $pid
	wait $pid
	rc=$?
	check "SIGINT exits 130 (got $rc)" [ "$rc" -eq 130 ]
	check "SIGINT: the cgroup is removed" [ ! -e "$dir" ]
else
	kill $pid 2>/dev/null
	wait $pid
fi

# ---- socket storage without a cgroup v2 hierarchy: skipped in one sentence, nothing made ----
if MAPBENCH_CGROUP_ROOT=/nonexistent run "${FAST[@]}" $B; [ "$rc" -eq 77 ]; then
	check "no cgroup v2: one sentence naming both hooks" grep -q \
		'socket storage is made by lsm.s/socket_post_create, refused here .*, or by cgroup/sock_create on a cgroup v2 directory, which cannot be made: no cgroup v2 hierarchy at /nonexistent' \
		"$ERR"
else
	check "no cgroup v2: runs only on the LSM hook (rc $rc)" grep -q '^Create hook: lsm.s/' "$OUT"
fi

check "no BPF program or map of the bench left behind" [ "$(leftover_bpf '^mb_lsc_')" -eq 0 ]
finish
