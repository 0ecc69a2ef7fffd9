// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * htab-mem, as the kernel's bench: a program on the sys_enter tracepoint runs one op per
 * getpgid() call of a producer, a batch of MB_HTAB_BATCH operations on the hash map over the
 * producer's own keys from, from + step, ... (the kernel derives them from the CPU number; here
 * from the producer, so producers never share keys even when not pinned). Each op is timed
 * with bpf_ktime_get_ns into the producer's slot.
 *
 * Every program exists twice: tp_btf (preferred, cheaper) and raw_tp (fallback); user space
 * loads one flavour, and only the programs of the chosen use case.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "drivers/kloop_shared.h"
#include "htab_mem_shared.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);		/* set before load */
	__uint(key_size, sizeof(__u32));	/* no BTF: the value size changes at load */
	__uint(value_size, 8);			/* set before load */
	__uint(map_flags, BPF_F_NO_PREALLOC);	/* cleared by --preallocated */
} mb_htab SEC(".maps");

const volatile __u32 mb_htab_tgid;	/* our process: other processes' syscalls are ignored */
const volatile __u32 mb_htab_sysnr;	/* __NR_getpgid */
const volatile __u32 mb_htab_step;	/* producers (or pairs) sharing the key space */

struct mb_slot mb_slots[MB_MAX_SLOTS];
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

/* The producer slot of this syscall if it is one of ours asking for @op, else -1. */
static __always_inline int mb_htab_slot(struct pt_regs *regs, long id, __u32 op)
{
	__u64 arg;

	if (id != mb_htab_sysnr)
		return -1;
	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != mb_htab_tgid)
		return -1;
	arg = PT_REGS_PARM1_CORE_SYSCALL(regs);
	if ((arg & MB_HTAB_MAGIC_MASK) != MB_HTAB_MAGIC ||
	    ((arg >> MB_HTAB_OP_SHIFT) & 0xff) != op)
		return -1;
	arg &= 0xffff;
	return arg < MB_MAX_SLOTS ? (int)arg : -1;
}

static __always_inline void mb_htab_account(int idx, __u64 t0, __u64 ops,
					    const struct mb_htab_batch *b)
{
	struct mb_slot *s;
	__u64 t1 = bpf_ktime_get_ns();

	if (idx < 0 || idx >= MB_MAX_SLOTS)
		return;
	s = &mb_slots[idx];
	s->kernel_ns += t1 - t0;
	s->ops += ops;
	s->hits += b->done;
	s->errors += b->failed;
	s->calls++;
}

/*
 * One op of a use case: @first, then @second if there is one, each over MB_HTAB_BATCH keys from
 * the producer's first key (@pair: producers 2k and 2k+1 share the keys of pair k).
 */
static __always_inline int mb_htab_op(struct pt_regs *regs, long id, __u32 op, bool pair,
				      void *first, void *second)
{
	int idx = mb_htab_slot(regs, id, op);
	struct mb_htab_batch b = {};
	__u64 t0;

	if (idx < 0)
		return 0;
	b.key = pair ? idx / 2 : idx;
	b.step = mb_htab_step;
	t0 = bpf_ktime_get_ns();
	bpf_loop(MB_HTAB_BATCH, first, &b, 0);
	if (second) {
		b.key = pair ? idx / 2 : idx;
		bpf_loop(MB_HTAB_BATCH, second, &b, 0);
	}
	mb_htab_account(idx, t0, second ? 2 : 1, &b);
	return 0;
}

#define MB_HTAB_PROGS(_name, _op, _pair, _first, _second)		\
SEC("?tp_btf/sys_enter")						\
int BPF_PROG(_name##_btf, struct pt_regs *regs, long id)		\
{									\
	return mb_htab_op(regs, id, _op, _pair, _first, _second);	\
}									\
SEC("?raw_tp/sys_enter")						\
int BPF_PROG(_name##_raw, struct pt_regs *regs, long id)		\
{									\
	return mb_htab_op(regs, id, _op, _pair, _first, _second);	\
}

/* overwrite; batch_add_batch_del; add_del_on_diff_cpu's adding and deleting producers. */
MB_HTAB_PROGS(mb_htab_overwrite, MB_HTAB_OVERWRITE, false, overwrite_cb, NULL)
MB_HTAB_PROGS(mb_htab_batch, MB_HTAB_BATCH_ADD_DEL, false, overwrite_cb, del_cb)
MB_HTAB_PROGS(mb_htab_add, MB_HTAB_ADD, true, add_cb, NULL)
MB_HTAB_PROGS(mb_htab_del, MB_HTAB_DEL, true, del_cb, NULL)
