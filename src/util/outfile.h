/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Output files: regular files written whole or not at all, devices and pipes in place. */
#ifndef MB_OUTPUT_H
#define MB_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write @path through @write. A regular file (new or existing) is written into an unnamed
 * temporary file in the same directory, then linked in place with rename(): readers see the
 * old file or the complete new one, and a process killed midway leaves nothing behind. A
 * symbolic link is followed to the regular file it names (the temporary file goes beside the
 * target, the link stays a link); one that names nothing is refused. Anything else that exists
 * (a character device, a FIFO, /dev/stdout on a pipe or terminal) is opened and written in
 * place, never renamed over, and its write errors are the result. Returns 0 or a negative
 * errno (@err says why, naming @path).
 */
int mb_write_atomic(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, char *err,
		    size_t errlen);

/*
 * Before anything runs: can mb_write_atomic() later write @path? Refused (a negative errno,
 * and @why says why, e.g. "directory /x does not exist"): a directory, a path ending in '/',
 * a symbolic link that names nothing, a parent that is missing or not a directory, or one this
 * process cannot create files in (tried with an unnamed file, or where there are none with a
 * named one, removed at once); for a link, the parent is the target's. An existing file that
 * is neither a regular file nor a directory (/dev/null, the pipe or terminal behind
 * /dev/stdout) passes: it is written in place.
 */
int mb_output_check(const char *path, char *why, size_t len);
/* The directory part of that check: @dir exists, is a directory, and takes new files. */
int mb_output_check_dir(const char *dir, char *why, size_t len);

#endif
