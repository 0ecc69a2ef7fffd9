/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A fresh cgroup v2 directory that the whole process joins for a run, then leaves: what a
 * cgroup BPF program is attached to (cgroup/sock_create), so that it sees this process's
 * sockets and nobody else's, and what owns cgroup local storage. Never the root: a program
 * attached there would run for every process of the machine.
 *
 * The directory is "mapbench-<pid>-<n>" in the process's own v2 cgroup, the name the memory
 * cgroups have (sys/memcg.h): a killed run's directories are reaped as theirs are. Leaving
 * moves the process back and removes the directory; set-up failures leave nothing.
 * The cgroup's memory is not measured here (sys/memcg.h does that).
 */
#ifndef MB_CGROUP2_H
#define MB_CGROUP2_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct mb_cgroup2 {
	char path[PATH_MAX];	/* the fresh directory */
	char home[PATH_MAX];	/* the process's own v2 cgroup, where it returns */
	int fd;			/* path, opened O_DIRECTORY: for attaching programs */
	bool has_fd;		/* fd is open */
	bool created;		/* path exists and is ours to remove */
	bool joined;		/* the process is in it */
};

/*
 * Where cgroup v2 is mounted under @root (a cgroup mount point folder: v2 at @root itself, or
 * at @root/unified on a hybrid layout) into @mount, and the process's own v2 cgroup there (its
 * "0::" line of /proc/self/cgroup text @self) into @home. 0, or -ENOENT with the reason in @why.
 */
int mb_cgroup2_find(const char *root, const char *self, char *mount, size_t mlen, char *home,
		    size_t hlen, char *why, size_t len);

/*
 * The process's own v2 cgroup folder, under $MAPBENCH_CGROUP_ROOT (or /sys/fs/cgroup), into
 * @home (what owns the process's cgroup local storage). 0, or -ENOENT with the reason in @why.
 */
int mb_cgroup2_self(char *home, size_t hlen, char *why, size_t len);

/*
 * Make a fresh directory in the process's own v2 cgroup under $MAPBENCH_CGROUP_ROOT (or
 * /sys/fs/cgroup), open it, and move the whole process into it. 0, or a negative errno with
 * the reason in @why; on failure nothing is left behind.
 */
int mb_cgroup2_enter(struct mb_cgroup2 *cg, char *why, size_t len);

/*
 * As mb_cgroup2_enter, but the process stays where it is: a fresh directory, open (cg->fd),
 * that mb_cgroup2_leave removes.
 */
int mb_cgroup2_make(struct mb_cgroup2 *cg, char *why, size_t len);

/*
 * Only the directory: a fresh "mapbench-<pid>-<n>" in the process's own v2 cgroup into @path
 * (the parent of cgroups a bench makes and removes, which a killed run's next one reaps with
 * whatever is below it). 0, or a negative errno with the reason in @why.
 */
int mb_cgroup2_mkdir(char *path, size_t plen, char *why, size_t len);

/*
 * Move the process back home, close the directory and remove it (threads that have not
 * finished exiting keep it busy a moment: it waits up to 2 s for them). Idempotent, also on
 * a zeroed @cg that never entered. 0 or a negative errno.
 */
int mb_cgroup2_leave(struct mb_cgroup2 *cg);

#endif
