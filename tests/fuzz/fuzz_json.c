// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The JSON reader (compare and plot read files users give them): parse, write, parse again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mb_json *v, *again;
	char err[128], *buf = NULL, *buf2 = NULL;
	size_t len = 0, len2 = 0;
	FILE *f;

	v = mb_json_parse((const char *)data, size, err, sizeof(err));
	if (!v)
		return 0;
	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	mb_json_write(f, v, 0);
	fclose(f);
	/* What mapbench writes, it must read back, identically. */
	again = mb_json_parse(buf, len, err, sizeof(err));
	if (!again)
		abort();
	f = open_memstream(&buf2, &len2);
	if (!f)
		abort();
	mb_json_write(f, again, 0);
	fclose(f);
	if (len != len2 || memcmp(buf, buf2, len))
		abort();
	free(buf);
	free(buf2);
	mb_json_free(again);
	mb_json_free(v);
	return 0;
}
