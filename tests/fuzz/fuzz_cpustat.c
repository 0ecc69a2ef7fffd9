// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * /proc/stat text: any input parses or is refused cleanly; what parses has ticks that add up
 * (busy and steal within the total), and a reading against itself or a later one gives shares
 * in 0..1.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sys/cpustat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *half;
	struct mb_cpustat a, b;
	struct mb_cpu_busy cb;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	/* The input's halves as two readings (a NUL in the data ends the first one early). */
	half = s + size / 2;
	if (!mb_cpustat_parse(half, &b)) {
		if (!mb_cpustat_parse(s, &a)) {
			for (int cpu = 0; cpu < a.nr; cpu++) {
				if (a.cpu[cpu].steal > a.cpu[cpu].busy)
					abort();
				if (mb_cpustat_busy(&a, &b, cpu, &cb) &&
				    (!(cb.busy >= 0 && cb.busy <= 1) || !(cb.steal >= 0)))
					abort();
			}
			mb_cpustat_free(&a);
		}
		mb_cpustat_free(&b);
	} else if (b.nr || b.cpu) {
		abort();	/* a refusal leaves the reading empty */
	}
	free(s);
	return 0;
}
