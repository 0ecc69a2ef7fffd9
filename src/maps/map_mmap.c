// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <sys/mman.h>
#include <unistd.h>

#include "map_mmap.h"

void *mb_map_mmap(int fd, size_t bytes, int prot, size_t *len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t sz = (bytes + page - 1) / page * page;
	void *p = mmap(NULL, sz, prot, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return NULL;
	*len = sz;
	return p;
}
