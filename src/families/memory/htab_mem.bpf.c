// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * htab-mem, as the kernel's bench: a program on the sys_enter tracepoint runs one op per
 * getpgid() call of a producer, a batch of MB_HTAB_BATCH operations on the hash map over the
 * producer's own keys from, from + step, ... (the kernel derives them from the CPU number; here
 * from the producer, so producers never share keys even when not pinned). Each op is timed
 * with bpf_ktime_get_ns into the producer's slot.
 *
 * Every op has a program per attach point of the trigger runner (src/drivers/trigger.bpf.h):
 * user space loads one attach point's, and only the programs of the chosen use case.
 */
#include "drivers/trigger.bpf.h"
#include "htab_mem_shared.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);		/* set before load */
	__uint(key_size, sizeof(__u32));	/* no BTF: the value size changes at load */
	__uint(value_size, 8);			/* set before load */
	__uint(map_flags, BPF_F_NO_PREALLOC);	/* cleared by --preallocated */
} mb_htab SEC(".maps");

const volatile __u32 mb_htab_step;	/* producers (or pairs) sharing the key space */

char mb_htab_value[MB_HTAB_MAX_VALUE];	/* zeroes: the value of every update */

struct mb_htab_batch {
	__u32 key;
	__u32 step;
	__u64 done;
	__u64 failed;
};

static __always_inline int overwrite_cb(__u32 i, void *ctx)
{
	struct mb_htab_batch *b = ctx;

	if (bpf_map_update_elem(&mb_htab, &b->key, mb_htab_value, BPF_ANY))
		b->failed++;
	else
		b->done++;
	b->key += b->step;
	return 0;
}

static __always_inline int add_cb(__u32 i, void *ctx)
{
	struct mb_htab_batch *b = ctx;

	if (bpf_map_update_elem(&mb_htab, &b->key, mb_htab_value, BPF_NOEXIST))
		b->failed++;
	else
		b->done++;
	b->key += b->step;
	return 0;
}

static __always_inline int del_cb(__u32 i, void *ctx)
{
	struct mb_htab_batch *b = ctx;

	if (bpf_map_delete_elem(&mb_htab, &b->key))
		b->failed++;
	else
		b->done++;
	b->key += b->step;
	return 0;
}

/*
 * One op of a use case for producer @idx: @first, then @second if there is one, each over
 * MB_HTAB_BATCH keys from the producer's first key (@pair: producers 2k and 2k+1 share the
 * keys of pair k).
 */
static __always_inline int mb_htab_op(int idx, bool pair, void *first, void *second)
{
	struct mb_htab_batch b = {};
	__u64 t0;

	b.key = pair ? idx / 2 : idx;
	b.step = mb_htab_step;
	t0 = bpf_ktime_get_ns();
	bpf_loop(MB_HTAB_BATCH, first, &b, 0);
	if (second) {
		b.key = pair ? idx / 2 : idx;
		bpf_loop(MB_HTAB_BATCH, second, &b, 0);
	}
	mb_trigger_account(idx, t0, second ? 2 : 1, &b.done, &b.failed);
	return 0;
}

/* overwrite; batch_add_batch_del; add_del_on_diff_cpu's adding and deleting producers. */
MB_TRIGGER_PROGS(mb_htab_overwrite, MB_HTAB_OVERWRITE, mb_htab_op(idx, false, overwrite_cb, NULL))
MB_TRIGGER_PROGS(mb_htab_batch, MB_HTAB_BATCH_ADD_DEL, mb_htab_op(idx, false, overwrite_cb, del_cb))
MB_TRIGGER_PROGS(mb_htab_add, MB_HTAB_ADD, mb_htab_op(idx, true, add_cb, NULL))
MB_TRIGGER_PROGS(mb_htab_del, MB_HTAB_DEL, mb_htab_op(idx, true, del_cb, NULL))
