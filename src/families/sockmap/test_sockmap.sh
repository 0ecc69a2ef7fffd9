#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# sockmap family: sockmap-update, -lookup and -delete on both map types, every op read back
# and the map left at its level; the sockmap bench in every mode, every byte sent arrived in
# place and the programs saw it (or none ran); text, JSON and CSV; bad input; SIGINT; and no
# socket, connection or BPF object left behind (one run in a network namespace of its own).
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'
SHORT=(-w0 -d2 --interval_ms 50 --no-linearity)

sm_leftovers() {
	leftover_bpf '^mb_(sockmap|sms_|sml_)'
}
before=$(sm_leftovers)

# ---- update, lookup, delete: every op succeeded and read back; the level stays ----
# The three benches share one run (one process, one document); sockmap's below, in text.
for t in sockhash; do
	expect_rc 0 "sockmap-update, -lookup, -delete --map_type $t" "${SHORT[@]}" \
		sockmap-update sockmap-lookup sockmap-delete --map_type "$t" --nr_entries 99 \
		--format json
	for i in 0 1 2; do
		r=".results[$i]"
		jq_check "$(jq -r "$r.bench" "$OUT") $t: every op succeeded and read back, the map holds its 99 sockets" \
			"$OUT" \
			"$r.runner == \"syscall\" and $r.extra.map.type == \"$t\" and
			 $r.extra.map.level == 99 and
			 $r.extra.sockets == 99 + (if $r.bench == \"sockmap-lookup\" then 0 else 64 end) and
			 $r.extra.tcp_pairs == (($r.extra.sockets + 1) / 2 | floor) and
			 $r.extra.ops_checked.ops > 0 and $r.extra.ops_checked.errors == 0 and
			 $r.extra.ops_checked.succeeded == $r.extra.ops_checked.ops and
			 $r.extra.ops_checked.verified == $r.extra.ops_checked.ops and
			 $r.extra.ops_checked.ops >= $r.summary.totals.ops and
			 $r.summary.totals.counters.verified == $r.summary.totals.ops and
			 $r.extra.left.entries == 99 and $r.extra.left.level_checked == 99 and
			 ($r.bench == \"sockmap-lookup\" or
			  $r.extra.rounds * 64 == $r.extra.ops_checked.ops)"
	done
done
# Lookups from BPF: a tc program's own loop, each socket's ports compared, in-kernel ns/op.
expect_rc 0 "sockmap-lookup --path kernel on a sockhash" "${SHORT[@]}" sockmap-lookup \
	--path kernel --map_type sockhash --nr_entries 33 --format json
jq_check "sockmap-lookup --path kernel: every lookup gave the key's socket, timed in the kernel" \
	"$OUT" "$R.runner == \"kernel-loop\" and $R.extra.path == \"kernel\" and
	 $R.extra.ops_checked.ops > 1000 and $R.extra.ops_checked.errors == 0 and
	 $R.extra.ops_checked.verified == $R.extra.ops_checked.ops and
	 $R.summary.totals.kernel_ns > 0 and $R.extra.left.level_checked == 33"
expect_rc 0 "sockmap-update, -delete --batch 8 on a sockmap, text and JSON" "${SHORT[@]}" \
	sockmap-update sockmap-delete --nr_entries 9 --batch 8 -o "$TMP/sm.json"
check "the notes say the map, the rounds and the ops read back; the kernel's Summary line" \
	bash -c "grep -qE '^Map: sockmap of 17 entries, level 9; op: update; 17 sockets \(9 loopback TCP pairs\); [1-9][0-9]* rounds of 8$' $OUT &&
		 grep -qE '^Ops read back: ([1-9][0-9]*) ops, \1 succeeded, \1 verified, 0 errors$' $OUT &&
		 grep -qE '^Left in the map: 9 entries, 9 of them the socket due$' $OUT &&
		 tail -n1 $OUT | grep -qE '^Summary: throughput +[0-9.]+ ± +[0-9.]+ M ops/s \( *[0-9.]+M ops/prod\), latency +[0-9.]+ ns/op$'"
jq_check "sockmap: update and delete rounds of 8, each op read back, the level of 9 left" \
	"$TMP/sm.json" \
	"[.results[] | .extra.map.type == \"sockmap\" and .extra.rounds * 8 == .extra.ops_checked.ops and
	  .extra.ops_checked.verified == .extra.ops_checked.ops and .extra.ops_checked.errors == 0 and
	  .extra.left.entries == 9 and .extra.left.level_checked == 9] == [true, true]"

# ---- the sockmap bench: every mode, text with its Iter and Summary lines, the bytes ----
# (--rx-pass runs below with the stream parser, --tx-normal in the namespace's run, --tx-pass
# in the one interrupted; test_formats.sh compares the text's figures with the documents'.)
modes=$(san_pick rx-verdict-egress rx-verdict-ingress tx-verdict-ingress tx-verdict-egress \
	rx-normal -- rx-verdict-egress tx-verdict-ingress)
for m in $modes; do
	expect_rc 0 "sockmap --$m" -w0 -d1 --interval_ms 50 sockmap "--$m" -o "$TMP/$m.json"
	check "sockmap --$m: one Iter line a sample in the kernel's words, then its Summary" \
		bash -c "[ \$(grep -cE '^Iter +[0-9]+ \( *-?[0-9.]+us\): Send Speed +[0-9.]+ MB/s \( *[0-9.]+ calls/s\), BPF Speed +[0-9.]+ MB/s, Rcv Speed +[0-9.]+ MB/s \( *[0-9.]+ calls/s\)$' $OUT) -eq 1 ] &&
			 tail -n1 $OUT | grep -qE '^Summary: total trans +[0-9]+ MB ± +[0-9.]+ MB/s$' &&
			 grep -qE '^Mode: --$m, a 131072-byte file' $OUT"
	case $m in
	*normal) bpf="== 0" ;;
	*) bpf="> 0" ;;
	esac
	[ "$m" = rx-normal ] && cons=2 || cons=1
	jq_check "sockmap --$m: bytes arrived, each in place, the rest in flight; the programs saw them ($bpf)" \
		"$TMP/$m.json" \
		"$R.extra.mode == \"$m\" and $R.extra.sent > 0 and $R.extra.received > 0 and
		 $R.extra.in_flight == $R.extra.sent - $R.extra.received and
		 $R.extra.in_flight <= $R.extra.max_in_flight + 131072 and
		 $R.extra.mismatched_bytes == 0 and
		 $R.extra.redirects_refused == 0 and $R.extra.bpf_bytes $bpf and
		 (\"$m\" != \"rx-normal\" or $R.extra.proxied >= $R.extra.received) and
		 $R.config.consumers == $cons and
		 $R.summary.totals.counters.bytes > 0 and
		 ([$R.figures[].name] == [\"total trans\", \"BPF Speed\"])"
done

# The stream parser cuts messages; a last one still incomplete may stay behind.
expect_rc 0 "sockmap --rx-pass --rx-strp 4096, JSON and CSV" "${SHORT[@]}" sockmap --rx-pass \
	--rx-strp 4096 -o "$TMP/strp.json" -o "$TMP/strp.csv"
jq_check "--rx-strp 4096: bytes arrived, each in place, and the parser's verdict saw them" "$TMP/strp.json" \
	"$R.extra.rx_strp == 4096 and $R.extra.received <= $R.extra.sent and
	 $R.extra.received > 0 and $R.extra.mismatched_bytes == 0 and $R.extra.bpf_bytes > 0"
check "CSV: the two figures of the Summary line" \
	bash -c "grep -q 'total trans' $TMP/strp.csv && grep -q 'BPF Speed' $TMP/strp.csv"

# ---- bad input: one line, exit 2 ----
expect_usage "--map_type hash: must be one of sockmap, sockhash" sockmap-update --map_type hash
expect_usage "--nr_entries 1000000: must be 1.." sockmap-lookup --nr_entries 1000000
expect_usage "RLIMIT_NOFILE" sockmap-update --nr_entries 1000000
expect_usage "--nr_entries 0: must be 1..1048576" sockmap-delete --nr_entries 0
expect_usage "--batch 0: must be 1..4096" sockmap-update --batch 0
expect_usage "--batch: not an option of sockmap-lookup" sockmap-lookup --batch 4
expect_usage "--path: not an option of sockmap-update" sockmap-update --path kernel
expect_usage "--path bpf: must be one of syscall, kernel" sockmap-lookup --path bpf
expect_usage "-p/--producers 2: this bench needs a single producer" -p2 sockmap-update
expect_usage "--tx-pass: one mode only" sockmap --rx-pass --tx-pass
expect_usage "--rx-strp 100: must be 0 with --tx-normal" sockmap --tx-normal --rx-strp 100
expect_usage "--rx-strp 200000: must be 0..131072" sockmap --rx-strp 200000
expect_usage "-c/--consumers 1: --rx-normal needs 2" -c1 sockmap --rx-normal
expect_usage "-c/--consumers 3: must be 1 or 2" -c3 sockmap

# ---- nothing left behind: sockets and connections, in a network namespace of its own ----
if unshare -n true 2>/dev/null; then
	left=$(unshare -n sh -c "ip link set lo up && $MB ${SHORT[*]} -q sockmap-delete \
		--nr_entries 50 >/dev/null 2>&1 && $MB ${SHORT[*]} -q sockmap --tx-normal \
		>/dev/null 2>&1 && ss -tanH | wc -l")
	check "in a namespace of their own, the runs leave no TCP socket or connection (got '$left')" \
		[ "$left" = 0 ]
fi

# ---- SIGINT in the middle of a run: exit 130, nothing left ----
interrupt_run -w0 -d100 --interval_ms 100 sockmap --tx-pass
check "no sockmap BPF program or map left behind" [ "$(sm_leftovers)" -le "$before" ]

finish
