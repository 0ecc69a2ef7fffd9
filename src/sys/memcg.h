/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Memory cgroup accounting for the memory benches. Each measurement gets a fresh cgroup
 * ("mapbench-<pid>-<n>"), which the whole process joins before the measured maps exist: map
 * memory is charged to the cgroup of the process that creates the map, and freed memory comes
 * back late (RCU), so a cgroup is never reused. Leaving moves the process back home and removes
 * the cgroup.
 *
 * cgroup v2 (memory.current, memory.peak) where its memory controller is enabled for a cgroup
 * the process can create children in; cgroup v1 (memory.usage_in_bytes,
 * memory.max_usage_in_bytes, memory.kmem.*) otherwise.
 */
#ifndef MB_MEMCG_H
#define MB_MEMCG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MB_MEMCG_ROOT		"/sys/fs/cgroup"
#define MB_MEMCG_ROOT_ENV	"MAPBENCH_CGROUP_ROOT"	/* overrides MB_MEMCG_ROOT */
#define MB_MEMCG_PREFIX		"mapbench-"

enum mb_memcg_version {
	MB_MEMCG_NONE,
	MB_MEMCG_V1,
	MB_MEMCG_V2,
};

/* Where fresh cgroups are made (mb_memcg_detect). */
struct mb_memcg_site {
	int version;			/* enum mb_memcg_version */
	char parent[PATH_MAX];		/* directory the new cgroups are made in */
	char home[PATH_MAX];		/* the process's own cgroup, where it returns */
	bool kmem;			/* v1 with kmem counters (children have them too) */
};

/* One fresh cgroup. */
struct mb_memcg {
	int version;
	char path[PATH_MAX];
	char home[PATH_MAX];
	bool created;			/* path exists and is ours to remove */
	bool joined;			/* the process is in it */
	bool kmem;			/* v1 with memory.kmem.usage_in_bytes: the charged figure */
	bool peak_reset;		/* the peak was reset (mb_memcg_reset_peak) */
	bool has_peak_fd;		/* v2: peak_fd is memory.peak opened for the reset */
	int peak_fd;
};

struct mb_memcg_usage {
	uint64_t charged;	/* kmem where exact (v1), else usage: see mb_memcg_charged_name */
	uint64_t usage;		/* v2 memory.current, v1 memory.usage_in_bytes */
	uint64_t peak;		/* v2 memory.peak, v1 memory.max_usage_in_bytes */
	uint64_t kmem;		/* v1 memory.kmem.usage_in_bytes, v2 memory.stat "kernel" */
	uint64_t kmem_peak;	/* v1 memory.kmem.max_usage_in_bytes */
	bool has_peak, has_kmem, has_kmem_peak;
};

/* How a wait for freed memory ended (mb_memcg_wait_release). */
struct mb_memcg_wait {
	uint64_t start_bytes;	/* charged when the wait began */
	uint64_t end_bytes;	/* charged when it ended */
	uint64_t release_ms;	/* from the start to the last drop seen (0: none) */
	uint64_t waited_ms;	/* how long it waited in all */
	bool reached;		/* fell to the target */
	bool settled;		/* or stopped falling for the settle time */
	bool interrupted;
};

/* ---- parsing (pure functions, unit-tested) ---- */

/* A cgroup file with one number ("123\n"); "max" reads as UINT64_MAX. 0 or -EINVAL. */
int mb_memcg_parse_u64(const char *text, uint64_t *v);
/* The value of @key in a "key value" file (memory.stat). 0, -ENOENT or -EINVAL. */
int mb_memcg_parse_stat(const char *text, const char *key, uint64_t *v);
/* Whether a space-separated list (cgroup.controllers, cgroup.subtree_control) has @word. */
bool mb_memcg_list_has(const char *list, const char *word);
/*
 * The process's cgroups from /proc/self/cgroup text: the v1 memory hierarchy's path into @v1
 * and the v2 ("0::") path into @v2. Returns a mask: 1 if @v1 was found, 2 if @v2 was.
 */
int mb_memcg_parse_self(const char *text, char *v1, size_t v1len, char *v2, size_t v2len);
/* Whether @name is "mapbench-<pid>-<n>"; its pid into @pid. */
bool mb_memcg_name_parse(const char *name, pid_t *pid);

/*
 * Remove the cgroups a killed mapbench left under @parent: only "mapbench-<pid>-<n>" folders
 * whose pid is not running, with the cgroups it made below them. Returns how many were
 * removed; @failed counts those that could not be (still holding tasks). Called once per
 * process before the first cgroup is made.
 */
int mb_memcg_reap_stale(const char *parent, int *failed);

/* ---- where to make cgroups ---- */

/*
 * Choose the hierarchy under @root (a cgroup mount point folder: v2 at @root or @root/unified,
 * v1 memory at @root/memory) for a process whose /proc/self/cgroup reads @self.
 * v2 is used where "memory" is in cgroup.subtree_control of the process's own cgroup or of the
 * v2 root; v1 otherwise. Returns 0, or -ENOENT with the reason in @why.
 */
int mb_memcg_detect(const char *root, const char *self, struct mb_memcg_site *site, char *why,
		    size_t len);
/* mb_memcg_detect for this process ($MAPBENCH_CGROUP_ROOT or /sys/fs/cgroup). */
int mb_memcg_detect_self(struct mb_memcg_site *site, char *why, size_t len);

/* ---- one measurement ---- */

/*
 * Make a fresh cgroup at @site and move the whole process (all threads) into it. On failure
 * nothing is left behind and @why says what is missing.
 */
int mb_memcg_enter(const struct mb_memcg_site *site, struct mb_memcg *cg, char *why, size_t len);
/* Detect and enter in one step. */
int mb_memcg_enter_self(struct mb_memcg *cg, char *why, size_t len);
int mb_memcg_read(const struct mb_memcg *cg, struct mb_memcg_usage *u);
/*
 * The file behind usage->charged, the figure map memory is measured by: v1 kmem (kernel memory
 * only, exact to a page), else usage (which also counts user pages and up to 64 pages per CPU
 * charged ahead).
 */
const char *mb_memcg_charged_name(const struct mb_memcg *cg);
/* How far two readings of the charged figure may differ with nothing freed or allocated. */
uint64_t mb_memcg_slack(const struct mb_memcg *cg);

/*
 * Restart the peak figures from the current usage (v1: write 0 to the max_usage files; v2,
 * 6.12+: write to memory.peak and read it through that file descriptor from then on).
 * 0, or -errno where the kernel cannot.
 */
int mb_memcg_reset_peak(struct mb_memcg *cg);

/*
 * Poll the charged figure every 10 ms until it falls to @target, or stops falling for
 * @settle_ms, or @timeout_ms passed, or @stop() says so.
 */
int mb_memcg_wait_release(const struct mb_memcg *cg, uint64_t target, uint32_t settle_ms,
			  uint32_t timeout_ms, bool (*stop)(void), struct mb_memcg_wait *w);

/* Move the process back home and remove the cgroup (idempotent). 0 or -errno. */
int mb_memcg_leave(struct mb_memcg *cg);

const char *mb_memcg_version_name(int version);

#endif
