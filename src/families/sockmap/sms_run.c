// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The sockmap bench: the producer (sendfile of the file, over and over, to the mode's
 * socket), consumer 0 (reads c2 and checks every byte against its place in the stream),
 * consumer 1 (--rx-normal's user-space proxy: p1 to p2), and the check at the end: every
 * byte sent arrived, in order, and the programs saw what the mode sends through them.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sendfile.h>
#include <sys/socket.h>

#include "sms.h"
#include "sms.skel.h"
#include "core/run.h"
#include "util/json.h"
#include "util/log.h"

#define SMS_POLL_MS	50	/* how often a blocked thread looks at the stop flags */
#define SMS_DRAIN_MS	150	/* the drain ends this long after the producer stopped */

/* Wait until @fd is ready for @events or SMS_POLL_MS passed: 1 ready, 0 not, -errno. */
static int sms_wait(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int n = poll(&pfd, 1, SMS_POLL_MS);

	return n < 0 ? (errno == EINTR ? 0 : -errno) : n;
}

static bool sms_producer_stops(struct mb_run *run, uint64_t t0)
{
	uint32_t dur = ((const struct sms_args *)run->args)->producer_duration;

	return mb_run_should_stop(run) || (dur && mb_now_ns() - t0 >= dur * 1000000000ull);
}

/* At the cap: a millisecond off the CPU, a wait the noise checks leave out. */
static void sms_cap_wait(struct sms_state *st, struct mb_producer *p, struct mb_counters *c)
{
	uint64_t t = mb_now_ns();

	mb_producer_wait_begin(p, c);
	usleep(1000);
	mb_producer_wait_end(p, c);
	st->capped_ns += mb_now_ns() - t;
}

int sms_producer(struct mb_run *run, struct mb_producer *p)
{
	struct sms_state *st = run->priv;
	struct mb_counters c = { 0 };
	uint64_t t0 = mb_now_ns();
	off_t off = 0;
	int err = 0;

	mb_producer_publish_stamped(p, &c);
	while (!err && !sms_producer_stops(run, t0)) {
		ssize_t n;

		if (c.counter[SMS_BYTES] - __atomic_load_n(&st->received_live, __ATOMIC_RELAXED) >
		    SMS_MAX_IN_FLIGHT) {
			sms_cap_wait(st, p, &c);
			continue;
		}
		n = sendfile(st->target, st->file_fd, &off, SMS_FILE_SIZE - off);

		c.ops++;
		if (n > 0) {
			c.counter[SMS_BYTES] += (uint64_t)n;
			if (off == SMS_FILE_SIZE)
				off = 0;
		} else if (n < 0 && errno != EAGAIN && errno != ENOMEM && errno != ENOBUFS) {
			err = -errno;
		} else {
			err = sms_wait(st->target, POLLOUT);	/* the socket is full */
			err = err < 0 ? err : 0;
		}
		c.counter[SMS_BPF_BYTES] = __atomic_load_n(&st->skel->bss->mb_sms_bytes,
							   __ATOMIC_RELAXED);
		mb_producer_publish_stamped(p, &c);
	}
	__atomic_store_n(&st->sent, c.counter[SMS_BYTES], __ATOMIC_RELAXED);
	__atomic_store_n(&st->producer_done, 1, __ATOMIC_RELEASE);
	if (err)
		mb_err("%s: sendfile to the --%s socket: %s", run->bench->name,
		       sms_mode_names[st->args->mode], strerror(-err));
	return err;
}

/* Every byte in its place: stream byte i is i % the file's size % the pattern's. */
static uint64_t sms_verify(const char *buf, size_t n, uint64_t pos)
{
	uint64_t bad = 0;

	for (size_t i = 0; i < n; i++, pos++)
		bad += buf[i] != (char)(pos % SMS_FILE_SIZE % SMS_PATTERN);
	return bad;
}

/*
 * Whether the drain is over: every byte the producer sent came, or SMS_DRAIN_MS passed
 * since it stopped. A redirect to a receive queue has no back-pressure (the sender never
 * waits for the reader), so up to SMS_MAX_IN_FLIGHT can be queued when the producer stops,
 * which a slow reader takes seconds to read: the drain takes what it can in that time and
 * the rest is reported as in flight.
 */
static bool sms_drained(struct mb_run *run, struct sms_state *st, uint64_t got,
			uint64_t *since)
{
	if (!mb_run_consumers_should_stop(run) ||
	    !__atomic_load_n(&st->producer_done, __ATOMIC_ACQUIRE))
		return false;
	if (got >= __atomic_load_n(&st->sent, __ATOMIC_RELAXED))
		return true;
	if (!*since)
		*since = mb_now_ns();
	return mb_now_ns() - *since >= SMS_DRAIN_MS * 1000000ull;
}

/* --delay-consumer: consumer 0 starts reading that late (the stream backs up meanwhile). */
static void sms_delay(struct mb_run *run)
{
	const struct sms_args *a = run->args;
	uint64_t until = mb_now_ns() + a->delay_consumer * 1000000000ull;

	while (mb_now_ns() < until && !mb_run_consumers_should_stop(run))
		usleep(SMS_POLL_MS * 1000);
}

/*
 * Take what @fd has into @buf: its length, 0 when nothing came within SMS_POLL_MS, or
 * -errno (-ECONNRESET: the peer closed).
 */
static ssize_t sms_take(int fd, char *buf)
{
	ssize_t n = recv(fd, buf, SMS_FILE_SIZE, MSG_DONTWAIT);

	if (n > 0)
		return n;
	if (!n)
		return -ECONNRESET;
	if (errno != EAGAIN)
		return -errno;
	return sms_wait(fd, POLLIN) < 0 ? -errno : 0;
}

/* Consumer 0: c2's bytes, each checked against its place in the stream. */
static int sms_reader(struct mb_run *run, struct mb_producer *c, struct sms_state *st, char *buf)
{
	struct mb_counters k = { 0 };
	uint64_t since = 0;
	ssize_t n = 0;

	sms_delay(run);
	while (n >= 0 && !sms_drained(run, st, k.counter[SMS_BYTES], &since)) {
		n = sms_take(SMS_C2(st), buf);
		if (n <= 0)
			continue;
		k.ops++;
		k.errors += sms_verify(buf, (size_t)n, k.counter[SMS_BYTES]);
		k.counter[SMS_BYTES] += (uint64_t)n;
		__atomic_store_n(&st->received_live, k.counter[SMS_BYTES], __ATOMIC_RELAXED);
		mb_producer_publish(c, &k);
	}
	mb_producer_publish(c, &k);
	st->received = k.counter[SMS_BYTES];
	st->mismatches = k.errors;
	return n < 0 ? (int)n : 0;
}

/* Consumer 1 (--rx-normal): the proxy in user space, p1's bytes sent on from p2. */
static int sms_proxy(struct mb_run *run, struct sms_state *st, char *buf)
{
	uint64_t since = 0, got = 0;
	ssize_t n = 0;

	while (n >= 0 && !sms_drained(run, st, got, &since)) {
		n = sms_take(SMS_P1(st), buf);
		for (ssize_t off = 0, w; n > 0 && off < n; off += w) {
			w = send(SMS_P2(st), buf + off, (size_t)(n - off), 0);
			if (w < 0) {
				n = -errno;
				break;
			}
		}
		if (n > 0)
			got += (uint64_t)n;
	}
	st->proxied = got;
	return n < 0 ? (int)n : 0;
}

int sms_consumer(struct mb_run *run, struct mb_producer *c)
{
	struct sms_state *st = run->priv;
	char *buf;
	int err;

	/* Consumer 1 is the proxy of --rx-normal; elsewhere it has nothing to do. */
	if (c->idx > 1 || (c->idx == 1 && st->args->mode != SMS_RX_NORMAL))
		return 0;
	buf = malloc(SMS_FILE_SIZE);
	if (!buf)
		return -ENOMEM;
	err = c->idx ? sms_proxy(run, st, buf) : sms_reader(run, c, st, buf);
	free(buf);
	if (err)
		mb_err("%s: consumer %d: %s", run->bench->name, c->idx, strerror(-err));
	return err;
}

static void sms_describe(struct mb_run *run, const struct sms_state *st, uint64_t bpf,
			 uint64_t drops)
{
	struct mb_json *x = mb_run_extra(run);

	mb_json_set_str(x, "mode", sms_mode_names[st->args->mode]);
	mb_json_set_num(x, "file_size", SMS_FILE_SIZE);
	mb_json_set_num(x, "rx_strp", st->args->strp);
	mb_json_set_num(x, "sent", (double)st->sent);
	mb_json_set_num(x, "received", (double)st->received);
	mb_json_set_num(x, "bpf_bytes", (double)bpf);
	mb_json_set_num(x, "redirects_refused", (double)drops);
	mb_json_set_num(x, "mismatched_bytes", (double)st->mismatches);
	if (st->args->mode == SMS_RX_NORMAL)
		mb_json_set_num(x, "proxied", (double)st->proxied);
	mb_json_set_num(x, "max_in_flight", (double)SMS_MAX_IN_FLIGHT);
	mb_json_set_num(x, "capped_ns", (double)st->capped_ns);
}

/*
 * Every byte that arrived was in its place, something arrived, and the programs saw the
 * traffic in a mode that runs them, none in one that does not. (Their count is the kernel
 * bench's, skb->len or msg->size: with --rx-strp skb->len counts more than the message, and
 * --tx-pass's msg->size came out about 1 % short of the bytes sent here.) What had not
 * arrived when the drain ended (a receive queue without back-pressure, a message the
 * stream parser still waits to complete) is reported, not counted as lost.
 */
void sms_finish(struct mb_run *run)
{
	struct sms_state *st = run->priv;
	uint64_t bpf = st->skel->bss->mb_sms_bytes, drops = st->skel->bss->mb_sms_drops;
	uint64_t left = st->sent > st->received ? st->sent - st->received : 0;
	int m = st->args->mode;
	bool runs_bpf = sms_rx_bpf(m) || sms_tx_bpf(m);

	sms_describe(run, st, bpf, drops);
	mb_json_set_num(mb_run_extra(run), "in_flight", (double)left);
	if (!st->received || st->received > st->sent || st->mismatches)
		mb_run_fail(run, -EIO, "--%s: %llu bytes sent, %llu received, %llu not in their place: bytes must arrive, each in its place",
			    sms_mode_names[m], (unsigned long long)st->sent,
			    (unsigned long long)st->received, (unsigned long long)st->mismatches);
	else if (drops || (runs_bpf ? !bpf : bpf != 0))
		mb_run_fail(run, -EIO, "--%s: the programs saw %llu bytes, %llu redirects refused: %s",
			    sms_mode_names[m], (unsigned long long)bpf, (unsigned long long)drops,
			    runs_bpf ? "they must see the traffic, and refuse no redirect" :
				       "no program runs in this mode");
	else if (left)
		mb_run_warn(run, "--%s: %llu of the %llu bytes sent had not arrived %d ms after the producer stopped (%s)",
			    sms_mode_names[m], (unsigned long long)left,
			    (unsigned long long)st->sent, SMS_DRAIN_MS,
			    st->args->strp ? "the stream parser holds an incomplete message, or the queue is long" :
					     "a receive queue that the sender does not wait for grows without bound");
}
