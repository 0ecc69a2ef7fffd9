# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Helpers for the end-to-end tests. Each test file is a bash script that sources this file,
# calls the checks below and ends with `finish`.

set -u
MB=${MAPBENCH:?set MAPBENCH to the mapbench binary}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# E2E_SAN=1: the binary is the sanitizers' build (make SAN=1 e2e), which runs each op several
# times slower; a file may then run a smaller matrix of the same code paths (san_pick).
E2E_SAN=${E2E_SAN:-}

# san_pick ALL... -- SOME...: prints ALL, or under E2E_SAN=1 only SOME.
san_pick() {
	local all=() some=() seen=
	for w in "$@"; do
		if [ "$w" = -- ]; then seen=1; elif [ -n "$seen" ]; then some+=("$w"); else all+=("$w"); fi
	done
	if [ "$E2E_SAN" = 1 ]; then echo "${some[@]}"; else echo "${all[@]}"; fi
}

# Short runs: no warm-up, two samples of 100 ms, and no linearity self-check (its 10 calls of
# 10 ms would add 0.1 s to every run of the op loop; test_loop.sh and test_xdplb.sh check it).
FAST=(-w0 -d2 --interval_ms 100 --no-linearity)
# The noise preflight watches the CPUs for 20 ms before each run instead of 200: the tests start
# mapbench hundreds of times and judge no figure (test_preflight.sh keeps the default).
export MAPBENCH_PREFLIGHT_MS=${MAPBENCH_PREFLIGHT_MS:-20}
# A CI job's results history (docs/history.md) must not take the tests' hundreds of runs.
unset MAPBENCH_DB
TMP=$(mktemp -d /tmp/mb-e2e.XXXXXX)
OUT=$TMP/out
ERR=$TMP/err
failures=0
checks=0
NAME=$(basename "$0" .sh)

fail() {
	failures=$((failures + 1))
	echo "  FAIL [$NAME] $*"
	if [ -s "$ERR" ]; then
		sed 's/^/    stderr: /' "$ERR" | head -n 5
	fi
}

pass() {
	checks=$((checks + 1))
	[ -n "${E2E_VERBOSE:-}" ] && echo "  ok   [$NAME] $*"
	return 0
}

# run CMD...: runs mapbench with the arguments; sets $rc, stdout in $OUT, stderr in $ERR.
run() {
	"$MB" "$@" >"$OUT" 2>"$ERR"
	rc=$?
}

# expect_rc CODE DESC CMD...
expect_rc() {
	local want=$1 desc=$2
	shift 2
	run "$@"
	if [ "$rc" -eq "$want" ]; then pass "$desc"; else fail "$desc: exit $rc, expected $want"; fi
}

# expect_usage 'PART OF MESSAGE' ARGS...: exit 2, one line on stderr containing PART, no stdout.
expect_usage() {
	local part=$1
	shift
	run "$@"
	local lines
	lines=$(wc -l <"$ERR")
	if [ "$rc" -ne 2 ]; then
		fail "mapbench $*: exit $rc, expected 2"
	elif [ "$lines" -ne 1 ]; then
		fail "mapbench $*: $lines lines on stderr, expected one"
	elif ! grep -qF -- "$part" "$ERR"; then
		fail "mapbench $*: message lacks '$part': $(cat "$ERR")"
	elif [ -s "$OUT" ] && grep -q "Summary" "$OUT"; then
		fail "mapbench $*: ran although the input is bad"
	else
		pass "usage error: $*"
	fi
}

# check DESC CONDITION...: evaluates a test(1)-style or shell condition.
check() {
	local desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# jq_check DESC FILE FILTER: the jq filter must produce true. Queued like schema_check (a copy
# of FILE as it is now, made by bash): finish judges every queued check with one jq, since a
# jq costs ~70 ms here and the tests make hundreds of checks; where that one jq fails or a
# check does not give true, each check runs alone again for its own message.
JQ_QUEUE=$TMP/jq-queue
jq_queued=0
jq_check() {
	local desc=$1 file=$2 filter=$3 doc
	[ -d "$JQ_QUEUE" ] || mkdir "$JQ_QUEUE"
	jq_queued=$((jq_queued + 1))
	if [ -r "$file" ]; then
		doc=$(<"$file")
		printf '%s\n' "$doc" >"$JQ_QUEUE/$jq_queued.json"
	else
		: >"$JQ_QUEUE/$jq_queued.missing"
	fi
	printf '%s\n' "$desc" >"$JQ_QUEUE/$jq_queued.desc"
	printf '%s\n' "$file" >"$JQ_QUEUE/$jq_queued.file"
	printf '%s\n' "$filter" >"$JQ_QUEUE/$jq_queued.filter"
}

# jq_check_alone N: judges queued check N by itself, as jq_check once did.
jq_check_alone() {
	local n=$1 desc file filter got
	desc=$(<"$JQ_QUEUE/$n.desc")
	file=$(<"$JQ_QUEUE/$n.file")
	filter=$(<"$JQ_QUEUE/$n.filter")
	if [ -e "$JQ_QUEUE/$n.missing" ]; then
		fail "$desc: $file was not there to read when checked"
		return
	fi
	got=$(jq -r "$filter" "$JQ_QUEUE/$n.json" 2>&1)
	if [ "$got" = "true" ]; then
		pass "$desc"
	else
		fail "$desc: jq '$filter' on $file gave $(printf '%s' "$got" | head -c 300)"
	fi
}

# Judges the queued checks in one jq: document N bound as $dN (--slurpfile: every JSON value
# of the file, as jq FILE reads them), filter N applied to it, each check giving one line (true,
# or anything else).
jq_check_queued() {
	[ "$jq_queued" -gt 0 ] || return 0
	local n program='' args=() verdicts=() sep=
	for ((n = 1; n <= jq_queued; n++)); do
		program+="$sep(try ([\$d$n[] | ($(<"$JQ_QUEUE/$n.filter")
)] | map(tostring) | join(\" \")) catch \"error\")"
		sep=', '
		[ -e "$JQ_QUEUE/$n.json" ] || : >"$JQ_QUEUE/$n.json"
		args+=(--slurpfile "d$n" "$JQ_QUEUE/$n.json")
	done
	mapfile -t verdicts < <(jq -n -r "${args[@]}" "$program" 2>/dev/null)
	for ((n = 1; n <= jq_queued; n++)); do
		if [ "${#verdicts[@]}" -eq "$jq_queued" ] && [ "${verdicts[n - 1]}" = "true" ]; then
			pass "$(<"$JQ_QUEUE/$n.desc")"
		else
			jq_check_alone "$n"
		fi
	done
}

# schema_check FILE [SCHEMA]: FILE validates against SCHEMA (docs/output.schema.json by
# default). The check is queued: a copy of FILE as it is now (made by bash, no process) is
# validated by finish, all of a file's documents in one python, since importing jsonschema
# alone costs ~0.6 s here and the tests validate hundreds of documents.
SCHEMA_QUEUE=$TMP/schema-queue
schema_queued=0
schema_check() {
	local file=$1 schema=${2:-$ROOT/docs/output.schema.json} doc
	[ -d "$SCHEMA_QUEUE" ] || mkdir "$SCHEMA_QUEUE"
	schema_queued=$((schema_queued + 1))
	if [ -r "$file" ]; then
		doc=$(<"$file")
		printf '%s\n' "$doc" >"$SCHEMA_QUEUE/$schema_queued.json"
	fi
	printf '%s\t%s\t%s\n' "$schema_queued" "$schema" "$file" >>"$SCHEMA_QUEUE/list"
}

# Validates the queued documents: one pass or fail per document, naming the file.
schema_check_queued() {
	[ "$schema_queued" -gt 0 ] || return 0
	local verdict n file msg
	/usr/bin/python3 - "$SCHEMA_QUEUE" >"$SCHEMA_QUEUE/verdicts" 2>&1 <<'PY'
import json, sys
import jsonschema
queue = sys.argv[1]
schemas = {}
for line in open(queue + '/list'):
    n, schema, name = line.rstrip('\n').split('\t', 2)
    try:
        if schema not in schemas:
            schemas[schema] = json.load(open(schema))
        doc = json.load(open('%s/%s.json' % (queue, n)))
        jsonschema.validate(doc, schemas[schema], cls=jsonschema.Draft202012Validator)
        print('ok\t%s\t%s' % (n, name))
    except jsonschema.ValidationError as e:
        msg = '%s (at /%s)' % (e.message[:300], '/'.join(map(str, e.absolute_path)))
        print('fail\t%s\t%s\t%s' % (n, name, ' '.join(msg.split())))
    except FileNotFoundError:
        print('fail\t%s\t%s\tthe file was not there to read when checked' % (n, name))
    except Exception as e:
        msg = ' '.join(str(e).split())[-400:]
        print('fail\t%s\t%s\t%s' % (n, name, msg))
PY
	if [ "$(grep -c '^ok\|^fail' "$SCHEMA_QUEUE/verdicts")" -ne "$schema_queued" ]; then
		fail "schema: the validator did not judge every document: $(tail -n 3 \
			"$SCHEMA_QUEUE/verdicts")"
		return
	fi
	while IFS=$'\t' read -r verdict n file msg; do
		if [ "$verdict" = ok ]; then pass "schema: $file"; else fail "schema: $file: $msg"; fi
	done <"$SCHEMA_QUEUE/verdicts"
}

# ---- waiting for a state, never for a fixed time ----

# The longest wait for a state (a fast machine sees it in milliseconds, a busy one in seconds).
WAIT_S=${E2E_WAIT_S:-30}

# alive PID: the process runs (a zombie, ended but not yet reaped, does not).
alive() {
	local st
	st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# wait_for DESC PID CMD...: polls CMD every 0.05 s until it succeeds. Fails, naming DESC, when
# process PID ("-": none) ends first or when WAIT_S seconds pass. Returns CMD's success.
wait_for() {
	local desc=$1 pid=$2 end=$((SECONDS + WAIT_S))
	shift 2
	until "$@"; do
		if [ "$pid" != - ] && ! alive "$pid"; then
			fail "$desc: the process ended before that was seen"
			return 1
		fi
		if [ "$SECONDS" -ge "$end" ]; then
			fail "$desc: not seen within $WAIT_S s"
			return 1
		fi
		sleep 0.05
	done
	pass "$desc"
}

# wait_output_line FILE REGEX PID: waits until FILE has a line matching the extended REGEX,
# printed by the process PID.
wait_output_line() {
	wait_for "$(basename "$1") has a line matching '$2'" "$3" grep -qE -- "$2" "$1"
}

# interrupt_run ARGS...: runs mapbench with ARGS in the background (stdout in $OUT), waits for
# its first Iter line, sends SIGINT and checks that it exits 130; its status is then in $rc.
interrupt_run() {
	"$MB" "$@" >"$OUT" 2>"$ERR" &
	local pid=$!
	wait_output_line "$OUT" '^Iter ' $pid
	kill -INT $pid
	wait $pid
	rc=$?
	check "SIGINT exits 130 (got $rc)" [ "$rc" -eq 130 ]
}

# ---- a competing task ----

# busy_start CPU: starts a busy loop pinned to CPU, its pid in $busy_pid, and waits until it has
# run for 0.2 s of CPU time on that CPU (the loop competes, it is not merely started).
busy_start() {
	taskset -c "$1" sh -c 'while :; do :; done' &
	busy_pid=$!
	BUSY_PIDS+=("$busy_pid")
	wait_for "busy loop on CPU $1 runs" "$busy_pid" busy_ran "$busy_pid" "$1"
}

# busy_ran PID CPU: PID is allowed only CPU and has used 20 clock ticks (0.2 s) of CPU time.
busy_ran() {
	local ticks
	grep -qx "Cpus_allowed_list:[[:space:]]*$2" "/proc/$1/status" 2>/dev/null || return 1
	ticks=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null)
	[ -n "$ticks" ] && [ "$ticks" -ge $(( $(getconf CLK_TCK) / 5 )) ]
}

# busy_stop: ends every busy loop busy_start started.
BUSY_PIDS=()
busy_stop() {
	local p
	for p in "${BUSY_PIDS[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	BUSY_PIDS=()
}
trap 'busy_stop; rm -rf "$TMP"' EXIT

# ---- warnings: a measured condition of the machine, or a defect ----

# Warnings that report a property of the machine, each with the condition that the result's own
# figures must show exactly when it appears (thresholds as in the source: loop_diag.c
# CALL_COST_EXPLAINED_NS, hash.h HASH_CPU_SHARE_MIN, util/linearity.h MB_LINEARITY_TOL). Any
# other warning is a defect of mapbench (a wrong answer, a failed call, a missing figure).
WARNINGS_JQ='[.results[] | . as $r |
	[{re: "^in-kernel loop: ", on: ($r.loop.kind == "bpf_loop" and $r.loop.requested == "auto")},
	 {re: "^the verifier did not inline bpf_loop", on: ($r.loop.bpf_loop_inlined == false)},
	 {re: "^the bpf_loop loop costs [0-9.]+ ns per empty op",
	  on: ($r.loop.kind == "bpf_loop" and $r.loop_overhead_ns > 3)},
	 {re: "^[0-9]+ producers?( and [0-9]+ consumers?)? on [0-9]+ online CPUs?: ",
	  on: ($r.config.oversubscribed == true)},
	 {re: "^the producers ran [0-9]+ % of the wall time",
	  on: (($r.summary.metrics.cpu_share.mean // 1) < 0.9)},
	 {re: "^linearity: 2N ops took [0-9.]+ times as long as N ",
	  on: ($r.loop.linearity.ok == false)}] as $m |
	($r.warnings | map(. as $w | select($m | map(.re) | any(. as $re | $w | test($re)) | not)))
		as $other |
	[$m[] | . as $k | select($k.on != ($r.warnings | any(test($k.re)))) | $k.re] as $wrong |
	select(($other | length) > 0 or ($wrong | length) > 0) |
	{bench: $r.bench, defects: $other, not_matching_their_figures: $wrong,
	 loop_overhead_ns: $r.loop_overhead_ns}]'

# warnings_check DESC FILE: every result's warnings in FILE are machine conditions that its
# figures show, and each such condition that its figures show is warned about.
warnings_check() {
	local desc=$1 file=$2 bad
	bad=$(jq -c "$WARNINGS_JQ" "$file" 2>&1)
	if [ "$bad" = "[]" ]; then
		pass "$desc"
	else
		fail "$desc: $(echo "$bad" | head -c 500)"
	fi
}

# The kernel's run_common.sh scrapers, verbatim patterns.
scrape_hits() { grep Summary "$1" | tail -n1 | sed -E 's/.*hits\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/'; }
scrape_ops() { grep Summary "$1" | tail -n1 | sed -E 's/.*throughput\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+\sM\sops\/s).*/\1/'; }
scrape_latency() { grep Summary "$1" | tail -n1 | sed -E 's/.*latency\s+([0-9]+\.[0-9]+\sns\/op).*/\1/'; }
scrape_total() { grep Summary "$1" | tail -n1 | sed -E 's/.*total operations\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/'; }
scrape_percentage() { grep Summary "$1" | tail -n1 | sed -E 's/.*Percentage\s=\s+([0-9]+\.[0-9]+).*/\1/'; }

. "$ROOT/scripts/bpf-objects.sh"

finish() {
	schema_check_queued
	jq_check_queued
	if [ "$failures" -eq 0 ]; then
		echo "  PASS [$NAME] $checks checks"
		exit 0
	fi
	echo "  FAIL [$NAME] $failures of $((checks + failures)) checks failed"
	exit 1
}
