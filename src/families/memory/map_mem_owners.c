// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-mem: the owners of a local storage row (drivers/owners.h), how many of a kind this
 * machine holds, and their fds and ids, the keys of the storage map and of the hash beside it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <linux/bpf.h>

#include "core/run.h"
#include "maps/maps.h"
#include "util/sysfile.h"
#include "map_mem_run.h"

/* Descriptors kept free for what else the run opens (maps, BTF, cgroup files, output). */
#define MM_FD_MARGIN	256

uint32_t mm_storage_bit(const struct mb_map_type_info *t)
{
	for (int i = 0; mb_storage_map_types[i].name; i++)
		if (t == &mb_storage_map_types[i])
			return 1u << (MM_STORAGE_BIT + i);
	return 0;
}

enum mb_owner_kind mm_owner_kind(const struct mb_map_type_info *t)
{
	switch (t->type) {
	case BPF_MAP_TYPE_TASK_STORAGE:
		return MB_OWNER_TASK;
	case BPF_MAP_TYPE_SK_STORAGE:
		return MB_OWNER_SOCK;
	case BPF_MAP_TYPE_INODE_STORAGE:
		return MB_OWNER_INODE;
	default:
		return MB_OWNER_CGRP;
	}
}

static uint64_t sysctl_u64(const char *path)
{
	char line[64];

	return mb_read_first_line(path, line, sizeof(line)) ? strtoull(line, NULL, 10) : 0;
}

uint32_t mm_owners_max(const struct mb_map_type_info *t, char *why, size_t len)
{
	uint64_t fds = 1u << 20, pids, threads, max;
	struct rlimit rl;

	/* Every owner is held by a descriptor: the pidfd, socket, directory or file. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_max != RLIM_INFINITY)
		fds = rl.rlim_max;
	max = fds > MM_FD_MARGIN ? fds - MM_FD_MARGIN : 0;
	snprintf(why, len, "each owner holds a descriptor: RLIMIT_NOFILE's hard limit %llu, less %d",
		 (unsigned long long)fds, MM_FD_MARGIN);
	if (mm_owner_kind(t) != MB_OWNER_TASK)
		return (uint32_t)(max < MM_MAX_ENTRIES ? max : MM_MAX_ENTRIES);
	/* A thread also takes a pid: half the pid space, so the machine keeps the rest. */
	pids = sysctl_u64("/proc/sys/kernel/pid_max") / 2;
	threads = sysctl_u64("/proc/sys/kernel/threads-max") / 2;
	if (pids && pids < max) {
		max = pids;
		snprintf(why, len, "each thread takes a pid: half of kernel.pid_max %llu",
			 (unsigned long long)pids * 2);
	}
	if (threads && threads < max) {
		max = threads;
		snprintf(why, len, "half of kernel.threads-max %llu",
			 (unsigned long long)threads * 2);
	}
	return (uint32_t)(max < MM_MAX_ENTRIES ? max : MM_MAX_ENTRIES);
}

int mm_owners_alloc(struct mm_owners *ow, enum mb_owner_kind kind, uint32_t n, char *why,
		    size_t len)
{
	int err;

	memset(ow, 0, sizeof(*ow));
	/* Touched now (memset): page faults later would be charged to the measured cgroups. */
	ow->o = malloc(sizeof(*ow->o) * n);
	ow->id = malloc(sizeof(*ow->id) * n);
	ow->fd = malloc(sizeof(*ow->fd) * n);
	if (!ow->o || !ow->id || !ow->fd) {
		snprintf(why, len, "cannot allocate the list of %u owners", n);
		return -ENOMEM;
	}
	memset(ow->o, 0, sizeof(*ow->o) * n);
	memset(ow->id, 0, sizeof(*ow->id) * n);
	memset(ow->fd, 0, sizeof(*ow->fd) * n);
	ow->cap = n;
	err = mb_owner_site_open(&ow->site, kind, why, len);
	if (err)
		ow->site.dir[0] = '\0';
	return err;
}

int mm_owners_make(struct mm_owners *ow, char *why, size_t len)
{
	const char *kind = mb_owner_kind_name(ow->site.kind);
	int err = 0;

	while (ow->n < ow->cap && !err) {
		struct mb_owner *o = &ow->o[ow->n];

		if ((ow->n & 63) == 0 && mm_phase_tick())
			return -EINTR;
		err = mb_owner_make(&ow->site, o);
		if (err) {
			snprintf(why, len, "cannot make %s %u of %u: %s", kind, ow->n + 1, ow->cap,
				 strerror(-err));
			break;
		}
		ow->fd[ow->n++] = (uint32_t)o->fd;
		err = mb_owner_id(o, &ow->id[ow->n - 1]);
		if (err)
			snprintf(why, len, "cannot read the id (%s) of %s %u: %s",
				 mb_owner_id_name(ow->site.kind), kind, ow->n, strerror(-err));
	}
	return err;
}

void mm_owners_free(struct mm_owners *ow)
{
	for (uint32_t i = 0; ow->o && i < ow->n; i++)
		mb_owner_destroy(&ow->o[i]);
	mb_owner_site_close(&ow->site);
	free(ow->o);
	free(ow->id);
	free(ow->fd);
	memset(ow, 0, sizeof(*ow));
}
