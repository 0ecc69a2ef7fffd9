// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The trigger runner's unit test: two ops, each counting its runs as one op, one hit. */
#include "drivers/trigger.bpf.h"

__u64 mb_tt_one = 1, mb_tt_zero;

static __always_inline int count(int idx)
{
	mb_trigger_account(idx, bpf_ktime_get_ns(), 1, &mb_tt_one, &mb_tt_zero);
	return 0;
}

MB_TRIGGER_PROGS(mb_tt_a, 1, count(idx))
MB_TRIGGER_PROGS(mb_tt_b, 2, count(idx))
