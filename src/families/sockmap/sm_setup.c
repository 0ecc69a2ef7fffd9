// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sockmap family: the check of --nr_entries against what the machine allows (fds and
 * ephemeral ports), set-up (the sockets, their cookies, the map at its level, each entry
 * read back) and teardown (the map, then the sockets: closed with a reset, nothing stays).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "sockmap.h"
#include "core/run.h"
#include "drivers/map_create.h"
#include "maps/maps.h"

/* fds kept free for everything else a run opens (maps, programs, output files). */
#define SM_FD_RESERVE	64

static uint32_t spares(const struct sm_args *a, enum sm_op op)
{
	return op == SM_LOOKUP ? 0 : a->batch;
}

int sm_validate(struct mb_run *run, enum sm_op op)
{
	const struct sm_args *a = run->args;
	uint64_t socks = (uint64_t)a->nr_entries + spares(a, op);
	struct mb_tcp_limit lim;
	int err = mb_tcp_pairs_limit(SM_FD_RESERVE, &lim);

	if (err)
		return mb_run_fail(run, err, "cannot read the open-file limit: %s", strerror(-err));
	if ((socks + 1) / 2 <= lim.max_pairs)
		return 0;
	return mb_run_bad_num(run, "nr_entries", a->nr_entries,
			      "1..%llu (each entry is a loopback TCP socket: RLIMIT_NOFILE %llu with %llu fds open and %llu ephemeral ports allow %llu sockets, %u of them spares)",
			      (unsigned long long)(lim.max_pairs * 2 > spares(a, op) ?
						   lim.max_pairs * 2 - spares(a, op) : 0),
			      (unsigned long long)lim.nofile_hard,
			      (unsigned long long)lim.fds_open, (unsigned long long)lim.ports,
			      (unsigned long long)lim.max_pairs * 2, spares(a, op));
}

static int sm_sockets(struct mb_run *run, struct sm_state *st)
{
	uint32_t pairs = (st->nr_socks + 1) / 2;
	int err = mb_nofile_reserve(2ull * pairs + SM_FD_RESERVE);

	if (err)
		return mb_run_fail(run, err, "cannot raise the open-file limit for %u sockets: %s",
				   2 * pairs, strerror(-err));
	err = mb_tcp_pairs_open(&st->tp, pairs);
	if (err)
		return mb_run_fail(run, err, "cannot make %u loopback TCP pairs: %s", pairs,
				   strerror(-err));
	st->cookie = calloc(st->nr_socks, sizeof(*st->cookie));
	if (!st->cookie)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < st->nr_socks; i++) {
		err = mb_sock_cookie(st->tp.fd[i], &st->cookie[i]);
		if (err)
			return mb_run_fail(run, err, "cannot read socket %u's cookie: %s", i,
					   strerror(-err));
	}
	return 0;
}

/* The level: sockets 0..nr_entries-1 under their keys, each read back. */
static int sm_fill(struct mb_run *run, struct sm_state *st)
{
	uint64_t t0 = mb_now_ns();
	int err = 0;

	for (uint32_t k = 0; k < st->args->nr_entries && !err; k++) {
		err = sm_insert(st, k);
		if (!err)
			err = sm_check(st, k);
		if (err)
			return mb_run_fail(run, err, "cannot put socket %u in the %s: %s", k,
					   sm_type_names[st->args->map_type], strerror(-err));
	}
	st->fill_ns = mb_now_ns() - t0;
	return 0;
}

int sm_setup(struct mb_run *run, enum sm_op op)
{
	const struct sm_args *a = run->args;
	struct sm_state *st = calloc(1, sizeof(*st));
	/* The maps table has no fd types: their entries are not values a fill can write. */
	struct mb_map_type_info ti = {
		.name = sm_type_names[a->map_type],
		.type = a->map_type == SM_SOCKHASH ? BPF_MAP_TYPE_SOCKHASH : BPF_MAP_TYPE_SOCKMAP,
	};
	struct mb_map_desc d = { .type = &ti, .name = "mb_sockmap", .key_size = 4,
				 .value_size = 8 };
	int err;

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "syscall";
	st->args = a;
	st->op = op;
	st->map_fd = -1;
	st->nr_socks = a->nr_entries + spares(a, op);
	d.max_entries = st->nr_socks;
	st->map_fd = mb_run_map_create(run, &d, NULL);
	if (st->map_fd < 0)
		return st->map_fd;
	err = sm_sockets(run, st);
	err = err ? err : sm_fill(run, st);
	if (!err && op == SM_LOOKUP && a->path == SM_PATH_KERNEL)
		err = sm_kern_open(run, st);
	return err;
}

void sm_teardown(struct mb_run *run)
{
	struct sm_state *st = run->priv;

	if (!st)
		return;
	sm_kern_close(st);
	if (st->map_fd >= 0)
		close(st->map_fd);
	mb_tcp_pairs_close(&st->tp);
	free(st->cookie);
	free(st);
	run->priv = NULL;
}
