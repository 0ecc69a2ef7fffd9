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

/*
 * Before anything runs: can mb_write_atomic() later put a file at @path? Refused (a negative
 * errno, and @why says why, e.g. "directory /x does not exist"): a directory, a path ending in
 * '/', a parent that is missing or not a directory, or one this process cannot create files in
 * (tried with an unnamed file, or where there are none with a named one, removed at once). An
 * existing file that is neither a regular file nor a directory (/dev/null, the pipe or terminal
 * behind /dev/stdout) passes: how such a file is written is the writer's business.
 */
int mb_output_check(const char *path, char *why, size_t len);
/* The directory part of that check: @dir exists, is a directory, and takes new files. */
int mb_output_check_dir(const char *dir, char *why, size_t len);

#endif
