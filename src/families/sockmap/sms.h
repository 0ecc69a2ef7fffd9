/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sockmap bench, the kernel bench's of that name: a producer sends a 128 KiB file
 * (sendfile) over loopback TCP, a consumer reads it at the far end and checks every byte,
 * and in between a sockmap's programs forward it, or let it through, or none runs:
 *
 *   c1 <-> p1    c2 <-> p2     (two loopback TCP pairs: c connected, p accepted)
 *   --rx-normal           send(c1) -> p1 -> user-space proxy (consumer 1) -> p2 -> c2
 *   --rx-pass             send(p2) -> c2, its sk_skb verdict passes it -> read(c2)
 *   --rx-verdict-egress   send(c1) -> p1's verdict: to p2's send queue -> c2
 *   --rx-verdict-ingress  send(c1) -> p1's verdict: to c2's receive queue
 *   --tx-normal           send(p2) -> c2
 *   --tx-pass             send(p2), its sk_msg verdict passes it -> c2
 *   --tx-verdict-ingress  send(p2), its sk_msg verdict: to c2's receive queue
 *   --tx-verdict-egress   send(p1), its sk_msg verdict: to p2's send queue -> c2
 */
#ifndef MB_FAMILIES_SMS_H
#define MB_FAMILIES_SMS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bench.h"
#include "sys/tcp_pair.h"

enum sms_mode {
	SMS_RX_NORMAL,
	SMS_RX_PASS,
	SMS_RX_VERDICT_EGRESS,
	SMS_RX_VERDICT_INGRESS,
	SMS_TX_NORMAL,
	SMS_TX_PASS,
	SMS_TX_VERDICT_INGRESS,
	SMS_TX_VERDICT_EGRESS,
	SMS_NR_MODES,
};

#define SMS_FILE_SIZE	(128 * 1024)	/* the file the producer sends, again and again */
#define SMS_PATTERN	10		/* byte i of the stream is i % 128 KiB % 10 */
/*
 * The most bytes in flight (sent, not yet read at c2) before the producer waits: a redirect
 * into a receive queue has no back-pressure, and the kernel's bench lets that queue grow
 * without bound (800 MB of memory in 5 s here).
 */
#define SMS_MAX_IN_FLIGHT	(256ull << 20)

/* counter[]: what a producer sent, a consumer received; what the programs saw. */
#define SMS_BYTES	0
#define SMS_BPF_BYTES	1

struct sms_args {
	bool mode_flag[SMS_NR_MODES];	/* --rx-normal ... --tx-verdict-egress */
	uint32_t strp;			/* --rx-strp BYTES, 0: no stream parser */
	uint32_t delay_consumer;	/* s */
	uint32_t producer_duration;	/* s, 0: the whole run */
	int mode;			/* from the flags, by validate */
};

extern const char *const sms_mode_names[];	/* "rx-normal", ... */

struct sms_bpf;

struct sms_state {
	const struct sms_args *args;
	struct sms_bpf *skel;
	struct mb_tcp_pairs tp;		/* fd[0] c1, fd[1] p1, fd[2] c2, fd[3] p2 */
	int file_fd;			/* the 128 KiB file (a memfd) */
	int target;			/* the fd the producer sends to */
	uint64_t sent;			/* the producer's total at its end (atomic) */
	int producer_done;		/* set with it (atomic) */
	uint64_t received, mismatches;	/* consumer 0's totals at its end */
	uint64_t received_live;		/* consumer 0's bytes so far (atomic), for the cap */
	uint64_t capped_ns;		/* the producer's time waiting at the cap */
	uint64_t proxied;		/* consumer 1's (rx-normal) */
};

#define SMS_C1(st)	((st)->tp.fd[0])
#define SMS_P1(st)	((st)->tp.fd[1])
#define SMS_C2(st)	((st)->tp.fd[2])
#define SMS_P2(st)	((st)->tp.fd[3])

static inline bool sms_rx_bpf(int m)
{
	return m == SMS_RX_PASS || m == SMS_RX_VERDICT_EGRESS || m == SMS_RX_VERDICT_INGRESS;
}

static inline bool sms_tx_bpf(int m)
{
	return m == SMS_TX_PASS || m == SMS_TX_VERDICT_INGRESS || m == SMS_TX_VERDICT_EGRESS;
}

/* sms_setup.c */
int sms_setup(struct mb_run *run);
void sms_teardown(struct mb_run *run);

/* sms_run.c */
int sms_producer(struct mb_run *run, struct mb_producer *p);
int sms_consumer(struct mb_run *run, struct mb_producer *c);
void sms_finish(struct mb_run *run);

#endif
