// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* CPU-set lists: parse; a parsed set formats to a list that parses to the same set. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpuset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mb_cpuset set, back;
	static char text[64 * 1024];
	char *s = malloc(size + 1);
	const char *why;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (!mb_cpuset_parse(s, &set, &why)) {
		if (mb_cpuset_format(&set, text, sizeof(text)) >= (int)sizeof(text))
			abort();
		if (mb_cpuset_parse(text, &back, &why) || memcmp(&set, &back, sizeof(set)))
			abort();
	} else if (!why) {
		abort();	/* every refusal says why */
	}
	free(s);
	return 0;
}
