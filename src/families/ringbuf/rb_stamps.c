// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The stamp table (rb_shared.h): its size for a buffer, and its mapping into user space; with
 * --rb-check counts (no latency) a row of one stamp that nothing writes, not mapped.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "core/runner.h"
#include "maps/map_mmap.h"
#include "rb.h"

uint64_t rb_stamp_rows(uint64_t capacity)
{
	/* A stamp is rewritten RB_STAMP_EVERY x rows records later: twice what can wait. */
	uint64_t want = 2 * capacity / RB_STAMP_EVERY + 2, rows = 1;

	while (rows < want)
		rows <<= 1;
	return rows;
}

uint64_t rb_run_stamp_rows(const struct mb_run *run, uint64_t capacity)
{
	const struct rb_args *a = run->args;

	return a->check == RB_CHECK_RECORDS ? rb_stamp_rows(capacity) : 1;
}

int rb_map_stamps(struct mb_run *run, struct rb_state *st, int map_fd)
{
	const struct rb_args *a = run->args;
	size_t bytes = (size_t)st->stamp_rows * (size_t)run->nr_producers * sizeof(uint64_t);

	if (a->check != RB_CHECK_RECORDS)
		return 0;
	st->stamps = mb_map_mmap(map_fd, bytes, PROT_READ, &st->stamps_len);
	if (!st->stamps)
		return mb_run_fail(run, -errno, "cannot map the stamp table: %s", strerror(errno));
	return 0;
}
