// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * drivers/thread_slots' unit test: a raw_tp program that BPF_PROG_TEST_RUN runs on the calling
 * thread, which writes the slot it finds for that thread into mb_tst_slot.
 */
#include "drivers/thread_slots.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

int mb_tst_slot = -2;	/* -2: the program has not run */

SEC("raw_tp")
int mb_tst_lookup(void *ctx)
{
	mb_tst_slot = mb_thread_slot();
	return 0;
}
