/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Owners of local storage, made and destroyed for a bench: threads, UDP sockets, cgroup v2
 * directories and files, each with the fd user space keys its storage by (a pidfd, the socket,
 * an open directory, an open file). Cgroup directories and files are made in a site, a fresh
 * directory of the bench's own (a cgroup v2 one, or a temporary one), which
 * mb_owner_site_close() removes with every owner still in it: a teardown on any path (an error,
 * SIGINT) leaves nothing behind.
 */
#ifndef MB_DRIVERS_OWNERS_H
#define MB_DRIVERS_OWNERS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum mb_owner_kind {
	MB_OWNER_TASK,		/* a thread; key: its pidfd */
	MB_OWNER_SOCK,		/* a UDP socket; key: the socket */
	MB_OWNER_CGRP,		/* a cgroup v2 directory; key: the open directory */
	MB_OWNER_INODE,		/* a file; key: the open file */
	MB_OWNER_NR,
};

/* Where owners of one kind are made. A zeroed struct has nothing to remove. */
struct mb_owner_site {
	enum mb_owner_kind kind;
	char dir[PATH_MAX];	/* cgrp, inode: the site's own directory; "": none made */
	unsigned int next;	/* the next owner's number: its name in dir */
};

struct mb_owner_thread;

struct mb_owner {
	enum mb_owner_kind kind;
	int fd;			/* the key; -1: none */
	const char *how;	/* how fd was made, for a result: "pidfd_open(tid, PIDFD_THREAD)" */
	bool pidfd_thread;	/* task: fd names the thread (PIDFD_THREAD), not its process */
	pid_t tid;		/* task: the thread */
	char path[PATH_MAX];	/* cgrp, inode: the directory or file */
	struct mb_owner_thread *thread;	/* a thread mb_owner_make started, parked until destroyed */
};

/* "thread", "socket", "cgroup", "file". */
const char *mb_owner_kind_name(enum mb_owner_kind kind);

/*
 * Ready @s for owners of @kind: cgrp makes a fresh cgroup in the process's own v2 cgroup
 * (sys/cgroup2.h: a killed run's is reaped by the next), inode a directory under $TMPDIR (or
 * /tmp); task and sock need none. 0, or -errno with the reason in @why.
 */
int mb_owner_site_open(struct mb_owner_site *s, enum mb_owner_kind kind, char *why, size_t len);
/* Remove the site's directory and every owner left in it (idempotent). */
void mb_owner_site_close(struct mb_owner_site *s);

/*
 * A new owner of @s's kind in @o: a thread parked until destroyed, a socket, a cgroup
 * directory, a file. 0, or -errno with nothing left behind.
 */
int mb_owner_make(struct mb_owner_site *s, struct mb_owner *o);
/*
 * The calling thread as a task owner: a pidfd of the thread (PIDFD_THREAD, Linux 6.9+), or
 * where the kernel refuses that, of its process (then the owner is the process's main thread:
 * o->pidfd_thread false and o->how says so). 0 or -errno.
 */
int mb_owner_self(struct mb_owner *o);
/*
 * A second fd naming the same owner: a second pidfd, a dup of the socket, a second open of the
 * directory or file. The fd, or -errno.
 */
int mb_owner_reopen(const struct mb_owner *o);
/* How mb_owner_reopen makes it, for a result. */
const char *mb_owner_reopen_how(enum mb_owner_kind kind);
/*
 * The owner's id, what a map keyed by owner instead of local storage would use: a thread's tid,
 * a socket's cookie (SO_COOKIE), a cgroup's id (its directory's inode number), a file's inode
 * number. 0 or -errno.
 */
int mb_owner_id(const struct mb_owner *o, unsigned long long *id);
/* What mb_owner_id gives for @kind, for a result: "tid", "socket cookie", ... */
const char *mb_owner_id_name(enum mb_owner_kind kind);
/* Close the fd and destroy the owner (join the thread, remove the directory or file). */
void mb_owner_destroy(struct mb_owner *o);

#endif
