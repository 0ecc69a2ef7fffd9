// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * reuseport family: the sockets and the map. A group is made in order: the first socket binds
 * 127.0.0.1 port 0 with SO_REUSEPORT and the kernel picks a free port; the others bind the same
 * port, so the port is the run's and no other process's. TCP sockets listen (a TCP socket is
 * in its reuseport group, and so can enter the array, once it listens; a UDP one once bound).
 * Every socket is non-blocking: the select bench takes what arrived without waiting.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "rp.h"
#include "drivers/map_create.h"
#include "drivers/map_probe.h"

#define RP_BACKLOG 128

const char *const rp_proto_names[] = { "tcp", "udp", NULL };

static int one_socket(int proto, uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(*port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int on = 1, err = 0;
	int fd = socket(AF_INET, (proto == RP_TCP ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK |
			SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    (proto == RP_TCP && listen(fd, RP_BACKLOG)) ||
	    (!*port && getsockname(fd, (struct sockaddr *)&a, &len)))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	*port = ntohs(a.sin_port);
	return fd;
}

int rp_group_open(struct rp_group *g, int proto, uint32_t nr)
{
	socklen_t len = sizeof(uint64_t);

	memset(g, 0, sizeof(*g));
	g->proto = proto;
	g->fd = malloc(nr * sizeof(*g->fd));
	g->cookie = calloc(nr, sizeof(*g->cookie));
	if (!g->fd || !g->cookie)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++)
		g->fd[i] = -1;
	g->nr = nr;
	for (uint32_t i = 0; i < nr; i++) {
		g->fd[i] = one_socket(proto, &g->port);
		if (g->fd[i] < 0)
			return g->fd[i];
		if (getsockopt(g->fd[i], SOL_SOCKET, SO_COOKIE, &g->cookie[i], &len))
			return -errno;
	}
	return 0;
}

void rp_group_close(struct rp_group *g)
{
	for (uint32_t i = 0; g->fd && i < g->nr; i++)
		if (g->fd[i] >= 0)
			close(g->fd[i]);
	free(g->fd);
	free(g->cookie);
	memset(g, 0, sizeof(*g));
}

int rp_map_create(struct mb_run *run, uint32_t nr)
{
	const struct mb_map_recipe *r = mb_map_recipe_find("reuseport_sockarray");
	struct mb_recipe_map m;
	char why[256] = "";
	int fd;

	if (!r)
		return mb_run_fail(run, -ENOENT, "no recipe for reuseport_sockarray");
	fd = mb_recipe_map_get(&m, r, BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, nr, why, sizeof(why));
	if (fd) {
		mb_recipe_map_put(&m);
		return mb_run_fail(run, fd, "reuseport_sockarray: %s", why);
	}
	/* 8-byte values: a lookup from user space returns the socket's cookie in them. */
	m.d.value_size = sizeof(uint64_t);
	m.d.name = "mb_rp_socks";
	fd = mb_run_map_create(run, &m.d, NULL);
	mb_recipe_map_put(&m);
	return fd;
}

int rp_map_put(int map_fd, const struct rp_group *g, uint32_t slot, uint32_t sock,
	       uint64_t flags)
{
	uint64_t v = (uint64_t)g->fd[sock];

	return bpf_map_update_elem(map_fd, &slot, &v, flags) ? -errno : 0;
}

int rp_map_check(int map_fd, const struct rp_group *g, const uint32_t *want, uint32_t nr)
{
	for (uint32_t slot = 0; slot < nr; slot++) {
		uint64_t cookie = 0;

		if (bpf_map_lookup_elem(map_fd, &slot, &cookie))
			return -errno;
		if (cookie != g->cookie[want ? want[slot] : slot])
			return -EBADMSG;
	}
	return 0;
}
