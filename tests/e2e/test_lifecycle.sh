#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Teardown and signals, privileges, the default suite.
. "$(dirname "$0")/lib.sh"

before=$(leftover_bpf)

# SIGINT mid-run: partial results marked interrupted, exit 130, nothing left behind.
"$MB" -w0 -d100 --interval_ms 100 -a bpf-noop --format json -o "$TMP/int.json" >"$OUT" 2>"$ERR" &
pid=$!
wait_output_line "$OUT" '^Iter +2 ' $pid
check "the run holds BPF programs while it runs" [ "$(bpf_held_by $pid)" -gt 0 ]
kill -INT $pid
wait $pid
rc=$?
check "SIGINT exits 130 (got $rc)" [ "$rc" -eq 130 ]
jq_check "interrupted result is written" "$TMP/int.json" '.results[0].status == "interrupted"'
jq_check "samples taken so far are kept" "$TMP/int.json" '.results[0].summary.samples >= 3'
check "interrupted text note" grep -q "^Interrupted:" "$OUT"
schema_check "$TMP/int.json"
check "no BPF program or map left behind after SIGINT" [ "$(leftover_bpf)" -le "$before" ]

# SIGTERM during the second of two benches: the first result is kept. 100 samples of 20 ms:
# the second bench still runs seconds after its first sample.
"$MB" -w0 -d100 --interval_ms 20 count-local bpf-noop --format json -o "$TMP/term.json" \
	>"$OUT" 2>"$ERR" &
pid=$!
wait_output_line "$OUT" "^Benchmark 'bpf-noop' started" $pid
kill -TERM $pid
wait $pid
rc=$?
check "SIGTERM exits 130 (got $rc)" [ "$rc" -eq 130 ]
jq_check "first bench complete, second interrupted" "$TMP/term.json" \
	'.results[0].status == "ok" and (.results | length) == 2 and .results[1].status == "interrupted"'

# SIGKILL in the first bench and in the second (once a result of the document exists): no
# partial file, no temporary file (the document is written only at the end).
for when in "count-local' started" "bpf-noop' started"; do
	"$MB" -w0 -d100 --interval_ms 20 count-local bpf-noop -o "$TMP/kill.json" >"$OUT" 2>&1 &
	pid=$!
	wait_output_line "$OUT" "^Benchmark '$when" $pid
	kill -KILL $pid
	wait $pid 2>/dev/null
	check "SIGKILL once '$when' leaves no partial output" [ ! -e "$TMP/kill.json" ]
	check "SIGKILL once '$when' leaves no temporary file" \
		bash -c "! ls $TMP | grep -q 'kill.json.tmp'"
done

# Without privileges: the BPF bench is skipped with a clear reason, exit 77; user-space still runs.
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$MB" "${FAST[@]}" bpf-noop >"$OUT" 2>"$ERR"
	rc=$?
	check "unprivileged bpf-noop exits 77 (got $rc)" [ "$rc" -eq 77 ]
	check "says what is missing and how to fix it" grep -q "run as root, or grant CAP_BPF and CAP_PERFMON" "$ERR"
	check "no libbpf memlock hint" bash -c "! grep -qi memlock $ERR"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$MB" "${FAST[@]}" count-local bpf-noop >"$OUT" 2>"$ERR"
	rc=$?
	check "unprivileged mix: user-space bench runs, exit 0 (got $rc)" [ "$rc" -eq 0 ]
	check "the user-space bench reported" grep -q "^Summary: hits" "$OUT"
fi

# The default suite: every bench of it runs and ends with one table.
expect_rc 0 "default suite" -w0 -d1 --interval_ms 100
check "suite table" grep -qE "^bench +parameters +M ops/s" "$OUT"
check "suite ran bpf-noop" grep -qE "^bpf-noop +" "$OUT"

finish
