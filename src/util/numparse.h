/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Strict number parsing for command-line values. */
#ifndef MB_NUMPARSE_H
#define MB_NUMPARSE_H

#include <stdint.h>

/*
 * Parse an unsigned integer: decimal with an optional k/M/G (x1000) suffix, or 0x hex.
 * No sign, no spaces, no trailing characters.
 * Returns 0, -EINVAL (not a number) or -ERANGE (above UINT64_MAX).
 */
int mb_parse_u64(const char *s, uint64_t *out);

/* Parse a finite decimal floating-point number with no trailing characters. */
int mb_parse_double(const char *s, double *out);

#endif
