/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* CPU sets in the kernel's list syntax: "0-3,8,10-11". */
#ifndef MB_CPUSET_H
#define MB_CPUSET_H

#include <stdbool.h>
#include <stdint.h>

#define MB_MAX_CPUS 4096

struct mb_cpuset {
	uint64_t bits[MB_MAX_CPUS / 64];
	int count;
};

/*
 * Parse a comma-separated list of CPU numbers and inclusive ranges a-b.
 * Rejects empty lists and items, negative numbers, reversed ranges, spaces, numbers
 * >= MB_MAX_CPUS. On error returns -EINVAL and describes the problem in @why.
 */
int mb_cpuset_parse(const char *s, struct mb_cpuset *set, const char **why);

bool mb_cpuset_has(const struct mb_cpuset *set, int cpu);
void mb_cpuset_add(struct mb_cpuset *set, int cpu);
/* Smallest CPU in @set that is >= @from, or -1. */
int mb_cpuset_next(const struct mb_cpuset *set, int from);
/* Format as a list ("0-3,8"). Returns the length that was needed. */
int mb_cpuset_format(const struct mb_cpuset *set, char *buf, int len);

/* The online CPUs, from /sys/devices/system/cpu/online (or sysconf as a fallback). */
int mb_cpuset_online(struct mb_cpuset *set);

#endif
