/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Connected TCP socket pairs over loopback, made by the process itself: what a bench puts in
 * a sockmap or sockhash (a socket goes in only once it is established) or sends through. One
 * listener on 127.0.0.1, port 0 (the kernel picks a free one), then for each pair a
 * connect and the accept that answers it. Each connect takes an ephemeral port
 * (net.ipv4.ip_local_port_range), each pair two file descriptors (RLIMIT_NOFILE):
 * mb_tcp_pairs_limit() says how many pairs fit before any is made.
 *
 * Closing aborts every connection (SO_LINGER 0: a reset, no TIME_WAIT left behind), so a run
 * leaves neither sockets nor connection state behind, also after an error half-way.
 */
#ifndef MB_TCP_PAIR_H
#define MB_TCP_PAIR_H

#include <stdbool.h>
#include <stdint.h>

struct mb_tcp_pairs {
	bool live;		/* opened and not yet closed (a zeroed struct: false) */
	int listen_fd;		/* -1: none */
	unsigned int nr;	/* pairs open */
	/*
	 * [2 * nr]: fd[2i] the end that connected, fd[2i + 1] the end accept() gave, both
	 * established; the i-th pair's data sent on one end arrives on the other.
	 */
	int *fd;
};

/* How many pairs fit beside the process's fds open now and @reserve more. */
struct mb_tcp_limit {
	uint64_t nofile_hard;	/* RLIMIT_NOFILE's hard limit */
	uint64_t fds_open;	/* fds the process holds now */
	uint64_t ports;		/* ephemeral ports: each pair's connect takes one */
	uint64_t max_pairs;	/* the smaller of what the fds and the ports allow */
};

/*
 * The limits, reading RLIMIT_NOFILE, /proc/self/fd and ip_local_port_range (where it cannot
 * be read, the kernel's default range). 0 or -errno.
 */
int mb_tcp_pairs_limit(uint64_t reserve, struct mb_tcp_limit *lim);

/*
 * The ports a range of ip_local_port_range's text gives ("32768\t60999\n": 28232); 0 when
 * it is not two numbers, low <= high, within 1..65535.
 */
uint64_t mb_port_range_count(const char *text);

/*
 * Raise RLIMIT_NOFILE's soft limit to hold @fds more than the process holds now (at most the
 * hard limit). 0, or -EMFILE when even the hard limit is too low, or -errno.
 */
int mb_nofile_reserve(uint64_t fds);

/* Open @nr pairs into @tp (zeroed first). 0, or -errno with nothing left open. */
int mb_tcp_pairs_open(struct mb_tcp_pairs *tp, unsigned int nr);

/* Abort and close every pair and the listener; nothing on a zeroed or closed @tp. */
void mb_tcp_pairs_close(struct mb_tcp_pairs *tp);

/* The socket's cookie (SO_COOKIE): what a sockmap's lookup from user space gives. 0 or -errno. */
int mb_sock_cookie(int fd, uint64_t *cookie);

#endif
