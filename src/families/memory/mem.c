// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <math.h>
#include <stdio.h>

#include "util/json.h"
#include "mem.h"

struct mb_json *mem_memcg_json(const struct mb_memcg *cg, bool available, const char *why)
{
	struct mb_json *o = mb_json_object();

	mb_json_set_bool(o, "available", available);
	if (!available) {
		mb_json_set_str(o, "version", NULL);
		mb_json_set_str(o, "reason", why);
		return o;
	}
	mb_json_set_str(o, "version", mb_memcg_version_name(cg->version));
	mb_json_set_str(o, "path", cg->path);
	mb_json_set_str(o, "usage_file", cg->version == MB_MEMCG_V2 ? "memory.current" :
								      "memory.usage_in_bytes");
	mb_json_set_str(o, "peak_file", cg->version == MB_MEMCG_V2 ? "memory.peak" :
								     "memory.max_usage_in_bytes");
	mb_json_set_str(o, "kmem_file", cg->version == MB_MEMCG_V2 ? "memory.stat:kernel" :
								     "memory.kmem.usage_in_bytes");
	mb_json_set_str(o, "charged_file", mb_memcg_charged_name(cg));
	mb_json_set_str(o, "reason", NULL);
	return o;
}

void mem_format_bytes(double bytes, char *buf, size_t len)
{
	double a = fabs(bytes);

	if (isnan(bytes))
		snprintf(buf, len, "-");
	else if (a < 1024)
		snprintf(buf, len, "%.0f B", bytes);
	else if (a < MB_MIB)
		snprintf(buf, len, "%.1f KiB", bytes / 1024);
	else if (a < 1024 * MB_MIB)
		snprintf(buf, len, "%.2f MiB", bytes / MB_MIB);
	else
		snprintf(buf, len, "%.2f GiB", bytes / MB_MIB / 1024);
}
