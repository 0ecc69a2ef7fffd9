/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What scan.bpf.c and user space share: the fingerprint of a walk (each entry number mixed to
 * 64 bits and summed, so a walk that sees one entry twice and misses another gives another
 * sum) and what the BPF methods count.
 */
#ifndef MB_SCAN_SHARED_H
#define MB_SCAN_SHARED_H

/* A 64-bit mix of entry number @k (the finaliser of splitmix64). */
static inline __u64 scan_mix(__u32 k)
{
	__u64 x = ((__u64)k + 1) * 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* One walk by a BPF method: zeroed by user space before it, read after it. */
struct scan_res {
	__u64 entries;
	__u64 sum;
	__u64 ns;		/* for_each: in-kernel time of the call */
};

#endif
