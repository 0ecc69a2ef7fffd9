// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Queue family: what each bench does, and the names of its options' choices (pure data). */
#include "queue.h"

const char *const qu_type_names[] = { "queue", "stack", "hash", NULL };
const char *const qu_path_names[] = { "kernel", "syscall", NULL };

static const struct qu_bench_info qu_infos[QU_BENCH_NR] = {
	[QU_PUSH] = { QU_P_PUSH, false, "push (flags 0)" },
	[QU_POP] = { QU_P_POP, false, "pop" },
	[QU_PEEK] = { QU_P_PEEK, false, "peek" },
	[QU_PUSH_POP] = { QU_P_PUSH_POP, false, "push (flags 0) then pop" },
	[QU_PUSH_FULL] = { QU_P_PUSH, true, "push (flags 0) on a full map: -E2BIG" },
	[QU_PUSH_OVERWRITE] = { QU_P_PUSH_EXIST, false,
				"push with BPF_EXIST on a full map: drops the oldest" },
	[QU_POP_EMPTY] = { QU_P_POP, true, "pop on an empty map: -ENOENT" },
	[QU_PEEK_EMPTY] = { QU_P_PEEK, true, "peek on an empty map: -ENOENT" },
};

const struct qu_bench_info *qu_info(enum qu_bench b)
{
	return &qu_infos[b];
}
