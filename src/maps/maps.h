/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Map types and flags by name, and the memory the kernel says a map takes. */
#ifndef MB_MAPS_H
#define MB_MAPS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "map_opts.h"

struct mb_map_type_info {
	const char *name;	/* as --map_type takes it: "hash", "lru_percpu_hash", ... */
	int type;		/* enum bpf_map_type */
	bool percpu;		/* values are per CPU */
	bool lru;
	bool array;		/* index keys, no delete */
	bool map_in_map;
	uint32_t flags_ok;	/* map flags the type accepts (of those named below) */
	/*
	 * Streaming maps: written by BPF programs or a user-space producer, never by map
	 * updates from user space; key and value sizes are fixed (0 for ring buffers).
	 */
	bool stream;
	bool ring;		/* max_entries is the ring's bytes: a power of two of pages */
	/*
	 * Local storage (task, sk, cgrp, inode): one value per owner (a task, socket, cgroup or
	 * inode) per map, keyed from user space by an fd of the owner (a 4-byte int). The kernel
	 * takes max_entries 0 only and refuses the map without BTF for key and value
	 * (drivers/map_create: mb_map_desc_add_btf).
	 */
	bool local_storage;
	uint32_t flags_needed;	/* flags the kernel refuses the map without (local storage) */
};

/*
 * The map types the benches that take any map type walk (hash's and map-mem's --map_type),
 * NULL-name terminated.
 */
extern const struct mb_map_type_info mb_map_types[];
/*
 * The local storage types, NULL-name terminated: kept out of mb_map_types, whose every entry
 * map-mem measures and whose index is its type mask; a bench takes them by name here.
 */
extern const struct mb_map_type_info mb_storage_map_types[];

/*
 * The kernel's BPF_MAP_TYPE_CGRP_STORAGE (6.2+), which older uapi headers (this system's
 * among them) lack. The uapi names map types in an enum, which #ifndef cannot see, so the
 * number has mapbench's own name rather than a define that could collide with the enumerator.
 */
#define MB_MAP_TYPE_CGRP_STORAGE	32

/* A type of mb_map_types by name (NULL: none; storage types are not among them). */
const struct mb_map_type_info *mb_map_type_by_name(const char *name);
/* A type of mb_storage_map_types by name: "task_storage", "sk_storage", ... (NULL: none). */
const struct mb_map_type_info *mb_storage_type_by_name(const char *name);
/* A type of either table by its enum bpf_map_type number (NULL: none). */
const struct mb_map_type_info *mb_map_type_by_type(int type);
/*
 * Why the kernel would refuse a map of local storage type @t with these attributes, as a
 * phrase ("max_entries must be 0"), or NULL when it would take them (or @t is no storage type).
 */
const char *mb_storage_attrs_refused(const struct mb_map_type_info *t, uint32_t key_size,
				     uint32_t value_size, uint32_t max_entries, uint32_t flags);
/* "hash, percpu_hash, ..." for messages. */
void mb_map_type_names(char *buf, size_t len);

/*
 * Map flags: a number (decimal or 0x hex) or names joined by '|' or ','
 * (no_prealloc, no_common_lru, zero_seed, numa_node, rdonly_prog, wronly_prog, mmapable).
 */
int mb_map_flags_parse(const char *s, uint32_t *flags, const char **why);
/* Names joined by '|', "0" for none, hex for unknown bits. */
void mb_map_flags_format(uint32_t flags, char *buf, size_t len);
/* The bits of @flags that are none of the flags named above (0: none). */
uint32_t mb_map_flags_unnamed(uint32_t flags);
/*
 * For a message: "bits 0x... name no map flag (the flags: no_prealloc 0x1, ...)" for the
 * unnamed bits of @flags, "" when there are none.
 */
void mb_map_flags_unnamed_note(uint32_t flags, char *buf, size_t len);
/*
 * @flags as a message shows it: names (mb_map_flags_format) when every bit has one, else
 * the number in hex, as a user who gave unknown bits most likely wrote it.
 */
void mb_map_flags_given(uint32_t flags, char *buf, size_t len);

/* The "memlock:" figure of a map fd, from /proc/self/fdinfo. Returns 0 or -errno. */
int mb_map_memlock(int map_fd, uint64_t *bytes);

struct bpf_map_info;
/*
 * What a map's memlock counts (kernels with per-type estimates, 6.4+): "capacity" for maps
 * that allocate every slot at creation, "present" for those that allocate on insert
 * (no_prealloc hashes, lpm_trie: their buckets or header plus the entries present, never the
 * allocator's rounding or caches), NULL for other types.
 */
const char *mb_memlock_counts(const struct bpf_map_info *info);

/*
 * Bytes of one value as user space passes it to bpf_map_*_elem: per-CPU maps take one 8-byte
 * aligned copy per possible CPU (@t NULL: a type mapbench does not know, @value_size).
 */
size_t mb_map_value_bytes(const struct mb_map_type_info *t, uint32_t value_size);

/*
 * What a preallocated hash map of @entries entries of these sizes takes in the kernel, bytes:
 * an element each (a 48-byte header, key and value each rounded up to 8 bytes) and a 16-byte
 * bucket for each of the entries rounded up to a power of two. Within 0.01 % of memlock at
 * 1000 and 4194304 entries (kernel 6.18); the map's own struct (about 1 KiB) is not in it.
 */
uint64_t mb_htab_prealloc_bytes(uint32_t entries, uint32_t key_size, uint32_t value_size);

/* The kernel's ENOTSUPP (not in user-space errno.h: strerror does not know it). */
#define MB_ENOTSUPP	524

/*
 * Whether @err (negative) from a batch operation says the map type has no such batch
 * operation: EINVAL or EOPNOTSUPP on older kernels, ENOTSUPP on newer ones.
 */
static inline bool mb_batch_unsupported(int err)
{
	return err == -EINVAL || err == -EOPNOTSUPP || err == -MB_ENOTSUPP;
}

/* What the kernel refused in mb_map_probe_create(). */
struct mb_map_refusal {
	int err;		/* -errno of the refused creation */
	const char *what;	/* "key_size", "value_size", "map_flags", or NULL: the combination */
	uint32_t min, max;	/* sizes the kernel takes for @what (key_size, value_size) */
};

/*
 * Whether the running kernel creates a one-entry map of @type with these sizes and flags
 * (map-in-map types are not probed). Returns 0 if it does, or if it cannot tell (no privilege:
 * setup reports that); otherwise the -errno, with @r saying which attribute was refused and,
 * for a size, the range this kernel takes (found by bisecting with one-entry maps).
 */
int mb_map_probe_create(int type, uint32_t key_size, uint32_t value_size, uint32_t flags,
			struct mb_map_refusal *r);

/* A sentence for a failed map creation: which limit was hit and what to change. */
void mb_explain_map_create(int err, const char *what, char *buf, size_t len);

#endif
