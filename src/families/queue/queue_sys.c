// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Queue family: the ops from user space, BPF_MAP_UPDATE_ELEM (push),
 * BPF_MAP_LOOKUP_AND_DELETE_ELEM (pop) and BPF_MAP_LOOKUP_ELEM (peek) with no key on queue
 * and stack maps; a lookup and a delete of the head key (pop), an insert of the tail key
 * (push) on the hash map used as a queue. They keep the programs' sequence numbers
 * (mb_qu_st in the mmapped .bss) as the programs do, so the two paths share one map state:
 * the round trip of set-up and the check at the end use them.
 */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "queue.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "queue.skel.h"

uint64_t qu_level(const struct qu_state *st)
{
	const struct mb_qu_state *q = &st->skel->bss->mb_qu_st;

	return q->tail - q->head;
}

/* The sequence number the value in out[] must carry. */
static int qu_sys_compare(const struct qu_state *st, uint64_t want)
{
	uint64_t got;

	memcpy(&got, st->skel->bss->mb_qu_out, sizeof(got));
	return got == want ? 0 : -EBADMSG;
}

int qu_sys_push(struct qu_state *st, uint64_t flags)
{
	struct mb_qu_state *q = &st->skel->bss->mb_qu_st;
	uint8_t *in = st->skel->bss->mb_qu_in;
	uint64_t key = q->tail;
	int err;

	memcpy(in, &key, sizeof(key));
	if (st->args->map_type != QU_HASH) {
		err = bpf_map_update_elem(st->map_fd, NULL, in, flags);
	} else {
		/* BPF_EXIST's behaviour by hand, as the program does: drop the oldest first. */
		if (flags == BPF_EXIST && qu_level(st) >= st->args->max_entries) {
			uint64_t old = q->head;

			if (bpf_map_delete_elem(st->map_fd, &old))
				return -errno;
			q->head++;
		}
		err = bpf_map_update_elem(st->map_fd, &key, in, BPF_NOEXIST);
	}
	if (err)
		return -errno;
	q->tail++;
	if (qu_level(st) > st->args->max_entries)
		q->head++;
	return 0;
}

int qu_sys_pop(struct qu_state *st)
{
	struct mb_qu_state *q = &st->skel->bss->mb_qu_st;
	uint8_t *out = st->skel->bss->mb_qu_out;
	uint64_t key = q->head;

	if (st->args->map_type == QU_HASH) {
		if (bpf_map_lookup_elem(st->map_fd, &key, out) ||
		    bpf_map_delete_elem(st->map_fd, &key))
			return -errno;
		return qu_sys_compare(st, q->head++);
	}
	if (bpf_map_lookup_and_delete_elem(st->map_fd, NULL, out))
		return -errno;
	return qu_sys_compare(st, st->args->map_type == QU_STACK ? --q->tail : q->head++);
}

int qu_sys_peek(struct qu_state *st)
{
	const struct mb_qu_state *q = &st->skel->bss->mb_qu_st;
	uint8_t *out = st->skel->bss->mb_qu_out;
	uint64_t key = q->head;

	if (bpf_map_lookup_elem(st->map_fd, st->args->map_type == QU_HASH ? &key : NULL, out))
		return -errno;
	return qu_sys_compare(st, st->args->map_type == QU_STACK ? q->tail - 1 : q->head);
}

int qu_sys_drain(struct qu_state *st, uint64_t *n)
{
	int err;

	*n = 0;
	while (!(err = qu_sys_pop(st)))
		(*n)++;
	/* The map is empty when a pop says so and the counts agree. */
	if (err == -ENOENT && qu_level(st) == 0)
		return 0;
	return err == -ENOENT ? -EIO : err;
}
