// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-mem: the map types known by their recipe only (maps/map_recipe.h), not in maps.h's
 * tables: made from the recipe with what it needs (drivers/map_probe.h), filled from user
 * space where the type lets it (queue and stack by pushes, devmaps with the loopback device),
 * otherwise measured at creation and close with the reason in the row.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run.h"
#include "map_mem.h"
#include "map_mem_other.h"
#include "map_mem_run.h"

enum fill_kind { FILL_NONE, FILL_PUSH, FILL_KEYS, FILL_IFINDEX };

static const char NOT_SOCKETS[] =
	"not filled: its entries are sockets the map takes over, whose own memory is the sockets'";
static const char NOT_CG_STORAGE[] =
	"not applicable: the kernel makes one value per cgroup and attach type when a cgroup program using the map is attached; user space only updates those";

/* How each type is filled from user space, or why not. */
static const struct {
	const char *name;
	enum fill_kind kind;
	const char *why;
} fills[] = {
	{ "prog_array", FILL_NONE, "not filled: its entries are BPF program fds, whose memory is the programs'" },
	{ "stack_trace", FILL_NONE, "not applicable: only bpf_get_stackid() in a BPF program adds stacks; user space cannot update it" },
	{ "cgroup_array", FILL_NONE, "not filled: its entries are cgroup v2 directory fds" },
	{ "devmap", FILL_IFINDEX, NULL },
	{ "sockmap", FILL_NONE, NOT_SOCKETS },
	{ "cpumap", FILL_NONE, "not filled: each entry starts a kernel thread and a queue on its CPU, whose memory is not the map's" },
	{ "xskmap", FILL_NONE, "not filled: its entries are AF_XDP sockets bound to a device queue" },
	{ "sockhash", FILL_NONE, NOT_SOCKETS },
	{ "cgroup_storage", FILL_NONE, NOT_CG_STORAGE },
	{ "reuseport_sockarray", FILL_NONE, NOT_SOCKETS },
	{ "percpu_cgroup_storage", FILL_NONE, NOT_CG_STORAGE },
	{ "queue", FILL_PUSH, NULL },
	{ "stack", FILL_PUSH, NULL },
	{ "devmap_hash", FILL_IFINDEX, NULL },
	{ "struct_ops", FILL_NONE, "not filled: its one value is a set of BPF programs, loaded and registered with it" },
	{ "arena", FILL_NONE, "not applicable: its pages come from bpf_arena_alloc_pages() or a page fault in its mmap, not from map updates" },
	{ "insn_array", FILL_NONE, "not filled: a program that takes it in its fd_array fills it at load" },
	{ "rhash", FILL_KEYS, NULL },
};

#define MM_ARENA_CAP	(1u << 20)	/* pages of an arena's 4 GiB range (4 KiB pages) */

/* A cpumap has at most NR_CPUS entries (E2BIG above): kernel_max + 1. */
static uint32_t cpumap_cap(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/kernel_max", "re");
	unsigned int max = 0;

	if (f) {
		if (fscanf(f, "%u", &max) != 1)
			max = 0;
		fclose(f);
	}
	return max + 1;
}

bool mm_other(const struct mb_map_recipe *r)
{
	return !mb_map_type_by_name(r->name) && !mb_storage_type_by_name(r->name);
}

uint64_t mm_other_bit(const struct mb_map_recipe *r)
{
	if (!mm_other(r))
		return 0;
	return 1ULL << (MM_OTHER_BIT + (r - mb_map_recipes));
}

uint64_t mm_other_types(void)
{
	uint64_t mask = 0;

	for (int i = 0; mb_map_recipes[i].name; i++)
		mask |= mm_other_bit(&mb_map_recipes[i]);
	return mask;
}

int mm_other_validate(struct mb_run *run, const struct mb_map_recipe *r)
{
	const struct map_mem_args *a = run->args;
	char v[64] = "";

	if (mb_run_opt_given(run, "key_size"))
		snprintf(v, sizeof(v), "--key_size %u", a->key_size);
	else if (mb_run_opt_given(run, "value_size"))
		snprintf(v, sizeof(v), "--value_size %u", a->value_size);
	else if (mb_run_opt_given(run, "map_flags"))
		snprintf(v, sizeof(v), "--map_flags 0x%x", a->map_flags);
	if (v[0])
		return mb_run_usage(run, "%s: %s maps are made from their recipe (key %u, value %u bytes, flags 0x%x; mapbench --map-types): leave it out, or measure %s apart",
				    v, r->name, r->key_size, r->value_size, r->flags, r->name);
	return 0;
}

int mm_other_present(struct mb_run *run, struct mm_state *st)
{
	const struct map_mem_args *a = run->args;

	for (int i = 0; mb_map_recipes[i].name; i++) {
		const struct mb_map_recipe *r = &mb_map_recipes[i];

		if (!(a->types & mm_other_bit(r)) || mm_other_value(st, r->name) >= 0)
			continue;
		return mb_run_skip(run, "--map_type %s: not on this kernel (%s)", r->name,
				   r->since ? r->since : "its BTF does not name it");
	}
	return 0;
}

static int fill_of(const char *name)
{
	for (size_t i = 0; i < sizeof(fills) / sizeof(*fills); i++)
		if (!strcmp(fills[i].name, name))
			return (int)i;
	return -1;
}

/* The entries a fill inserts, by the type's kind. */
static void layout_fill(struct mm_layout *l, const struct mb_map_recipe *r)
{
	int k = fill_of(r->name);

	l->fill_why = k < 0 ? "not filled: mapbench does not know how to fill this type" :
		      fills[k].why;
	l->e.key_size = l->desc->key_size;
	l->e.value_size = l->desc->value_size;
	l->e.key = MB_KEY_INDEX;
	l->e.value = MB_VALUE_ZERO;
	if (k < 0)
		return;
	if (fills[k].kind == FILL_PUSH) {
		/* Pushes: no key, distinct values. */
		l->e.key = MB_KEY_NONE;
		l->e.value = MB_VALUE_INDEX;
	} else if (fills[k].kind == FILL_IFINDEX) {
		/* A devmap value is an ifindex: the loopback device in every slot. */
		l->e.value = MB_VALUE_FD;
		l->e.value_fd = (int)if_nametoindex("lo");
		if (l->e.value_fd <= 0)
			l->fill_why = "not filled: no loopback device (lo) to point the entries at";
	}
}

int mm_other_get(struct mm_other *o, const struct mb_map_recipe *r, int value, char *why,
		 size_t len)
{
	struct mm_layout *l = &o->l;
	int err;

	memset(o, 0, sizeof(*o));
	o->r = r;
	err = mb_recipe_map_get(&o->m, r, value, 0, why, len);
	if (err)
		return err;
	l->t = o->m.d.type;
	l->inner_fd = o->m.d.inner_fd;
	l->flags = o->m.d.flags;
	l->desc = &o->m.d;
	l->e.type = l->t;
	layout_fill(l, r);
	/* No capacity (cgroup storage) or one value (struct_ops): one row, at that size. */
	l->fixed = !r->max_entries || !strcmp(r->name, "struct_ops");
	l->fixed_entries = r->max_entries;
	if (!strcmp(r->name, "cpumap"))
		l->max_cap = cpumap_cap();
	else if (!strcmp(r->name, "arena"))
		l->max_cap = MM_ARENA_CAP;
	o->ready = true;
	/* Buffers touched now, before any row's cgroup (a fill allocates nothing there). */
	return l->fill_why ? 0 : mb_entries_buffers(&l->e, 0);
}

void mm_other_put(struct mm_other *o)
{
	mb_entries_buffers_free(&o->l.e);
	mb_recipe_map_put(&o->m);
	o->ready = false;
}

int mm_other_value(struct mm_state *st, const char *name)
{
	if (!st->ktypes && mb_kernel_map_types(&st->ktypes, &st->nr_ktypes))
		return -1;
	for (int i = 0; i < st->nr_ktypes; i++)
		if (!strcmp(st->ktypes[i].name, name))
			return st->ktypes[i].value;
	return -1;
}
