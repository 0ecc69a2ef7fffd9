// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The stamp table (rb_shared.h): its size for a buffer, and its mapping into user space. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/runner.h"
#include "rb.h"

uint64_t rb_stamp_rows(uint64_t capacity)
{
	/* A stamp is rewritten RB_STAMP_EVERY x rows records later: twice what can wait. */
	uint64_t want = 2 * capacity / RB_STAMP_EVERY + 2, rows = 1;

	while (rows < want)
		rows <<= 1;
	return rows;
}

int rb_map_stamps(struct mb_run *run, struct rb_state *st, int map_fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (size_t)st->stamp_rows * (size_t)run->nr_producers * sizeof(uint64_t);
	void *p;

	len = (len + page - 1) / page * page;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, map_fd, 0);
	if (p == MAP_FAILED)
		return mb_run_fail(run, -errno, "cannot map the stamp table: %s", strerror(errno));
	st->stamps = p;
	st->stamps_len = len;
	return 0;
}
