# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Helpers for the end-to-end tests. Each test file is a bash script that sources this file,
# calls the checks below and ends with `finish`.

set -u
MB=${MAPBENCH:?set MAPBENCH to the mapbench binary}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Short runs: no warm-up, two samples of 100 ms.
FAST=(-w0 -d2 --interval_ms 100)
TMP=$(mktemp -d /tmp/mb-e2e.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
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

# jq_check DESC FILE FILTER: the jq filter must produce true.
jq_check() {
	local desc=$1 file=$2 filter=$3
	if [ "$(jq -r "$filter" "$file" 2>&1)" = "true" ]; then
		pass "$desc"
	else
		fail "$desc: jq '$filter' on $file gave $(jq -c "$filter" "$file" 2>&1 | head -c 300)"
	fi
}

# schema_check FILE: validates against docs/output.schema.json.
schema_check() {
	local file=$1
	if /usr/bin/python3 - "$ROOT/docs/output.schema.json" "$file" <<'PY' 2>"$TMP/schema.err"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
PY
	then
		pass "schema: $file"
	else
		fail "schema: $file: $(tail -n 3 "$TMP/schema.err")"
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
	if [ "$failures" -eq 0 ]; then
		echo "  PASS [$NAME] $checks checks"
		exit 0
	fi
	echo "  FAIL [$NAME] $failures of $((checks + failures)) checks failed"
	exit 1
}
