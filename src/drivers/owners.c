// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Owners of local storage: threads, sockets, cgroup v2 directories and files, with the fds user
 * space keys their storage by. Cgroup directories and files live in a site directory of their
 * own, named after the process, removed whole at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "owners.h"
#include "sys/cgroup2.h"

/* pidfd_open's flag for a pidfd of a thread rather than of a process (Linux 6.9+). */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD	O_EXCL
#endif

/* A thread made to be an owner: it tells its tid, then waits until told to end. */
struct mb_owner_thread {
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pid_t tid;
	bool stop;
};

const char *mb_owner_kind_name(enum mb_owner_kind kind)
{
	static const char *const names[MB_OWNER_NR] = { "thread", "socket", "cgroup", "file" };

	return kind < MB_OWNER_NR ? names[kind] : "?";
}

static int site_mkdtemp(struct mb_owner_site *s, const char *parent, char *why, size_t len)
{
	int n = snprintf(s->dir, sizeof(s->dir), "%s/mapbench-%d-XXXXXX", parent, (int)getpid());
	int err;

	if (n < 0 || (size_t)n >= sizeof(s->dir)) {
		s->dir[0] = '\0';
		snprintf(why, len, "%s: the path is too long", parent);
		return -ENAMETOOLONG;
	}
	if (mkdtemp(s->dir))
		return 0;
	err = -errno;
	snprintf(why, len, "cannot make a directory in %s: %s", parent, strerror(-err));
	s->dir[0] = '\0';
	return err;
}

int mb_owner_site_open(struct mb_owner_site *s, enum mb_owner_kind kind, char *why, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	memset(s, 0, sizeof(*s));
	s->kind = kind;
	if (kind == MB_OWNER_INODE)
		return site_mkdtemp(s, tmp && *tmp ? tmp : "/tmp", why, len);
	if (kind != MB_OWNER_CGRP)
		return 0;
	/* mapbench-<pid>-<n> in our own v2 cgroup: a killed run's next one reaps it. */
	return mb_cgroup2_mkdir(s->dir, sizeof(s->dir), why, len);
}

void mb_owner_site_close(struct mb_owner_site *s)
{
	DIR *d;
	struct dirent *e;

	if (!s->dir[0])
		return;
	d = opendir(s->dir);
	/* Owners are named o<n>: a cgroup's own files are no entries of the site to remove. */
	while (d && (e = readdir(d))) {
		if (e->d_name[0] != 'o')
			continue;
		if (s->kind == MB_OWNER_CGRP)
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		else
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	rmdir(s->dir);
	s->dir[0] = '\0';
}

static int pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

static void *thread_park(void *arg)
{
	struct mb_owner_thread *t = arg;

	pthread_mutex_lock(&t->lock);
	t->tid = (pid_t)syscall(SYS_gettid);
	pthread_cond_broadcast(&t->cond);
	while (!t->stop)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static void thread_end(struct mb_owner_thread *t)
{
	pthread_mutex_lock(&t->lock);
	t->stop = true;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->th, NULL);
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

static int thread_start(struct mb_owner *o)
{
	struct mb_owner_thread *t = calloc(1, sizeof(*t));
	int err;

	if (!t)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	err = -pthread_create(&t->th, NULL, thread_park, t);
	if (err) {
		pthread_cond_destroy(&t->cond);
		pthread_mutex_destroy(&t->lock);
		free(t);
		return err;
	}
	pthread_mutex_lock(&t->lock);
	while (!t->tid)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
	o->thread = t;
	o->tid = t->tid;
	o->fd = pidfd_open(o->tid, PIDFD_THREAD);
	if (o->fd < 0) {
		err = -errno;
		thread_end(t);
		o->thread = NULL;
		return err;
	}
	o->pidfd_thread = true;
	o->how = "pidfd_open(tid, PIDFD_THREAD) of a parked thread";
	return 0;
}

/* A cgroup directory or a file o<n> in the site's directory. */
static int site_entry(struct mb_owner_site *s, struct mb_owner *o)
{
	int n = snprintf(o->path, sizeof(o->path), "%s/o%u", s->dir, s->next++);
	int err;

	if (!s->dir[0] || n < 0 || (size_t)n >= sizeof(o->path))
		return s->dir[0] ? -ENAMETOOLONG : -EINVAL;
	if (o->kind == MB_OWNER_INODE) {
		o->fd = open(o->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		o->how = "open(O_CREAT) of a file in a temporary directory";
	} else if (mkdir(o->path, 0755)) {
		return -errno;
	} else {
		o->fd = open(o->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		o->how = "open(O_DIRECTORY) of a fresh cgroup v2 directory";
	}
	if (o->fd >= 0)
		return 0;
	err = -errno;
	if (o->kind == MB_OWNER_CGRP)
		rmdir(o->path);
	return err;
}

int mb_owner_make(struct mb_owner_site *s, struct mb_owner *o)
{
	int err = 0;

	memset(o, 0, sizeof(*o));
	o->kind = s->kind;
	o->fd = -1;
	switch (s->kind) {
	case MB_OWNER_TASK:
		err = thread_start(o);
		break;
	case MB_OWNER_SOCK:
		o->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		o->how = "socket(AF_INET, SOCK_DGRAM)";
		err = o->fd < 0 ? -errno : 0;
		break;
	case MB_OWNER_CGRP:
	case MB_OWNER_INODE:
		err = site_entry(s, o);
		break;
	default:
		err = -EINVAL;
	}
	if (err) {
		o->fd = -1;
		o->path[0] = '\0';
	}
	return err;
}

int mb_owner_self(struct mb_owner *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = MB_OWNER_TASK;
	o->tid = (pid_t)syscall(SYS_gettid);
	o->fd = pidfd_open(o->tid, PIDFD_THREAD);
	if (o->fd >= 0) {
		o->pidfd_thread = true;
		o->how = "pidfd_open(gettid(), PIDFD_THREAD)";
		return 0;
	}
	/* Before 6.9 a pidfd names a process: its storage is the main thread's. */
	o->tid = getpid();
	o->fd = pidfd_open(o->tid, 0);
	o->how = "pidfd_open(getpid(), 0): the kernel refused PIDFD_THREAD, so the owner is the process's main thread";
	return o->fd < 0 ? -errno : 0;
}

int mb_owner_reopen(const struct mb_owner *o)
{
	int fd;

	switch (o->kind) {
	case MB_OWNER_TASK:
		fd = pidfd_open(o->tid, o->pidfd_thread ? PIDFD_THREAD : 0);
		break;
	case MB_OWNER_SOCK:
		fd = fcntl(o->fd, F_DUPFD_CLOEXEC, 0);
		break;
	case MB_OWNER_CGRP:
		fd = open(o->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		break;
	case MB_OWNER_INODE:
		fd = open(o->path, O_RDONLY | O_CLOEXEC);
		break;
	default:
		return -EINVAL;
	}
	return fd < 0 ? -errno : fd;
}

const char *mb_owner_reopen_how(enum mb_owner_kind kind)
{
	static const char *const how[MB_OWNER_NR] = {
		"a second pidfd_open of the thread", "a dup of the socket",
		"a second open of the cgroup directory", "a second open of the file",
	};

	return kind < MB_OWNER_NR ? how[kind] : "?";
}

int mb_owner_id(const struct mb_owner *o, unsigned long long *id)
{
	socklen_t len = sizeof(*id);
	struct stat st;

	switch (o->kind) {
	case MB_OWNER_TASK:
		*id = (unsigned long long)o->tid;
		return o->tid > 0 ? 0 : -ESRCH;
	case MB_OWNER_SOCK:
		/* A socket has no number but its cookie, unique while the system runs. */
		return getsockopt(o->fd, SOL_SOCKET, SO_COOKIE, id, &len) ? -errno : 0;
	case MB_OWNER_CGRP:
	case MB_OWNER_INODE:
		/* A cgroup v2 directory's inode number is the cgroup's id (64-bit kernfs). */
		if (fstat(o->fd, &st))
			return -errno;
		*id = (unsigned long long)st.st_ino;
		return 0;
	default:
		return -EINVAL;
	}
}

const char *mb_owner_id_name(enum mb_owner_kind kind)
{
	static const char *const names[MB_OWNER_NR] = {
		"tid", "socket cookie", "cgroup id", "inode number",
	};

	return kind < MB_OWNER_NR ? names[kind] : "?";
}

void mb_owner_destroy(struct mb_owner *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->thread)
		thread_end(o->thread);
	o->thread = NULL;
	if (o->path[0] && o->kind == MB_OWNER_CGRP)
		rmdir(o->path);
	else if (o->path[0] && o->kind == MB_OWNER_INODE)
		unlink(o->path);
	o->path[0] = '\0';
}
