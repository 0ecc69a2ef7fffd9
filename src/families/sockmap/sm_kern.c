// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sockmap-lookup --path kernel: the program of sml.bpf.c loaded on the set-up's map, each key's
 * ports for its check, and the producer: BPF_PROG_TEST_RUN calls of the program's own loop,
 * each sized to about --call_us of in-kernel time, on the producer's thread.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "sockmap.h"
#include "sml.skel.h"
#include "core/env.h"
#include "sys/probe.h"
#include "util/log.h"

#define SM_KERN_FIRST_ITERS	256
#define SM_KERN_MAX_ITERS	(1u << 22)
#define SM_KERN_PKT		64	/* test_run of a tc program wants an Ethernet header */

/* What the program compares: the local port << 32 | the peer's port as the kernel keeps it. */
static int sm_ports(int fd, uint64_t *want)
{
	struct sockaddr_in me, peer;
	socklen_t l1 = sizeof(me), l2 = sizeof(peer);

	if (getsockname(fd, (struct sockaddr *)&me, &l1) ||
	    getpeername(fd, (struct sockaddr *)&peer, &l2))
		return -errno;
	*want = ((uint64_t)ntohs(me.sin_port) << 32) | peer.sin_port;
	return 0;
}

static int sm_kern_want(struct mb_run *run, struct sm_state *st)
{
	int fd = bpf_map__fd(st->skel->maps.mb_sml_want), err;

	for (uint32_t k = 0; k < st->args->nr_entries; k++) {
		uint64_t want;

		err = sm_ports(st->tp.fd[k], &want);
		if (!err && bpf_map_update_elem(fd, &k, &want, BPF_ANY))
			err = -errno;
		if (err)
			return mb_run_fail(run, err, "cannot note socket %u's ports: %s", k,
					   strerror(-err));
	}
	return 0;
}

int sm_kern_open(struct mb_run *run, struct sm_state *st)
{
	struct bpf_map *m;
	char why[1024];
	int err;

	st->skel = sml_bpf__open();
	if (!st->skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	m = st->skel->maps.mb_sml_map;
	err = bpf_map__set_type(m, st->args->map_type == SM_SOCKHASH ? BPF_MAP_TYPE_SOCKHASH :
								       BPF_MAP_TYPE_SOCKMAP);
	err = err ? err : bpf_map__set_max_entries(m, st->nr_socks);
	err = err ? err : bpf_map__reuse_fd(m, st->map_fd);
	err = err ? err : bpf_map__set_max_entries(st->skel->maps.mb_sml_want,
						  st->args->nr_entries);
	if (err)
		return mb_run_fail(run, err, "cannot give the program the set-up's map: %s",
				   strerror(-err));
	st->skel->bss->mb_sml_level = st->args->nr_entries;
	err = sml_bpf__load(st->skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the tc program that looks the map up",
				      why, sizeof(why));
		return mb_run_skip(run, "%s", why);
	}
	run->runner = "kernel-loop";
	return sm_kern_want(run, st);
}

void sm_kern_close(struct sm_state *st)
{
	sml_bpf__destroy(st->skel);
	st->skel = NULL;
}

static void sm_kern_read(const struct sm_state *st, struct mb_counters *c)
{
	const struct sml_bpf__bss *b = st->skel->bss;

	c->ops = b->mb_sml_ops;
	c->hits = b->mb_sml_hits;
	c->errors = b->mb_sml_errors;
	c->counter[SM_VERIFIED] = b->mb_sml_hits;
	c->kernel_ns = b->mb_sml_ns;
	c->calls = b->mb_sml_calls;
}

int sm_kern_produce(struct mb_run *run, struct mb_producer *p)
{
	struct sm_state *st = run->priv;
	uint64_t target = (uint64_t)run->env->call_us * 1000, iters = SM_KERN_FIRST_ITERS;
	char pkt[SM_KERN_PKT] = { 0 };
	struct mb_counters c = { 0 };

	mb_producer_publish_stamped(p, &c);
	while (!mb_run_should_stop(run)) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt));
		uint64_t ns0 = st->skel->bss->mb_sml_ns, ns;

		st->skel->bss->mb_sml_iters = iters;
		if (bpf_prog_test_run_opts(bpf_program__fd(st->skel->progs.mb_sml_lookup), &o) ||
		    o.retval) {
			int err = o.retval ? -EPROTO : -errno;

			mb_err("%s: BPF_PROG_TEST_RUN failed: %s", run->bench->name,
			       strerror(-err));
			st->done = c;
			return st->err = err;
		}
		sm_kern_read(st, &c);
		ns = st->skel->bss->mb_sml_ns - ns0;
		/* Calls of about --call_us: twice the ops while short, scaled once long enough. */
		if (ns < target / 4)
			iters = iters * 2 < SM_KERN_MAX_ITERS ? iters * 2 : SM_KERN_MAX_ITERS;
		else if (ns)
			iters = iters * target / ns ? iters * target / ns : 1;
		if (iters > SM_KERN_MAX_ITERS)
			iters = SM_KERN_MAX_ITERS;
		mb_producer_publish_stamped(p, &c);
	}
	st->done = c;
	return 0;
}
