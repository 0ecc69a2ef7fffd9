#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --machine-readable: the kernel bench's RESULT line, parsed by the kernel's format alone (the
# keys in order, every value with two decimals); its figures ordered and of the measured
# samples; the scenario named by the parameters given; one line on stderr for a result that
# does not time in the kernel; one per point in a sweep; refused where stdout carries a document.
. "$(dirname "$0")/lib.sh"

F2='(-?[0-9]+\.[0-9]{2})'
RESULT_RE="^RESULT scenario=([^ ]+) samples=([0-9]+) median=$F2 stddev=$F2 cv=$F2 min=$F2 p99=$F2 max=$F2\$"
JSON=$TMP/mr.json

# check_result_lines WANT: $OUT holds exactly WANT RESULT lines, each in the kernel's format,
# with min <= median <= p99 <= max; their fields are left in SCEN[], SAMP[], MED[], MIN[], MAX[].
check_result_lines() {
	local want=$1 line n=0 ok=1
	SCEN=() SAMP=() MED=() MIN=() MAX=()
	while IFS= read -r line; do
		if [[ $line =~ $RESULT_RE ]]; then
			SCEN+=("${BASH_REMATCH[1]}") SAMP+=("${BASH_REMATCH[2]}")
			MED+=("${BASH_REMATCH[3]}") MIN+=("${BASH_REMATCH[6]}") MAX+=("${BASH_REMATCH[8]}")
			awk -v a="${BASH_REMATCH[6]}" -v b="${BASH_REMATCH[3]}" \
				-v c="${BASH_REMATCH[7]}" -v d="${BASH_REMATCH[8]}" \
				'BEGIN { exit !(a <= b && b <= c && c <= d && a > 0) }' || ok=0
		else
			ok=0
		fi
		n=$((n + 1))
	done < <(grep '^RESULT' "$OUT")
	check "$want RESULT line(s), each in the kernel's format (got $n)" [ "$n" -eq "$want" ]
	check "min <= median <= p99 <= max, above 0" [ "$ok" -eq 1 ]
}

# One in-kernel bench: its line, of at most the 8 measured samples, none of the set-up lines.
expect_rc 0 "map-lookup --machine-readable" --machine-readable -w1 -d8 --interval_ms 100 \
	map-lookup -o "$JSON"
check_result_lines 1
check "the scenario is the bench's name" [ "${SCEN[0]:-}" = map-lookup ]
check "samples: 1..8, the measured ones after the IQR filter" \
	[ "${SAMP[0]:-0}" -ge 1 -a "${SAMP[0]:-9}" -le 8 ]
check "it implies -q: no set-up lines" bash -c "! grep -q '^Setting up' '$OUT'"
check "the Summary line stays, above the RESULT line" \
	bash -c "grep -n '' '$OUT' | grep -A1 ':Summary' | grep -q ':RESULT '"
check "nothing on stderr about a missing line" bash -c "! grep -q 'no RESULT line' '$ERR'"
jq_check "the JSON beside it has 8 measured samples" "$JSON" \
	'[.results[0].samples[] | select(.warmup | not)] | length == 8'
# The figures are of the measured samples' ns/op: within their range (two decimals).
jq_check "min and max lie within the measured samples' in-kernel ns/op" "$JSON" \
	"[.results[0].samples[] | select(.warmup | not) | .kernel_ns / .ops] as \$v
	 | ${MIN[0]:-0} >= (\$v | min) - 0.005 and ${MAX[0]:-0} <= (\$v | max) + 0.005"

# The scenario names the options given and the globals that change the run; no spaces.
expect_rc 0 "map-lookup with options" --machine-readable "${FAST[@]}" -p2 map-lookup \
	--map_type hash --max_entries 10k
check_result_lines 1
check "scenario: bench/option=value..., the global after the options" \
	[ "${SCEN[0]:-}" = map-lookup/map_type=hash/max_entries=10000/producers=2 ]

# A bench that does not time in the kernel: no line, one sentence on stderr saying why.
expect_rc 0 "map-scan --machine-readable" --machine-readable "${FAST[@]}" map-scan
check "map-scan: no RESULT line" bash -c "! grep -q '^RESULT' '$OUT'"
check "map-scan: stderr says why" \
	grep -qx 'mapbench: map-scan: no RESULT line: it does not time in the kernel' "$ERR"

# Two runs: a line for the one timed in the kernel only.
expect_rc 0 "map-lookup --path kernel, then --path syscall" --machine-readable "${FAST[@]}" \
	map-lookup --path kernel map-lookup --path syscall
check_result_lines 1
check "the kernel path's line" [ "${SCEN[0]:-}" = map-lookup/path=kernel ]
check "the syscall path: stderr says why" \
	grep -qx 'mapbench: map-lookup/path=syscall: no RESULT line: it does not time in the kernel' "$ERR"

# A sweep: one line per point, named by the point's value, before the table.
expect_rc 0 "sweep --machine-readable" sweep --machine-readable "${FAST[@]}" map-lookup \
	--param nr_entries=100,1k
check_result_lines 2
check "sweep: the points' scenarios" \
	[ "${SCEN[0]:-}/${SCEN[1]:-}" = map-lookup/nr_entries=100/map-lookup/nr_entries=1000 ]
check "sweep: the table still follows" grep -q '^nr_entries ' "$OUT"

# JSON or CSV to a file beside the lines is fine; on stdout it is refused, as is a sweep's
# table in another format than text, and the option where a command has no run.
expect_rc 0 "--format json -o FILE" --machine-readable --format json -o "$JSON" "${FAST[@]}" \
	map-lookup
check_result_lines 1
schema_check "$JSON"
expect_usage "--format json: with --machine-readable stdout carries the RESULT lines: must be text" \
	--machine-readable --format json map-lookup
expect_usage "--format csv: with --machine-readable" --machine-readable --format csv map-lookup
expect_usage "sweep: --format csv: with --machine-readable" \
	sweep --machine-readable --format csv map-lookup --param nr_entries=100,1k
expect_usage "sweep: --format json: with --machine-readable" \
	sweep --machine-readable --format json -o "$JSON" map-lookup --param nr_entries=100,1k
expect_usage "--machine-readable is not an option of compare" \
	compare --machine-readable "$JSON" "$JSON"
expect_usage "--machine-readable" --machine-readable=yes map-lookup

finish
