#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The localstorage family: the kernel's local storage benches and mapbench's own.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

# The kernel's run_common.sh local_storage() scraper, its sed expressions as written there, over
# the whole output collapsed to one line as its summarize_local_storage() does.
kernel_scrape() {
	local one
	one=$(echo $(cat "$1") | tail -n1)
	printf '%s|%s|%s\n' \
		"$(echo "$one" | sed -E 's/.* hits throughput\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+\sM\sops\/s).*/\1/')" \
		"$(echo "$one" | sed -E 's/.* hits latency\s+([0-9]+\.[0-9]+\sns\/op).*/\1/')" \
		"$(echo "$one" | sed -E 's/.*important_hits throughput\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+\sM\sops\/s).*/\1/')"
}

# text_checks NAME: the text of the run just made, in the kernel's words.
text_checks() {
	check "$1: one Iter line per sample, hits and important_hits in M/s" \
		[ "$(grep -cE '^Iter +[0-9]+ \( *-?[0-9.]+us\): hits +[0-9.]+M/s important_hits +[0-9.]+M/s$' "$OUT")" -eq 2 ]
	check "$1: the kernel's scraper reads three figures: $(kernel_scrape "$OUT")" \
		bash -c "[[ '$(kernel_scrape "$OUT")' =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+\ M\ ops/s\|[0-9]+\.[0-9]+\ ns/op\|[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+\ M\ ops/s$ ]]"
	check "$1: the attach point used is named" grep -qE '^Trigger: (tp_btf|raw_tp|tp)/' "$OUT"
}

# Every get returned a value, and the counts are the loop's: seq-get over 4 maps gets map 0 once
# in 4, 10000 gets per call; int-get over 3 maps gets map 0 once more after every third map:
# 13334 gets per call, 6668 on map 0.
expect_rc 0 "seq-get, 4 maps, text and JSON" "${FAST[@]}" local-storage-cache-seq-get \
	--nr_maps 4 -o "$TMP/seq.json"
text_checks seq-get
schema_check "$TMP/seq.json"
T='.results[0].summary.totals'
jq_check "seq-get: 10000 hits per call, one in 4 on map 0, no NULL get" "$TMP/seq.json" \
	"$T.calls > 0 and $T.errors == 0 and $T.ops == $T.hits and $T.hits == 10000 * $T.calls and
	 $T.counters.important_hits * 4 == $T.hits"
jq_check "seq-get: its trigger, inner maps and headline in JSON" "$TMP/seq.json" \
	".results[0] | (.extra.trigger | test(\"^(tp_btf|raw_tp|tp)/\")) and
	 .extra.inner_map_type == \"task_storage\" and .extra.nr_maps == 4 and
	 .summary.headline.counts == \"hits\" and
	 ([.figures[].name] == [\"hits\", \"hits latency\", \"important_hits\"])"
expect_rc 0 "int-get, 3 maps, text and JSON" "${FAST[@]}" local-storage-cache-int-get \
	--nr_maps 3 -o "$TMP/int.json"
text_checks int-get
jq_check "int-get: 13334 gets per call, 6668 of them on map 0" "$TMP/int.json" \
	"$T.calls > 0 and $T.errors == 0 and $T.hits == 13334 * $T.calls and
	 $T.counters.important_hits == 6668 * $T.calls"
expect_rc 0 "hashmap-control, text and CSV" "${FAST[@]}" local-storage-cache-hashmap-control \
	--hashmap_nr_keys_used 10 -o "$TMP/ctl.csv"
text_checks hashmap-control
check "hashmap-control CSV: hits and important_hits rows, every lookup found its key" \
	/usr/bin/python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
fig = {r["metric"]: r for r in rows if r["kind"] == "figure"}
s = [r for r in rows if r["kind"] == "sample"]
ok = "hits" in fig and "important_hits" in fig and len(s) == 2
ok = ok and all(int(r["hits"]) == int(r["ops"]) > 0 and int(r["errors"]) == 0 for r in s)
sys.exit(not ok)' "$TMP/ctl.csv"
MAPBENCH_REFUSE_TRIGGER=tp_btf expect_rc 0 "seq-get with tp_btf refused" "${FAST[@]}" \
	local-storage-cache-seq-get --nr_maps 2 --format json -o "$TMP/raw.json"
jq_check "with tp_btf refused the gets run on raw_tp" "$TMP/raw.json" \
	".results[0].extra.trigger == \"raw_tp/sys_enter\" and .results[0].summary.totals.hits > 0"

expect_usage "benchmark doesn't support multi-producer" -p2 local-storage-cache-seq-get
expect_usage "--nr_maps 1001" local-storage-cache-int-get --nr_maps 1001
expect_usage "--hashmap_nr_keys_used 4194305" local-storage-cache-hashmap-control \
	--hashmap_nr_keys_used 4194305
# The kernel's default of 1000 full 4M-entry hash maps (335 GB) is refused before any map
# exists, with what it needs.
before=$(bpftool map list 2>/dev/null | grep -c mb_ls_hash)
expect_usage "--nr_maps 1000: 1000 hash maps of 4194304 entries need 335.5 GB" \
	local-storage-cache-hashmap-control --nr_maps 1000
check "the refused control made no map" \
	[ "$(bpftool map list 2>/dev/null | grep -c mb_ls_hash)" -eq "$before" ]

# local-storage-tasks-trace: test_ls_trace.sh (its skip, its run without fentry, its refusals).

finish
