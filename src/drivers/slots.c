// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The op loop's per-producer slots, added up (slots.h). */
#include <string.h>

#include "slots.h"

void mb_slots_sum(const struct mb_slot *slots, int n, struct mb_slot *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (int i = 0; i < n; i++) {
		const struct mb_slot *s = &slots[i];

		sum->ops += s->ops;
		sum->hits += s->hits;
		sum->misses += s->misses;
		sum->errors += s->errors;
		for (int c = 0; c < MB_LOOP_COUNTERS; c++)
			sum->counter[c] += s->counter[c];
		sum->kernel_ns += s->kernel_ns;
		sum->calls += s->calls;
	}
}
