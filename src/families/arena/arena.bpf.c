// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The arena family's programs, all syscall programs (sleepable, run by BPF_PROG_TEST_RUN):
 * bpf_arena_alloc_pages and bpf_arena_free_pages may sleep, so the raw_tp op loop cannot call
 * them. Each times its own loop with bpf_ktime_get_ns().
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "arena_shared.h"

/* Created from user space and mmapped before the load (bpf_map__reuse_fd). */
struct {
	__uint(type, BPF_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
} mb_arena SEC(".maps");

extern void *bpf_arena_alloc_pages(void *map, void *addr, __u32 page_cnt, int node_id,
				   __u64 flags) __ksym;
extern void bpf_arena_free_pages(void *map, void *ptr, __u32 page_cnt) __ksym;

struct ar_slot mb_ar_slots[AR_MAX_SLOTS];

/*
 * An arena address (its user address, what the kfuncs return: a scalar to the verifier) made
 * a pointer the program may load and store through. clang >= 18 emits this cast for
 * __attribute__((address_space(1))) pointers; clang-14 has neither, so the instruction is
 * written as its bytes: BPF_ALU64 | BPF_MOV | BPF_X (0xbf), r9 to r9, offset 1
 * (BPF_ADDR_SPACE_CAST), immediate 1 (from address space 1 to 0). The verifier then types r9
 * as an arena pointer and the JIT turns its loads and stores into arena accesses.
 */
#define AR_CAST_KERN(p)								\
	asm volatile("r9 = %[in]\n\t"						\
		     ".quad 0x00000001000199bf\n\t"				\
		     "%[out] = r9"						\
		     : [out] "=r"(p) : [in] "r"(p) : "r9")

static __always_inline struct ar_slot *ar_slot(const struct ar_ctx *c)
{
	__u32 idx = c->slot;

	if (idx >= AR_MAX_SLOTS)
		return NULL;
	/* The index checked is the one used: clang would scale it before the check. */
	asm volatile("" : "+r"(idx));
	return &mb_ar_slots[idx];
}

/* @iters pairs: @page_cnt pages allocated anywhere in the arena, then freed. */
SEC("syscall")
int mb_ar_alloc(struct ar_ctx *c)
{
	__u32 n = c->iters, cnt = c->page_cnt;
	struct ar_slot *s = ar_slot(c);
	__u64 t0, ops = 0, errs = 0;

	if (!s)
		return 1;
	t0 = bpf_ktime_get_ns();
	for (__u32 i = 0; i < AR_MAX_ITERS; i++) {
		void *p;

		if (i >= n)
			break;
		p = bpf_arena_alloc_pages(&mb_arena, NULL, cnt, -1, 0);
		ops++;
		if (!p) {
			errs++;
			continue;
		}
		bpf_arena_free_pages(&mb_arena, p, cnt);
	}
	s->ns += bpf_ktime_get_ns() - t0;
	s->ops += ops;
	s->errors += errs;
	s->pages += (ops - errs) * cnt;
	return 0;
}

/* The check: @page_cnt pages allocated and kept, each marked in its first word. */
SEC("syscall")
int mb_ar_mark(struct ar_ctx *c)
{
	__u32 cnt = c->page_cnt;
	__u64 *p = bpf_arena_alloc_pages(&mb_arena, NULL, cnt, -1, 0);

	if (!p)
		return 1;
	c->addr = (__u64)p;
	AR_CAST_KERN(p);
	for (__u32 i = 0; i < AR_PAGE_CNT_MAX; i++) {
		if (i >= cnt)
			break;
		p[i * AR_PAGE_WORDS] = AR_MAGIC + i;
	}
	return 0;
}

SEC("syscall")
int mb_ar_free(struct ar_ctx *c)
{
	bpf_arena_free_pages(&mb_arena, (void *)c->addr, c->page_cnt);
	return 0;
}

struct ar_walk {
	__u64 base;
	__u64 sum;
	__u64 value;
	__u32 pages;
	__u32 op;
};

/* One page of the walk: its 512 words read (summed) or written. */
static int ar_page(__u32 i, struct ar_walk *w)
{
	__u64 *p = (__u64 *)(w->base + (__u64)(i % w->pages) * (AR_PAGE_WORDS * 8));
	__u64 sum = 0, v = w->value;

	AR_CAST_KERN(p);
	if (w->op == AR_WRITE) {
		for (int k = 0; k < AR_PAGE_WORDS; k++)
			p[k] = v;
	} else {
		for (int k = 0; k < AR_PAGE_WORDS; k++)
			sum += p[k];
		w->sum += sum;
	}
	return 0;
}

/* @iters pages walked in turn over the arena's @page_cnt, from its user address @addr. */
SEC("syscall")
int mb_ar_access(struct ar_ctx *c)
{
	struct ar_walk w = { .base = c->addr, .value = c->value, .pages = c->page_cnt,
			     .op = c->op };
	struct ar_slot *s = ar_slot(c);
	__u64 t0;
	long n;

	if (!s || !w.pages)
		return 1;
	/* The arena named, as the verifier wants of a program that casts into it. */
	asm volatile("" : : "r"(&mb_arena));
	t0 = bpf_ktime_get_ns();
	n = bpf_loop(c->iters, ar_page, &w, 0);
	s->ns += bpf_ktime_get_ns() - t0;
	if (n < 0)
		return 1;
	s->ops += (__u64)n * AR_PAGE_WORDS;
	s->sum += w.sum;
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
