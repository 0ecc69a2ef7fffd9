// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <bpf/btf.h>

#include "map_recipe.h"
#include "sys/probe.h"

#define NP	BPF_F_NO_PREALLOC

/* A type whose rows need only sizes and flags. */
#define R(_n, _k, _v, _m, _f, _what, _nob)						\
	{ .name = _n, .key_size = _k, .value_size = _v, .max_entries = _m, .flags = _f,	\
	  .needs_what = _what, .no_bench = _nob }
/* Local storage: an owner's fd as key, no capacity, no_prealloc, BTF of key and value. */
#define STORAGE(_n, _what)									\
	{ .name = _n, .key_size = 4, .value_size = 8, .max_entries = 0, .flags = NP,		\
	  .needs = MB_RECIPE_BTF, .needs_what = _what }

/*
 * One minimal map of each type, as the kernel checks it at creation (6.18): index types take
 * 4-byte keys; fd maps 4-byte values (an fd or an ifindex); queue, stack, bloom filter, ring
 * buffers and arena no key; cgroup storage a u64 cgroup id and max_entries 0.
 */
const struct mb_map_recipe mb_map_recipes[] = {
	R("hash", 4, 8, 1, 0, NULL, NULL),
	R("array", 4, 8, 1, 0, NULL, NULL),
	R("prog_array", 4, 4, 1, 0, "its entries are BPF program fds", NULL),
	R("perf_event_array", 4, 4, 1, 0, "its entries are perf_event_open fds", NULL),
	R("percpu_hash", 4, 8, 1, 0, NULL, NULL),
	R("percpu_array", 4, 8, 1, 0, NULL, NULL),
	R("stack_trace", 4, 8, 1, 0,
	  "CONFIG_STACKTRACE and perf's callchain buffers; only bpf_get_stackid fills it",
	  NULL),
	R("cgroup_array", 4, 4, 1, 0, "its entries are cgroup v2 directory fds", NULL),
	R("lru_hash", 4, 8, 1, 0, NULL, NULL),
	R("lru_percpu_hash", 4, 8, 1, 0, NULL, NULL),
	R("lpm_trie", 8, 8, 1, NP, NULL, NULL),
	{ .name = "array_of_maps", .key_size = 4, .value_size = 4, .max_entries = 1,
	  .needs = MB_RECIPE_INNER, .needs_what = "an inner map that gives its entries' shape" },
	{ .name = "hash_of_maps", .key_size = 4, .value_size = 4, .max_entries = 1,
	  .needs = MB_RECIPE_INNER, .needs_what = "an inner map that gives its entries' shape" },
	R("devmap", 4, 4, 1, 0, "CONFIG_NET; its entries are network devices (ifindex)", NULL),
	R("sockmap", 4, 4, 1, 0, "CONFIG_BPF_STREAM_PARSER; its entries are TCP or UDP sockets",
	  NULL),
	R("cpumap", 4, 4, 1, 0, "CONFIG_NET; each entry starts a kernel thread on its CPU", NULL),
	R("xskmap", 4, 4, 1, 0, "CONFIG_XDP_SOCKETS; its entries are AF_XDP sockets", NULL),
	R("sockhash", 4, 4, 1, 0, "CONFIG_BPF_STREAM_PARSER; its entries are TCP or UDP sockets",
	  NULL),
	R("cgroup_storage", 8, 8, 0, 0, "CONFIG_CGROUP_BPF; a cgroup program attached fills it",
	  NULL),
	R("reuseport_sockarray", 4, 4, 1, 0, "its entries are SO_REUSEPORT sockets", NULL),
	R("percpu_cgroup_storage", 8, 8, 0, 0,
	  "CONFIG_CGROUP_BPF; a cgroup program attached fills it", NULL),
	R("queue", 0, 8, 1, 0, NULL, NULL),
	R("stack", 0, 8, 1, 0, NULL, NULL),
	STORAGE("sk_storage", "CONFIG_BPF_SYSCALL and CONFIG_NET"),
	R("devmap_hash", 4, 4, 1, 0, "CONFIG_NET; its entries are network devices (ifindex)",
	  NULL),
	{ .name = "struct_ops", .key_size = 4, .max_entries = 1, .needs = MB_RECIPE_VMLINUX_VALUE,
	  .btf_types = "bpf_struct_ops_tcp_congestion_ops|bpf_struct_ops_bpf_dummy_ops",
	  .needs_what = "a struct_ops type in the kernel's BTF (CONFIG_BPF_JIT: tcp_congestion_ops)" },
	{ .name = "ringbuf", .needs = MB_RECIPE_PAGE_ENTRIES,
	  .needs_what = "max_entries a power of two multiple of the page size" },
	STORAGE("inode_storage", "CONFIG_BPF_LSM"),
	STORAGE("task_storage", "CONFIG_BPF_SYSCALL"),
	R("bloom_filter", 0, 8, 1, 0, NULL, NULL),
	{ .name = "user_ringbuf", .needs = MB_RECIPE_PAGE_ENTRIES,
	  .needs_what = "max_entries a power of two multiple of the page size" },
	STORAGE("cgrp_storage", "CONFIG_CGROUPS"),
	R("arena", 0, 0, 1, BPF_F_MMAPABLE,
	  "CONFIG_MMU on a 64-bit architecture; mmapable, max_entries in pages", NULL),
	/* Newer than 6.18: named so that a user of these kernels finds them. */
	{ .name = "insn_array", .key_size = 4, .max_entries = 1, .needs = MB_RECIPE_VALUE_BTF,
	  .btf_types = "bpf_insn_array_value", .since = "new in 6.19",
	  .needs_what = "a program that takes it in fd_array fills it",
	  .no_bench = "no bench yet: instruction arrays (indirect jumps) are new in 6.19" },
	{ .name = "rhash", .key_size = 4, .value_size = 8, .max_entries = 1, .flags = NP,
	  .since = "the resizable hash, on its way upstream (bpf list, 2026)",
	  .no_bench = "no bench yet: the resizable hash is not upstream" },
	{ NULL },
};

const char *const mb_map_recipe_names[] = {
	"hash", "array", "prog_array", "perf_event_array", "percpu_hash", "percpu_array",
	"stack_trace", "cgroup_array", "lru_hash", "lru_percpu_hash", "lpm_trie",
	"array_of_maps", "hash_of_maps", "devmap", "sockmap", "cpumap", "xskmap", "sockhash",
	"cgroup_storage", "reuseport_sockarray", "percpu_cgroup_storage", "queue", "stack",
	"sk_storage", "devmap_hash", "struct_ops", "ringbuf", "inode_storage", "task_storage",
	"bloom_filter", "user_ringbuf", "cgrp_storage", "arena", "insn_array", "rhash", NULL,
};

const struct mb_map_recipe *mb_map_recipe_find(const char *name)
{
	for (int i = 0; mb_map_recipes[i].name; i++)
		if (!strcmp(mb_map_recipes[i].name, name))
			return &mb_map_recipes[i];
	return NULL;
}

#define PREFIX		"BPF_MAP_TYPE_"
#define DEPRECATED	"_DEPRECATED"

/* "BPF_MAP_TYPE_LRU_HASH" -> "lru_hash"; false for names to leave out. */
static bool type_name(const char *enumerator, char *out, size_t len)
{
	size_t n, plen = strlen(PREFIX);

	if (strncmp(enumerator, PREFIX, plen) || !strcmp(enumerator + plen, "UNSPEC"))
		return false;
	n = strlen(enumerator + plen);
	if (!n || n >= len)
		return false;
	for (size_t i = 0; i <= n; i++) {
		char c = enumerator[plen + i];

		out[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	return true;
}

static bool deprecated(const char *name)
{
	size_t n = strlen(name), d = strlen(DEPRECATED);

	return n > d && !strcasecmp(name + n - d, DEPRECATED);
}

/* Add or replace (a _deprecated alias gives way) the type @value named @name. */
static void add_type(struct mb_kernel_map_type *t, int *n, const char *name, int value)
{
	for (int i = 0; i < *n; i++) {
		if (t[i].value != value)
			continue;
		if (deprecated(t[i].name) && !deprecated(name))
			snprintf(t[i].name, sizeof(t[i].name), "%s", name);
		return;
	}
	snprintf(t[*n].name, sizeof(t[*n].name), "%s", name);
	t[*n].value = value;
	(*n)++;
}

static int by_value(const void *a, const void *b)
{
	return ((const struct mb_kernel_map_type *)a)->value -
	       ((const struct mb_kernel_map_type *)b)->value;
}

int mb_map_types_from_btf(const struct btf *btf, struct mb_kernel_map_type **out, int *n)
{
	int id = btf__find_by_name_kind(btf, "bpf_map_type", BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;
	int vlen;

	*out = NULL;
	*n = 0;
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, (uint32_t)id);
	vlen = btf_vlen(t);
	e = btf_enum(t);
	*out = calloc((size_t)vlen + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (int i = 0; i < vlen; i++) {
		const char *s = btf__name_by_offset(btf, e[i].name_off);
		char name[48];

		/* __MAX_BPF_MAP_TYPE has no prefix and is left out with the unknown. */
		if (s && type_name(s, name, sizeof(name)))
			add_type(*out, n, name, e[i].val);
	}
	qsort(*out, (size_t)*n, sizeof(**out), by_value);
	return 0;
}

int mb_kernel_map_types(struct mb_kernel_map_type **out, int *n)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int err;

	*out = NULL;
	*n = 0;
	if (!btf)
		return -errno;
	err = mb_map_types_from_btf(btf, out, n);
	btf__free(btf);
	return err;
}

int mb_map_recipe_btf_type(const struct mb_map_recipe *r, const struct btf *btf, uint32_t *id,
			   uint32_t *size)
{
	const char *s = r->btf_types;

	while (s && *s) {
		size_t len = strcspn(s, "|");
		char name[96];
		int tid;

		snprintf(name, sizeof(name), "%.*s", (int)len, s);
		tid = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
		if (tid > 0) {
			*id = (uint32_t)tid;
			*size = btf__type_by_id(btf, (uint32_t)tid)->size;
			return 0;
		}
		s += len + (s[len] == '|');
	}
	return -ENOENT;
}

const struct mb_map_type_info *mb_map_recipe_info(const struct mb_map_recipe *r, int value,
						  struct mb_map_type_info *ti)
{
	const struct mb_map_type_info *known = mb_map_type_by_type(value);

	if (known && !strcmp(known->name, r->name))
		return known;
	memset(ti, 0, sizeof(*ti));
	ti->name = r->name;
	ti->type = value;
	ti->map_in_map = r->needs & MB_RECIPE_INNER;
	ti->local_storage = r->needs & MB_RECIPE_BTF;
	ti->flags_ok = r->flags;
	ti->flags_needed = r->flags;
	return ti;
}

/*
 * EPERM: without CAP_BPF (or CAP_SYS_ADMIN) every map is refused; with them, this type alone
 * was, by the kernel's policy for it or the machine's sandbox: name what the process lacks.
 */
static void explain_eperm(char *buf, size_t len)
{
	char missing[128];

	if (!mb_have_cap(CAP_BPF) && !mb_have_cap(CAP_SYS_ADMIN)) {
		snprintf(buf, len, "EPERM: creating maps needs CAP_BPF (or root), or a BPF token of a delegating bpffs, which mapbench does not use");
	} else if (mb_missing_caps(missing, sizeof(missing))) {
		snprintf(buf, len, "EPERM: refused although this process holds CAP_BPF or CAP_SYS_ADMIN; it lacks %s (a container or sandbox dropped them), which this type may need",
			 missing);
	} else {
		snprintf(buf, len, "EPERM: refused although this process holds every capability BPF checks: a security module or the machine's sandbox blocks this type");
	}
}

void mb_map_recipe_explain(const struct mb_map_recipe *r, int err, char *buf, size_t len)
{
	const char *needs = r && r->needs_what ? r->needs_what : NULL;

	switch (-err) {
	case EPERM:
		explain_eperm(buf, len);
		break;
	case EINVAL:
		snprintf(buf, len, "EINVAL: the kernel refused the minimal map%s%s",
			 needs ? "; it needs " : "", needs ? needs : "");
		break;
	case ENOTSUP:
	case MB_ENOTSUPP:
		snprintf(buf, len, "%s: the kernel was built without this map type%s%s",
			 -err == ENOTSUP ? "EOPNOTSUPP" : "ENOTSUPP", needs ? "; it needs " : "",
			 needs ? needs : "");
		break;
	case ENOENT:
		snprintf(buf, len, "ENOENT: the kernel's BTF has none of the types its value needs (%s)",
			 r && r->btf_types ? r->btf_types : "?");
		break;
	case ENOMEM:
		snprintf(buf, len, "ENOMEM: not enough memory (or memlock) for a one-entry map");
		break;
	default:
		snprintf(buf, len, "%s: the kernel refused the minimal map%s%s", strerror(-err),
			 needs ? "; it needs " : "", needs ? needs : "");
	}
}
