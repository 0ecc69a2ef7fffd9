/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Per-CPU time from /proc/stat, and how busy each CPU was between two readings: what competes
 * for the CPUs now, where a load average still remembers the runs of the last minutes.
 */
#ifndef MB_CPUSTAT_H
#define MB_CPUSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* One CPU's time since boot, in clock ticks (USER_HZ). */
struct mb_cpu_ticks {
	uint64_t busy;		/* user + nice + system + irq + softirq + steal */
	uint64_t steal;		/* the hypervisor ran something else on this vCPU */
	uint64_t total;		/* busy + idle + iowait; 0: no line for this CPU */
};

/* A reading of /proc/stat: every "cpuN" line, indexed by N. */
struct mb_cpustat {
	int nr;			/* entries in cpu[]: the highest CPU seen + 1 */
	struct mb_cpu_ticks *cpu;
};

/* How one CPU spent a window between two readings, in fractions of the window. */
struct mb_cpu_busy {
	double busy;
	double steal;
};

/*
 * Parse /proc/stat text. Lines other than "cpuN ..." are skipped; a "cpuN" line needs at least
 * the four fields user, nice, system, idle (older kernels have fewer than ten). Returns 0, or
 * -EINVAL when no CPU line parses (@st is then empty), -ENOMEM. Free with mb_cpustat_free().
 */
int mb_cpustat_parse(const char *text, struct mb_cpustat *st);
void mb_cpustat_free(struct mb_cpustat *st);

/*
 * How busy @cpu was from reading @a to reading @b. Returns false when either reading lacks
 * the CPU or no tick passed (counters that went backwards: a CPU taken offline and back).
 */
bool mb_cpustat_busy(const struct mb_cpustat *a, const struct mb_cpustat *b, int cpu,
		     struct mb_cpu_busy *out);

#endif
