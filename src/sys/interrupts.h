/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Interrupt counts from /proc/interrupts, by the row's description: "IRQ work interrupts" (x86's
 * IWI row, arm64's IPI5) are the kernel's irq_work, how a BPF ring or perf buffer wakes its
 * consumer from where the record was made.
 */
#ifndef MB_INTERRUPTS_H
#define MB_INTERRUPTS_H

#include <stdint.h>

#define MB_IRQ_WORK "IRQ work interrupts"

/*
 * The sum over every CPU of the row of /proc/interrupts text @text whose description is @desc.
 * Returns 0, or -ENOENT when no row has it, -EINVAL when that row has no count.
 */
int mb_interrupts_parse(const char *text, const char *desc, uint64_t *total);
/* The same from /proc/interrupts; -errno when it cannot be read. */
int mb_interrupts_read(const char *desc, uint64_t *total);

#endif
