// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "util/log.h"
#include "memcg.h"

#define POLL_MS		10
#define RMDIR_WAIT_MS	2000	/* exiting threads may keep a cgroup busy for a moment */
#define CHARGE_BATCH	64	/* pages a memcg charges ahead per CPU (MEMCG_CHARGE_BATCH) */

static unsigned int memcg_seq;

/* ---- parsing ---- */

int mb_memcg_parse_u64(const char *text, uint64_t *v)
{
	unsigned long long x = 0;
	const char *p = text;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "max", 3)) {
		x = UINT64_MAX;
		p += 3;
	} else {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p); p++) {
			unsigned int d = (unsigned int)(*p - '0');

			if (x > (UINT64_MAX - d) / 10)
				return -EINVAL;
			x = x * 10 + d;
		}
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*v = x;
	return 0;
}

int mb_memcg_parse_stat(const char *text, const char *key, uint64_t *v)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);

		if (n > klen && !strncmp(line, key, klen) && line[klen] == ' ') {
			char num[32];

			if (n - klen - 1 >= sizeof(num))
				return -EINVAL;
			memcpy(num, line + klen + 1, n - klen - 1);
			num[n - klen - 1] = '\0';
			return mb_memcg_parse_u64(num, v);
		}
		line = end ? end + 1 : NULL;
	}
	return -ENOENT;
}

bool mb_memcg_list_has(const char *list, const char *word)
{
	size_t wlen = strlen(word);
	const char *p = list;

	while (*p) {
		size_t n;

		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (n == wlen && !strncmp(p, word, wlen))
			return true;
		p += n;
	}
	return false;
}

static void copy_field(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int mb_memcg_parse_self(const char *text, char *v1, size_t v1len, char *v2, size_t v2len)
{
	const char *line = text;
	int found = 0;

	/* Lines are "hierarchy-id:controllers:path"; v2 is "0::path". */
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		const char *c1 = memchr(line, ':', n), *c2;

		if (c1) {
			c2 = memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line));
			if (c2) {
				const char *path = c2 + 1;
				size_t plen = n - (size_t)(path - line);
				size_t clen = (size_t)(c2 - c1 - 1);
				char ctrls[256];

				copy_field(ctrls, sizeof(ctrls), c1 + 1, clen);
				for (char *s = ctrls; *s; s++)
					if (*s == ',')
						*s = ' ';
				if (c1 - line == 1 && line[0] == '0' && clen == 0 && !(found & 2)) {
					copy_field(v2, v2len, path, plen);
					found |= 2;
				} else if (mb_memcg_list_has(ctrls, "memory") && !(found & 1)) {
					copy_field(v1, v1len, path, plen);
					found |= 1;
				}
			}
		}
		line = end ? end + 1 : NULL;
	}
	return found;
}

bool mb_memcg_name_parse(const char *name, pid_t *pid)
{
	size_t plen = strlen(MB_MEMCG_PREFIX);
	const char *p = name + plen;
	long v = 0;
	int digits;

	/* Only the names mapbench makes: decimal numbers without leading zeros. */
	if (strncmp(name, MB_MEMCG_PREFIX, plen) || *p == '0')
		return false;
	for (digits = 0; isdigit((unsigned char)*p) && digits < 10; p++, digits++)
		v = v * 10 + (*p - '0');
	/* A pid is an int (pid_max is at most 2^22): a larger number is not a mapbench name. */
	if (!digits || *p != '-' || v <= 0 || v > INT_MAX)
		return false;
	p++;
	if (!isdigit((unsigned char)*p) || *p == '0')
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p)
		return false;
	*pid = (pid_t)v;
	return true;
}

/* ---- files ---- */

static int path_join(char *buf, size_t len, const char *dir, const char *name)
{
	int n;

	/* A v2 path of "/" names the hierarchy's root itself. */
	if (!strcmp(name, "/") || !*name)
		n = snprintf(buf, len, "%s", dir);
	else
		n = snprintf(buf, len, "%s%s%s", dir, name[0] == '/' ? "" : "/", name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int read_text(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, err;

	err = path_join(path, sizeof(path), dir, name);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	return 0;
}

static int read_u64(const char *dir, const char *name, uint64_t *v)
{
	char buf[64];
	int err = read_text(dir, name, buf, sizeof(buf));

	return err ? err : mb_memcg_parse_u64(buf, v);
}

/* cgroup files are written, never created: a missing file is an error here. */
static int write_text(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	size_t len = strlen(text);
	ssize_t n;
	int fd, err;

	err = path_join(path, sizeof(path), dir, name);
	if (err)
		return err;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static bool is_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	return !path_join(path, sizeof(path), dir, name) && !stat(path, &st) && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool lists_memory(const char *dir, const char *name)
{
	char buf[512];

	return !read_text(dir, name, buf, sizeof(buf)) && mb_memcg_list_has(buf, "memory");
}

/* ---- where to make cgroups ---- */

static int site_set(struct mb_memcg_site *site, int version, const char *parent,
		    const char *home)
{
	site->version = version;
	if (path_join(site->parent, sizeof(site->parent), parent, "") ||
	    path_join(site->home, sizeof(site->home), home, ""))
		return -ENAMETOOLONG;
	return 0;
}

int mb_memcg_detect(const char *root, const char *self, struct mb_memcg_site *site, char *why,
		    size_t len)
{
	char v1[PATH_MAX] = "", v2[PATH_MAX] = "", v2root[PATH_MAX] = "", own[PATH_MAX];
	char v1root[PATH_MAX], v2why[PATH_MAX + 128] = "";
	int found = mb_memcg_parse_self(self, v1, sizeof(v1), v2, sizeof(v2));

	memset(site, 0, sizeof(*site));
	/* cgroup v2: mounted at the root (unified) or at root/unified (hybrid). */
	if (is_file(root, "cgroup.controllers"))
		path_join(v2root, sizeof(v2root), root, "");
	else if (is_file(root, "unified/cgroup.controllers"))
		path_join(v2root, sizeof(v2root), root, "unified");
	if (v2root[0] && !(found & 2)) {
		snprintf(v2why, sizeof(v2why), "cgroup v2 at %s: this process is in no v2 cgroup",
			 v2root);
	} else if (v2root[0]) {
		if (path_join(own, sizeof(own), v2root, v2))
			return -ENAMETOOLONG;
		/*
		 * A child gets memory files only where its parent enabled the controller. The
		 * process's own cgroup can have it only if it is the root (no internal
		 * processes below the root), so the v2 root is the usual parent.
		 */
		if (is_dir(own) && lists_memory(own, "cgroup.subtree_control"))
			return site_set(site, MB_MEMCG_V2, own, own);
		if (is_dir(own) && lists_memory(v2root, "cgroup.subtree_control"))
			return site_set(site, MB_MEMCG_V2, v2root, own);
		snprintf(v2why, sizeof(v2why),
			 "cgroup v2 at %s has no memory controller enabled (\"memory\" is not in its cgroup.subtree_control)",
			 v2root);
	}
	/* cgroup v1: the memory hierarchy; new cgroups nest in the process's own. */
	if (path_join(v1root, sizeof(v1root), root, "memory"))
		return -ENAMETOOLONG;
	if (is_file(v1root, "memory.usage_in_bytes")) {
		site->kmem = is_file(v1root, "memory.kmem.usage_in_bytes");
		if ((found & 1) && !path_join(own, sizeof(own), v1root, v1) && is_dir(own))
			return site_set(site, MB_MEMCG_V1, own, own);
		return site_set(site, MB_MEMCG_V1, v1root, v1root);
	}
	snprintf(why, len, "no memory cgroup: %s%sno cgroup v1 memory hierarchy at %s", v2why,
		 v2why[0] ? "; " : "", v1root);
	return -ENOENT;
}

int mb_memcg_detect_self(struct mb_memcg_site *site, char *why, size_t len)
{
	const char *root = getenv(MB_MEMCG_ROOT_ENV);
	char self[4096];

	if (!root || !*root)
		root = MB_MEMCG_ROOT;
	if (read_text("/proc/self", "cgroup", self, sizeof(self)))
		self[0] = '\0';
	return mb_memcg_detect(root, self, site, why, len);
}

/* ---- one measurement ---- */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static const char *access_hint(int err)
{
	return err == -EACCES || err == -EPERM || err == -EROFS ?
		       " (memory accounting needs root, or write access to that cgroup)" : "";
}

static bool pid_alive(pid_t pid)
{
	return kill(pid, 0) == 0 || errno != ESRCH;
}

/*
 * rmdir @path after the cgroups below it, depth first (a cgroup with children cannot go; its
 * own files are no obstacle). @depth bounds the walk. 0 or -errno.
 */
static int rmdir_tree(const char *path, int depth)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	dir = depth > 0 ? opendir(path) : NULL;
	while (dir && (de = readdir(dir))) {
		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!path_join(sub, sizeof(sub), path, de->d_name))
			rmdir_tree(sub, depth - 1);
	}
	if (dir)
		closedir(dir);
	return rmdir(path) ? -errno : 0;
}

int mb_memcg_reap_stale(const char *parent, int *failed)
{
	char path[PATH_MAX];
	struct dirent *de;
	int removed = 0;
	pid_t pid;
	DIR *dir;

	*failed = 0;
	dir = opendir(parent);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		if (!mb_memcg_name_parse(de->d_name, &pid) || pid == getpid() || pid_alive(pid))
			continue;
		if (path_join(path, sizeof(path), parent, de->d_name))
			continue;
		if (!rmdir_tree(path, 4))
			removed++;
		else
			(*failed)++;
	}
	closedir(dir);
	return removed;
}

int mb_memcg_enter(const struct mb_memcg_site *site, struct mb_memcg *cg, char *why, size_t len)
{
	static bool reaped;
	char pid[32];
	int err;

	memset(cg, 0, sizeof(*cg));
	cg->version = site->version;
	if (site->version == MB_MEMCG_NONE) {
		snprintf(why, len, "no memory cgroup");
		return -ENOENT;
	}
	snprintf(cg->home, sizeof(cg->home), "%s", site->home);
	if (!reaped) {
		int failed, removed = mb_memcg_reap_stale(site->parent, &failed);

		reaped = true;
		if (removed)
			mb_info("Removed %d memory cgroup%s left by mapbench processes that were killed",
				removed, removed > 1 ? "s" : "");
		if (failed)
			mb_warn("%d memory cgroup%s of dead mapbench processes could not be removed from %s",
				failed, failed > 1 ? "s" : "", site->parent);
	}
	/* A stale cgroup of a dead process with our pid may hold the name: take the next one. */
	for (int tries = 0;; tries++) {
		unsigned int n = __atomic_add_fetch(&memcg_seq, 1, __ATOMIC_RELAXED);
		int w = snprintf(cg->path, sizeof(cg->path), "%s/" MB_MEMCG_PREFIX "%d-%u",
				 site->parent, (int)getpid(), n);

		if (w < 0 || (size_t)w >= sizeof(cg->path)) {
			snprintf(why, len, "cgroup path too long under %s", site->parent);
			return -ENAMETOOLONG;
		}
		if (!mkdir(cg->path, 0755))
			break;
		err = -errno;
		if (err == -EEXIST && tries < 100)
			continue;
		snprintf(why, len, "cannot create the memory cgroup %s: %s%s", cg->path,
			 strerror(-err), access_hint(err));
		return err;
	}
	cg->created = true;
	if (cg->version == MB_MEMCG_V2 && !is_file(cg->path, "memory.current")) {
		snprintf(why, len, "cgroup v2: %s has no memory.current (memory controller not enabled for %s)",
			 cg->path, site->parent);
		mb_memcg_leave(cg);
		return -ENOENT;
	}
	cg->kmem = cg->version == MB_MEMCG_V1 && site->kmem &&
		   is_file(cg->path, "memory.kmem.usage_in_bytes");
	/* cgroup.procs moves every thread of the process. */
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	err = write_text(cg->path, "cgroup.procs", pid);
	if (err) {
		snprintf(why, len, "cannot move this process into the memory cgroup %s: %s%s",
			 cg->path, strerror(-err), access_hint(err));
		mb_memcg_leave(cg);
		return err;
	}
	cg->joined = true;
	return 0;
}

int mb_memcg_enter_self(struct mb_memcg *cg, char *why, size_t len)
{
	struct mb_memcg_site site;
	int err = mb_memcg_detect_self(&site, why, len);

	if (err) {
		memset(cg, 0, sizeof(*cg));
		return err;
	}
	return mb_memcg_enter(&site, cg, why, len);
}

int mb_memcg_reset_peak(struct mb_memcg *cg)
{
	char path[PATH_MAX];
	int err, fd;

	if (cg->version == MB_MEMCG_V1) {
		err = write_text(cg->path, "memory.max_usage_in_bytes", "0");
		if (!err && cg->kmem)
			err = write_text(cg->path, "memory.kmem.max_usage_in_bytes", "0");
	} else if (cg->version == MB_MEMCG_V2) {
		/* A v2 peak reset holds only for the file descriptor that wrote it. */
		err = path_join(path, sizeof(path), cg->path, "memory.peak");
		if (err)
			return err;
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (write(fd, "reset\n", 6) != 6) {
			err = -errno;
			close(fd);
			return err;
		}
		if (cg->has_peak_fd)
			close(cg->peak_fd);
		cg->peak_fd = fd;
		cg->has_peak_fd = true;
		err = 0;
	} else {
		err = -ENOENT;
	}
	if (!err)
		cg->peak_reset = true;
	return err;
}

static int read_peak_fd(int fd, uint64_t *v)
{
	char buf[64];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return mb_memcg_parse_u64(buf, v);
}

int mb_memcg_read(const struct mb_memcg *cg, struct mb_memcg_usage *u)
{
	char stat[8192];
	int err;

	memset(u, 0, sizeof(*u));
	if (cg->version == MB_MEMCG_V1) {
		err = read_u64(cg->path, "memory.usage_in_bytes", &u->usage);
		if (err)
			return err;
		u->has_peak = !read_u64(cg->path, "memory.max_usage_in_bytes", &u->peak);
		u->has_kmem = !read_u64(cg->path, "memory.kmem.usage_in_bytes", &u->kmem);
		u->has_kmem_peak = !read_u64(cg->path, "memory.kmem.max_usage_in_bytes",
					     &u->kmem_peak);
	} else if (cg->version == MB_MEMCG_V2) {
		err = read_u64(cg->path, "memory.current", &u->usage);
		if (err)
			return err;
		/* memory.peak is 5.19+. */
		if (cg->has_peak_fd)
			u->has_peak = !read_peak_fd(cg->peak_fd, &u->peak);
		else
			u->has_peak = !read_u64(cg->path, "memory.peak", &u->peak);
		u->has_kmem = !read_text(cg->path, "memory.stat", stat, sizeof(stat)) &&
			      !mb_memcg_parse_stat(stat, "kernel", &u->kmem);
	} else {
		return -ENOENT;
	}
	u->charged = cg->kmem && u->has_kmem ? u->kmem : u->usage;
	return 0;
}

const char *mb_memcg_charged_name(const struct mb_memcg *cg)
{
	if (cg->version == MB_MEMCG_V1)
		return cg->kmem ? "memory.kmem.usage_in_bytes" : "memory.usage_in_bytes";
	return "memory.current";
}

uint64_t mb_memcg_slack(const struct mb_memcg *cg)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), page = sysconf(_SC_PAGESIZE);

	if (cpus < 1)
		cpus = 1;
	if (page < 1)
		page = 4096;
	/*
	 * kmem is charged in whole pages with a sub-page byte stock per CPU; usage also charges
	 * up to CHARGE_BATCH pages ahead per CPU.
	 */
	return (uint64_t)cpus * (uint64_t)page * (cg->kmem ? 2 : CHARGE_BATCH + 2);
}

int mb_memcg_wait_release(const struct mb_memcg *cg, uint64_t target, uint32_t settle_ms,
			  uint32_t timeout_ms, bool (*stop)(void), struct mb_memcg_wait *w)
{
	struct mb_memcg_usage u;
	uint64_t t0 = now_ms(), last_drop, low, now;
	int err;

	memset(w, 0, sizeof(*w));
	err = mb_memcg_read(cg, &u);
	if (err)
		return err;
	w->start_bytes = w->end_bytes = low = u.charged;
	last_drop = t0;
	for (;;) {
		now = now_ms();
		w->waited_ms = now - t0;
		if (w->end_bytes <= target) {
			w->reached = true;
			break;
		}
		if (now - last_drop >= settle_ms) {
			w->settled = true;
			break;
		}
		if (now - t0 >= timeout_ms)
			break;
		if (stop && stop()) {
			w->interrupted = true;
			break;
		}
		sleep_ms(POLL_MS);
		err = mb_memcg_read(cg, &u);
		if (err)
			return err;
		w->end_bytes = u.charged;
		if (u.charged < low) {
			low = u.charged;
			last_drop = now_ms();
			w->release_ms = last_drop - t0;
		}
	}
	return 0;
}

int mb_memcg_leave(struct mb_memcg *cg)
{
	char pid[32], parent[PATH_MAX];
	uint64_t t0;
	int err = 0;

	if (cg->has_peak_fd) {
		close(cg->peak_fd);
		cg->has_peak_fd = false;
	}
	if (cg->joined) {
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		err = write_text(cg->home, "cgroup.procs", pid);
		if (err) {
			/* Home may have gone: the parent of our cgroup takes the process too. */
			char *slash;

			snprintf(parent, sizeof(parent), "%s", cg->path);
			slash = strrchr(parent, '/');
			if (slash)
				*slash = '\0';
			err = write_text(parent, "cgroup.procs", pid);
		}
		if (err)
			return err;
		cg->joined = false;
	}
	if (!cg->created)
		return 0;
	/* Threads that were joined but have not finished exiting keep it busy briefly. */
	t0 = now_ms();
	for (unsigned int delay = 1;; delay = delay < 64 ? delay * 2 : delay) {
		if (!rmdir(cg->path) || errno == ENOENT)
			break;
		err = -errno;
		if (err != -EBUSY || now_ms() - t0 > RMDIR_WAIT_MS)
			return err;
		err = 0;
		sleep_ms(delay);
	}
	cg->created = false;
	return 0;
}

const char *mb_memcg_version_name(int version)
{
	return version == MB_MEMCG_V2 ? "v2" : version == MB_MEMCG_V1 ? "v1" : "none";
}
