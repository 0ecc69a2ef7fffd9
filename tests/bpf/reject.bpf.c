// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A program the verifier must reject: it dereferences a hash map lookup without a NULL check
 * (for arrays with a constant key, recent verifiers know the lookup cannot fail).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} mb_reject_map SEC(".maps");

SEC("raw_tp")
int mb_reject(void *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&mb_reject_map, &key);

	return (int)*v;
}
