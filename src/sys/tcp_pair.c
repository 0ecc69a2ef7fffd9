// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Loopback TCP pairs: a listener on 127.0.0.1, port 0, and connect/accept per pair. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "tcp_pair.h"

#define PORT_RANGE_PATH		"/proc/sys/net/ipv4/ip_local_port_range"
#define PORT_RANGE_DEFAULT	"32768 60999"

uint64_t mb_port_range_count(const char *text)
{
	unsigned long lo, hi;
	char tail;

	if (!text || sscanf(text, "%lu %lu %c", &lo, &hi, &tail) != 2)
		return 0;
	if (lo < 1 || hi > 65535 || lo > hi)
		return 0;
	return hi - lo + 1;
}

static uint64_t fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	uint64_t n = 0;
	struct dirent *e;

	if (!d)
		return 64;	/* no /proc: a guess that leaves room */
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n ? n - 1 : 0;	/* less the directory's own fd */
}

int mb_tcp_pairs_limit(uint64_t reserve, struct mb_tcp_limit *lim)
{
	char buf[64] = PORT_RANGE_DEFAULT;
	struct rlimit rl;
	uint64_t fds, open_now;
	FILE *f;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	f = fopen(PORT_RANGE_PATH, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			snprintf(buf, sizeof(buf), "%s", PORT_RANGE_DEFAULT);
		fclose(f);
	}
	open_now = fds_open();
	memset(lim, 0, sizeof(*lim));
	lim->nofile_hard = rl.rlim_max == RLIM_INFINITY ? UINT32_MAX : rl.rlim_max;
	lim->fds_open = open_now;
	lim->ports = mb_port_range_count(buf);
	/* The listener takes one fd; each pair two, and one port. */
	fds = lim->nofile_hard > open_now + reserve + 1 ?
		      lim->nofile_hard - open_now - reserve - 1 : 0;
	lim->max_pairs = fds / 2 < lim->ports ? fds / 2 : lim->ports;
	return 0;
}

int mb_nofile_reserve(uint64_t fds)
{
	uint64_t want = fds_open() + fds + 1;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= want)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		return -EMFILE;
	rl.rlim_cur = want;
	return setrlimit(RLIMIT_NOFILE, &rl) ? -errno : 0;
}

static int listen_loopback(struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) || listen(fd, SOMAXCONN) ||
	    getsockname(fd, (struct sockaddr *)addr, &len)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* One connect and the accept that answers it: both ends into @fd[0], @fd[1]. */
static int pair_make(int lfd, const struct sockaddr_in *addr, int *fd)
{
	int c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), a, err;

	if (c < 0)
		return -errno;
	/* On loopback a blocking connect returns once the handshake is done. */
	if (connect(c, (const struct sockaddr *)addr, sizeof(*addr))) {
		err = -errno;
		close(c);
		return err;
	}
	a = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (a < 0) {
		err = -errno;
		close(c);
		return err;
	}
	fd[0] = c;
	fd[1] = a;
	return 0;
}

int mb_tcp_pairs_open(struct mb_tcp_pairs *tp, unsigned int nr)
{
	struct sockaddr_in addr;
	int err;

	memset(tp, 0, sizeof(*tp));
	tp->listen_fd = -1;
	tp->fd = calloc(nr ? 2 * (size_t)nr : 1, sizeof(*tp->fd));
	if (!tp->fd)
		return -ENOMEM;
	tp->live = true;
	tp->listen_fd = listen_loopback(&addr);
	if (tp->listen_fd < 0) {
		err = tp->listen_fd;
		mb_tcp_pairs_close(tp);
		return err;
	}
	while (tp->nr < nr) {
		err = pair_make(tp->listen_fd, &addr, &tp->fd[2 * tp->nr]);
		if (err) {
			mb_tcp_pairs_close(tp);
			return err;
		}
		tp->nr++;
	}
	return 0;
}

/* A reset instead of a FIN: no TIME_WAIT entry outlives the run. */
static void close_abort(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	close(fd);
}

void mb_tcp_pairs_close(struct mb_tcp_pairs *tp)
{
	if (!tp->live)
		return;
	for (unsigned int i = 0; i < 2 * tp->nr; i++)
		close_abort(tp->fd[i]);
	if (tp->listen_fd >= 0)
		close(tp->listen_fd);
	free(tp->fd);
	tp->fd = NULL;
	tp->nr = 0;
	tp->listen_fd = -1;
	tp->live = false;
}

int mb_sock_cookie(int fd, uint64_t *cookie)
{
	socklen_t len = sizeof(*cookie);

	return getsockopt(fd, SOL_SOCKET, SO_COOKIE, cookie, &len) ? -errno : 0;
}
