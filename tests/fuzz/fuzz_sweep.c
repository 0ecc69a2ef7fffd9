// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* sweep --param NAME=LIST: lists, ranges, suffixes; what parses holds only sane values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *arg = malloc(size + 1), name[MB_SWEEP_NAME_MAX], err[512];
	struct mb_sweep_values v;
	int counts[2];

	if (!arg)
		return 0;
	memcpy(arg, data, size);
	arg[size] = '\0';
	if (!mb_sweep_parse_param(arg, name, sizeof(name), &v, err, sizeof(err))) {
		if (v.n < 1 || v.n > MB_SWEEP_MAX_VALUES || !name[0])
			abort();
		for (int i = 0; i < v.n; i++) {
			/* Never an empty value, never a comma inside one, never twice the same. */
			if (!v.v[i][0] || strchr(v.v[i], ','))
				abort();
			if (i && !strcmp(v.v[i], v.v[i - 1]))
				abort();
		}
		counts[0] = counts[1] = v.n;
		if (mb_sweep_product(counts, 2) == 0)
			abort();
		mb_sweep_values_free(&v);
	} else if (v.v || v.n || !err[0]) {
		abort();
	}
	free(arg);
	return 0;
}
