/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* map-perf: the tests of samples/bpf/map_perf_test, and how the command line names them. */
#ifndef MB_BENCHS_MAP_PERF_H
#define MB_BENCHS_MAP_PERF_H

#include <stddef.h>
#include <stdint.h>

enum mp_test {
	MP_HASH_PREALLOC,
	MP_PERCPU_HASH_PREALLOC,
	MP_HASH_KMALLOC,
	MP_PERCPU_HASH_KMALLOC,
	MP_LRU_HASH_PREALLOC,
	MP_NOCOMMON_LRU_HASH_PREALLOC,
	MP_LPM_KMALLOC,
	MP_HASH_LOOKUP,
	MP_ARRAY_LOOKUP,
	MP_INNER_LRU_HASH_PREALLOC,
	MP_LRU_HASH_LOOKUP,
	MP_NR,
};

#define MP_ALL ((1u << MP_NR) - 1)

struct mp_test_info {
	const char *name;	/* --test name: map_perf_test's enum, lower case */
	const char *label;	/* map_perf_test's output line, after "CPU:" */
	const char *map;	/* what the map is */
	const char *event;	/* what one event does */
	uint32_t ops_per_event;	/* map operations in one event */
	uint32_t entries;	/* map_perf_test's max_entries */
};

extern const struct mp_test_info mp_tests[MP_NR];

/* "all", or test names joined by ',' or '|'. On error returns -EINVAL and sets @why. */
int mp_tests_parse(const char *s, uint32_t *mask, const char **why);
/* Names joined by ',' ("all" for every test). */
void mp_tests_format(uint32_t mask, char *buf, size_t len);

#endif
