/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Files written whole or not at all. */
#ifndef MB_OUTPUT_H
#define MB_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write @path through @write into an unnamed temporary file in the same directory, then
 * link it in place with rename(): readers see the old file or the complete new one, and a
 * process killed midway leaves nothing behind. Returns 0 or a negative errno (@err says why).
 */
int mb_write_atomic(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, char *err,
		    size_t errlen);

#endif
