// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* A fresh cgroup v2 directory the process joins for a run (cgroup2.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cgroup2.h"
#include "memcg.h"
#include "util/log.h"

#define RMDIR_WAIT_MS	2000	/* exiting threads may keep a cgroup busy for a moment */

static unsigned int cgroup2_seq;

static bool has_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);

	return n > 0 && (size_t)n < sizeof(path) && !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The path of the "0::" line of /proc/self/cgroup text, into @buf. */
static bool self_v2_path(const char *self, char *buf, size_t len)
{
	for (const char *line = self; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);

		if (n >= 3 && !strncmp(line, "0::", 3)) {
			n -= 3;
			if (n >= len)
				return false;
			memcpy(buf, line + 3, n);
			buf[n] = '\0';
			return buf[0] == '/';
		}
		line = end ? end + 1 : NULL;
	}
	return false;
}

int mb_cgroup2_find(const char *root, const char *self, char *mount, size_t mlen, char *home,
		    size_t hlen, char *why, size_t len)
{
	char rel[PATH_MAX], unified[PATH_MAX];
	int n;

	snprintf(unified, sizeof(unified), "%s/unified", root);
	if (has_file(root, "cgroup.controllers"))
		n = snprintf(mount, mlen, "%s", root);
	else if (has_file(unified, "cgroup.controllers"))
		n = snprintf(mount, mlen, "%s", unified);
	else {
		snprintf(why, len, "no cgroup v2 hierarchy at %s or %s", root, unified);
		return -ENOENT;
	}
	if (n < 0 || (size_t)n >= mlen)
		return -ENAMETOOLONG;
	if (!self_v2_path(self, rel, sizeof(rel))) {
		snprintf(why, len, "cgroup v2 at %s: this process is in no v2 cgroup", mount);
		return -ENOENT;
	}
	/* "/" is the hierarchy's root itself. */
	n = snprintf(home, hlen, "%s%s", mount, strcmp(rel, "/") ? rel : "");
	if (n < 0 || (size_t)n >= hlen)
		return -ENAMETOOLONG;
	if (!has_file(home, "cgroup.procs")) {
		snprintf(why, len, "cgroup v2: this process's cgroup %s is not there", home);
		return -ENOENT;
	}
	return 0;
}

static int write_pid(const char *dir)
{
	char path[PATH_MAX], pid[32];
	int fd, n, err = 0;

	n = snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	n = snprintf(pid, sizeof(pid), "%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* cgroup.procs moves every thread of the process. */
	if (write(fd, pid, (size_t)n) != n)
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static const char *access_hint(int err)
{
	return err == -EACCES || err == -EPERM || err == -EROFS ?
		       " (this needs root, or write access to that cgroup)" : "";
}

/* mkdir "mapbench-<pid>-<n>" in @home into @path; a stale one of a dead process may hold a name. */
static int make_dir(const char *home, char *path, size_t plen, char *why, size_t len)
{
	for (int tries = 0;; tries++) {
		unsigned int seq = __atomic_add_fetch(&cgroup2_seq, 1, __ATOMIC_RELAXED);
		int n = snprintf(path, plen, "%s/" MB_MEMCG_PREFIX "%d-%u", home, (int)getpid(),
				 seq);
		int err;

		if (n < 0 || (size_t)n >= plen) {
			snprintf(why, len, "cgroup path too long under %s", home);
			return -ENAMETOOLONG;
		}
		if (!mkdir(path, 0755))
			return 0;
		err = -errno;
		if (err == -EEXIST && tries < 100)
			continue;
		snprintf(why, len, "cannot create the cgroup %s: %s%s", path, strerror(-err),
			 access_hint(err));
		return err;
	}
}

int mb_cgroup2_self(char *home, size_t hlen, char *why, size_t len)
{
	const char *root = getenv(MB_MEMCG_ROOT_ENV);
	char mount[PATH_MAX], self[4096];
	ssize_t n;
	int fd;

	if (!root || !*root)
		root = MB_MEMCG_ROOT;
	fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, self, sizeof(self) - 1);
	if (fd >= 0)
		close(fd);
	self[n > 0 ? n : 0] = '\0';
	return mb_cgroup2_find(root, self, mount, sizeof(mount), home, hlen, why, len);
}

/* mb_cgroup2_self, where the directories of killed mapbench processes are removed first. */
static int own_home(char *home, size_t hlen, char *why, size_t len)
{
	int failed, err = mb_cgroup2_self(home, hlen, why, len);

	if (err)
		return err;
	if (mb_memcg_reap_stale(home, &failed))
		mb_info("Removed cgroups left in %s by mapbench processes that were killed", home);
	return 0;
}

int mb_cgroup2_mkdir(char *path, size_t plen, char *why, size_t len)
{
	char home[PATH_MAX];
	int err = own_home(home, sizeof(home), why, len);

	return err ? err : make_dir(home, path, plen, why, len);
}

int mb_cgroup2_make(struct mb_cgroup2 *cg, char *why, size_t len)
{
	int err;

	memset(cg, 0, sizeof(*cg));
	err = own_home(cg->home, sizeof(cg->home), why, len);
	if (!err)
		err = make_dir(cg->home, cg->path, sizeof(cg->path), why, len);
	if (err)
		return err;
	cg->created = true;
	cg->fd = open(cg->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->fd < 0) {
		err = -errno;
		snprintf(why, len, "cannot open the cgroup %s: %s", cg->path, strerror(-err));
		mb_cgroup2_leave(cg);
		return err;
	}
	cg->has_fd = true;
	return 0;
}

int mb_cgroup2_enter(struct mb_cgroup2 *cg, char *why, size_t len)
{
	int err = mb_cgroup2_make(cg, why, len);

	if (err)
		return err;
	err = write_pid(cg->path);
	if (err) {
		snprintf(why, len, "cannot move this process into the cgroup %s: %s%s", cg->path,
			 strerror(-err), access_hint(err));
		mb_cgroup2_leave(cg);
		return err;
	}
	cg->joined = true;
	return 0;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

int mb_cgroup2_leave(struct mb_cgroup2 *cg)
{
	unsigned int waited = 0;
	int err;

	if (cg->joined) {
		err = write_pid(cg->home);
		if (err)
			return err;
		cg->joined = false;
	}
	if (cg->has_fd) {
		close(cg->fd);
		cg->has_fd = false;
	}
	if (!cg->created)
		return 0;
	for (unsigned int delay = 1;; delay = delay < 64 ? delay * 2 : delay) {
		if (!rmdir(cg->path) || errno == ENOENT)
			break;
		err = -errno;
		if (err != -EBUSY || waited > RMDIR_WAIT_MS)
			return err;
		sleep_ms(delay);
		waited += delay;
	}
	cg->created = false;
	return 0;
}
