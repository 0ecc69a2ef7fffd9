// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* xdpmaps family: the map types' names, each bench's --map_type list a part of them. */
#include <string.h>

#include "xm.h"

const char *const xm_type_names[] = { "devmap", "devmap_hash", "cpumap", "xskmap", NULL };
const char *const xm_lookup_types[] = { "devmap", "devmap_hash", "xskmap", NULL };

enum xm_type xm_bench_type(const char *const *names, int idx)
{
	for (int t = 0; t < XM_TYPE_NR; t++)
		if (!strcmp(xm_type_names[t], names[idx]))
			return (enum xm_type)t;
	return XM_DEVMAP;
}
