// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Numbers on the command line: strict parsing never accepts junk or wraps around. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/numparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), buf[32];
	uint64_t v, back;
	double d;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (!mb_parse_u64(s, &v)) {
		/* Accepted input has only digits, 0x, hex digits and one suffix letter. */
		if (strspn(s, "0123456789abcdefABCDEFxXkKMG") != strlen(s))
			abort();
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		if (mb_parse_u64(buf, &back) || back != v)
			abort();
	}
	if (!mb_parse_double(s, &d) && d != d)
		abort();	/* NaN is refused */
	free(s);
	return 0;
}
