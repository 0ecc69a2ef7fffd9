#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# xdpmaps family: xdp-map-update (update, lookup, delete from user space), xdp-map-lookup
# (the in-kernel loop, two producers) and xdp-redirect-map on every type they take, in text,
# JSON and CSV, every op and entry read back; --dev with a device of the host; bad input;
# SIGINT; and nothing left behind: no namespace of a run
# still held by any process, no mb_xm device in the host's namespace, no named namespace, no
# BPF object (only objects no process holds count: a run of another test at the same time
# leaves none). Skips (77) where the machine makes no network namespace or veth pair.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

xm_leftovers() {
	leftover_bpf '^mb_xm'
}
NS_SEEN=()

# seen FILE: remember the namespaces the results of FILE name, for the check at the end.
seen() {
	NS_SEEN+=($(jq -r '.results[].extra.netns_inode // empty' "$1"))
}

# ---- xdp-map-update: one op per type, each in its own run of one process ----
UPD="$TMP/update.json"
run "${FAST[@]}" xdp-map-update --map_type devmap \
	xdp-map-update --map_type cpumap --op lookup \
	xdp-map-update --map_type xskmap --op delete -o "$UPD" -o "$TMP/update.csv"
if [ "$rc" -eq 77 ]; then
	echo "  SKIP [$NAME] $(cat "$ERR")"
	exit 77
fi
check "xdp-map-update on devmap, cpumap, xskmap: exit 0" [ "$rc" -eq 0 ]
seen "$UPD"
check "the notes name the devices in the run's namespace, and the ops read back" bash -c \
	"[ \$(grep -cE '^Map: (devmap|xskmap) of 64 entries; devices: lo \(1\), mb_xm0 \([0-9]+\), mb_xm1 \([0-9]+\) in a network namespace of the run.s own \(net:\[[0-9]+\]\); [03] AF_XDP sockets$' $OUT) -eq 2 ] &&
	 grep -qE '^Map: cpumap of [0-9]+ entries; one per online CPU, queue size 192$' $OUT &&
	 grep -qE '^Ops read back: [1-9][0-9]* update calls, ([0-9]+) done, 0 failed; entries as written 64, wrong 0$' $OUT &&
	 grep -qE '^Ops read back: [1-9][0-9]* delete calls, [0-9]+ done, 0 failed; .*\(xskmap: user space may not look entries up\)$' $OUT &&
	 grep -qE '^Call: one delete alone [0-9.]+ ns \(op_ns, the mean over the samples\); the Summary.s rate counts each delete with its untimed put-back$' $OUT"
jq_check "xdp-map-update: syscalls, every call done, every entry as written last" "$UPD" \
	'[.results[] | .runner == "syscall" and .extra.ops_checked.ops > 0 and
	  .extra.ops_checked.done == .extra.ops_checked.ops and .extra.ops_checked.failed == 0 and
	  .extra.ops_checked.entries_wrong == 0 and .extra.ops_checked.ops >= .summary.totals.ops and
	  .summary.totals.hits == .summary.totals.ops and .summary.metrics.op_ns.mean > 0] | all'
jq_check "devices: lo and the veth pair in the run's namespace (a cpumap's: none)" "$UPD" \
	'[.results[] | (.extra.map_type == "cpumap") as $cpu |
	  .extra.namespace == (if $cpu then "none" else "the run'"'"'s own" end) and
	  ([.extra.devices[].name] == (if $cpu then [] else ["lo", "mb_xm0", "mb_xm1"] end)) and
	  ([.extra.devices[].ifindex] | unique | length == (if $cpu then 0 else 3 end))] | all'
jq_check "each type's own: entries, sockets, CPUs, queue size" "$UPD" \
	'.results as $r | .context.online_cpus as $cpus |
	 ($r[0].extra.map_type == "devmap" and $r[0].extra.entries == 64 and
	  $r[0].extra.ops_checked.entries_as_written == 64 and $r[0].extra.xsk_sockets == 0) and
	 ($r[1].extra.map_type == "cpumap" and $r[1].extra.op == "lookup" and
	  $r[1].extra.entries == $cpus and $r[1].extra.qsize == 192 and
	  $r[1].extra.ops_checked.entries_as_written == $r[1].extra.entries) and
	 ($r[2].extra.map_type == "xskmap" and $r[2].extra.op == "delete" and
	  $r[2].extra.xsk_sockets == 3 and ($r[2].extra.ops_checked.read_back | not) and
	  $r[2].summary.totals.excluded_ns > 0)'
check "the CSV has a row of each run" bash -c \
	"[ \$(grep -c '^xdp-map-update,' $TMP/update.csv) -ge 3 ]"
schema_check "$UPD"
warnings_check "xdp-map-update: warnings are measured machine conditions only" "$UPD"

# ---- in the kernel: lookups (two producers), and bpf_redirect_map on every type ----
LK="$TMP/lookup.json"
# The host's own device for --dev: the first one ip lists after lo (lo itself where none).
HOSTDEV=$(ip -o link show | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2; exit }')
HOSTDEV=${HOSTDEV:-lo}
expect_rc 0 "xdp-map-lookup -p2 on xskmap" "${FAST[@]}" -p2 xdp-map-lookup --map_type xskmap \
	-o "$LK"
seen "$LK"
check "xdp-map-lookup prints the lookups read back" grep -qE \
	'^Ops read back: [1-9][0-9]* bpf_map_lookup_elem, ([0-9]+) found, 0 missing, 0 naming another device$' "$OUT"
jq_check "xdp-map-lookup: in-kernel loop, two producers, every lookup found" "$LK" \
	'.results[0] | .runner == "kernel-loop" and .extra.helper == "bpf_map_lookup_elem" and
	 .extra.ops_checked.found == .extra.ops_checked.ops and .extra.ops_checked.ops > 0 and
	 .extra.ops_checked.ops >= .summary.totals.ops and
	 .summary.totals.hits == .summary.totals.ops and
	 ([.samples[].producers | length == 2] | all) and .summary.metrics.op_ns.mean > 0'

RD="$TMP/redirect.json"
# devmap's redirect is devmap_hash's but for the lookup (a slot, not a hash): one of them.
types=$(san_pick cpumap xskmap -- xskmap)
args=()
for t in $types; do
	args+=(xdp-redirect-map --map_type "$t")
done
expect_rc 0 "xdp-redirect-map on $types; devmap_hash lookups; devmap_hash on --dev $HOSTDEV; devmap --live" \
	"${FAST[@]}" "${args[@]}" xdp-map-lookup --map_type devmap_hash \
	xdp-redirect-map --map_type devmap_hash --dev "$HOSTDEV" \
	xdp-redirect-map --map_type devmap --live -o "$RD"
seen "$RD"
n=$(echo $types | wc -w)
jq_check "xdp-redirect-map: every redirect found its entry, the frame passed" "$RD" \
	"[.results[] | select(.bench == \"xdp-redirect-map\") | .runner == \"kernel-loop\" and
	  .extra.helper == \"bpf_redirect_map\" and .extra.ops_checked.ops > 0 and
	  .extra.ops_checked.redirected == .extra.ops_checked.ops and
	  .extra.ops_checked.not_found == 0 and .extra.ops_checked.calls > 0 and
	  .extra.ops_checked.ops >= .summary.totals.ops and
	  .summary.totals.hits == .summary.totals.ops] | length == $n + 2 and all"
jq_check "--live: frames sent, each one redirected, some arrived at the peers, no more than sent" \
	"$RD" '.results[-1] | .extra.live and .extra.ops_checked.frames_arrived > 0 and
	 .extra.ops_checked.frames_arrived <= .extra.ops_checked.redirected and
	 .extra.ops_checked.redirected == .extra.ops_checked.ops'
check "--live: the notes say how many frames arrived" grep -qE \
	"^Frames sent \(live\): [1-9][0-9]* bpf_redirect_map in [0-9]+ calls, [0-9]+ XDP_REDIRECT, 0 not found; the entries name the veth pair only; [1-9][0-9]* arrived at the peers' XDP programs$" "$OUT"
jq_check "devmap_hash lookups: every entry found naming its device" "$RD" \
	'[.results[] | select(.bench == "xdp-map-lookup")][0] |
	 .extra.map_type == "devmap_hash" and .extra.ops_checked.ops > 0 and
	 .extra.ops_checked.found == .extra.ops_checked.ops and .extra.ops_checked.wrong_device == 0'
jq_check "--dev $HOSTDEV: lo and the host's device, no namespace of the run's own" "$RD" \
	".results[-2].extra | .namespace == \"the host's\" and (has(\"netns_inode\") | not) and
	 [.devices[].name] == [\"lo\", \"$HOSTDEV\"]"
check "--dev: the notes say the devices are the host's" \
	grep -qE "^Map: devmap_hash of 64 entries; devices: lo \(1\), $HOSTDEV \([0-9]+\) of the host's namespace; 0 AF_XDP sockets$" "$OUT"

# ---- bad input: one line, exit 2 ----
expect_usage "--dev mb_no_such_dev: must be a network device of this namespace" \
	xdp-map-update --dev mb_no_such_dev
expect_usage "--nr_entries 5000: must be 1..4096" xdp-map-lookup --nr_entries 5000
over=$(($(nproc) + 1))
expect_usage "--nr_entries $over: must be 1..$(nproc) (cpumap: one entry per online CPU)" \
	xdp-redirect-map --map_type cpumap --nr_entries $over
expect_usage "--dev lo: a cpumap's entries are CPUs, not devices" \
	xdp-map-update --map_type cpumap --dev lo
expect_usage "--live: frames are sent to devices: devmap or devmap_hash, not --map_type xskmap" \
	xdp-redirect-map --map_type xskmap --live
expect_usage "--op lookup: xskmap answers lookups from BPF only" \
	xdp-map-update --map_type xskmap --op lookup

# ---- SIGINT while the namespace and the sockets are there: exit 130, all gone ----
"$MB" -w0 -d100 --interval_ms 100 xdp-map-update --map_type xskmap >"$OUT" 2>"$ERR" &
pid=$!
wait_output_line "$OUT" '^Iter ' $pid
ino=$(for f in /proc/$pid/fd/*; do readlink "$f"; done 2>/dev/null |
	sed -nE 's/^net:\[([0-9]+)\]$/\1/p' | head -n1)
own=$(readlink /proc/self/ns/net | sed -nE 's/^net:\[([0-9]+)\]$/\1/p')
check "during the run the process holds a namespace not its own" \
	bash -c "[ -n '$ino' ] && [ '$ino' != '$own' ]"
kill -INT $pid
wait $pid
rc=$?
check "SIGINT exits 130 (got $rc)" [ "$rc" -eq 130 ]
NS_SEEN+=($ino)

# ---- nothing left behind ----
held=$(lsns -t net -n -o NS 2>/dev/null)
for i in $(printf '%s\n' "${NS_SEEN[@]}" | sort -u); do
	check "the run's namespace net:[$i] is held by no process" bash -c "! grep -qx '$i' <<<'$held'"
done
check "the runs named no namespace (ip netns)" bash -c "! ip netns list | grep -q mb"
check "no mb_xm device in the host's namespace" bash -c "! ip -o link show | grep -q mb_xm"
check "no xdpmaps BPF program or map left behind" [ "$(xm_leftovers)" -eq 0 ]

finish
