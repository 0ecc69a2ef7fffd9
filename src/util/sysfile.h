/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Reading the one-line files of /proc and /sys. */
#ifndef MB_SYSFILE_H
#define MB_SYSFILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The first line of @path, without its newline, in @buf ("" when the file cannot be read).
 * Returns whether a line was read.
 */
bool mb_read_first_line(const char *path, char *buf, size_t len);

#endif
