// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-scan's BPF methods (scan.bpf.c), on the run's map by bpf_map__reuse_fd: for_each, one
 * BPF_PROG_TEST_RUN of a raw_tp program that calls bpf_for_each_map_elem; iter, an
 * iter/bpf_map_elem program attached to the map, each walk an iterator fd read to its end.
 * Only the method's program is loaded. A kernel that refuses the iterator (EPERM where
 * tracing programs are blocked, as fentry is) skips the run with one sentence.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "scan.h"
#include "scan_shared.h"
#include "sys/probe.h"
#include "scan.skel.h"

struct scan_prog {
	struct scan_bpf *skel;
	struct bpf_link *link;		/* iter: attached to the map */
	int prog_fd;
};

static int attach_iter(struct mb_run *run, struct scan_state *st, struct scan_prog *p)
{
	LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info info;
	int err;

	memset(&info, 0, sizeof(info));
	info.map.map_fd = (__u32)st->fd;
	opts.link_info = &info;
	opts.link_info_len = sizeof(info);
	p->link = bpf_program__attach_iter(p->skel->progs.mb_scan_iter, &opts);
	if (p->link)
		return 0;
	err = -errno;
	return mb_run_fail(run, err, "cannot attach the iterator to the %s map: %s",
			   st->type->name, strerror(-err));
}

static int load_failed(struct mb_run *run, const struct scan_state *st, int err)
{
	char why[1024];

	if (st->method == SCAN_ITER && err == -EPERM)
		return mb_run_skip(run, "--method iter: this kernel refuses iterator programs (EPERM: tracing programs are blocked here, as fentry is); the other methods run");
	mb_explain_load_error(err, "cannot load the walk's BPF program", why, sizeof(why));
	return mb_run_fail(run, err, "%s", why);
}

int scan_prog_open(struct mb_run *run, struct scan_state *st)
{
	struct scan_prog *p = calloc(1, sizeof(*p));
	bool iter = st->method == SCAN_ITER;
	int err;

	if (!p)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	st->prog = p;
	p->skel = scan_bpf__open();
	if (!p->skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	bpf_program__set_autoload(p->skel->progs.mb_scan_iter, iter);
	bpf_program__set_autoload(p->skel->progs.mb_scan_for_each, !iter);
	err = bpf_map__reuse_fd(p->skel->maps.mb_scan_map, st->fd);
	if (err)
		return mb_run_fail(run, err, "cannot hand the map to the BPF object: %s",
				   strerror(-err));
	err = scan_bpf__load(p->skel);
	if (err)
		return load_failed(run, st, err);
	if (iter)
		return attach_iter(run, st, p);
	p->prog_fd = bpf_program__fd(p->skel->progs.mb_scan_for_each);
	return 0;
}

void scan_prog_close(struct scan_state *st)
{
	struct scan_prog *p = st->prog;

	if (!p)
		return;
	bpf_link__destroy(p->link);
	scan_bpf__destroy(p->skel);
	free(p);
	st->prog = NULL;
}

/* Read the iterator to its end: the program writes nothing, so one read sees every entry. */
static int read_iter(struct scan_prog *p, struct scan_walk *out)
{
	char buf[64];
	ssize_t got;
	int fd = bpf_iter_create(bpf_link__fd(p->link)), err = 0;

	out->calls++;
	if (fd < 0)
		return -errno;
	do {
		out->calls++;
		got = read(fd, buf, sizeof(buf));
	} while (got > 0);
	if (got < 0)
		err = -errno;
	close(fd);
	out->calls++;
	return err;
}

int scan_prog_walk(struct scan_state *st, struct scan_walk *out)
{
	struct scan_prog *p = st->prog;
	struct scan_res *res = &p->skel->bss->mb_scan_res;
	int err;

	memset(res, 0, sizeof(*res));
	if (p->link) {
		err = read_iter(p, out);
	} else {
		LIBBPF_OPTS(bpf_test_run_opts, opts);

		out->calls++;
		err = bpf_prog_test_run_opts(p->prog_fd, &opts) ? -errno : 0;
	}
	out->entries = res->entries;
	out->sum = res->sum;
	return err;
}
