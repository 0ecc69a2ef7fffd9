// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "netns.h"

#define NETNS_SELF	"/proc/thread-self/ns/net"

int mb_netns_make(struct mb_netns *ns, char *why, size_t len)
{
	int home = open(NETNS_SELF, O_RDONLY | O_CLOEXEC), err = 0;
	struct stat sb;

	ns->fd = -1;
	ns->inode = 0;
	if (home < 0) {
		err = -errno;
		snprintf(why, len, "cannot open %s: %s", NETNS_SELF, strerror(errno));
		return err;
	}
	if (unshare(CLONE_NEWNET)) {
		err = -errno;
		snprintf(why, len, "cannot make a network namespace (unshare CLONE_NEWNET): %s%s",
			 strerror(errno), errno == EPERM ? " (needs CAP_SYS_ADMIN)" :
			 errno == EINVAL ? " (a kernel without CONFIG_NET_NS)" : "");
		close(home);
		return err;
	}
	ns->fd = open(NETNS_SELF, O_RDONLY | O_CLOEXEC);
	if (ns->fd < 0)
		err = -errno;
	else if (!fstat(ns->fd, &sb))
		ns->inode = (unsigned long)sb.st_ino;
	/* Back home before anything else: the new namespace is held by its fd alone. */
	if (setns(home, CLONE_NEWNET) && !err)
		err = -errno;
	close(home);
	if (err) {
		snprintf(why, len, "cannot hold the new network namespace: %s", strerror(-err));
		mb_netns_close(ns);
	}
	return err;
}

int mb_netns_enter(const struct mb_netns *ns, int *home)
{
	*home = open(NETNS_SELF, O_RDONLY | O_CLOEXEC);
	if (*home < 0)
		return -errno;
	if (setns(ns->fd, CLONE_NEWNET)) {
		int err = -errno;

		close(*home);
		*home = -1;
		return err;
	}
	return 0;
}

int mb_netns_leave(int *home)
{
	int err = 0;

	if (*home < 0)
		return 0;
	if (setns(*home, CLONE_NEWNET))
		err = -errno;
	close(*home);
	*home = -1;
	return err;
}

void mb_netns_close(struct mb_netns *ns)
{
	if (ns->fd >= 0)
		close(ns->fd);
	ns->fd = -1;
}
