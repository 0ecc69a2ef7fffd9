#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Streaming family: every bench in text (the kernel's run_bench_ringbufs.sh scraping), JSON
# and CSV; a known number of records through each, accounted for to the record: by counts (the
# default, --rb-check counts, as the kernel's consumer counts) and record by record (--rb-check
# records); the options of the kernel's script; every bad input; nothing left behind.
. "$(dirname "$0")/../../../tests/e2e/lib.sh"

R='.results[0]'
BENCHES=(rb-libbpf rb-custom pb-libbpf pb-custom)

rb_leftovers() {
	leftover_bpf '^(mb_rb|mb_rb_stamps|mb_pb)$'
}
before=$(rb_leftovers)

# The kernel script's summarize(): the output flattened by an unquoted echo, its last line,
# and run_common.sh's hits and drops patterns.
kernel_summarize() {
	local bench=$1 summary
	summary=$(echo $(cat "$OUT") | tail -n1)
	printf "%-20s %s (drops %s)\n" "$bench" \
		"$(echo "$summary" | sed -E "s/.*hits\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/")" \
		"$(echo "$summary" | sed -E "s/.*drops\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/")"
}
KERNEL_LINE='^[a-z-]+ +[0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M/s \(drops [0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M/s\)$'
matches() { [[ $1 =~ $2 ]]; }

# ---- the benches are listed ----
expect_rc 0 "--list" --list
for b in "${BENCHES[@]}"; do
	check "$b is in --list" grep -qE "^- $b +[a-zA-Z]" "$OUT"
done

# ---- text: Iter lines, the notes, the Summary the kernel's script scrapes ----
for b in "${BENCHES[@]}"; do
	expect_rc 0 "$b (the script's -c1 -a)" "${FAST[@]}" -c1 -a "$b" --rb-sampled --rb-batch-cnt 1000
	check "$b prints W+D Iter lines" [ "$(grep -c '^Iter ' "$OUT")" -eq 2 ]
	check "$b ends with the kernel's Summary line" \
		grep -qE '^Summary: hits +[0-9.]+ ± +[0-9.]+M/s \( *[0-9.]+M/prod\), drops +[0-9.]+ ± +[0-9.]+M/s, total operations +[0-9.]+ ± +[0-9.]+M/s$' "$OUT"
	line=$(kernel_summarize "$b")
	check "$b: run_bench_ringbufs.sh summarize gives '$line'" matches "$line" "$KERNEL_LINE"
	check "$b: every record accounted for by counts, and the text says so" \
		grep -q "^Records: .* received, counted (as the kernel's bench; --rb-check records checks each): as many as were made$" "$OUT"
	check "$b: buffer and consumer lines" bash -c "grep -q '^Buffer: ' $OUT && grep -q '^Consumer: ' $OUT"
	check "$b: no latency without the stamps of --rb-check records" bash -c "! grep -q '^Latency: production' $OUT"
done
expect_rc 0 "rb-custom --rb-check records" "${FAST[@]}" -a rb-custom --rb-sampled --rb-check records
check "--rb-check records: the text says each record was checked" \
	grep -q '^Records: .* received, each checked: none lost, none seen twice$' "$OUT"
check "--rb-check records: the latency line" grep -q '^Latency: production to consumption, 1 record in 64 ' "$OUT"

expect_rc 0 "-q keeps only Iter and Summary" "${FAST[@]}" -q rb-custom
check "-q drops the notes" bash -c "! grep -qE '^(Buffer|Consumer|Records|Latency):' $OUT"

# ---- a known number of records: attempts = records in + drops, each received once ----
# --rb-check records: each record's producer and sequence number checked.
records_ok() {
	local desc=$1 n=$2
	jq_check "$desc: $n attempted, made + dropped, all received once, each checked" "$OUT" \
		"$R.extra.records as \$r | \$r.check == \"records\" and $R.params[\"rb-check\"] == \"records\" and \$r.attempted == $n and \$r.made + \$r.dropped == \$r.attempted and \$r.received == \$r.made and \$r.lost == 0 and \$r.duplicated == 0 and \$r.foreign == 0 and \$r.checksum_ok and \$r.ok"
}
# The default, --rb-check counts: the counts alone add up; what only a check of each record
# tells is null, and so is the latency (no stamps).
counts_ok() {
	local desc=$1 n=$2
	jq_check "$desc: $n attempted, made + dropped, as many received as made, by counts" "$OUT" \
		"$R.extra.records as \$r | \$r.check == \"counts\" and $R.params[\"rb-check\"] == \"counts\" and \$r.attempted == $n and \$r.made + \$r.dropped == \$r.attempted and \$r.received == \$r.made and \$r.lost == 0 and \$r.duplicated == null and \$r.foreign == null and \$r.checksum_ok == null and \$r.ok and $R.extra.latency == null"
}
for b in "${BENCHES[@]}"; do
	for p in 1 2; do
		extra=()
		[[ $b == pb-* ]] && extra=(--rb-sampled)
		expect_rc 0 "$b -p$p --rb-records 100000, counted" -w0 -d600 --interval_ms 100 \
			-p"$p" "$b" --rb-records 100000 "${extra[@]}" --format json
		counts_ok "$b -p$p" $((100000 * p))
		jq_check "$b -p$p: counted: each producer made its own, whose a record was is not known" \
			"$OUT" "([$R.extra.records.per_producer[] | .made + .dropped == 100000 and .received == null] | all) and $R.extra.records.received == ([$R.extra.records.per_producer[].made] | add)"
		schema_check "$OUT"
		expect_rc 0 "$b -p$p --rb-records 100000 --rb-check records" -w0 -d600 \
			--interval_ms 100 -p"$p" "$b" --rb-records 100000 "${extra[@]}" --rb-check records \
			--format json
		records_ok "$b -p$p" $((100000 * p))
		jq_check "$b -p$p: hits + drops in the samples are at most the records" "$OUT" \
			"$R.summary.totals.hits + $R.summary.totals.misses <= $((100000 * p)) and $R.summary.totals.ops == $((100000 * p))"
		jq_check "$b -p$p: each producer made its own and all of them came" "$OUT" \
			"([$R.extra.records.per_producer[] | .made + .dropped == 100000 and .received == .made] | all) and ($R.extra.records.per_producer | length) == $p"
		jq_check "$b -p$p: one consumer, its records in the samples" "$OUT" \
			"$R.config.consumers == 1 and ([$R.samples[].consumers | length == 1] | all) and ([$R.samples[].consumers[0].hits] | add) == $R.summary.totals.hits"
		schema_check "$OUT"
	done
done
# A wake-up per record and the kernel's back-to-back mode, also record-exact.
expect_rc 0 "pb-libbpf, a wake-up per record" -w0 -d600 --interval_ms 100 pb-libbpf \
	--rb-records 20000 --format json
counts_ok "pb-libbpf" 20000
cp "$OUT" "$TMP/pb-every.json"
expect_rc 0 "pb-libbpf, sampled wake-ups" -w0 -d600 --interval_ms 100 pb-libbpf --rb-sampled \
	--rb-records 200000 --format json
if jq -e "$R.extra.interrupts == null" "$TMP/pb-every.json" >/dev/null; then
	pass "no IRQ work count on this machine: nothing to compare"
else
	check "IRQ work interrupts per record fall tenfold or more with sampled wake-ups" \
		awk "BEGIN { exit !($(jq "$R.extra.interrupts.irq_work_per_record" "$TMP/pb-every.json") > 10 * $(jq "$R.extra.interrupts.irq_work_per_record" "$OUT")) }"
fi
for b in rb-libbpf pb-custom; do
	expect_rc 0 "$b --rb-b2b" -w0 -d600 --interval_ms 100 "$b" --rb-b2b --rb-records 50000 \
		--rb-check records --format json
	records_ok "$b --rb-b2b" 50000
	jq_check "$b --rb-b2b: nothing dropped (the producer drains after each batch)" "$OUT" \
		"$R.extra.records.dropped == 0 and $R.extra.buffer.back_to_back"
done
expect_rc 0 "rb-custom --rb-use-output, 4 KiB records" -w0 -d600 --interval_ms 100 rb-custom \
	--rb-use-output --rb-record-size 4096 --rb-size 1048576 --rb-records 30000 --rb-check records \
	--format json
records_ok "rb-custom output 4 KiB" 30000
jq_check "4 KiB records take 4104 bytes, 255 fit in 1 MiB" "$OUT" \
	"$R.extra.buffer.record_bytes == 4104 and $R.extra.buffer.capacity_records == 255 and $R.extra.buffer.api == \"bpf_ringbuf_output\""

# A run too short for its records says so (10 M records cannot be made in 10 ms anywhere).
expect_rc 0 "rb-custom, -d shorter than its --rb-records" -w0 -d1 --interval_ms 10 rb-custom \
	--rb-records 10000000 --format json
jq_check "the short run warns that the producers did not make their records" "$OUT" \
	"[$R.warnings[] | select(test(\"ended before the producers made their --rb-records 10000000\"))] | length == 1"
jq_check "and what they did make is still accounted for" "$OUT" \
	"$R.extra.records.ok and $R.extra.records.attempted < 10000000"

# The kernel's producer-alone mode (--rb-bench-producer, -c 0 by default) and overwrite mode.
expect_rc 0 "rb-libbpf --rb-bench-producer" -w0 -d600 --interval_ms 100 rb-libbpf \
	--rb-bench-producer --rb-records 100000 --format json
jq_check "no consumer: what was made is the hits, nothing is received" "$OUT" \
	"$R.config.consumers == 0 and $R.extra.records.check == \"counts\" and $R.extra.records.received == null and $R.extra.records.ok and $R.extra.records.attempted == 100000 and $R.summary.totals.hits == $R.extra.records.made and $R.extra.consumer == null"
jq_check "without a consumer a 512 KiB ring holds 32767 records of 16 bytes, the rest drop" "$OUT" \
	"$R.extra.records.made == 32767 and $R.extra.records.dropped == 100000 - 32767"
run -w0 -d600 --interval_ms 100 rb-libbpf --rb-bench-producer --rb-overwrite --rb-records 100000 \
	--format json
if [ "$rc" -eq 77 ]; then
	jq_check "--rb-overwrite on a kernel without it: skipped, saying so" "$OUT" \
		"$R.status == \"skipped\" and ($R.reason | test(\"no overwrite mode\"))"
else
	jq_check "--rb-overwrite: nothing dropped, every record overwrites the oldest" "$OUT" \
		"$R.status == \"ok\" and $R.extra.records.dropped == 0 and $R.extra.records.made == 100000"
fi

# ---- the figures: latency from the stamps, the consumer's cost, in-kernel time ----
expect_rc 0 "rb-libbpf json" "${FAST[@]}" -a rb-libbpf --format json
jq_check "the default counts records and has no latency (no stamps)" "$OUT" \
	"$R.extra.records.check == \"counts\" and $R.extra.latency == null and $R.extra.records.ok"
jq_check "consumer: wake-ups and CPU per record" "$OUT" \
	"$R.extra.consumer.wakeups > 0 and $R.extra.consumer.records_per_wakeup >= 1 and $R.extra.consumer.cpu_ns_per_record > 0"
expect_rc 0 "rb-libbpf json --rb-check records" "${FAST[@]}" -a rb-libbpf --rb-check records \
	--format json
jq_check "latency: sampled 1 in 64, ordered percentiles" "$OUT" \
	"$R.extra.latency as \$l | \$l.every == 64 and \$l.sampled > 0 and \$l.min_ns <= \$l.median_ns and \$l.median_ns <= \$l.p99_ns and \$l.p99_ns <= \$l.max_ns"
jq_check "consumer: wake-ups and CPU per record" "$OUT" \
	"$R.extra.consumer.wakeups > 0 and $R.extra.consumer.records_per_wakeup >= 1 and $R.extra.consumer.cpu_ns_per_record > 0"
jq_check "in-kernel loop: time per record, the loop kind, the metrics" "$OUT" \
	"$R.runner == \"kernel-loop\" and $R.summary.latency_kernel.mean > 0 and ($R.samples[0].metrics | has(\"records_per_wakeup\") and has(\"consumer_cpu_ns_per_record\"))"
jq_check "hits are the consumer's, total is hits + drops" "$OUT" \
	"$R.summary.totals.hits == ([$R.samples[] | select(.warmup | not) | .consumers[0].hits] | add) and $R.summary.totals.misses <= $R.summary.totals.ops"
jq_check "throughput is the records delivered (hits), not the attempts" "$OUT" \
	"$R.summary.throughput.mean == $R.summary.hits.mean and ([$R.samples[] | .throughput * .covered_ns / 1e9 - .hits | fabs < 1] | all)"
warnings_check "rb-libbpf: warnings are measured machine conditions only" "$OUT"
expect_rc 0 "pb-custom csv" "${FAST[@]}" pb-custom --rb-sampled --format csv
check "csv has a header and a row" [ "$(wc -l <"$OUT")" -ge 2 ]

# ---- sweeps: record size and producers as parameters, the delivered rate per point ----
expect_rc 0 "sweep rb-custom over record size and producers" sweep rb-custom \
	--param rb-record-size=8,4096 --param p=1,2 -w0 -d1 --interval_ms 100 --rb-sampled \
	--format json
jq_check "four points, each record-exact, throughput the delivered rate" "$OUT" \
	"(.results | length) == 4 and ([.results[] | .extra.records.ok and .summary.throughput.mean == .summary.hits.mean] | all) and ([.results[].params[\"rb-record-size\"]] | sort) == [8, 8, 4096, 4096]"

# ---- preemption: a producer's own wake-ups are no lost CPU; a busy loop beside it is ----
expect_rc 0 "rb-libbpf, a wake-up per record, pinned" -w0 -d5 --interval_ms 200 \
	--prod-affinity 1 --cons-affinity 0 rb-libbpf --format json
jq_check "judged on in-kernel time" "$OUT" "$R.summary.noise_checks.preempted.basis == \"kernel\""
cp "$OUT" "$TMP/quiet.json"
busy_start 1
expect_rc 0 "rb-custom beside a busy loop on the producer's CPU" -w0 -d10 --interval_ms 200 \
	--prod-affinity 1 --cons-affinity 0 rb-custom --rb-sampled --format json
busy_stop
jq_check "half the samples or more lost the CPU (a busy loop takes half of it)" "$OUT" \
	"$R.summary.noise.lost_cpu >= 5"
# The headline is the records delivered per second, which the lost CPU lowers: flagged.
jq_check "judged on the delivered rate, so those samples are flagged preempted" "$OUT" \
	"$R.summary.noise.figure == \"throughput\" and $R.summary.noise.flags.preempted >= 5"

# ---- bad input: one line, exit 2, nothing made ----
expect_usage "--rb-size 5000: must be a power of two from 4096" rb-libbpf --rb-size 5000
expect_usage "--rb-size 2048: must be 4096.." rb-custom --rb-size 2048
expect_usage "--rb-record-size 12: must be a multiple of 8 from 8 to 4096" rb-libbpf --rb-record-size 12
expect_usage "--rb-record-size 4104: must be 8..4096" pb-libbpf --rb-record-size 4104
expect_usage "--rb-record-size 4096: must be at most 2040 with --rb-size 4096" rb-custom \
	--rb-size 4096 --rb-record-size 4096
expect_usage "--rb-record-size 4096: must be at most 2036 with --perfbuf-sz 1" pb-custom \
	--perfbuf-sz 1 --rb-record-size 4096
expect_usage "--perfbuf-sz 3: must be a power of two" pb-libbpf --perfbuf-sz 3
expect_usage "--rb-batch-cnt 0: must be 1..1048576" rb-libbpf --rb-batch-cnt 0
expect_usage "--rb-sample-rate 600: must be at most --rb-batch-cnt 500" pb-libbpf --rb-sampled \
	--rb-sample-rate 600
expect_usage "--rb-use-output: not for the perf buffer benches" pb-custom --rb-use-output
expect_usage "--perfbuf-sz: not for the ring buffer benches" rb-libbpf --perfbuf-sz 8
expect_usage "--rb-size: not for the perf buffer benches" pb-libbpf --rb-size 8192
expect_usage "--rb-b2b: back-to-back mode is for a single producer (-p 1)" -p2 rb-libbpf --rb-b2b
expect_usage "--rb-overwrite: only with --rb-bench-producer" rb-libbpf --rb-overwrite
expect_usage "--rb-bench-producer: only for rb-libbpf" rb-custom --rb-bench-producer
expect_usage "-c/--consumers 1: must be 0 with --rb-bench-producer" -c1 rb-libbpf --rb-bench-producer
expect_usage "--rb-sampled: not with --rb-bench-producer" rb-libbpf --rb-bench-producer --rb-sampled
expect_usage "--rb-b2b: not with --rb-bench-producer" rb-libbpf --rb-bench-producer --rb-b2b
expect_usage "--rb-check records: not with --rb-bench-producer" rb-libbpf --rb-bench-producer \
	--rb-check records
expect_usage "--rb-check each: must be one of counts, records" rb-custom --rb-check each
for b in "${BENCHES[@]}"; do
	expect_usage "-c/--consumers 0: must be 1" -c0 "$b"
	expect_usage "-c/--consumers 2: must be 1" -c2 "$b"
done
expect_usage "-c/--consumers 1: this bench has no consumers" -c1 bpf-noop
expect_usage "--cons-affinity: CPU 1000 is not online" --cons-affinity 1000 rb-libbpf

# ---- SIGINT in the middle: exit 130, nothing left behind ----
interrupt_run -w0 -d100 --interval_ms 100 pb-custom
check "no ring buffer BPF program or map left behind" [ "$(rb_leftovers)" -le "$before" ]

finish
