// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* map-scan's methods and map types by name, and which type has which method. */
#include <stdbool.h>
#include <linux/bpf.h>

#include "scan.h"
#include "maps/maps.h"

const char *const scan_method_names[] = {
	"get_next_key", "lookup_batch", "lookup_and_delete_batch", "delete", "iter", "for_each",
	NULL,
};

const char *const scan_type_names[] = {
	"hash", "percpu_hash", "lru_hash", "lru_percpu_hash", "array", "percpu_array",
	"lpm_trie", "hash_of_maps", NULL,
};

#define HASH_METHODS	(SCAN_METHOD(SCAN_GET_NEXT_KEY) | SCAN_METHOD(SCAN_LOOKUP_BATCH) | \
			 SCAN_METHOD(SCAN_LOOKUP_AND_DELETE_BATCH) | SCAN_METHOD(SCAN_DELETE))

unsigned int scan_methods_of(const struct mb_map_type_info *t)
{
	switch (t->type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return HASH_METHODS | SCAN_METHOD(SCAN_ITER) | SCAN_METHOD(SCAN_FOR_EACH);
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		/* Arrays delete nothing. */
		return SCAN_METHOD(SCAN_GET_NEXT_KEY) | SCAN_METHOD(SCAN_LOOKUP_BATCH) |
		       SCAN_METHOD(SCAN_ITER) | SCAN_METHOD(SCAN_FOR_EACH);
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		/* No iterator and (before 6.19) no bpf_for_each_map_elem for map-in-maps. */
		return HASH_METHODS;
	default:
		/* lpm_trie: no batch operations, no iterator, no bpf_for_each_map_elem. */
		return SCAN_METHOD(SCAN_GET_NEXT_KEY);
	}
}

bool scan_drains(enum scan_method m)
{
	return m == SCAN_LOOKUP_AND_DELETE_BATCH || m == SCAN_DELETE;
}
