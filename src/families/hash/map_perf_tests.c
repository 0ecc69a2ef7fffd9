// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* map-perf: map_perf_test's eleven tests, and the names --test takes for them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "map_perf.h"

const struct mp_test_info mp_tests[MP_NR] = {
	[MP_HASH_PREALLOC] = { "hash_prealloc", "hash_map_perf pre-alloc",
		"hash, preallocated", "10 x (update, lookup, delete) of the producer's key", 30, 1000 },
	[MP_PERCPU_HASH_PREALLOC] = { "percpu_hash_prealloc", "percpu_hash_map_perf pre-alloc",
		"percpu_hash, preallocated", "10 x (update, lookup, delete) of the producer's key",
		30, 1000 },
	[MP_HASH_KMALLOC] = { "hash_kmalloc", "hash_map_perf kmalloc", "hash, no_prealloc",
		"10 x (update, lookup, delete) of the producer's key", 30, 1000 },
	[MP_PERCPU_HASH_KMALLOC] = { "percpu_hash_kmalloc", "percpu_hash_map_perf kmalloc",
		"percpu_hash, no_prealloc", "10 x (update, lookup, delete) of the producer's key",
		30, 1000 },
	[MP_LRU_HASH_PREALLOC] = { "lru_hash_prealloc", "lru_hash_map_perf pre-alloc",
		"lru_hash, common LRU", "1 update of a random key", 1, 10000 },
	[MP_NOCOMMON_LRU_HASH_PREALLOC] = { "nocommon_lru_hash_prealloc",
		"nocommon_lru_hash_map_perf pre-alloc", "lru_hash, no_common_lru",
		"1 update of a random key", 1, 10000 },
	[MP_LPM_KMALLOC] = { "lpm_kmalloc", "lpm_perf kmalloc",
		"lpm_trie of 512 random prefixes and 192.168.0.1/32",
		"32 lookups of 192.168.0.1/32", 32, 10000 },
	[MP_HASH_LOOKUP] = { "hash_lookup", "hash_lookup", "hash holding key 1",
		"64 lookups of key 1", 64, 1000 },
	[MP_ARRAY_LOOKUP] = { "array_lookup", "array_lookup", "array", "64 lookups of index 1",
		64, 1000 },
	[MP_INNER_LRU_HASH_PREALLOC] = { "inner_lru_hash_prealloc",
		"inner_lru_hash_map_perf pre-alloc",
		"array_of_maps of one lru_hash per CPU (on its NUMA node)",
		"lookup of this CPU's inner map, 1 update of a random key in it", 2, 1000 },
	[MP_LRU_HASH_LOOKUP] = { "lru_hash_lookup", "lru_hash_lookup_perf pre-alloc",
		"lru_hash holding keys 0..entries-1", "32 lookups of consecutive keys", 32, 1000 },
};

int mp_tests_parse(const char *s, uint32_t *mask, const char **why)
{
	uint32_t m = 0;

	*why = NULL;
	if (!strcmp(s, "all")) {
		*mask = MP_ALL;
		return 0;
	}
	while (*s) {
		size_t len = strcspn(s, ",|");
		int found = -1;

		for (int t = 0; t < MP_NR; t++)
			if (strlen(mp_tests[t].name) == len && !strncmp(s, mp_tests[t].name, len))
				found = t;
		if (found < 0) {
			*why = "unknown test (tests: all, hash_prealloc, percpu_hash_prealloc, hash_kmalloc, percpu_hash_kmalloc, lru_hash_prealloc, nocommon_lru_hash_prealloc, lpm_kmalloc, hash_lookup, array_lookup, inner_lru_hash_prealloc, lru_hash_lookup)";
			return -EINVAL;
		}
		m |= 1u << found;
		s += len;
		if (*s && !*++s) {
			*why = "ends with a separator";
			return -EINVAL;
		}
	}
	if (!m) {
		*why = "must name at least one test";
		return -EINVAL;
	}
	*mask = m;
	return 0;
}

void mp_tests_format(uint32_t mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if ((mask & MP_ALL) == MP_ALL) {
		snprintf(buf, len, "all");
		return;
	}
	for (int t = 0; t < MP_NR && n < len; t++)
		if (mask & (1u << t))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", mp_tests[t].name);
}
