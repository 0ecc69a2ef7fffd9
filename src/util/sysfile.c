// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfile.h"

bool mb_read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	buf[0] = '\0';
	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

char *mb_read_file(const char *path)
{
	size_t len = 0, cap = 16384, n;
	char *buf = malloc(cap), *grown;
	FILE *f = fopen(path, "re");

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len > 1)
			continue;
		grown = realloc(buf, cap * 2);
		if (!grown)
			break;
		buf = grown;
		cap *= 2;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}
