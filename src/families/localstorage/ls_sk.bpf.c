// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * local-storage-sk-get and -sk-create-delete: a socket's local storage, got (or created and
 * deleted) in a loop inside the trigger runner's socket program (tp_btf/sock_recv_length),
 * which a producer runs by reading its own empty UDP socket: the program gets that socket as a
 * trusted pointer. One read runs LS_SK_GETS ops over mb_ls_nr_maps storage maps in turn, in a
 * may_goto loop, timed around the loop; the first read of each producer (the fill op) makes
 * and writes the socket's storage in every map instead, which user space reads back through
 * the socket's fd.
 */
#include "drivers/may_goto.bpf.h"
#include "drivers/trigger_sock.bpf.h"
#include "ls_sk_shared.h"
#include "ls_types_shared.h"

/* The inner map's declaration is a placeholder: user space gives the outer map its first map. */
struct ls_sk_inner {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct ls_sk_inner);
} mb_ls_sk_outer SEC(".maps");

const volatile __u32 mb_ls_nr_maps = 1;
/*
 * Gets per read: in .data, not .rodata, so the verifier does not know the loop's count and its
 * states converge rather than being walked once per iteration.
 */
__u64 mb_ls_sk_gets = LS_SK_GETS;

/* The next map's index after @cur, wrapping without a divide. */
static __always_inline __u32 next_index(__u32 cur)
{
	return cur + 1 >= mb_ls_nr_maps ? 0 : cur + 1;
}

/*
 * The timed op, mb_ls_sk_gets times on @sk, each in the next map (the cursor carried in the
 * slot across reads, where the verifier cannot see its value): a get (hit), a NULL return an
 * error since the fill made every storage; or, @cd, a get with F_CREATE and a delete, a
 * create+delete pair (the socket starts the run with no storage: each pair makes and frees
 * its bpf_local_storage too).
 */
static __always_inline int sk_ops(int idx, struct sock *sk, bool cd)
{
	struct mb_slot *s = &mb_slots[idx & (MB_MAX_SLOTS - 1)];
	__u64 left = mb_ls_sk_gets, hits = 0, errors = 0, t0;
	__u32 cur = (__u32)s->cursor;

	t0 = bpf_ktime_get_ns();
	while (left) {
		void *map;

		MB_MAY_GOTO(out);
		map = bpf_map_lookup_elem(&mb_ls_sk_outer, &cur);
		cur = next_index(cur);
		if (!map || !bpf_sk_storage_get(map, sk, 0, cd ? BPF_SK_STORAGE_GET_F_CREATE : 0))
			errors++;
		else if (cd && bpf_sk_storage_delete(map, sk))
			errors++;
		else
			hits++;
		left--;
	}
out:
	mb_trigger_account(idx, t0, hits + errors, &hits, &errors);
	s->cursor = cur;
	return 0;
}

/*
 * Once per producer, untimed: @sk's storage in each map, created and written with LS_VALUE(i).
 * The number of maps done goes to the slot's arg (mb_ls_nr_maps when all went well); the slot's
 * counters stay untouched, so the first timed read still finds calls at 0.
 */
static __always_inline int sk_fill(int idx, struct sock *sk)
{
	__u32 i = 0, n = mb_ls_nr_maps, done = 0;

	while (i < n && i < LS_MAX_MAPS) {
		void *map;
		__u64 *v;

		MB_MAY_GOTO(out);
		map = bpf_map_lookup_elem(&mb_ls_sk_outer, &i);
		if (!map)
			break;
		v = bpf_sk_storage_get(map, sk, 0, BPF_SK_STORAGE_GET_F_CREATE);
		if (!v)
			break;
		*v = LS_VALUE(i);
		done++;
		i++;
	}
out:
	mb_slots[idx & (MB_MAX_SLOTS - 1)].arg = done;
	return 0;
}

MB_TRIGGER_SOCK_PROGS(mb_ls_sk_fill, LS_SK_OP_FILL, sk_fill(idx, sk))
MB_TRIGGER_SOCK_PROGS(mb_ls_sk_get, LS_SK_OP_GET, sk_ops(idx, sk, false))
MB_TRIGGER_SOCK_PROGS(mb_ls_sk_cd, LS_SK_OP_CD, sk_ops(idx, sk, true))
