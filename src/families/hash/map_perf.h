/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * map-perf: the tests of samples/bpf/map_perf_test (map_perf_tests.c), how the command line
 * names them, and the run state its text lines read (map_perf_text.c).
 */
#ifndef MB_BENCHS_MAP_PERF_H
#define MB_BENCHS_MAP_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "core/bench.h"
#include "maps/maps.h"
#include "drivers/map_create.h"

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

/* Per-test counters of one producer, published under a sequence count. */
struct mp_pub {
	unsigned int seq;
	struct mb_counters c[MP_NR];
} __attribute__((aligned(128)));

struct mp_state {
	struct map_perf_bpf *skel;
	uint32_t mask;
	int sel[MP_NR], nsel;
	int prog_fd[MP_NR];
	struct mb_cpu_maps inner;	/* test 9: one inner LRU hash per online CPU */
	uint32_t entries[MP_NR];	/* size of each test's map */
	struct mp_pub *pub;		/* [nr_producers] */
	struct mb_counters *last;	/* [nr_producers][MP_NR], sampler side */
	struct mb_counters *delta;	/* [max_samples][nr_producers][MP_NR] */
	int nr_producers;
};

/* map-perf's text lines (map_perf_text.c). */
struct mb_text_style;
extern const struct mb_text_style map_perf_text;

#endif
