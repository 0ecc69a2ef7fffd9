/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Charts drawn by gnuplot: a script on its stdin, the chart from its stdout into a file. */
#ifndef MB_GNUPLOT_H
#define MB_GNUPLOT_H

#include <stdbool.h>

/*
 * Run gnuplot ($MAPBENCH_GNUPLOT, else gnuplot) on @script and write what it prints to @out,
 * atomically; with @verbose, gnuplot's messages go to stderr. Returns 0, or a negative errno
 * after one line (prefixed "@who: ") saying what failed: gnuplot missing, its error, no output.
 */
int mb_gnuplot_write(const char *out, const char *script, bool verbose, const char *who);

#endif
