// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-mem: the memory footprint of every map type. For each selected type and size: a fresh
 * memory cgroup, joined before the map exists; create the map, fill it from user space, delete
 * everything, close it; the memory charged to the cgroup after each step (waiting for late,
 * RCU-deferred frees where asked), beside the kernel's own estimate, memlock. One table per map
 * type, one row per size. Streaming maps (ring buffers, the perf event array) cannot be filled
 * from user space: for them the charge at creation (a ring is allocated whole then) and at close.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "core/bench.h"
#include "util/json.h"
#include "util/log.h"
#include "drivers/map_create.h"
#include "map_mem.h"
#include "map_mem_run.h"
#include "map_mem_other.h"
#include "maps/maps.h"
#include "sys/meminfo.h"
#include "mem.h"
#include "sys/memcg.h"
#include "util/numparse.h"
#include "sys/probe.h"
#include "core/runner.h"

/* ---- options ---- */

static int nr_types(void)
{
	int n = 0;

	while (mb_map_types[n].name)
		n++;
	return n;
}

/* "all": the types of maps.h's table and those known by their recipe only. */
static uint64_t all_types(void)
{
	return ((1ULL << nr_types()) - 1) | mm_other_types();
}

/* The local storage types' bits: named, or "storage"; "all" leaves them out (README.md). */
static uint64_t storage_types(void)
{
	uint64_t mask = 0;

	for (int i = 0; mb_storage_map_types[i].name; i++)
		mask |= mm_storage_bit(&mb_storage_map_types[i]);
	return mask;
}

/* The bits of one name of --map_type: "all", "storage" or a map type; 0 for none. */
static uint64_t type_bits(const char *name)
{
	const struct mb_map_recipe *r = mb_map_recipe_find(name);
	const struct mb_map_type_info *t;

	if (!strcmp(name, "all"))
		return all_types();
	if (!strcmp(name, "storage"))
		return storage_types();
	t = mb_map_type_by_name(name);
	if (t)
		return 1u << (t - mb_map_types);
	t = mb_storage_type_by_name(name);
	if (t)
		return mm_storage_bit(t);
	return r ? mm_other_bit(r) : 0;
}

static int parse_types(const char *arg, void *field, const char **why)
{
	static char msg[512];
	uint64_t mask = 0;
	const char *p = arg;

	while (*p) {
		size_t len = strcspn(p, ",");
		char name[32];
		uint64_t bits;

		if (!len || len >= sizeof(name)) {
			*why = "an empty or overlong name";
			return -EINVAL;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		bits = type_bits(name);
		if (!bits) {
			snprintf(msg, sizeof(msg), "unknown map type '%s'", name);
			*why = msg;
			return -EINVAL;
		}
		mask |= bits;
		p += len;
		if (*p && !*++p) {
			*why = "ends with ','";
			return -EINVAL;
		}
	}
	if (!mask) {
		*why = "empty";
		return -EINVAL;
	}
	*(uint64_t *)field = mask;
	return 0;
}

/* Names of @mask in @list's order, after @n bytes of @buf; "all"/"storage" for the whole list. */
/* The bit of type @i of @list (mb_map_types, mb_storage_map_types, or NULL: the recipes). */
static uint64_t list_bit(const struct mb_map_type_info *list, int i)
{
	if (!list)
		return mm_other_bit(&mb_map_recipes[i]);
	return list == mb_map_types ? 1ULL << i : mm_storage_bit(&list[i]);
}

static const char *list_name(const struct mb_map_type_info *list, int i)
{
	return list ? list[i].name : mb_map_recipes[i].name;
}

static size_t format_list(uint64_t mask, const struct mb_map_type_info *list, char *buf,
			  size_t n, size_t len)
{
	for (int i = 0; list_name(list, i) && n < len; i++)
		if (mask & list_bit(list, i))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
					      list_name(list, i));
	return n;
}

static void format_types(const void *field, char *buf, size_t len)
{
	uint64_t mask = *(const uint64_t *)field;
	size_t n = 0;

	buf[0] = '\0';
	if ((mask & all_types()) == all_types())
		n = (size_t)snprintf(buf, len, "all");
	else if (mask & all_types())
		n = format_list(mask, NULL, buf, format_list(mask, mb_map_types, buf, 0, len), len);
	if (n < len && (mask & storage_types()) == storage_types())
		snprintf(buf + n, len - n, "%sstorage", n ? "," : "");
	else if (n < len)
		format_list(mask & storage_types(), mb_storage_map_types, buf, n, len);
}

static int parse_sizes(const char *arg, void *field, const char **why)
{
	struct mm_sizes s = { .n = 0 };
	const char *p = arg;

	if (!*p) {
		*why = "empty";
		return -EINVAL;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		char num[32];
		uint64_t v;

		if (!len || len >= sizeof(num)) {
			*why = "an empty size";
			return -EINVAL;
		}
		if (s.n == MM_MAX_SIZES) {
			*why = "at most 16 sizes";
			return -EINVAL;
		}
		memcpy(num, p, len);
		num[len] = '\0';
		if (mb_parse_u64(num, &v) || v < 1 || v > MM_MAX_ENTRIES) {
			*why = "a size that is not 1..67108864";
			return -EINVAL;
		}
		s.v[s.n++] = (uint32_t)v;
		p += len;
		if (*p && !*++p) {
			*why = "ends with ','";
			return -EINVAL;
		}
	}
	*(struct mm_sizes *)field = s;
	return 0;
}

static void format_sizes(const void *field, char *buf, size_t len)
{
	const struct mm_sizes *s = field;
	size_t n = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < s->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%u", i ? "," : "", s->v[i]);
}

static const struct mb_opt map_mem_opts[] = {
	MB_OPT_CUSTOM_DEF("map_type", struct map_mem_args, types, "all", parse_types, format_types,
			  "all, or names joined by ',': hash, percpu_hash, lru_hash, lru_percpu_hash, array, percpu_array, array_of_maps, hash_of_maps, lpm_trie, bloom_filter, ringbuf, user_ringbuf, perf_event_array, every other type of mapbench --map-types (prog_array, queue, devmap, arena, ...), task_storage, sk_storage, cgrp_storage, inode_storage, storage",
			  "TYPES", "map types to measure; storage: the four local storage types, per owner beside a hash keyed by owner id (all leaves them out); the other types are made from their recipe (its sizes)"),
	MB_OPT_CUSTOM_DEF("max_entries", struct map_mem_args, sizes, "10000", parse_sizes,
			  format_sizes, "1..67108864; up to 16 sizes joined by ',' (a sweep)",
			  "N[,N...]",
			  "map sizes; ringbuf, user_ringbuf: bytes, a power of two multiple of the page size (with --map_type all or the default size, others are rounded up to one); storage types: owners (threads, sockets, cgroups, files), each with one value"),
	/* 0 is valid here: every map filled to its own max_entries. */
	MB_OPT_NR_ENTRIES(struct map_mem_args, nr_entries, "0", 0, MM_MAX_ENTRIES,
			  "entries to insert; 0: fill every map to its max_entries"),
	MB_OPT_KEY_SIZE(struct map_mem_args, key_size, "4", 1, MM_KEY_MAX,
			"lpm_trie: data bytes after the 4-byte prefix length; arrays: always 4; ring types: none"),
	MB_OPT_VALUE_SIZE(struct map_mem_args, value_size, "8", 1, MM_VALUE_MAX,
			  "per CPU for per-CPU maps; map-in-map: always 4, an inner map; ring types: none"),
	MB_OPT_MAP_FLAGS(struct map_mem_args, map_flags, "a number, or names joined by '|'",
			 "for the types that take them (lpm_trie always has no_prealloc)"),
	MB_OPT_U32_DEF("settle_ms", struct map_mem_args, settle_ms, "1000", 0, 60000, "MS",
		       "a wait for freed memory ends once the charge stopped falling this long"),
	MB_OPT_U32_DEF("release_timeout_ms", struct map_mem_args, release_timeout_ms, "20000", 0,
		       600000, "MS", "longest wait for freed memory to be uncharged; 0: read at once"),
	MB_OPT_END,
};

static uint32_t nr_to_insert(const struct map_mem_args *a, uint32_t max_entries)
{
	return a->nr_entries ? a->nr_entries : max_entries;
}

/* Flags @t would refuse: outside what it takes (lpm_trie always has no_prealloc). */
static uint32_t refused_flags(const struct mb_map_type_info *t, uint32_t flags)
{
	uint32_t ok = t->flags_ok | (t->type == BPF_MAP_TYPE_LPM_TRIE ? BPF_F_NO_PREALLOC : 0);

	return flags & ~ok;
}

/* Streaming types have fixed key and value sizes; a ring's size is bytes of whole pages. */
static int check_stream(struct mb_run *run, const struct mb_map_type_info *t)
{
	const struct map_mem_args *a = run->args;
	long page = sysconf(_SC_PAGESIZE);

	bool key = mb_run_opt_given(run, "key_size"), value = mb_run_opt_given(run, "value_size");

	if (key && t->ring)
		return mb_run_usage(run, "--key_size %u: %s has no key (leave it out)", a->key_size,
				    t->name);
	if (key && a->key_size != 4)
		return mb_run_usage(run, "--key_size %u: %s keys are 4-byte indexes (must be 4)",
				    a->key_size, t->name);
	if (value && t->ring)
		return mb_run_usage(run, "--value_size %u: %s has no value (leave it out)",
				    a->value_size, t->name);
	if (value && a->value_size != 4)
		return mb_run_usage(run, "--value_size %u: %s values are perf event fds (must be 4)",
				    a->value_size, t->name);
	for (uint32_t i = 0; t->ring && mb_run_opt_given(run, "max_entries") && i < a->sizes.n; i++)
		if (!mm_ring_size_ok(a->sizes.v[i]))
			return mb_run_usage(run, "--max_entries %u: %s sizes are bytes, a power of two from %ld (the page size) to %u",
					    a->sizes.v[i], t->name, page, MM_MAX_ENTRIES);
	return 0;
}

/* Flags @bad that type @t refuses: those it does not take, and bits that are no flag at all. */
static int refuse_flags(struct mb_run *run, const struct mb_map_type_info *t, uint32_t bad)
{
	const struct map_mem_args *a = run->args;
	uint32_t named = bad & ~mb_map_flags_unnamed(bad);
	char given[64], flags[128] = "", note[256];

	mb_map_flags_given(a->map_flags, given, sizeof(given));
	mb_map_flags_unnamed_note(bad, note, sizeof(note));
	if (named)
		mb_map_flags_format(named, flags, sizeof(flags));
	return mb_run_usage(run, "--map_flags %s: %s%s%s%s%s", given, named ? t->name : "",
			    named ? " does not take " : "", flags, named && note[0] ? "; " : "",
			    note);
}

/* Explicitly named types must take the sizes and flags given; "all" adapts them per type. */
static int check_type(struct mb_run *run, const struct mb_map_type_info *t, bool strict)
{
	const struct map_mem_args *a = run->args;
	uint32_t bad = refused_flags(t, a->map_flags);

	if (!strict)
		return 0;
	if (t->stream)
		return check_stream(run, t);
	if (mb_run_opt_given(run, "key_size") && t->array && a->key_size != 4)
		return mb_run_usage(run, "--key_size %u: %s keys are 4-byte indexes (must be 4)",
				    a->key_size, t->name);
	if (mb_run_opt_given(run, "key_size") && t->type == BPF_MAP_TYPE_BLOOM_FILTER)
		return mb_run_usage(run, "--key_size %u: bloom_filter has no key (leave it out)",
				    a->key_size);
	if (t->type == BPF_MAP_TYPE_LPM_TRIE && a->key_size > MM_LPM_MAX_DATA)
		return mb_run_usage(run, "--key_size %u: lpm_trie keys hold 1..%d data bytes after the prefix length",
				    a->key_size, MM_LPM_MAX_DATA);
	if (mb_run_opt_given(run, "value_size") && t->map_in_map && a->value_size != 4)
		return mb_run_usage(run, "--value_size %u: %s values are inner map fds (must be 4)",
				    a->value_size, t->name);
	if (bad)
		return refuse_flags(run, t, bad);
	return 0;
}

static int map_mem_validate(struct mb_run *run)
{
	const struct map_mem_args *a = run->args;
	bool strict = mb_run_opt_given(run, "map_type") && (a->types & all_types()) != all_types();
	uint32_t smallest = UINT32_MAX, largest = 0, taken = 0;
	char flags[128];
	int err;

	for (uint32_t i = 0; i < a->sizes.n; i++) {
		smallest = a->sizes.v[i] < smallest ? a->sizes.v[i] : smallest;
		largest = a->sizes.v[i] > largest ? a->sizes.v[i] : largest;
	}
	if (a->nr_entries > smallest)
		return mb_run_usage(run, "--nr_entries %u: must be at most the smallest --max_entries (%u)",
				    a->nr_entries, smallest);
	for (int i = 0; mb_map_types[i].name; i++) {
		const struct mb_map_type_info *t = &mb_map_types[i];
		struct mm_layout l;

		if (!(a->types & (1u << i)))
			continue;
		err = check_type(run, t, strict);
		if (err)
			return err;
		taken |= a->map_flags & ~refused_flags(t, a->map_flags);
		if (t->stream)
			continue;	/* nothing is inserted */
		/* Distinct keys need enough key bytes (sizes only: no buffers yet). */
		mm_layout_sizes(&l, t, a->key_size, a->value_size, 0, -1);
		if (!mb_entries_fit(&l.e, nr_to_insert(a, largest)))
			return mb_run_usage(run, "--key_size %u: %s keys of %u bytes give %llu distinct keys, fewer than the %u entries to insert",
					    a->key_size, t->name, a->key_size,
					    1ULL << (8 * a->key_size), nr_to_insert(a, largest));
	}
	/* Types known by their recipe: made as it says, with the sizes asked where they take one. */
	for (int i = 0; strict && mb_map_recipes[i].name; i++) {
		if (!(a->types & mm_other_bit(&mb_map_recipes[i])))
			continue;
		err = mm_other_validate(run, &mb_map_recipes[i]);
		if (err)
			return err;
	}
	/* Storage types are always named: the options must suit them. */
	for (int i = 0; mb_storage_map_types[i].name; i++) {
		const struct mb_map_type_info *t = &mb_storage_map_types[i];

		if (!(a->types & mm_storage_bit(t)))
			continue;
		err = check_type(run, t, true);
		err = err ? err : mm_storage_validate(run, t);
		if (err)
			return err;
		taken |= a->map_flags & ~refused_flags(t, a->map_flags);
	}
	if (a->map_flags & ~taken) {
		char given[64], note[256];

		mb_map_flags_given(a->map_flags, given, sizeof(given));
		mb_map_flags_format(a->map_flags & ~taken, flags, sizeof(flags));
		mb_map_flags_unnamed_note(a->map_flags & ~taken, note, sizeof(note));
		return mb_run_usage(run, "--map_flags %s: no selected map type takes %s%s%s",
				    given, flags, note[0] ? "; " : "", note);
	}
	return 0;
}

/* ---- one measurement ---- */

/*
 * Per-CPU memory in use system-wide (/proc/meminfo "Percpu": populated pages of every CPU).
 * Per-CPU values allocated while a map is created are not charged to the creator's cgroup
 * (map_create records the map's cgroup after the allocation, and bpf_map_alloc_percpu charges
 * the map's), so map-mem shows their growth beside the cgroup's figures. Bytes; NaN where it
 * cannot be read.
 */
static double percpu_now(void)
{
	uint64_t v;

	return mb_meminfo_get("Percpu", &v) ? NAN : (double)v;
}

/* Entries holding a value after the fill, and the per-CPU values they have. */
static void count_entries(struct mm_layout *l, int fd, uint32_t max_entries, struct mm_row *r)
{
	/* Every array slot holds a value; an LRU map may have evicted some entries. */
	mm_phase(0, 0, "map-mem: %s, %u entries: counting", l->t->name, max_entries);
	if (l->t->array && !l->t->map_in_map)
		r->entries = max_entries;
	else if (l->t->lru && mm_count(l, fd, &r->entries, mm_phase_stop))
		r->entries = r->nr;
	else if (!l->t->lru)
		r->entries = r->nr;
	r->percpu_values = mm_percpu_values_bytes(l, max_entries, r->entries);
	r->percpu_charged = mm_percpu_charged(l);
}

/* Delete every entry of the filled map @fd, then wait for the memory to come back. */
static void measure_delete(struct mb_run *run, struct mm_state *st, struct mm_layout *l, int fd,
			   uint32_t max_entries, struct mm_row *r,
			   const struct mb_memcg_usage *base, uint64_t slack)
{
	struct mb_fill_result res;
	struct mb_memcg_usage u;
	struct mb_fill f;
	uint64_t t0;
	int err;

	mm_phase(r->nr, l->e.chunk, "map-mem: %s, %u entries: deleting", l->t->name, max_entries);
	f = mm_request(l, fd, r->nr, mm_phase_stop);
	t0 = mb_now_ns();
	err = mb_map_empty(&f, &res);
	r->delete_ms = (double)(mb_now_ns() - t0) / 1e6;
	r->delete_batched = res.method == MB_FILL_BATCH;
	/* Only an LRU map may have lost keys before (evicted). */
	if (!err && res.failed && !l->t->lru)
		err = -ENOENT;
	r->can_delete = err != -EOPNOTSUPP;
	if (!r->can_delete) {
		r->delete_ms = NAN;
	} else if (err) {
		mm_row_fail(st, r, err, "deleting every entry");
	} else {
		r->memlock_deleted = mm_memlock_of(fd);
		if (mm_read_charged(st, r, &u)) {
			r->deleted_now = mm_delta(u.charged, base->charged);
			/* Deleted elements come back late (RCU); at best to the created size. */
			mm_phase(0, 0, "map-mem: %s, %u entries: waiting for the deleted entries' release",
				 l->t->name, max_entries);
			mm_wait_release(run, st,
					base->charged + (uint64_t)fmax(r->created, 0) + slack,
					&r->del_wait, &r->del_waited);
			r->deleted = mm_delta(r->del_wait.end_bytes, base->charged);
		}
	}
}

static void measure(struct mb_run *run, struct mm_state *st, struct mm_layout *l,
		    uint32_t max_entries, struct mm_row *r)
{
	struct mb_memcg_usage base = {}, u;
	uint64_t t0, slack = mm_row_begin(st, max_entries, nr_to_insert(run->args, max_entries), r,
					  &base);
	struct mb_fill_result res;
	struct mb_fill f;
	double percpu0;
	int fd, err;

	percpu0 = percpu_now();
	mm_phase(0, 0, "map-mem: %s, %u entries: creating", l->t->name, max_entries);
	fd = mm_create(l, max_entries);
	if (fd < 0) {
		mm_row_fail(st, r, fd, "creating the map");
		goto out;
	}
	r->memlock_created = mm_memlock_of(fd);
	r->percpu_created = percpu_now() - percpu0;
	if (mm_read_charged(st, r, &u)) {
		r->created = mm_delta(u.charged, base.charged);
		r->usage_created = mm_delta(u.usage, base.usage);
	}
	/* A streaming map is allocated whole at creation; only BPF or a producer writes it. */
	r->fill_reason = l->fill_why ? l->fill_why : mm_fill_reason(l->t);
	if (r->fill_reason)
		goto close;

	mm_phase(r->nr, l->e.chunk, "map-mem: %s, %u entries: filling", l->t->name, max_entries);
	f = mm_request(l, fd, r->nr, mm_phase_stop);
	t0 = mb_now_ns();
	err = mb_map_fill(&f, &res);
	r->fill_batched = res.method == MB_FILL_BATCH;
	r->fill_ms = (double)(mb_now_ns() - t0) / 1e6;
	if (err) {
		mm_row_fail(st, r, err, "filling the map");
		goto close;
	}
	r->memlock_filled = mm_memlock_of(fd);
	r->percpu_filled = percpu_now() - percpu0;
	if (mm_read_charged(st, r, &u)) {
		r->filled = mm_delta(u.charged, base.charged);
		r->usage_filled = mm_delta(u.usage, base.usage);
		r->peak = mm_delta(st->cg.kmem ? u.kmem_peak : u.peak,
				   st->cg.kmem ? base.kmem : base.usage);
	}
	count_entries(l, fd, max_entries, r);
	if (mb_interrupted())
		goto close;

	measure_delete(run, st, l, fd, max_entries, r, &base, slack);
close:
	close(fd);
	if (!r->err && r->memcg && !mb_interrupted()) {
		/* The map itself is freed later still, from a workqueue after RCU. */
		mm_phase(0, 0, "map-mem: %s, %u entries: waiting for the closed map's release",
			 l->t->name, max_entries);
		mm_wait_release(run, st, base.charged + slack, &r->close_wait, &r->close_waited);
		r->closed = mm_delta(r->close_wait.end_bytes, base.charged);
	}
out:
	mm_phase_clear();
	mm_row_end(run, st);
}

/* ---- output ---- */

static struct mb_json *type_json(const struct mm_layout *l)
{
	struct mb_json *o = mb_json_object();
	char flags[128];

	mb_map_flags_format(l->flags, flags, sizeof(flags));
	mb_json_set_num(o, "key_size", l->e.key_size);
	mb_json_set_num(o, "value_size", l->e.value_size);
	mb_json_set_bool(o, "percpu", l->t->percpu);
	mb_json_set(o, "percpu_values_charged", l->t->percpu ?
		    mb_json_bool(mm_percpu_charged(l)) : mb_json_null());
	mb_json_set_str(o, "map_flags", flags);
	if (l->t->stream)
		mb_json_set_str(o, "stream", l->t->ring ? "ring" : "fd_array");
	mb_json_set(o, "rows", mb_json_array());
	return o;
}

/* ---- the bench ---- */

static int map_mem_setup(struct mb_run *run)
{
	const struct map_mem_args *a = run->args;
	struct mm_state *st = calloc(1, sizeof(*st));
	struct mb_json *mc;
	bool inner = false;
	int err;

	if (!st)
		return -ENOMEM;
	run->priv = st;
	run->runner = "syscall";
	st->inner_fd = -1;
	mm_phase_init();
	for (int i = 0; mb_map_types[i].name; i++)
		inner |= (a->types & (1u << i)) && mb_map_types[i].map_in_map;
	/* Made before any measurement's cgroup exists, so no row is charged for it. */
	if (inner) {
		struct mb_map_desc d = { .type = mb_map_type_by_type(BPF_MAP_TYPE_ARRAY),
					 .name = "mb_mem_inner", .key_size = 4, .value_size = 4,
					 .max_entries = 1 };

		st->inner_fd = mb_run_map_create(run, &d,
						 "creating the inner map for map-in-map types");
		if (st->inner_fd < 0)
			return st->inner_fd;
	}
	err = mm_storage_setup(run, st);
	/* A type named that this kernel lacks ends the run (all: its table says so). */
	if (!err && mb_run_opt_given(run, "map_type") && (a->types & all_types()) != all_types())
		err = mm_other_present(run, st);
	if (err)
		return err;
	st->memcg_ok = !mb_memcg_detect_self(&st->site, st->memcg_why, sizeof(st->memcg_why));
	/* A trial cgroup: whether one can be made and joined is checked once, up front. */
	if (st->memcg_ok && mb_memcg_enter(&st->site, &st->cg, st->memcg_why,
					   sizeof(st->memcg_why)))
		st->memcg_ok = false;
	if (st->cg.created && mb_memcg_leave(&st->cg))
		mb_run_warn(run, "cannot remove the memory cgroup %s", st->cg.path);
	if (!st->memcg_ok)
		mb_run_warn(run, "memory figures unavailable (%s): only memlock is measured",
			    st->memcg_why);
	mc = mem_memcg_json(&st->cg, st->memcg_ok, st->memcg_why);
	if (st->memcg_ok) {
		/* Each row has its own cgroup under this folder. */
		mb_json_set(mc, "path", mb_json_null());
		mb_json_set_str(mc, "parent", st->site.parent);
	}
	mb_json_set(mb_run_extra(run), "memcg", mc);
	mb_json_set_num(mb_run_extra(run), "settle_ms", a->settle_ms);
	mb_json_set_num(mb_run_extra(run), "release_timeout_ms", a->release_timeout_ms);
	return 0;
}

/* Every size of the type @l lays out, or @skip: why not (the kernel lacks the type). */
static void measure_sizes(struct mb_run *run, struct mm_state *st, struct mm_layout *l,
			  const char *skip, struct mb_json *footprint)
{
	const struct map_mem_args *a = run->args;
	const struct mb_map_type_info *t = l->t;
	struct mb_json *tj = type_json(l), *rows, *row;

	if (l->fill_why)
		mb_json_set_str(tj, "fill_reason", l->fill_why);
	if (l->fixed)
		mb_json_set_str(tj, "size_rule", l->fixed_entries ?
				"one value only: max_entries is always 1, whatever --max_entries says" :
				"no capacity: max_entries is always 0, whatever --max_entries says");
	else if (l->max_cap)
		mb_json_set_str(tj, "size_rule", "sizes above the type's limit are capped to it (rounded_from: the size asked)");
	mb_json_set(footprint, t->name, tj);
	tj = mb_json_get(footprint, t->name);
	rows = mb_json_get(tj, "rows");
	mb_run_partial(run, &(struct mm_news){ .kind = MM_NEWS_HEADER, .type = t->name, .tj = tj });
	if (skip) {
		mb_run_partial(run, &(struct mm_news){ .kind = MM_NEWS_SKIPPED, .why = skip });
		mb_json_set_str(tj, "skipped", skip);
		return;
	}
	for (uint32_t i = 0, prev = UINT32_MAX; i < a->sizes.n && !mb_interrupted(); i++) {
		uint32_t asked = a->sizes.v[i];
		/* Validation refused other ring sizes where the types were named. */
		uint32_t size = mm_layout_size(l, asked);
		struct mm_row r;

		/* A fixed or capped size: the row it gives once. */
		if (size == prev && (l->fixed || l->max_cap))
			continue;
		prev = size;
		measure(run, st, l, size, &r);
		r.rounded_from = size != asked && !l->fixed ? asked : 0;
		row = mm_row_json(&r);
		mb_run_partial(run, &(struct mm_news){ .kind = MM_NEWS_ROW, .row = row,
						       .percpu = t->percpu });
		mb_json_append(rows, row);
	}
	mb_run_partial(run, &(struct mm_news){ .kind = MM_NEWS_NOTE, .type = t->name, .tj = tj });
}

static int measure_type(struct mb_run *run, struct mm_state *st,
			const struct mb_map_type_info *t, struct mb_json *footprint)
{
	const struct map_mem_args *a = run->args;
	struct mm_layout l;
	char why[256];
	int err;

	err = mm_layout_init(&l, t, a->key_size, a->value_size, a->map_flags, st->inner_fd);
	if (err)
		return mb_run_fail(run, err, "%s: cannot allocate buffers: %s", t->name,
				   strerror(-err));
	measure_sizes(run, st, &l, mb_probe_map_type(t->type, t->name, why, sizeof(why)) ? why :
				     NULL, footprint);
	mm_layout_free(&l);
	return 0;
}

/* A type known by its recipe: made from it, the kernel's value for its name. */
static int measure_other(struct mb_run *run, struct mm_state *st, const struct mb_map_recipe *r,
			 struct mb_json *footprint)
{
	int value = mm_other_value(st, r->name), err;
	struct mm_other *o = calloc(1, sizeof(*o));
	char why[256];

	if (!o)
		return mb_run_fail(run, -ENOMEM, "%s: out of memory", r->name);
	if (value < 0) {
		/* Not on this kernel: a header and the reason, as a type the kernel lacks. */
		struct mb_map_type_info ti = { .name = r->name };
		struct mm_layout l = { .t = &ti };

		snprintf(why, sizeof(why), "not on this kernel: %s",
			 r->since ? r->since : "its BTF does not name it");
		measure_sizes(run, st, &l, why, footprint);
		free(o);
		return 0;
	}
	err = mm_other_get(o, r, value, why, sizeof(why));
	if (err == -ENOMEM) {
		mm_other_put(o);
		free(o);
		return mb_run_fail(run, err, "%s: cannot allocate buffers", r->name);
	}
	if (!err)
		err = mb_map_probe_type(r, value, why, sizeof(why));
	measure_sizes(run, st, &o->l, err ? why : NULL, footprint);
	mm_other_put(o);
	free(o);
	return 0;
}

static int map_mem_run_once(struct mb_run *run)
{
	const struct map_mem_args *a = run->args;
	struct mm_state *st = run->priv;
	struct mb_json *footprint = mb_json_child(mb_run_extra(run), "footprint");
	int err;

	for (int i = 0; mb_map_types[i].name && !mb_interrupted(); i++) {
		if (!(a->types & (1u << i)))
			continue;
		err = measure_type(run, st, &mb_map_types[i], footprint);
		if (err)
			return err;
	}
	for (int i = 0; mb_map_recipes[i].name && !mb_interrupted(); i++) {
		if (!(a->types & mm_other_bit(&mb_map_recipes[i])))
			continue;
		err = measure_other(run, st, &mb_map_recipes[i], footprint);
		if (err)
			return err;
	}
	for (int i = 0; mb_storage_map_types[i].name && !mb_interrupted(); i++) {
		if (!(a->types & mm_storage_bit(&mb_storage_map_types[i])))
			continue;
		err = mm_storage_measure_type(run, st, &mb_storage_map_types[i], footprint);
		if (err)
			return err;
	}
	mb_run_partial(run, &(struct mm_news){ .kind = MM_NEWS_LEGEND });
	if (st->nr_failed)
		return mb_run_fail(run, st->first_err, "%d of %d measurements failed; the first: %s",
				   st->nr_failed, st->nr_rows, st->first_why);
	return 0;
}

static void map_mem_teardown(struct mb_run *run)
{
	struct mm_state *st = run->priv;

	if (!st)
		return;
	if (st->cg.created && mb_memcg_leave(&st->cg))
		mb_run_warn(run, "cannot remove the memory cgroup %s", st->cg.path);
	if (st->inner_fd >= 0)
		close(st->inner_fd);
	mm_storage_teardown(st);
	free(st->ktypes);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_map_mem = {
	.name = "map-mem",
	.family = "memory",
	.desc = "memory footprint of every map type: charged at creation, filled, emptied, closed, beside memlock",
	.opts = map_mem_opts,
	.args_size = sizeof(struct map_mem_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER | MB_BENCH_FOOTPRINT,
	.map_types = mb_map_recipe_names,	/* a row for every type, from its recipe */
	.text = &mm_text,
	.validate = map_mem_validate,
	.setup = map_mem_setup,
	.run_once = map_mem_run_once,
	.teardown = map_mem_teardown,
};
