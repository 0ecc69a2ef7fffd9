#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Queue family: every bench briefly on a queue, the stack and the hash map used as a queue on
# the ops whose order or failure differs, the syscall path, text, JSON and CSV, the ops read
# back (succeeded, failed the expected way, left in the map in order), every bad input, and
# SIGINT.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'

qu_leftovers() {
	leftover_bpf '^mb_qu_'
}
before=$(qu_leftovers)

# check_text FILE: kernel-style text of queue-push at --max_entries 2000 --nr_entries 1000.
check_text() {
	check "queue-push prints W+D Iter lines" [ "$(grep -c '^Iter ' "$1")" -eq 2 ]
	check "queue-push ends with the hits/drops Summary line" \
		bash -c "tail -n1 $1 | grep -q '^Summary: hits'"
	total=$(scrape_total "$1")
	check "run_common.sh total scraper ($total)" \
		bash -c "[[ '$total' =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+M/s$ ]]"
	check "the notes name the map, the round trip and the ops read back" bash -c \
		"grep -qE '^Map: queue \(FIFO\), 2000 entries of 8 bytes at most, level 1000; op: push' $1 &&
		 grep -qE '^Round trip: 128 values .*: in order$' $1 &&
		 grep -qE '^Ops read back: [1-9][0-9]* ops, [1-9][0-9]* succeeded, 0 failed with none, 0 errors, 0 mismatches$' $1 &&
		 grep -qE '^Left in the map: [0-9]+ entries, popped in order$' $1"
}

# ---- every bench on a queue: JSON to a file, its text on stdout; the ops did what it says ----
# FAILS: every op fails the expected way; LEVEL: the level is the same at the end. The ops read
# back count every op the program ran, the summary those of the samples (not the last call's).
declare -A FAILS=([queue-push-full]=-E2BIG [queue-pop-empty]=-ENOENT [queue-peek-empty]=-ENOENT)
declare -A LEVEL=([queue-peek]=1000 [queue-push-pop]=1000 [queue-push-full]=2000
		  [queue-push-overwrite]=2000 [queue-pop-empty]=0 [queue-peek-empty]=0)
benches=$(san_pick queue-push queue-pop queue-peek queue-push-pop queue-push-full \
	queue-push-overwrite queue-pop-empty queue-peek-empty -- queue-pop queue-push-full)
for b in $benches; do
	opts=(--max_entries 2000)
	[ -z "${FAILS[$b]:-}" ] && [ "$b" != queue-push-overwrite ] && opts+=(--nr_entries 1000)
	expect_rc 0 "$b json" "${FAST[@]}" "$b" "${opts[@]}" --format json -o "$TMP/$b.json"
	[ "$b" = queue-push ] && check_text "$OUT"
	cp "$TMP/$b.json" "$OUT"
	# One jq per run: what every op did, and the entries left.
	if [ -n "${FAILS[$b]:-}" ]; then
		did="$R.extra.ops_checked.expected_failure == \"${FAILS[$b]}\" and
		     $R.extra.ops_checked.succeeded == 0 and
		     $R.summary.totals.misses == $R.summary.totals.ops"
		what="every op failed with ${FAILS[$b]}"
	else
		did="$R.extra.ops_checked.failed_as_expected == 0 and
		     $R.summary.totals.hits == $R.summary.totals.ops"
		what="every op succeeded"
	fi
	left=true
	[ -n "${LEVEL[$b]:-}" ] &&
		left="$R.extra.map.level == ${LEVEL[$b]} and $R.extra.left.entries == ${LEVEL[$b]}"
	jq_check "$b: in-kernel loop, $what, no errors or mismatches, the rest popped in order${LEVEL[$b]:+, ${LEVEL[$b]} of them}" \
		"$OUT" "$R.runner == \"kernel-loop\" and $R.extra.ops_checked.ops > 0 and
		 $R.extra.ops_checked.errors == 0 and $R.extra.ops_checked.mismatches == 0 and
		 $R.extra.ops_checked.ops >= $R.summary.totals.ops and ($did) and
		 $R.extra.left.in_order and ($left)"
	warnings_check "$b: warnings are measured machine conditions only" "$OUT"
done
schema_check "$OUT"

# Rounds: a push fills the map and is drained back; a pop empties it and is refilled.
expect_rc 0 "queue-pop rounds" "${FAST[@]}" queue-pop --max_entries 200 --nr_entries 100 \
	--format json
jq_check "queue-pop: more ops than one round, so the map was refilled" "$OUT" \
	"$R.summary.totals.ops > 100 and $R.extra.resets > 0 and $R.extra.left.entries <= 100"

# ---- the stack (LIFO) and the hash map used as a queue ----
# The stack's order differs on a pop and an overwrite; the hash map's ops are its own.
for tb in $(san_pick stack:queue-pop stack:queue-push-overwrite hash:queue-pop \
	hash:queue-push-pop -- stack:queue-pop hash:queue-push-pop); do
	t=${tb%%:*} b=${tb#*:}
	expect_rc 0 "$b --map_type $t" "${FAST[@]}" "$b" --map_type "$t" --max_entries 2000 \
		--format json
	jq_check "$b $t: every op succeeded with the value due, left in order" "$OUT" \
		"$R.extra.map.type == \"$t\" and
		 $R.extra.order == (if \"$t\" == \"stack\" then \"LIFO\" else \"FIFO\" end) and
		 $R.extra.ops_checked.mismatches == 0 and
		 $R.summary.totals.hits == $R.summary.totals.ops and $R.extra.left.in_order"
done
# In CSV: sample rows (bench,params,kind,iter,warmup,elapsed_ns,ops,hits,misses,...).
expect_rc 0 "queue-pop-empty on the hash map, CSV" "${FAST[@]}" queue-pop-empty --map_type hash \
	--format csv
check "CSV: a header, and two sample rows in which every pop of the empty hash map missed" \
	bash -c "head -n1 $OUT | grep -q '^bench,params,kind,iter,warmup,elapsed_ns,ops,hits,misses,' &&
		 [ \$(awk -F, '\$1 == \"queue-pop-empty\" && \$3 == \"sample\" &&
			\$7 > 0 && \$8 == 0 && \$9 == \$7 && \$11 == \"mismatches=0\"' $OUT |
		       wc -l) -eq 2 ]"

# ---- the syscall path ----
for b in queue-push-pop; do
	expect_rc 0 "$b --path syscall" "${FAST[@]}" "$b" --path syscall --map_type stack \
		--max_entries 100 --format json
	jq_check "$b syscall: user space ran the ops, counted, with a CPU ns/op" "$OUT" \
		"$R.runner == \"syscall\" and $R.extra.ops_checked.ops > 0 and
		 $R.extra.ops_checked.errors == 0 and $R.summary.metrics.op_ns.mean > 0 and
		 $R.extra.left.in_order"
done

# ---- bad input: one line, exit 2 ----
expect_usage "--map_type lru: must be one of queue, stack, hash" queue-push --map_type lru
expect_usage "--nr_entries 2000: must be 0..1999 (below --max_entries 2000" \
	queue-push --max_entries 2000 --nr_entries 2000
expect_usage "--nr_entries 0: must be 1..10000 (--max_entries 10000; a pop needs an entry)" \
	queue-pop --nr_entries 0
expect_usage "--nr_entries 11: must be 1..10" queue-peek --max_entries 10 --nr_entries 11
expect_usage "--nr_entries 10: must be 0..9" queue-push-pop --max_entries 10 --nr_entries 10
expect_usage "--max_entries 0: must be 1..16777216" queue-pop-empty --max_entries 0
expect_usage "--max_entries 1000000: must be 1..262144 with --value_size 4096" \
	queue-peek --max_entries 1000000 --value_size 4096 --nr_entries 1
expect_usage "--value_size 4: must be 8..4096" queue-push --value_size 4
expect_usage "--path batch: must be one of kernel, syscall" queue-pop --path batch
expect_usage "--nr_entries: not an option of queue-push-full" queue-push-full --nr_entries 5
expect_usage "-p/--producers 2: this bench needs a single producer" -p2 queue-push

# ---- SIGINT in the middle of a run with rounds: exit 130, nothing left behind ----
interrupt_run -w0 -d100 --interval_ms 100 queue-pop --map_type hash --max_entries 1000
check "no queue BPF program or map left behind" [ "$(qu_leftovers)" -le "$before" ]

finish
