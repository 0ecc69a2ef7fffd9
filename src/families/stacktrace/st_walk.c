// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The stack trace map as user space sees it: its keys are the stack ids that
 * bpf_get_stackid() returned, its values the traces, zero-padded to the frames kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <bpf/bpf.h>

#include "stacktrace.h"

static uint64_t st_frames(const uint64_t *ips, uint32_t depth)
{
	uint64_t n = 0;

	while (n < depth && ips[n])
		n++;
	return n;
}

int st_walk_map(int fd, uint32_t depth, struct st_walk *w)
{
	uint64_t *ips = calloc(depth, sizeof(*ips));
	uint32_t key, next;
	uint32_t *prev = NULL;
	int err;

	if (!ips)
		return -ENOMEM;
	*w = (struct st_walk){ 0 };
	while (!(err = bpf_map_get_next_key(fd, prev, &next))) {
		uint64_t n;

		key = next;
		prev = &key;
		err = bpf_map_lookup_elem(fd, &key, ips);
		if (err == -ENOENT)	/* gone since the key was read */
			continue;
		if (err)
			break;
		n = st_frames(ips, depth);
		w->ids++;
		w->frames += n;
		if (n > w->max_frames)
			w->max_frames = n;
	}
	free(ips);
	return err == -ENOENT ? 0 : err;
}
