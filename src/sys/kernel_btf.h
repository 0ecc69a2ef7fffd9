/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the running kernel's BTF says: the value of an enumerator of its UAPI, for a flag newer
 * than the headers mapbench was built with (BPF_F_RB_OVERWRITE), so that it is never guessed.
 */
#ifndef MB_KERNEL_BTF_H
#define MB_KERNEL_BTF_H

#include <stdint.h>

/* The value of enumerator @name in the kernel's BTF: 0, -ENOENT (none), or -errno (no BTF). */
int mb_kernel_enum_value(const char *name, int64_t *value);

#endif
