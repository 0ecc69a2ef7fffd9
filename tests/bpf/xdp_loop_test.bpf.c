// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * drivers/xdp_loop's unit test: an XDP op loop whose op adds one to the packet's first byte
 * and counts a hit, and whose verdict is the last packet's: XDP_PASS, or XDP_DROP once the
 * byte wraps to zero; and its timed twin (xdp_loop_lat.bpf.h) with the same op.
 */
#include "drivers/xdp_loop_lat.bpf.h"

#define TST_OP								\
	{								\
		void *d = (void *)(long)xdp->data;			\
		void *e = (void *)(long)xdp->data_end;			\
		__u8 *b = d;						\
									\
		if (b + 1 <= (__u8 *)e) {				\
			*b += 1;					\
			slot->hits++;					\
			mb_ret = *b ? XDP_PASS : XDP_DROP;		\
		}							\
	}

MB_XDP_LOOP(mb_tst_xdp_loop, , TST_OP)
MB_XDP_LOOP_LAT(mb_tst_xdp_loop_lat, , TST_OP)
