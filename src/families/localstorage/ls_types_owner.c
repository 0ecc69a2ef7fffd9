// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The owners of the per-type benches as user space reaches them: a task through a pidfd (of
 * the producer thread itself where the kernel takes PIDFD_THREAD: drivers/owners), a cgroup
 * through an fd of its cgroup v2 folder. Before timing, each producer's storages are made by BPF (the fill
 * program, on its own thread) and read back through that fd: the value must be the one BPF
 * wrote, or the run fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "drivers/kloop.h"
#include "drivers/owners.h"
#include "ls_get.skel.h"
#include "ls_types.h"
#include "ls_types_shared.h"

/*
 * The fd user space keys the calling producer's owner by: a pidfd of its own thread
 * (drivers/owners), or the cgroup's folder. -EOPNOTSUPP where the pidfd would name the
 * process rather than the thread.
 */
static int owner_fd(struct mb_run *run, const struct ls_types *st)
{
	const struct ls_types_args *a = run->args;
	struct mb_owner o;
	int err;

	if (a->storage == MB_OWNER_CGRP) {
		int fd = fcntl(st->cgrp_fd, F_DUPFD_CLOEXEC, 0);

		return fd < 0 ? -errno : fd;
	}
	err = mb_owner_self(&o);
	if (err)
		return err;
	if (!o.pidfd_thread) {
		mb_owner_destroy(&o);
		return -EOPNOTSUPP;
	}
	return o.fd;
}

/*
 * Reads every map's value through @fd: each must be what the fill program wrote. @who names
 * the thread in messages. The number of values checked, or a negative error.
 */
static int read_back(struct mb_run *run, struct ls_types *st, int fd, const char *who)
{
	for (uint32_t i = 0; i < st->inner.nr; i++) {
		__u64 v = 0;

		if (bpf_map_lookup_elem(st->inner.fd[i], &fd, &v))
			return mb_run_fail(run, -errno, "%s: round trip: map %u: the value BPF wrote cannot be read through the owner's fd: %s",
					   who, i, strerror(errno));
		if (v != LS_VALUE(i))
			return mb_run_fail(run, -EBADMSG, "%s: round trip: map %u: BPF wrote 0x%llx, user space read 0x%llx",
					   who, i, (unsigned long long)LS_VALUE(i),
					   (unsigned long long)v);
	}
	return (int)st->inner.nr;
}

/* The fill program on the calling thread: its owner gets a storage in every map. */
static int fill(struct mb_run *run, struct ls_types *st, int cpu, const char *who)
{
	int ret = mb_kloop_call(st->fill_fd, 0, 0, cpu);

	if (ret < 0)
		return mb_run_fail(run, ret, "%s: the fill program's test_run failed: %s", who,
				   strerror(-ret));
	if ((uint32_t)ret != st->inner.nr)
		return mb_run_fail(run, -ENOMEM, "%s: the fill program made the owner's storage in %d of %u maps",
				   who, ret, st->inner.nr);
	return 0;
}

int ls_types_task_owner(struct mb_run *run)
{
	struct ls_types *st = run->priv;
	struct mb_owner o;
	int n;

	n = mb_owner_self(&o);
	if (n)
		return mb_run_fail(run, n, "main thread: cannot open its pidfd: %s", strerror(-n));
	st->pidfd_thread = o.pidfd_thread;
	snprintf(st->task_how, sizeof(st->task_how), "%s", o.how);
	/* The producers read their own storage; where they cannot, the main thread's is read. */
	if (!o.pidfd_thread) {
		n = fill(run, st, -1, "main thread");
		if (!n)
			n = read_back(run, st, o.fd, "main thread");
		if (n > 0)
			st->main_checked = (uint32_t)n;
	}
	mb_owner_destroy(&o);
	return n < 0 ? n : 0;
}

/* create+delete starts from an owner with no storage: each op then makes and frees both. */
static int delete_all(struct mb_run *run, struct ls_types *st, int fd, const char *who)
{
	for (uint32_t i = 0; i < st->inner.nr; i++)
		if (bpf_map_delete_elem(st->inner.fd[i], &fd) && errno != ENOENT)
			return mb_run_fail(run, -errno, "%s: map %u: cannot delete the owner's storage: %s",
					   who, i, strerror(errno));
	return 0;
}

int ls_types_first_pass(struct mb_run *run, struct mb_producer *p)
{
	const struct ls_types_args *a = run->args;
	struct ls_types *st = run->priv;
	char who[32];
	int fd, n, err = 0;

	snprintf(who, sizeof(who), "producer %d", p->idx);
	n = fill(run, st, p->cpu, who);
	if (n < 0)
		return n;
	/* Without PIDFD_THREAD only the leader's pidfd reads its storage: set-up read that. */
	if (a->storage == MB_OWNER_TASK && !st->pidfd_thread)
		return 0;
	fd = owner_fd(run, st);
	if (fd < 0)
		return mb_run_fail(run, fd, "%s: cannot open the owner's fd: %s", who,
				   strerror(-fd));
	n = read_back(run, st, fd, who);
	if (n >= 0 && st->op == LS_OP_CREATE_DELETE)
		err = delete_all(run, st, fd, who);
	close(fd);
	if (n < 0 || err)
		return n < 0 ? n : err;
	st->rt[p->idx] = (struct ls_round_trip){ .checked = (uint32_t)n, .done = true };
	return 0;
}
