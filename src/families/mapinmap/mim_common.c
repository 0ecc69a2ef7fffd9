// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* map-in-map-replace: the names of its choices and cases, and a case's distribution. */
#include <math.h>

#include "mim.h"
#include "util/stats.h"

const char *const mim_outer_names[] = { "array_of_maps", "hash_of_maps", NULL };
const char *const mim_inner_names[] = { "array", "hash", "lru_hash", "percpu_array",
					"percpu_hash", NULL };

const char *mim_case_name(enum mim_case c)
{
	static const char *const names[MIM_NR_CASES] = {
		[MIM_CONTROL] = "control", [MIM_GP] = "grace-period", [MIM_REPLACE] = "replace", [MIM_INSERT] = "insert",
		[MIM_DELETE] = "delete", [MIM_READER] = "replace-reader",
	};

	return names[c];
}

void mim_dist(const struct mim_result *r, struct mim_dist *d)
{
	double sum = 0;

	*d = (struct mim_dist){ NAN, NAN, NAN, NAN, NAN, NAN };
	if (!r->done)
		return;
	for (uint32_t i = 0; i < r->done; i++)
		sum += r->ns[i];
	d->mean = sum / r->done / 1000;
	d->min = r->ns[0] / 1000;
	d->max = r->ns[r->done - 1] / 1000;
	d->p50 = mb_percentile_sorted(r->ns, r->done, 50) / 1000;
	d->p90 = mb_percentile_sorted(r->ns, r->done, 90) / 1000;
	d->p99 = mb_percentile_sorted(r->ns, r->done, 99) / 1000;
}
