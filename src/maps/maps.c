// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "maps.h"
#include "map_opts.h"
#include "util/numparse.h"
#include "sys/probe.h"

#define HASH_FLAGS (BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED | BPF_F_NUMA_NODE | BPF_F_RDONLY_PROG | \
		    BPF_F_WRONLY_PROG)
#define LRU_FLAGS (BPF_F_NO_COMMON_LRU | BPF_F_ZERO_SEED | BPF_F_NUMA_NODE | BPF_F_RDONLY_PROG | \
		   BPF_F_WRONLY_PROG)
#define ARRAY_FLAGS (BPF_F_NUMA_NODE | BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG | BPF_F_MMAPABLE)

const struct mb_map_type_info mb_map_types[] = {
	{ "hash", BPF_MAP_TYPE_HASH, false, false, false, false, HASH_FLAGS },
	{ "percpu_hash", BPF_MAP_TYPE_PERCPU_HASH, true, false, false, false, HASH_FLAGS },
	{ "lru_hash", BPF_MAP_TYPE_LRU_HASH, false, true, false, false, LRU_FLAGS },
	{ "lru_percpu_hash", BPF_MAP_TYPE_LRU_PERCPU_HASH, true, true, false, false, LRU_FLAGS },
	{ "array", BPF_MAP_TYPE_ARRAY, false, false, true, false, ARRAY_FLAGS },
	{ "percpu_array", BPF_MAP_TYPE_PERCPU_ARRAY, true, false, true, false,
	  BPF_F_NUMA_NODE | BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG },
	{ "array_of_maps", BPF_MAP_TYPE_ARRAY_OF_MAPS, false, false, true, true, 0 },
	{ "hash_of_maps", BPF_MAP_TYPE_HASH_OF_MAPS, false, false, false, true,
	  BPF_F_NO_PREALLOC },
	{ "lpm_trie", BPF_MAP_TYPE_LPM_TRIE, false, false, false, false,
	  BPF_F_NO_PREALLOC | BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG },
	{ "bloom_filter", BPF_MAP_TYPE_BLOOM_FILTER, false, false, false, false,
	  BPF_F_ZERO_SEED | BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG },
	{ "ringbuf", BPF_MAP_TYPE_RINGBUF, false, false, false, false, BPF_F_NUMA_NODE, true,
	  true },
	{ "user_ringbuf", BPF_MAP_TYPE_USER_RINGBUF, false, false, false, false, BPF_F_NUMA_NODE,
	  true, true },
	/* An fd array (index keys, perf event fds as values) of its own, no ring. */
	{ "perf_event_array", BPF_MAP_TYPE_PERF_EVENT_ARRAY, false, false, true, false,
	  BPF_F_NUMA_NODE, true, false },
	{ NULL },
};

/*
 * The kernel takes no_prealloc (required: values are allocated per owner) and clone, which only
 * the sk storage acts on (a value copied to a socket's clone), so only sk_storage offers it.
 */
const struct mb_map_type_info mb_storage_map_types[] = {
	{ .name = "task_storage", .type = BPF_MAP_TYPE_TASK_STORAGE,
	  .flags_ok = BPF_F_NO_PREALLOC, .local_storage = true,
	  .flags_needed = BPF_F_NO_PREALLOC },
	{ .name = "sk_storage", .type = BPF_MAP_TYPE_SK_STORAGE,
	  .flags_ok = BPF_F_NO_PREALLOC | BPF_F_CLONE, .local_storage = true,
	  .flags_needed = BPF_F_NO_PREALLOC },
	{ .name = "cgrp_storage", .type = MB_MAP_TYPE_CGRP_STORAGE,
	  .flags_ok = BPF_F_NO_PREALLOC, .local_storage = true,
	  .flags_needed = BPF_F_NO_PREALLOC },
	{ .name = "inode_storage", .type = BPF_MAP_TYPE_INODE_STORAGE,
	  .flags_ok = BPF_F_NO_PREALLOC, .local_storage = true,
	  .flags_needed = BPF_F_NO_PREALLOC },
	{ NULL },
};

static const struct {
	const char *name;
	uint32_t flag;
} flag_names[] = {
	{ "no_prealloc", BPF_F_NO_PREALLOC },
	{ "no_common_lru", BPF_F_NO_COMMON_LRU },
	{ "numa_node", BPF_F_NUMA_NODE },
	{ "rdonly_prog", BPF_F_RDONLY_PROG },
	{ "wronly_prog", BPF_F_WRONLY_PROG },
	{ "zero_seed", BPF_F_ZERO_SEED },
	{ "mmapable", BPF_F_MMAPABLE },
};

const struct mb_map_type_info *mb_map_type_by_name(const char *name)
{
	for (int i = 0; mb_map_types[i].name; i++)
		if (!strcmp(mb_map_types[i].name, name))
			return &mb_map_types[i];
	return NULL;
}

const struct mb_map_type_info *mb_storage_type_by_name(const char *name)
{
	for (int i = 0; mb_storage_map_types[i].name; i++)
		if (!strcmp(mb_storage_map_types[i].name, name))
			return &mb_storage_map_types[i];
	return NULL;
}

const struct mb_map_type_info *mb_map_type_by_type(int type)
{
	for (int i = 0; mb_map_types[i].name; i++)
		if (mb_map_types[i].type == type)
			return &mb_map_types[i];
	for (int i = 0; mb_storage_map_types[i].name; i++)
		if (mb_storage_map_types[i].type == type)
			return &mb_storage_map_types[i];
	return NULL;
}

const char *mb_storage_attrs_refused(const struct mb_map_type_info *t, uint32_t key_size,
				     uint32_t value_size, uint32_t max_entries, uint32_t flags)
{
	if (!t || !t->local_storage)
		return NULL;
	if (key_size != 4)
		return "key_size must be 4 (an owner's fd)";
	if (!value_size)
		return "value_size must be at least 1";
	if (max_entries)
		return "max_entries must be 0 (one value per owner, no fixed capacity)";
	if ((flags & t->flags_needed) != t->flags_needed)
		return "map_flags must include no_prealloc";
	if (flags & ~t->flags_ok)
		return t->flags_ok & BPF_F_CLONE ? "map_flags may be only no_prealloc and clone" :
						   "map_flags may be only no_prealloc";
	return NULL;
}

void mb_map_type_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; mb_map_types[i].name && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", mb_map_types[i].name);
}

int mb_map_flags_parse(const char *s, uint32_t *flags, const char **why)
{
	uint32_t v = 0;
	uint64_t num;
	char word[32];

	*why = NULL;
	if (!*s) {
		*why = "empty";
		return -EINVAL;
	}
	if (!mb_parse_u64(s, &num)) {
		if (num > UINT32_MAX) {
			*why = "does not fit in 32 bits";
			return -EINVAL;
		}
		*flags = (uint32_t)num;
		return 0;
	}
	while (*s) {
		size_t len = strcspn(s, "|,");
		bool found = false;

		if (!len || len >= sizeof(word)) {
			*why = "an empty or overlong name";
			return -EINVAL;
		}
		memcpy(word, s, len);
		word[len] = '\0';
		for (size_t i = 0; i < sizeof(flag_names) / sizeof(*flag_names); i++) {
			if (!strcmp(word, flag_names[i].name)) {
				v |= flag_names[i].flag;
				found = true;
			}
		}
		if (!found) {
			*why = "unknown flag name; known: no_prealloc, no_common_lru, numa_node, rdonly_prog, wronly_prog, zero_seed, mmapable";
			return -EINVAL;
		}
		s += len;
		if (*s) {
			s++;
			if (!*s) {
				*why = "ends with a separator";
				return -EINVAL;
			}
		}
	}
	*flags = v;
	return 0;
}

void mb_map_flags_format(uint32_t flags, char *buf, size_t len)
{
	size_t n = 0;

	if (!flags) {
		snprintf(buf, len, "0");
		return;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(*flag_names) && n < len; i++) {
		if (flags & flag_names[i].flag) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
					      flag_names[i].name);
			flags &= ~flag_names[i].flag;
		}
	}
	if (flags && n < len)
		snprintf(buf + n, len - n, "%s0x%x", n ? "|" : "", flags);
}

uint32_t mb_map_flags_unnamed(uint32_t flags)
{
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(*flag_names); i++)
		flags &= ~flag_names[i].flag;
	return flags;
}

void mb_map_flags_unnamed_note(uint32_t flags, char *buf, size_t len)
{
	size_t n;

	buf[0] = '\0';
	flags = mb_map_flags_unnamed(flags);
	if (!flags)
		return;
	n = (size_t)snprintf(buf, len, "bits 0x%x name no map flag (the flags:", flags);
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(*flag_names) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s %s 0x%x", i ? "," : "",
				      flag_names[i].name, flag_names[i].flag);
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

void mb_map_flags_given(uint32_t flags, char *buf, size_t len)
{
	if (mb_map_flags_unnamed(flags))
		snprintf(buf, len, "0x%x", flags);
	else
		mb_map_flags_format(flags, buf, len);
}

int mb_map_flags_opt_parse(const char *arg, void *field, const char **why)
{
	return mb_map_flags_parse(arg, field, why);
}

void mb_map_flags_opt_format(const void *field, char *buf, size_t len)
{
	mb_map_flags_format(*(const uint32_t *)field, buf, len);
}

int mb_map_memlock(int map_fd, uint64_t *bytes)
{
	char path[64], line[256];
	unsigned long long v;
	int ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", map_fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "memlock: %llu", &v) == 1) {
			*bytes = v;
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

const char *mb_memlock_counts(const struct bpf_map_info *info)
{
	switch (info->type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return info->map_flags & BPF_F_NO_PREALLOC ? "present" : "capacity";
	case BPF_MAP_TYPE_LPM_TRIE:
		return "present";
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_BLOOM_FILTER:
		return "capacity";
	default:
		return NULL;
	}
}

void mb_explain_map_create(int err, const char *what, char *buf, size_t len)
{
	switch (-err) {
	case EPERM:
		mb_explain_eperm(buf, len);
		break;
	case E2BIG:
		snprintf(buf, len, "%s: the kernel refused the size (E2BIG): key, value or entry count above its limit",
			 what);
		break;
	case ENOMEM:
		snprintf(buf, len, "%s: not enough memory for the map (ENOMEM): lower --max_entries or --value_size, or raise the memory cgroup limit",
			 what);
		break;
	case EINVAL:
		snprintf(buf, len, "%s: the kernel refused the map's attributes (EINVAL): a size or flag this map type does not take",
			 what);
		break;
	default:
		snprintf(buf, len, "%s: %s", what, strerror(-err));
	}
}

size_t mb_map_value_bytes(const struct mb_map_type_info *t, uint32_t value_size)
{
	int ncpus;

	if (!t || !t->percpu)
		return value_size;
	ncpus = libbpf_num_possible_cpus();
	return (((size_t)value_size + 7) & ~(size_t)7) * (size_t)(ncpus > 0 ? ncpus : 1);
}

/* 0 if the kernel creates the map, else -errno. */
static int try_create(int type, uint32_t key_size, uint32_t value_size, uint32_t flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	int fd = bpf_map_create(type, "mb_probe", key_size, value_size, 1, &opts);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int try_size(int type, bool key, uint32_t size)
{
	return key ? try_create(type, size, 8, 0) : try_create(type, 4, size, 0);
}

/* The sizes the kernel takes around the known-good @good, assuming they form one range. */
static void size_range(int type, bool key, uint32_t good, uint32_t bad, struct mb_map_refusal *r)
{
	uint32_t lo, hi;

	/* Largest accepted size: in [good, bad) when bad is above good. */
	r->max = good;
	if (bad > good) {
		lo = good;
		hi = bad;
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (try_size(type, key, mid))
				hi = mid;
			else
				lo = mid;
		}
		r->max = lo;
	}
	/* Smallest accepted size, in [1, good]. */
	lo = 0;
	hi = good;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (try_size(type, key, mid))
			lo = mid;
		else
			hi = mid;
	}
	r->min = hi;
}

int mb_map_probe_create(int type, uint32_t key_size, uint32_t value_size, uint32_t flags,
			struct mb_map_refusal *r)
{
	static const uint32_t good[] = { 4, 8 };
	int err;

	memset(r, 0, sizeof(*r));
	if (type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS)
		return 0;
	err = try_create(type, key_size, value_size, flags);
	if (!err || err == -EPERM)
		return 0;
	r->err = err;
	/* Which attribute: each alone next to sizes every map type of this kind takes. */
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		uint32_t g = good[i];

		if (try_create(type, 4, g, 0))
			continue;	/* not a known-good base: try the next one */
		if (try_create(type, key_size, g, 0)) {
			r->what = "key_size";
			size_range(type, true, 4, key_size, r);
		} else if (try_create(type, 4, value_size, 0)) {
			r->what = "value_size";
			size_range(type, false, g, value_size, r);
		} else if (flags && try_create(type, 4, g, flags)) {
			r->what = "map_flags";
		}
		break;
	}
	return err;
}

uint64_t mb_htab_prealloc_bytes(uint32_t entries, uint32_t key_size, uint32_t value_size)
{
	uint64_t elem = 48 + (((uint64_t)key_size + 7) & ~7ULL) + (((uint64_t)value_size + 7) & ~7ULL);
	uint64_t buckets = 1;

	while (buckets < entries)
		buckets <<= 1;
	return (uint64_t)entries * elem + buckets * 16;
}
