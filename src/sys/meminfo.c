// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "meminfo.h"
#include "util/sysfile.h"

/* The start of @key's line in @text, just after "<key>:" (NULL: none). */
static const char *find_key(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *line = text;

	while (*line) {
		const char *nl = strchr(line, '\n');

		if (!strncmp(line, key, n) && line[n] == ':')
			return line + n + 1;
		if (!nl)
			break;
		line = nl + 1;
	}
	return NULL;
}

int mb_meminfo_parse(const char *text, const char *key, uint64_t *v)
{
	const char *p = find_key(text, key);
	unsigned long long n;
	char *end;

	if (!p)
		return -ENOENT;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	n = strtoull(p, &end, 10);
	if (errno)
		return -EINVAL;
	if (!strncmp(end, " kB", 3)) {
		if (n > UINT64_MAX / 1024)
			return -EINVAL;
		n *= 1024;
		end += 3;
	}
	if (*end && *end != '\n')
		return -EINVAL;
	*v = n;
	return 0;
}

int mb_meminfo_get(const char *key, uint64_t *v)
{
	char *text = mb_read_file(MB_MEMINFO_PATH);
	int err;

	if (!text)
		return errno ? -errno : -ENOMEM;
	err = mb_meminfo_parse(text, key, v);
	free(text);
	return err;
}

int mb_mem_available(uint64_t *bytes)
{
	return mb_meminfo_get("MemAvailable", bytes);
}
