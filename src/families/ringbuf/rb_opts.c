// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The streaming benches' options: the kernel bench's (--rb-b2b, --rb-use-output,
 * --rb-batch-cnt, --rb-sampled, --rb-sample-rate), with its defaults, one table for the four
 * as the kernel has it, and mapbench's (--rb-size, --perfbuf-sz, --rb-record-size,
 * --rb-records, --rb-check). An option that means nothing for a bench is refused, not ignored.
 */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "core/runner.h"
#include "rb.h"

static const char *const rb_check_names[] = { "counts", "records", NULL };

const struct mb_opt rb_opts[] = {
	MB_OPT_FLAG_DEF("rb-b2b", struct rb_args, b2b,
			"Back-to-back mode: the producer takes its records itself after each batch (one producer; the consumer thread idles)"),
	MB_OPT_FLAG_DEF("rb-use-output", struct rb_args, use_output,
			"Ring buffer: bpf_ringbuf_output() (a copy) instead of bpf_ringbuf_reserve() + submit"),
	MB_OPT_U32_DEF("rb-batch-cnt", struct rb_args, batch_cnt, "500", 1, 1u << 20, "CNT",
		       "Records per producer call into the kernel (the kernel bench: per getpgid() trigger)"),
	MB_OPT_FLAG_DEF("rb-sampled", struct rb_args, sampled,
			"Notification sampling: wake the consumer once per --rb-sample-rate records, not for each"),
	MB_OPT_U32_DEF("rb-sample-rate", struct rb_args, sample_rate, "500", 1, 1u << 20, "RATE",
		       "Records per wake-up with --rb-sampled"),
	MB_OPT_U64_DEF("rb-size", struct rb_args, rb_size, "524288", 4096, RB_MAX_RING_SIZE,
		       "BYTES", "Ring buffer size: a power of two, at least a page (the kernel bench: 512 KiB)"),
	MB_OPT_U32_DEF("perfbuf-sz", struct rb_args, perfbuf_sz, "128", 1, 1u << 16, "PAGES",
		       "Perf buffer size per CPU in pages, a power of two"),
	MB_OPT_U32_DEF("rb-record-size", struct rb_args, rec_size, "8", RB_MIN_RECORD, RB_MAX_RECORD,
		       "BYTES", "Record payload, a multiple of 8 (the kernel bench: 8)"),
	MB_OPT_U64_DEF("rb-records", struct rb_args, records, "0", 0, UINT64_MAX / 2, "N",
		       "Each producer makes exactly N records, then stops (0: until the run ends)"),
	MB_OPT_FLAG_DEF("rb-overwrite", struct rb_args, overwrite,
			"Overwrite mode: a full ring overwrites its oldest records (BPF_F_RB_OVERWRITE, Linux 6.19 or later; with --rb-bench-producer)"),
	MB_OPT_FLAG_DEF("rb-bench-producer", struct rb_args, bench_producer,
			"rb-libbpf: the producers alone, no consumer (-c 0): hits are the records they got in"),
	MB_OPT_ENUM_DEF("rb-check", struct rb_args, check, "counts", rb_check_names,
			"What the consumer does with each record: counts (counts it, as the kernel bench's consumer does) or records (also checks its producer, sequence number and checksum; the producers stamp 1 in 64 for the latency)"),
	MB_OPT_END,
};

uint64_t rb_ring_record_bytes(uint32_t rec_size)
{
	return ((uint64_t)rec_size + RB_HEADER + 7) / 8 * 8;
}

uint64_t pb_record_bytes(uint32_t rec_size)
{
	return ((uint64_t)rec_size + PB_HEADER + 7) / 8 * 8;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int rb_default_consumers(const struct mb_run *run)
{
	const struct rb_args *a = run->args;

	return a->bench_producer ? 0 : 1;
}

/* The kernel bench's rules for the producer alone (--rb-bench-producer, --rb-overwrite). */
static int producer_alone_validate(struct mb_run *run)
{
	const struct rb_args *a = run->args;

	if (a->overwrite && !a->bench_producer)
		return mb_run_usage(run, "--rb-overwrite: only with --rb-bench-producer (libbpf's consumer cannot read an overwriting ring, as in the kernel's bench)");
	if (!a->bench_producer)
		return 0;
	if (strcmp(run->bench->name, "rb-libbpf"))
		return mb_run_usage(run, "--rb-bench-producer: only for rb-libbpf (as in the kernel's bench)");
	if (run->nr_consumers)
		return mb_run_usage(run, "-c/--consumers %d: must be 0 with --rb-bench-producer (the producers run alone)",
				    run->nr_consumers);
	if (a->b2b || a->sampled)
		return mb_run_usage(run, "--%s: not with --rb-bench-producer (no consumer to take records or to wake)",
				    a->b2b ? "rb-b2b" : "rb-sampled");
	if (a->check == RB_CHECK_RECORDS)
		return mb_run_usage(run, "--rb-check records: not with --rb-bench-producer (no consumer to check the records)");
	return 0;
}

/* Checks every streaming bench makes. */
static int common_validate(struct mb_run *run)
{
	const struct rb_args *a = run->args;
	int err = producer_alone_validate(run);

	if (err || a->bench_producer)
		return err;
	if (run->nr_consumers != 1)
		return mb_run_usage(run, "-c/--consumers %d: must be 1 (one consumer drains the buffer, as in the kernel's bench)",
				    run->nr_consumers);
	if (a->b2b && run->nr_producers > 1)
		return mb_run_usage(run, "--rb-b2b: back-to-back mode is for a single producer (-p 1), it has %d",
				    run->nr_producers);
	if (a->rec_size % 8)
		return mb_run_bad_num(run, "rb-record-size", a->rec_size,
				      "a multiple of 8 from %u to %u", RB_MIN_RECORD, RB_MAX_RECORD);
	return 0;
}

int rb_validate(struct mb_run *run)
{
	const struct rb_args *a = run->args;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	int err = common_validate(run);

	if (err)
		return err;
	if (mb_run_opt_given(run, "perfbuf-sz"))
		return mb_run_usage(run, "--perfbuf-sz: not for the ring buffer benches (their size is --rb-size)");
	if (!pow2(a->rb_size) || a->rb_size < page)
		return mb_run_bad_num(run, "rb-size", a->rb_size,
				      "a power of two from %llu to %llu (a ring buffer is a power-of-two number of pages)",
				      (unsigned long long)page, RB_MAX_RING_SIZE);
	if (rb_ring_record_bytes(a->rec_size) > a->rb_size / 2)
		return mb_run_bad_num(run, "rb-record-size", a->rec_size,
				      "at most %llu with --rb-size %llu (two records and their headers must fit)",
				      (unsigned long long)(a->rb_size / 2 - RB_HEADER),
				      (unsigned long long)a->rb_size);
	return 0;
}

int pb_validate(struct mb_run *run)
{
	const struct rb_args *a = run->args;
	uint64_t bytes = (uint64_t)a->perfbuf_sz * (uint64_t)sysconf(_SC_PAGESIZE);
	int err = common_validate(run);

	if (err)
		return err;
	if (a->use_output || a->overwrite)
		return mb_run_usage(run, "--%s: not for the perf buffer benches (%s)",
				    a->use_output ? "rb-use-output" : "rb-overwrite",
				    a->use_output ? "bpf_perf_event_output always copies" :
						    "a perf buffer drops what does not fit");
	if (mb_run_opt_given(run, "rb-size"))
		return mb_run_usage(run, "--rb-size: not for the perf buffer benches (their size is --perfbuf-sz)");
	if (!pow2(a->perfbuf_sz))
		return mb_run_bad_num(run, "perfbuf-sz", a->perfbuf_sz,
				      "a power of two from 1 to %u (pages per CPU)", 1u << 16);
	if (pb_record_bytes(a->rec_size) > bytes / 2)
		return mb_run_bad_num(run, "rb-record-size", a->rec_size,
				      "at most %llu with --perfbuf-sz %u (two samples and their headers must fit)",
				      (unsigned long long)(bytes / 2 - PB_HEADER), a->perfbuf_sz);
	/* The kernel bench's rule: the wake-up must come within a batch. */
	if (a->sampled && a->sample_rate > a->batch_cnt)
		return mb_run_bad_num(run, "rb-sample-rate", a->sample_rate,
				      "at most --rb-batch-cnt %u with --rb-sampled on a perf buffer",
				      a->batch_cnt);
	return 0;
}
