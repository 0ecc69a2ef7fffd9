// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The trigger runner's unit test: two ops, each counting its runs as one op, one hit; the
 * second also adds 2 to its slot's own counter 0; a third, fired by a socket read, the socket's
 * address family.
 */
#include "drivers/trigger_sock.bpf.h"

__u64 mb_tt_one = 1, mb_tt_zero;

static __always_inline int count(int idx, __u64 own)
{
	mb_trigger_account(idx, bpf_ktime_get_ns(), 1, &mb_tt_one, &mb_tt_zero);
	mb_trigger_add_counter(idx, 0, own);
	return 0;
}

MB_TRIGGER_PROGS(mb_tt_a, 1, count(idx, 0))
MB_TRIGGER_PROGS(mb_tt_b, 2, count(idx, 2))
/* The socket kind: its own counter adds the read socket's family (AF_INET: 2). */
MB_TRIGGER_SOCK_PROGS(mb_tt_s, 3, count(idx, sk->__sk_common.skc_family))
