/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Reading the files of /proc and /sys. */
#ifndef MB_SYSFILE_H
#define MB_SYSFILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The first line of @path, without its newline, in @buf ("" when the file cannot be read).
 * Returns whether a line was read.
 */
bool mb_read_first_line(const char *path, char *buf, size_t len);
/*
 * The whole of @path as a string (its size need not be known ahead, as for /proc files), or
 * NULL when it cannot be read or memory runs out. The caller frees it.
 */
char *mb_read_file(const char *path);

#endif
