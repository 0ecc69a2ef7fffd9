// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Memory cgroup files and names: /proc/self/cgroup lines, one-number files, memory.stat,
 * controller lists and mapbench-<pid>-<n> names. Any input is parsed or refused cleanly, and
 * what is accepted has the shape it must have.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/memcg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), v1[64], v2[64], buf[64];
	uint64_t v, back;
	pid_t pid;
	int found;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	found = mb_memcg_parse_self(s, v1, sizeof(v1), v2, sizeof(v2));
	if (found & ~3)
		abort();
	/* Paths are cut to the buffers, never overrun them. */
	if (((found & 1) && strlen(v1) >= sizeof(v1)) || ((found & 2) && strlen(v2) >= sizeof(v2)))
		abort();

	if (!mb_memcg_parse_u64(s, &v) && v != UINT64_MAX) {
		snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
		if (mb_memcg_parse_u64(buf, &back) || back != v)
			abort();
	}
	if (!mb_memcg_parse_stat(s, "kernel", &v) && !strstr(s, "kernel "))
		abort();
	if (mb_memcg_list_has(s, "memory") && !strstr(s, "memory"))
		abort();
	if (mb_memcg_name_parse(s, &pid)) {
		if (pid <= 0 || strncmp(s, MB_MEMCG_PREFIX, strlen(MB_MEMCG_PREFIX)))
			abort();
		snprintf(buf, sizeof(buf), MB_MEMCG_PREFIX "%d-", (int)pid);
		if (strncmp(s, buf, strlen(buf)) || !isdigit((unsigned char)s[strlen(buf)]))
			abort();
	}
	free(s);
	return 0;
}
