/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The per-op latency histogram of the in-kernel loop (--latency), shared by its BPF side
 * (drivers/kloop_lat.bpf.h), which adds to it, and user space, which merges and reads it. Log
 * linear: values below MB_LAT_SUB have a bucket each, every power of two above is cut into
 * MB_LAT_SUB equal buckets, so a bucket is at most 1/128 (0.78 %) of its lowest value wide
 * and a percentile read at its middle is within 0.4 % of the value it stands for, from 1 ns
 * to 10 ms (values from 2^24 ns, 16.8 ms, share the last bucket; max stays exact).
 *
 * The includer provides __u32 and __u64 (vmlinux.h in BPF, <linux/types.h> in user space).
 * mb_lat_bucket() uses no builtin, so the BPF program computes the same bucket as the tests.
 */
#ifndef MB_LAT_HIST_H
#define MB_LAT_HIST_H

#define MB_LAT_SUB_BITS		7
#define MB_LAT_SUB		(1u << MB_LAT_SUB_BITS)
#define MB_LAT_TOP_BITS		24	/* values up to 2^24 - 1 ns have buckets of their own */
#define MB_LAT_BUCKETS		((MB_LAT_TOP_BITS - MB_LAT_SUB_BITS + 1) * MB_LAT_SUB)

struct mb_lat_hist {
	__u64 count;
	__u64 max;
	__u64 sum;
	__u64 bucket[MB_LAT_BUCKETS];
};

/* The bucket of @v: its power of two by halving the range, then its 1/128 of that. */
static inline __u32 mb_lat_bucket(__u64 v)
{
	__u64 x = v;
	__u32 msb = 0, shift;

	if (v < MB_LAT_SUB)
		return (__u32)v;
	if (v >> MB_LAT_TOP_BITS)
		return MB_LAT_BUCKETS - 1;
	if (x >> 16) {
		msb += 16;
		x >>= 16;
	}
	if (x >> 8) {
		msb += 8;
		x >>= 8;
	}
	if (x >> 4) {
		msb += 4;
		x >>= 4;
	}
	if (x >> 2) {
		msb += 2;
		x >>= 2;
	}
	if (x >> 1)
		msb += 1;
	shift = msb - MB_LAT_SUB_BITS;
	return (shift + 1) * MB_LAT_SUB + (__u32)((v >> shift) & (MB_LAT_SUB - 1));
}

#ifndef __bpf__
/* The smallest and largest value bucket @i holds. */
__u64 mb_lat_bucket_low(__u32 i);
__u64 mb_lat_bucket_high(__u32 i);
/* Add @b's values to @a. */
void mb_lat_hist_merge(struct mb_lat_hist *a, const struct mb_lat_hist *b);
/*
 * Add to @acc what cumulative histogram @now holds beyond its older reading @then: the
 * values between the two. @acc's max becomes the larger of its own and @now's (the older
 * max stays in a cumulative one). The count added is that of the buckets: a reading taken
 * while the writer adds a value (a BPF program on another CPU, a producer thread) may hold
 * it in its bucket and not yet in count, and the percentiles rank the buckets' values.
 */
void mb_lat_hist_add_difference(struct mb_lat_hist *acc, const struct mb_lat_hist *now,
				const struct mb_lat_hist *then);
/*
 * Percentile @p (0..100) of the values: the middle of the bucket that holds the value of that
 * rank (1-based, ceil(p/100 * count)), kept at or below max. NaN when empty.
 */
double mb_lat_hist_percentile(const struct mb_lat_hist *h, double p);
/*
 * The largest value: max where it lies in the highest bucket that counts, else that bucket's
 * top (a difference of two cumulative histograms keeps the older max). NaN when empty.
 */
double mb_lat_hist_max(const struct mb_lat_hist *h);
#endif

#endif
