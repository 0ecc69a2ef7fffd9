/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef MB_KLOOP_CALL_H
#define MB_KLOOP_CALL_H

#include <stdint.h>

/*
 * Run one call of @prog_fd with @iters iterations for slot @slot on @cpu (-1: any).
 * Returns the program's return value (>= 0) or a negative errno.
 */
int mb_kloop_call(int prog_fd, int slot, uint64_t iters, int cpu);

#endif
