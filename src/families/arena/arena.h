/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The arena family: BPF_MAP_TYPE_ARENA, its pages allocated and freed by the kfuncs in a
 * syscall program, and its memory read and written from user space (the mmap) and from BPF.
 */
#ifndef MB_ARENA_H
#define MB_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "core/bench.h"
#include "arena_shared.h"

#define AR_PAGE_SIZE	4096u
#define AR_ARENA_PAGES_MAX	65536u	/* --pages: 256 MiB */

enum ar_side {
	AR_SIDE_USER,
	AR_SIDE_BPF,
};

/* Its own counters: counter[AR_C_PAGES] (alloc) or counter[AR_C_BYTES] (access). */
#define AR_C_PAGES	0
#define AR_C_BYTES	0

struct ar_args {
	uint32_t page_cnt;	/* arena-alloc: pages per allocation */
	uint32_t pages;		/* arena-access: pages of the arena walked */
	int side;		/* arena-access: enum ar_side */
	int op;			/* arena-access: enum ar_op */
};

struct arena_bpf;

struct ar_state {
	struct arena_bpf *skel;
	int map_fd;
	void *mem;		/* the arena's mmap */
	size_t len;
	uint32_t arena_pages;
	uint64_t seen_pages;	/* alloc: pages BPF marked that user space read back */
	uint64_t touch_pages;	/* access: first touch from user space */
	uint64_t touch_faults;	/* minor faults it took */
	uint64_t touch_ns;
	uint64_t checked_words;	/* access: words written on one side, read on the other */
	uint64_t sink;		/* access: what user-space reads summed */
};

extern const char *const ar_side_names[];
extern const char *const ar_op_names[];
extern const struct mb_text_style ar_text;

/* arena_setup.c */
int ar_setup(struct mb_run *run, uint32_t arena_pages);
void ar_teardown(struct mb_run *run);
int ar_call(int prog_fd, struct ar_ctx *c);

/* arena_check.c: what each bench checks before it reports. */
int ar_check_alloc(struct mb_run *run);
int ar_check_access(struct mb_run *run);
void ar_extra(struct mb_run *run, const char *op);

#endif
