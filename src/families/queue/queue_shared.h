/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Layout shared by queue.bpf.c and the queue family's user space. The includer provides
 * __u64 (vmlinux.h on the BPF side, <linux/types.h> in user space).
 */
#ifndef MB_QUEUE_SHARED_H
#define MB_QUEUE_SHARED_H

/* Bytes of the programs' value buffers: the largest --value_size. */
#define MB_QU_VALUE_MAX		4096

/*
 * The map's contents as the programs count them. Every pushed value starts with a sequence
 * number: the next push writes @tail, the oldest entry holds @head, so the map holds
 * tail - head entries. A queue pops @head (FIFO), a stack tail - 1 (LIFO); the hash map used
 * as a queue is keyed by the sequence number itself. One producer only (queue.c says why).
 */
struct mb_qu_state {
	__u64 head;
	__u64 tail;
} __attribute__((aligned(128)));

/* Where the program's own counter (lc->counter[0]) counts. */
#define MB_QU_MISMATCH		0	/* a popped or peeked value that was not the one due */

enum mb_qu_ret {
	/*
	 * MB_RET_BENCH: a push filled the map, or a pop emptied it. The op that got there ran
	 * and is counted; user space brings the map back to its level, untimed.
	 */
	MB_QU_RET_ROUND = 16,
};

#endif
