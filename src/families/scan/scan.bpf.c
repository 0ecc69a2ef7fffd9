// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The scan family's BPF methods, each a whole walk of the map mb_scan_map (the run's map, by
 * bpf_map__reuse_fd): bpf_for_each_map_elem from a raw_tp program run by test_run, and an
 * iter/bpf_map_elem program, run by reading its iterator fd. Both count the entries and sum
 * their fingerprints (scan_shared.h); user space loads only the one its method needs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "scan_shared.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(key_size, 4);
	__uint(value_size, 8);
} mb_scan_map SEC(".maps");

struct scan_res mb_scan_res;

static long mb_scan_visit(struct bpf_map *map, __u32 *key, void *value, void *ctx)
{
	mb_scan_res.entries++;
	mb_scan_res.sum += scan_mix(*key);
	return 0;
}

SEC("raw_tp")
int mb_scan_for_each(void *ctx)
{
	__u64 t0 = bpf_ktime_get_ns();

	bpf_for_each_map_elem(&mb_scan_map, mb_scan_visit, NULL, 0);
	mb_scan_res.ns += bpf_ktime_get_ns() - t0;
	return 0;
}

SEC("iter/bpf_map_elem")
int mb_scan_iter(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *key = ctx->key;

	/* The call after the last entry has none. */
	if (!key || !ctx->value)
		return 0;
	mb_scan_res.entries++;
	mb_scan_res.sum += scan_mix(*key);
	return 0;
}
