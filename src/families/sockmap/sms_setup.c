// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The sockmap bench: set-up (the programs loaded, the two loopback TCP pairs, the mode's
 * programs attached to its sockmap and its sockets put in, the file to send) and teardown
 * (the skeleton: the programs leave with the maps; the sockets, closed with a reset; the
 * file, a memfd, gone with its fd).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "sms.h"
#include "sms.skel.h"
#include "sys/probe.h"

static int sms_file(struct sms_state *st)
{
	static char buf[SMS_FILE_SIZE];
	int fd = memfd_create("mb_sockmap_file", MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	st->file_fd = fd;
	for (int i = 0; i < SMS_FILE_SIZE; i++)
		buf[i] = (char)(i % SMS_PATTERN);
	if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return errno ? -errno : -EIO;
	return 0;
}

static int sms_put(int map, uint32_t key, int fd)
{
	uint64_t v = (uint64_t)fd;

	return bpf_map_update_elem(map, &key, &v, BPF_NOEXIST) ? -errno : 0;
}

/* The receive side: the parser (--rx-strp), a verdict, and the sockets at keys 0 and 1. */
static int sms_attach_rx(struct sms_state *st, int mode)
{
	struct sms_bpf *s = st->skel;
	int map = bpf_map__fd(s->maps.mb_sms_rx), err;
	int prog = bpf_program__fd(mode == SMS_RX_PASS ? s->progs.mb_sms_skb_pass :
							 s->progs.mb_sms_skb_redirect);

	if (st->args->strp) {
		s->bss->mb_sms_msg_size = st->args->strp;
		if (bpf_prog_attach(bpf_program__fd(s->progs.mb_sms_parser), map,
				    BPF_SK_SKB_STREAM_PARSER, 0))
			return -errno;
	}
	if (bpf_prog_attach(prog, map, BPF_SK_SKB_STREAM_VERDICT, 0))
		return -errno;
	if (mode == SMS_RX_PASS)
		return sms_put(map, 0, SMS_C2(st));
	s->bss->mb_sms_dir = mode == SMS_RX_VERDICT_INGRESS ? BPF_F_INGRESS : 0;
	err = sms_put(map, 0, SMS_P1(st));
	return err ? err : sms_put(map, 1, mode == SMS_RX_VERDICT_INGRESS ? SMS_C2(st) :
								       SMS_P2(st));
}

/* The send side: an sk_msg verdict, and the sender at key 0, where its data goes at 1. */
static int sms_attach_tx(struct sms_state *st, int mode)
{
	struct sms_bpf *s = st->skel;
	int map = bpf_map__fd(s->maps.mb_sms_tx), err;
	int prog = bpf_program__fd(mode == SMS_TX_PASS ? s->progs.mb_sms_msg_pass :
							 s->progs.mb_sms_msg_redirect);

	if (bpf_prog_attach(prog, map, BPF_SK_MSG_VERDICT, 0))
		return -errno;
	if (mode == SMS_TX_VERDICT_EGRESS) {
		err = sms_put(map, 0, SMS_P1(st));
		return err ? err : sms_put(map, 1, SMS_P2(st));
	}
	s->bss->mb_sms_dir = BPF_F_INGRESS;
	err = sms_put(map, 0, SMS_P2(st));
	return err ? err : sms_put(map, 1, SMS_C2(st));
}

static int sms_target(const struct sms_state *st, int mode)
{
	switch (mode) {
	case SMS_RX_NORMAL:
	case SMS_RX_VERDICT_EGRESS:
	case SMS_RX_VERDICT_INGRESS:
		return SMS_C1(st);
	case SMS_TX_VERDICT_EGRESS:
		return SMS_P1(st);
	default:
		return SMS_P2(st);
	}
}

static int sms_load(struct mb_run *run, struct sms_state *st)
{
	char why[1024];
	int err;

	st->skel = sms_bpf__open();
	if (!st->skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	err = sms_bpf__load(st->skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the sk_skb and sk_msg programs and their sockmaps",
				      why, sizeof(why));
		return mb_run_skip(run, "%s", why);
	}
	return 0;
}

int sms_setup(struct mb_run *run)
{
	const struct sms_args *a = run->args;
	struct sms_state *st = calloc(1, sizeof(*st));
	int err;

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "user";
	st->args = a;
	st->file_fd = -1;
	err = sms_load(run, st);
	if (err)
		return err;
	err = mb_tcp_pairs_open(&st->tp, 2);
	if (err)
		return mb_run_fail(run, err, "cannot make two loopback TCP pairs: %s",
				   strerror(-err));
	if (sms_rx_bpf(a->mode))
		err = sms_attach_rx(st, a->mode);
	else if (sms_tx_bpf(a->mode))
		err = sms_attach_tx(st, a->mode);
	if (err)
		return mb_run_fail(run, err, "--%s: cannot attach its program or put its sockets in the sockmap: %s",
				   sms_mode_names[a->mode], strerror(-err));
	/* Non-blocking, as the kernel's bench: a full socket returns and the producer polls. */
	st->target = sms_target(st, a->mode);
	if (fcntl(st->target, F_SETFL, fcntl(st->target, F_GETFL) | O_NONBLOCK))
		return mb_run_fail(run, -errno, "cannot make the sending socket non-blocking: %s",
				   strerror(errno));
	err = sms_file(st);
	if (err)
		return mb_run_fail(run, err, "cannot make the %d-byte file to send: %s",
				   SMS_FILE_SIZE, strerror(-err));
	return 0;
}

void sms_teardown(struct mb_run *run)
{
	struct sms_state *st = run->priv;

	if (!st)
		return;
	sms_bpf__destroy(st->skel);
	mb_tcp_pairs_close(&st->tp);
	if (st->file_fd >= 0)
		close(st->file_fd);
	free(st);
	run->priv = NULL;
}
