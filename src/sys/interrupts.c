// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "interrupts.h"
#include "util/sysfile.h"

/*
 * Row [@line, @end): "NAME: count count ... description". When its description is @desc, sets
 * *@total to the sum of its counts and *@counted to whether it had any; returns the match.
 */
static bool row_match(const char *line, const char *end, const char *desc, uint64_t *total,
		      bool *counted)
{
	const char *p = memchr(line, ':', (size_t)(end - line));
	size_t n = strlen(desc);

	*total = 0;
	*counted = false;
	if (!p)
		return false;
	for (p++; p < end;) {
		char *next;
		unsigned long long v;

		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end || !isdigit((unsigned char)*p))
			break;
		v = strtoull(p, &next, 10);
		if (next > end)
			break;
		*total += v;
		*counted = true;
		p = next;
	}
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	return (size_t)(end - p) == n && !memcmp(p, desc, n);
}

int mb_interrupts_parse(const char *text, const char *desc, uint64_t *total)
{
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		bool counted;

		if (!end)
			end = line + strlen(line);
		if (row_match(line, end, desc, total, &counted))
			return counted ? 0 : -EINVAL;
		line = *end ? end + 1 : end;
	}
	return -ENOENT;
}

int mb_interrupts_read(const char *desc, uint64_t *total)
{
	char *text = mb_read_file("/proc/interrupts");
	int err;

	if (!text)
		return errno ? -errno : -EIO;
	err = mb_interrupts_parse(text, desc, total);
	free(text);
	return err;
}
