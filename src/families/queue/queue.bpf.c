// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Queue family: one in-kernel op loop per map type (queue, stack, hash used as a queue) and
 * operation (push, push with BPF_EXIST, pop, peek, a push then a pop). User space sizes the
 * maps before load and loads only the programs a run needs: its op, and the push and pop
 * that bring the map back to its level between rounds.
 *
 * Every pushed value carries the sequence number mb_qu_st.tail; every popped or peeked
 * value is compared with the one due (FIFO: head, LIFO: tail - 1), so each op of the timed
 * loop checks itself. The compare is a load from the value just copied and a branch.
 */
#include "drivers/kloop.bpf.h"
#include "queue_shared.h"

#define MB_ENOENT	2	/* vmlinux.h has no errno values */
#define MB_E2BIG	7

/* Capacity (max_entries) of the measured map, set before load. */
const volatile __u64 mb_qu_cap = 1;

/* Sizes and entries are set before load; the maps a run does not use are not created. */
struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 1);
	__uint(value_size, 8);
} mb_qu_queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(max_entries, 1);
	__uint(value_size, 8);
} mb_qu_stack SEC(".maps");

/* The comparison: a hash map keyed by the sequence number, with head and tail counters. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(key_size, 8);
	__uint(value_size, 8);
} mb_qu_hash SEC(".maps");

struct mb_qu_state mb_qu_st;
__u8 mb_qu_in[MB_QU_VALUE_MAX];		/* the value pushed; user space may pattern the rest */
__u8 mb_qu_out[MB_QU_VALUE_MAX];	/* the value popped or peeked */

/* A failed op: the expected failure (-@want) is a miss, any other an error. */
static __always_inline void qu_failed(struct mb_loop_ctx *lc, long err, long want)
{
	if (err == -want)
		lc->misses++;
	else
		lc->errors++;
}

/* A value read back: the one due is a hit, another a mismatch (and an error). */
static __always_inline void qu_check(struct mb_loop_ctx *lc, __u64 got, __u64 want)
{
	if (got == want) {
		lc->hits++;
	} else {
		lc->errors++;
		lc->counter[MB_QU_MISMATCH]++;
	}
}

/* Stops the loop after this op: the map is full or empty (MB_QU_RET_ROUND). */
static __always_inline int qu_round(struct mb_loop_ctx *lc)
{
	lc->ret = MB_QU_RET_ROUND;
	return 1;
}

/* ---- queue and stack: the map's own push, pop and peek ---- */

/*
 * Push the next sequence number. With BPF_EXIST a full map drops its oldest entry (the
 * queue's head, the stack's bottom: both are mb_qu_st.head). A plain push that fills the
 * map ends the round.
 */
static __always_inline int qs_push(struct mb_loop_ctx *lc, void *map, __u64 flags)
{
	struct mb_qu_state *st = &mb_qu_st;
	long err;

	*(__u64 *)mb_qu_in = st->tail;
	err = bpf_map_push_elem(map, mb_qu_in, flags);
	if (err) {
		qu_failed(lc, err, MB_E2BIG);
		return 0;
	}
	lc->hits++;
	st->tail++;
	if (flags == BPF_EXIST) {
		if (st->tail - st->head > mb_qu_cap)
			st->head++;
		return 0;
	}
	return st->tail - st->head >= mb_qu_cap ? qu_round(lc) : 0;
}

/* The sequence number a pop takes and leaves behind. */
static __always_inline __u64 qs_take(bool lifo)
{
	struct mb_qu_state *st = &mb_qu_st;

	return lifo ? --st->tail : st->head++;
}

static __always_inline int qs_pop(struct mb_loop_ctx *lc, void *map, bool lifo)
{
	long err = bpf_map_pop_elem(map, mb_qu_out);

	if (err) {
		qu_failed(lc, err, MB_ENOENT);
		return 0;
	}
	qu_check(lc, *(__u64 *)mb_qu_out, qs_take(lifo));
	return mb_qu_st.tail == mb_qu_st.head ? qu_round(lc) : 0;
}

static __always_inline int qs_peek(struct mb_loop_ctx *lc, void *map, bool lifo)
{
	long err = bpf_map_peek_elem(map, mb_qu_out);

	if (err) {
		qu_failed(lc, err, MB_ENOENT);
		return 0;
	}
	qu_check(lc, *(__u64 *)mb_qu_out, lifo ? mb_qu_st.tail - 1 : mb_qu_st.head);
	return 0;
}

/* One op is a push and then a pop: the level stays; a hit only when both succeed. */
static __always_inline int qs_push_pop(struct mb_loop_ctx *lc, void *map, bool lifo)
{
	struct mb_qu_state *st = &mb_qu_st;
	long err;

	*(__u64 *)mb_qu_in = st->tail;
	err = bpf_map_push_elem(map, mb_qu_in, 0);
	if (err) {
		lc->errors++;
		return 0;
	}
	st->tail++;
	err = bpf_map_pop_elem(map, mb_qu_out);
	if (err) {
		lc->errors++;
		return 0;
	}
	qu_check(lc, *(__u64 *)mb_qu_out, qs_take(lifo));
	return 0;
}

/* ---- the hash map used as a queue: key = sequence number ---- */

/* Insert the next sequence number; -E2BIG when the (preallocated) map is full. */
static __always_inline long hq_insert(void)
{
	__u64 key = mb_qu_st.tail;

	*(__u64 *)mb_qu_in = key;
	return bpf_map_update_elem(&mb_qu_hash, &key, mb_qu_in, BPF_NOEXIST);
}

/*
 * The value of the oldest entry, read in place (a BPF consumer of a hash map has no copy to
 * make), or NULL when the map is empty.
 */
static __always_inline __u64 *hq_oldest(void)
{
	__u64 key = mb_qu_st.head;

	return bpf_map_lookup_elem(&mb_qu_hash, &key);
}

static __always_inline long hq_delete_oldest(void)
{
	__u64 key = mb_qu_st.head;
	long err = bpf_map_delete_elem(&mb_qu_hash, &key);

	if (!err)
		mb_qu_st.head++;
	return err;
}

static __always_inline int hq_push(struct mb_loop_ctx *lc)
{
	long err = hq_insert();

	if (err) {
		qu_failed(lc, err, MB_E2BIG);
		return 0;
	}
	lc->hits++;
	mb_qu_st.tail++;
	return mb_qu_st.tail - mb_qu_st.head >= mb_qu_cap ? qu_round(lc) : 0;
}

/* BPF_EXIST's behaviour by hand: a full map first drops its oldest entry. */
static __always_inline int hq_push_exist(struct mb_loop_ctx *lc)
{
	long err = 0;

	if (mb_qu_st.tail - mb_qu_st.head >= mb_qu_cap)
		err = hq_delete_oldest();
	if (!err)
		err = hq_insert();
	if (err) {
		lc->errors++;
		return 0;
	}
	lc->hits++;
	mb_qu_st.tail++;
	return 0;
}

/* The empty map's answer: the oldest key is not there (-ENOENT, as a queue's pop says). */
static __always_inline int hq_empty(struct mb_loop_ctx *lc)
{
	qu_failed(lc, mb_qu_st.tail == mb_qu_st.head ? -MB_ENOENT : 0, MB_ENOENT);
	return 0;
}

static __always_inline int hq_pop(struct mb_loop_ctx *lc)
{
	__u64 *v = hq_oldest(), want = mb_qu_st.head;

	if (!v)
		return hq_empty(lc);
	*(__u64 *)mb_qu_out = *v;
	if (hq_delete_oldest()) {
		lc->errors++;
		return 0;
	}
	qu_check(lc, *(__u64 *)mb_qu_out, want);
	return mb_qu_st.tail == mb_qu_st.head ? qu_round(lc) : 0;
}

static __always_inline int hq_peek(struct mb_loop_ctx *lc)
{
	__u64 *v = hq_oldest();

	if (!v)
		return hq_empty(lc);
	qu_check(lc, *v, mb_qu_st.head);
	return 0;
}

static __always_inline int hq_push_pop(struct mb_loop_ctx *lc)
{
	__u64 *v, want = mb_qu_st.head;

	if (hq_insert()) {
		lc->errors++;
		return 0;
	}
	mb_qu_st.tail++;
	v = hq_oldest();
	if (!v) {
		lc->errors++;
		return 0;
	}
	*(__u64 *)mb_qu_out = *v;
	if (hq_delete_oldest()) {
		lc->errors++;
		return 0;
	}
	qu_check(lc, *(__u64 *)mb_qu_out, want);
	return 0;
}

/* ---- the programs: mb_qu_<type>_<op> ---- */

#define QU_PROG(_prog, _expr)						\
static __always_inline int _prog##_cb(__u32 index, void *ctx)		\
{									\
	struct mb_loop_ctx *lc = ctx;					\
									\
	return _expr;							\
}									\
MB_LOOP_PROG(_prog, _prog##_cb)

QU_PROG(mb_qu_queue_push, qs_push(lc, &mb_qu_queue, 0))
QU_PROG(mb_qu_queue_push_exist, qs_push(lc, &mb_qu_queue, BPF_EXIST))
QU_PROG(mb_qu_queue_pop, qs_pop(lc, &mb_qu_queue, false))
QU_PROG(mb_qu_queue_peek, qs_peek(lc, &mb_qu_queue, false))
QU_PROG(mb_qu_queue_push_pop, qs_push_pop(lc, &mb_qu_queue, false))

QU_PROG(mb_qu_stack_push, qs_push(lc, &mb_qu_stack, 0))
QU_PROG(mb_qu_stack_push_exist, qs_push(lc, &mb_qu_stack, BPF_EXIST))
QU_PROG(mb_qu_stack_pop, qs_pop(lc, &mb_qu_stack, true))
QU_PROG(mb_qu_stack_peek, qs_peek(lc, &mb_qu_stack, true))
QU_PROG(mb_qu_stack_push_pop, qs_push_pop(lc, &mb_qu_stack, true))

QU_PROG(mb_qu_hash_push, hq_push(lc))
QU_PROG(mb_qu_hash_push_exist, hq_push_exist(lc))
QU_PROG(mb_qu_hash_pop, hq_pop(lc))
QU_PROG(mb_qu_hash_peek, hq_peek(lc))
QU_PROG(mb_qu_hash_push_pop, hq_push_pop(lc))
