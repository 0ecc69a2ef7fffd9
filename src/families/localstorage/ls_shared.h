/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* What the cache benches' BPF (ls_cache.bpf.c) and user space (ls_cache.c) agree on. */
#ifndef MB_LS_SHARED_H
#define MB_LS_SHARED_H

#define LS_GETS_PER_RUN		10000	/* bpf_loop iterations per trigger run, as the kernel's */
#define LS_MAX_MAPS		1000	/* inner maps at most (the kernel's limit) */
#define LS_HASH_ENTRIES		4194304	/* the hashmap control's inner maps, full */

/* The trigger runner's op numbers: one program each. */
enum ls_cache_op {
	LS_OP_SEQ = 1,		/* seq-get: map i % nr_maps */
	LS_OP_INT,		/* int-get: the same, and map 0 after every third map */
	LS_OP_HASH,		/* hashmap-control: a random key of map i % nr_maps */
};

#define LS_COUNTER_IMPORTANT	0	/* the gets on map 0: the kernel's important_hits */

#endif
