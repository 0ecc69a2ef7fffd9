// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <bpf/bpf.h>

#include "core/bench.h"
#include "maps/maps.h"
#include "util/json.h"
#include "map_report.h"
#include "map_walk.h"

void mb_run_report_map_memory(struct mb_run *run, const char *label, int map_fd,
			      uint64_t inserted)
{
	struct mb_json *mem = mb_json_child(mb_json_child(mb_run_extra(run), "memory"), label);
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);
	uint64_t bytes, n = inserted;
	bool known = true;
	int err;

	if (mb_map_memlock(map_fd, &bytes)) {
		mb_json_set(mem, "memlock_bytes", mb_json_null());
		return;
	}
	mb_json_set_num(mem, "memlock_bytes", (double)bytes);
	if (bpf_obj_get_info_by_fd(map_fd, &info, &len)) {
		mb_json_set(mem, "max_entries", mb_json_null());
		mb_json_set(mem, "memlock_counts", mb_json_null());
	} else {
		mb_json_set_num(mem, "max_entries", info.max_entries);
		mb_json_set_str(mem, "memlock_counts", mb_memlock_counts(&info));
		/* Read back where the map can say; else what the bench put in. */
		err = mb_map_count_entries(map_fd, &info, &n);
		if (err == -EOPNOTSUPP)
			n = inserted;
		else if (err)
			known = false;
	}
	mb_json_set(mem, "entries", known ? mb_json_number((double)n) : mb_json_null());
	mb_json_set(mem, "bytes_per_entry", known && n ? mb_json_number((double)bytes / (double)n) :
							 mb_json_null());
}
