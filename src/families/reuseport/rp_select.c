// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * reuseport-select: the group's sk_reuseport program (rp_select.bpf.c), attached with
 * SO_ATTACH_REUSEPORT_EBPF, selects socket ctx->hash % n of the array for each datagram (UDP)
 * or SYN (TCP) that arrives. BPF_PROG_TEST_RUN has no sk_reuseport runner (the kernel answers
 * ENOTSUPP; set-up tries and says so), so real packets drive it over loopback: one producer
 * sends a datagram from one of RP_CLIENTS connected UDP sockets in turn (each its own source
 * port, so its own hash), or connects a new TCP socket; the program runs in the softirq of
 * that send, on the producer's CPU. Each op is checked: the program ran once more, the socket
 * it selected received the datagram (its sequence number) or has the connection to accept
 * (its peer the client's port). The figure is the helper's time, from the program's clock.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "rp_select.h"
#include "rp_shared.h"
#include "rp_select.skel.h"
#include "util/json.h"
#include "util/log.h"
#include "core/run.h"

#define RP_WAIT_MS	1000	/* a datagram or connection not there by then is lost */

static struct sockaddr_in group_addr(const struct rp_state *st)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(st->g.port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	return a;
}

static int open_clients(struct rp_state *st)
{
	struct sockaddr_in a = group_addr(st);

	for (int i = 0; i < RP_CLIENTS; i++) {
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		st->sel->client[i] = fd;
		if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return -errno;
	}
	return 0;
}

/* The program by BPF_PROG_TEST_RUN, for the record: 0 where it ran, else -errno. */
static int try_test_run(int prog_fd)
{
	char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt));

	return bpf_prog_test_run_opts(prog_fd, &o) ? -errno : 0;
}

static int load(struct mb_run *run, struct rp_state *st)
{
	struct rp_select *s = st->sel;
	int err, prog_fd;

	s->skel = rp_select_bpf__open();
	if (!s->skel)
		return mb_run_fail(run, -errno, "cannot open the sk_reuseport program");
	s->skel->rodata->mb_rp_n = st->args->nr_entries;
	err = bpf_map__reuse_fd(s->skel->maps.mb_rp_socks, st->map_fd);
	if (!err)
		err = rp_select_bpf__load(s->skel);
	if (err)
		return mb_run_fail(run, err, "cannot load the sk_reuseport program");
	prog_fd = bpf_program__fd(s->skel->progs.mb_rp_select);
	s->test_run_err = try_test_run(prog_fd);
	/* Attached to one socket, the program is the whole group's. */
	if (setsockopt(st->g.fd[0], SOL_SOCKET, SO_ATTACH_REUSEPORT_EBPF, &prog_fd,
		       sizeof(prog_fd)))
		return mb_run_fail(run, -errno, "SO_ATTACH_REUSEPORT_EBPF: cannot attach the program to the group");
	return 0;
}

int rp_select_setup(struct mb_run *run)
{
	struct rp_state *st;
	int err = rp_sys_setup(run, RP_SELECT);

	if (err)
		return err;
	st = run->priv;
	st->sel = calloc(1, sizeof(*st->sel));
	if (!st->sel)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	for (int i = 0; i < RP_CLIENTS; i++)
		st->sel->client[i] = -1;
	st->sel->received = calloc(st->g.nr, sizeof(uint64_t));
	if (!st->sel->received)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	err = load(run, st);
	if (err)
		return err;
	if (st->args->proto == RP_UDP && (err = open_clients(st)))
		return mb_run_fail(run, err, "cannot open %d UDP clients", RP_CLIENTS);
	run->runner = "packets";
	return 0;
}

void rp_select_close(struct rp_state *st)
{
	struct rp_select *s = st->sel;

	if (!s)
		return;
	for (int i = 0; i < RP_CLIENTS; i++)
		if (s->client[i] >= 0)
			close(s->client[i]);
	rp_select_bpf__destroy(s->skel);
	free(s->received);
	free(s);
	st->sel = NULL;
}

static uint64_t runs_now(const struct rp_state *st)
{
	return __atomic_load_n(&st->sel->skel->bss->mb_rp_st.runs, __ATOMIC_ACQUIRE);
}

/* Until the program has run @want times (the softirq may be deferred): 0, or -ETIMEDOUT. */
static int wait_runs(const struct rp_state *st, uint64_t want)
{
	uint64_t end = mb_now_ns() + RP_WAIT_MS * 1000000ull;

	while (runs_now(st) < want) {
		if (mb_now_ns() > end)
			return -ETIMEDOUT;
		sched_yield();
	}
	return runs_now(st) == want ? 0 : -EPROTO;
}

/* Until @fd is readable: 0, or -ETIMEDOUT. */
static int wait_readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n = poll(&pfd, 1, RP_WAIT_MS);

	return n > 0 ? 0 : n == 0 ? -ETIMEDOUT : -errno;
}

/* One datagram: sent, and received with its number by the selected socket. */
static int udp_op(struct rp_state *st, uint64_t seq, uint64_t runs)
{
	uint64_t got = ~seq;
	uint32_t idx;
	ssize_t n;
	int err;

	if (send(st->sel->client[seq % RP_CLIENTS], &seq, sizeof(seq), 0) != sizeof(seq))
		return -errno;
	err = wait_runs(st, runs + 1);
	if (err)
		return err;
	idx = st->sel->skel->bss->mb_rp_st.last_index;
	if (idx >= st->g.nr)
		return -ERANGE;
	n = recv(st->g.fd[idx], &got, sizeof(got), MSG_DONTWAIT);
	if (n < 0 && errno == EAGAIN && !(err = wait_readable(st->g.fd[idx])))
		n = recv(st->g.fd[idx], &got, sizeof(got), MSG_DONTWAIT);
	if (n < 0)
		return err ? err : -errno;
	st->sel->received[idx]++;
	return n == sizeof(got) && got == seq ? 0 : -EBADMSG;
}

/* The selected listener has the connection: its peer is the client's own address. */
static int tcp_accept(struct rp_state *st, uint32_t idx, const struct sockaddr_in *self)
{
	struct sockaddr_in peer;
	socklen_t len = sizeof(peer);
	int fd = accept4(st->g.fd[idx], (struct sockaddr *)&peer, &len, SOCK_CLOEXEC), err;

	if (fd < 0 && errno == EAGAIN && !(err = wait_readable(st->g.fd[idx])))
		fd = accept4(st->g.fd[idx], (struct sockaddr *)&peer, &len, SOCK_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	st->sel->received[idx]++;
	return peer.sin_port == self->sin_port ? 0 : -EBADMSG;
}

/* One connection: made, accepted by the selected listener, reset (no TIME_WAIT left). */
static int tcp_op(struct rp_state *st, uint64_t runs)
{
	struct sockaddr_in a = group_addr(st), self;
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	socklen_t len = sizeof(self);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), err = 0;
	uint32_t idx;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) ||
	    connect(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&self, &len))
		err = -errno;
	if (!err)
		err = wait_runs(st, runs + 1);
	if (!err) {
		idx = st->sel->skel->bss->mb_rp_st.last_index;
		err = idx < st->g.nr ? tcp_accept(st, idx, &self) : -ERANGE;
	}
	close(fd);
	return err;
}

int rp_select_producer(struct mb_run *run, struct mb_producer *p)
{
	struct rp_state *st = run->priv;
	const struct mb_rp_stats *ps = &st->sel->skel->bss->mb_rp_st;
	uint64_t ns0 = ps->select_ns, clk0 = ps->clock_ns, seq = 0;
	struct mb_counters c = { 0 };
	int err = 0;

	st->sel->runs0 = runs_now(st);
	mb_producer_publish_stamped(p, &c);
	while (!err && !mb_run_should_stop(run)) {
		for (int i = 0; i < 16 && !err; i++, seq++) {
			uint64_t runs = runs_now(st);

			err = st->args->proto == RP_UDP ? udp_op(st, seq, runs) : tcp_op(st, runs);
			c.ops++;
			c.calls++;
			if (err)
				c.errors++;
			else
				c.hits++;
		}
		c.kernel_ns = ps->select_ns - ns0;
		c.counter[0] = ps->clock_ns - clk0;
		mb_producer_publish_stamped(p, &c);
	}
	if (err)
		mb_err("%s: a %s failed after %llu: %s", run->bench->name,
		       st->args->proto == RP_UDP ? "datagram" : "connection",
		       (unsigned long long)c.ops, strerror(-err));
	st->done = c;
	return err;
}

/* select_ns: the helper's own time, the empty clock span taken out. */
void rp_select_measure(struct mb_run *run, struct mb_sample *s)
{
	(void)run;
	if (!s->total.ops)
		return;
	s->metric[0] = ((double)s->total.kernel_ns - (double)s->total.counter[0]) /
		       (double)s->total.ops;
	s->metric[1] = (double)s->total.counter[0] / (double)s->total.ops;
}
