// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-scan's map: made from the options, filled with entries 0..N-1 (their number in the
 * key's first 4 bytes; LPM keys: /32 prefixes, the number in the address), which the kernel's
 * jhash with the map's random seed spreads over the whole bucket table at any fill, and
 * filled again after each drain, outside the timed walk. In the kernel where the drivers can
 * (index keys, zero values) and the fill is large, else in batches from user space
 * (hash_of_maps: every entry holds the same inner map; lpm_trie: key by key).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf.h>

#include "scan.h"
#include "scan_shared.h"
#include "core/env.h"
#include "core/run.h"
#include "drivers/map_create.h"
#include "drivers/map_fill.h"
#include "drivers/map_report.h"
#include "sys/probe.h"
#include "util/cpuset.h"

/* A fill of millions of entries takes seconds: SIGINT ends it. */
static bool interrupted(void *ctx)
{
	(void)ctx;
	return mb_interrupted();
}

/*
 * Fills smaller than this go in batches from user space: they take well under a millisecond
 * so, less than loading the fill programs (whose CO-RE parses the kernel's BTF, ~80 ms here),
 * and below the drivers' parallel threshold the kernel's fill runs on one CPU too.
 */
#define SCAN_KERNEL_FILL_MIN	4096

/* An LRU map without a common list: each CPU's list holds its share of the nodes. */
static bool per_cpu_lru(const struct scan_state *st)
{
	return st->type->lru && (st->a->map_flags & BPF_F_NO_COMMON_LRU);
}

static struct mb_fill fill_req(struct mb_run *run, struct scan_state *st)
{
	bool kernel = !st->type->map_in_map && st->e.key != MB_KEY_LPM &&
		      (st->a->entries >= SCAN_KERNEL_FILL_MIN || per_cpu_lru(st));

	return (struct mb_fill){
		.fd = st->fd, .e = &st->e, .count = st->a->entries,
		.method = kernel ? MB_FILL_KERNEL : MB_FILL_BATCH, .filler = st->filler,
		.cpus = &run->env->online, .stop = interrupted,
	};
}

/*
 * no_common_lru: a CPU's updates take nodes from its own list alone (and evict from it), so
 * each online CPU fills its share of the entries, in the kernel on that CPU.
 */
static int fill_per_cpu(const struct mb_fill *all, const struct mb_cpuset *cpus,
			struct mb_fill_result *r)
{
	struct mb_fill f = *all;
	uint64_t failed = 0;
	int c = -1, k = 0, err = 0;

	f.cpus = NULL;
	f.on_cpu = true;
	while (!err && (c = mb_cpuset_next(cpus, c + 1)) >= 0) {
		f.first = (uint32_t)((uint64_t)all->count * k / cpus->count);
		f.count = (uint32_t)((uint64_t)all->count * ++k / cpus->count) - f.first;
		f.cpu = c;
		err = f.count ? mb_map_fill(&f, r) : 0;
		failed += f.count ? r->failed : 0;
	}
	r->failed = failed;
	return err;
}

/* Fill (again): every entry must be there after it, none evicted. */
int scan_refill(struct mb_run *run, struct scan_state *st)
{
	struct mb_fill f = fill_req(run, st);
	struct mb_fill_result r = { 0 };
	int err = per_cpu_lru(st) && run->env->online.count > 1 ?
		  fill_per_cpu(&f, &run->env->online, &r) : mb_map_fill(&f, &r);

	if (err == -EINTR)
		return err;
	if (err)
		return mb_run_fail(run, err, "cannot fill the %s map with %u entries: %s",
				   st->type->name, f.count, strerror(-err));
	if (!r.failed && st->type->lru) {
		f.method = f.method == MB_FILL_KERNEL ? MB_FILL_KERNEL : MB_FILL_SINGLE;
		err = mb_map_check(&f, &r);
	}
	if (!err && r.failed)
		return mb_run_fail(run, -ENOSPC, "the fill of %u entries into the %s map of %u left %llu out (an LRU map evicts before it is full: use a smaller --fill)",
				   f.count, st->type->name, st->a->max_entries,
				   (unsigned long long)r.failed);
	return err ? mb_run_fail(run, err, "cannot check the fill: %s", strerror(-err)) : 0;
}

static int create_map(struct mb_run *run, struct scan_state *st)
{
	const struct scan_args *a = st->a;
	bool lpm = st->type->type == BPF_MAP_TYPE_LPM_TRIE;
	struct mb_map_desc d = {
		.type = st->type, .name = "mb_scan", .key_size = st->key_size,
		.value_size = a->value_size, .max_entries = a->max_entries,
		.flags = a->map_flags | (lpm ? BPF_F_NO_PREALLOC : 0), .inner_fd = -1,
	};
	struct mb_map_desc inner = {
		.type = mb_map_type_by_name("array"), .name = "mb_scan_inner", .key_size = 4,
		.value_size = 8, .max_entries = 1, .inner_fd = -1,
	};

	if (st->type->map_in_map) {
		st->inner_fd = mb_run_map_create(run, &inner, NULL);
		if (st->inner_fd < 0)
			return st->inner_fd;
		d.inner_fd = st->inner_fd;
	}
	st->fd = mb_run_map_create(run, &d, NULL);
	return st->fd < 0 ? st->fd : 0;
}

/* What a walk of the full map must find: how many entries, and their fingerprint. */
static void expect(struct scan_state *st)
{
	uint64_t n = st->type->array ? st->a->max_entries : st->a->entries;

	st->present = n;
	st->sum = 0;
	for (uint64_t i = 0; i < n; i++)
		st->sum += scan_mix((uint32_t)i);
}

static int open_filler(struct mb_run *run, struct scan_state *st)
{
	struct mb_fill f = fill_req(run, st);
	char why[1024];

	/* Arrays hold every slot from their creation: nothing to fill. */
	if (f.method != MB_FILL_KERNEL || !f.count || st->type->array)
		return 0;
	st->filler = mb_filler_open(&f, MB_FILL_OPS(MB_FILL_OP_FILL) |
					       MB_FILL_OPS(MB_FILL_OP_CHECK));
	if (st->filler)
		return 0;
	mb_explain_load_error(-errno, "cannot load the fill programs", why, sizeof(why));
	return mb_run_fail(run, -errno, "%s", why);
}

static bool run_ends(void *ctx)
{
	return mb_run_should_stop(ctx);
}

int scan_setup(struct mb_run *run)
{
	const struct scan_args *a = run->args;
	struct scan_state *st = calloc(1, sizeof(*st));
	int err;

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "syscall";
	st->a = a;
	st->fd = st->inner_fd = -1;
	st->stop = run_ends;
	st->stop_ctx = run;
	st->miscount = getenv(SCAN_MISCOUNT_ENV) ? atoll(getenv(SCAN_MISCOUNT_ENV)) : -1;
	st->method = (enum scan_method)a->method;
	st->type = mb_map_type_by_name(scan_type_names[a->map_type]);
	st->key_size = st->type->type == BPF_MAP_TYPE_LPM_TRIE ? 8 : 4;
	st->e = (struct mb_entries){
		.type = st->type, .key_size = st->key_size, .value_size = a->value_size,
		.key = st->type->type == BPF_MAP_TYPE_LPM_TRIE ? MB_KEY_LPM : MB_KEY_INDEX,
		.value = st->type->map_in_map ? MB_VALUE_FD : MB_VALUE_ZERO,
	};
	expect(st);
	err = create_map(run, st);
	if (!err) {
		st->e.value_fd = st->inner_fd;
		err = open_filler(run, st);
	}
	if (!err && !st->type->array)
		err = scan_refill(run, st);
	if (err == -EINTR)
		return 0;	/* SIGINT: the runner ends the run */
	if (!err && (st->method == SCAN_ITER || st->method == SCAN_FOR_EACH))
		err = scan_prog_open(run, st);
	if (!err && a->churn && !(st->seen = calloc(st->present ? st->present : 1, 1)))
		err = mb_run_fail(run, -ENOMEM, "out of memory");
	if (err)
		return err;
	mb_run_report_map_memory(run, "map", st->fd, st->present);
	return 0;
}

void scan_teardown(struct mb_run *run)
{
	struct scan_state *st = run->priv;

	if (!st)
		return;
	scan_stall_stop(st);
	scan_churn_stop(st);
	scan_prog_close(st);
	mb_filler_close(st->filler);
	free(st->seen);
	if (st->fd >= 0)
		close(st->fd);
	if (st->inner_fd >= 0)
		close(st->inner_fd);
	free(st);
	run->priv = NULL;
}
