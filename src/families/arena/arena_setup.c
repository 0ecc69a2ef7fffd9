// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The arena's set-up: the map created from user space and mmapped before the programs load
 * (the kernel refuses a program on an arena without a user address, and libbpf 1.1.2 knows
 * nothing of arenas: it takes the map with bpf_map__reuse_fd).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "arena.h"
#include "arena.skel.h"
#include "drivers/map_probe.h"
#include "sys/probe.h"

/* BPF_MAP_TYPE_ARENA (6.9+), which this system's uapi headers lack. */
#define AR_MAP_TYPE_ARENA	33

int ar_call(int prog_fd, struct ar_ctx *c)
{
	/* A syscall program's ctx is copied in and back out to ctx_in. */
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = c, .ctx_size_in = sizeof(*c));

	if (bpf_prog_test_run_opts(prog_fd, &o))
		return -errno;
	return o.retval ? -EIO : 0;
}

/* From the arena's recipe (maps/map_recipe.c): mmapable, max_entries in pages. */
static int ar_map(struct mb_run *run, struct ar_state *st)
{
	const struct mb_map_recipe *r = mb_map_recipe_find("arena");
	struct mb_recipe_map m;
	char why[256];
	int err = mb_recipe_map_get(&m, r, AR_MAP_TYPE_ARENA, st->arena_pages, why, sizeof(why));

	if (!err) {
		m.d.name = "mb_arena";
		st->map_fd = mb_run_map_create(run, &m.d, NULL);
	}
	mb_recipe_map_put(&m);
	if (err)
		return mb_run_fail(run, err, "cannot describe the arena: %s", why);
	if (st->map_fd < 0)
		return st->map_fd;
	st->len = (size_t)st->arena_pages * AR_PAGE_SIZE;
	st->mem = mmap(NULL, st->len, PROT_READ | PROT_WRITE, MAP_SHARED, st->map_fd, 0);
	if (st->mem == MAP_FAILED) {
		st->mem = NULL;
		return mb_run_fail(run, -errno, "cannot mmap the arena (%u pages): %s",
				   st->arena_pages, strerror(errno));
	}
	return 0;
}

static int ar_load(struct mb_run *run, struct ar_state *st)
{
	char why[1024];
	int err;

	st->skel = arena_bpf__open();
	if (!st->skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	err = bpf_map__reuse_fd(st->skel->maps.mb_arena, st->map_fd);
	if (err)
		return mb_run_fail(run, err, "cannot give the arena to the BPF object: %s",
				   strerror(-err));
	err = arena_bpf__load(st->skel);
	if (err == -ESRCH || err == -ENOENT)
		return mb_run_skip(run, "arena: the kernel has no bpf_arena_alloc_pages kfunc");
	if (err) {
		mb_explain_load_error(err, "cannot load the arena programs", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	return 0;
}

int ar_setup(struct mb_run *run, uint32_t arena_pages)
{
	struct ar_state *st;
	char why[256];
	int err;

	if (sysconf(_SC_PAGESIZE) != AR_PAGE_SIZE)
		return mb_run_skip(run, "arena: the benches assume 4 KiB pages");
	if (mb_map_probe_type(mb_map_recipe_find("arena"), AR_MAP_TYPE_ARENA, why, sizeof(why)))
		return mb_run_skip(run, "arena: %s", why);
	st = calloc(1, sizeof(*st));
	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	st->map_fd = -1;
	st->arena_pages = arena_pages;
	run->runner = "syscall-prog";
	err = ar_map(run, st);
	if (!err)
		err = ar_load(run, st);
	return err;
}

void ar_teardown(struct mb_run *run)
{
	struct ar_state *st = run->priv;

	if (!st)
		return;
	arena_bpf__destroy(st->skel);
	if (st->mem)
		munmap(st->mem, st->len);
	if (st->map_fd >= 0)
		close(st->map_fd);
	free(st);
	run->priv = NULL;
}
