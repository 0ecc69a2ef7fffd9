// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* What user space pays to set a prog_array slot: BPF_MAP_UPDATE_ELEM with a program fd. */
#include <errno.h>
#include <bpf/bpf.h>

#include "core/run.h"
#include "util/json.h"
#include "tailcall.h"

int tc_time_slot_update(int map_fd, uint32_t key, int prog_fd, int n, struct mb_json *extra)
{
	struct mb_json *o;
	uint64_t t0, ns;

	t0 = mb_now_ns();
	for (int i = 0; i < n; i++) {
		if (bpf_map_update_elem(map_fd, &key, &prog_fd, BPF_ANY))
			return -errno;
	}
	ns = mb_now_ns() - t0;
	o = mb_json_object();
	mb_json_set_num(o, "updates", n);
	mb_json_set_num(o, "ns_per_update", (double)ns / n);
	mb_json_set_str(o, "method", "BPF_MAP_UPDATE_ELEM of one slot with the fd of the program it holds already, after the run, timed around the whole batch");
	mb_json_set(extra, "slot_update", o);
	return 0;
}
