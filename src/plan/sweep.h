/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Sweep parameter lists: "NAME=V1,V2,..." with ranges, and the cartesian product of several.
 * Pure functions of strings, so they can be fuzzed.
 */
#ifndef MB_SWEEP_H
#define MB_SWEEP_H

#include <stddef.h>

#define MB_SWEEP_MAX_VALUES	10000	/* values of one parameter */
#define MB_SWEEP_MAX_POINTS	100000	/* points of a whole sweep */
#define MB_SWEEP_NAME_MAX	64

struct mb_sweep_values {
	char **v;
	int n;
};

/*
 * Parse a value list: comma-separated items, each a value as the option takes it ("10k",
 * "overwrite", "true") or a range of unsigned integers (k/M/G suffixes and 0x allowed):
 *	A..B	A, A+1, ..., B
 *	A..B:S	A, A+S, A+2S, ... up to B
 *	A..B*F	A, A*F, A*F*F, ... up to B (F >= 2: decades with *10)
 * Rejects empty lists and items, reversed or open ranges, a value listed twice, and more than
 * MB_SWEEP_MAX_VALUES values. Returns 0, or -EINVAL with one line in @err (-ENOMEM).
 */
int mb_sweep_parse_values(const char *spec, struct mb_sweep_values *out, char *err,
			  size_t errlen);
void mb_sweep_values_free(struct mb_sweep_values *v);

/* Split "NAME=LIST" (NAME may be empty-checked here) and parse the list. */
int mb_sweep_parse_param(const char *arg, char *name, size_t namelen,
			 struct mb_sweep_values *out, char *err, size_t errlen);

/* Points of the product of @nr lists of @counts values; -ERANGE above MB_SWEEP_MAX_POINTS. */
long mb_sweep_product(const int *counts, int nr);

/* The value index of each list for point @index; the first list varies slowest. */
void mb_sweep_point(const int *counts, int nr, long index, int *idx);

#endif
