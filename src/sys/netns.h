/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A network namespace of the run's own, held only by an open fd: it is never named (no
 * /run/netns entry) and no process lives in it, so when the fd closes (at the end of the run,
 * or when the process dies however it dies) the kernel removes it with every device in it.
 * Threads go in and out of it one by one (setns() moves the calling thread only): a device's
 * ifindex and a socket belong to the namespace of the thread that names or makes them.
 */
#ifndef MB_SYS_NETNS_H
#define MB_SYS_NETNS_H

#include <stddef.h>

struct mb_netns {
	int fd;			/* the namespace (/proc/thread-self/ns/net of its maker), or -1 */
	unsigned long inode;	/* its inode number: net:[inode] in /proc/PID/ns/net and lsns */
};

/*
 * A fresh namespace, made by unshare(CLONE_NEWNET) on the calling thread, which is back in its
 * own namespace on return. 0, or a negative errno with the reason in @why; on failure nothing
 * is held.
 */
int mb_netns_make(struct mb_netns *ns, char *why, size_t len);

/*
 * Move the calling thread into @ns; *@home gets an fd of the namespace it was in, for
 * mb_netns_leave(). 0 or a negative errno (the thread stays where it was).
 */
int mb_netns_enter(const struct mb_netns *ns, int *home);
/* Move the calling thread back to *@home and close it (-1 after). 0 or a negative errno. */
int mb_netns_leave(int *home);

/* Close it: the kernel removes the namespace once nothing else in it holds it. */
void mb_netns_close(struct mb_netns *ns);

#endif
