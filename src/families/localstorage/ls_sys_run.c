// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-syscall's producers: the round trip that shows the owner's fd names the owner,
 * then one syscall per op, timed by the wall clock. A delete needs a value to delete: an update
 * puts it back before each one, outside the timed span (two clock reads bracket it, and its
 * time is taken out of the producer's covered time), so one op is one delete syscall.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "ls_sys.h"
#include "ls_storage.h"
#include "util/json.h"
#include "util/log.h"
#include "core/run.h"
#include "core/summary.h"

const char *const ls_sys_op_names[] = { "lookup", "update", "delete", NULL };

/* Ops between two publications of the counters. */
#define LS_SYS_CHUNK 64

/* The value producer @idx writes: its first word never 0 (the BPF read's "none"). */
static void fill_value(uint8_t *v, uint32_t size, int idx)
{
	uint32_t first = 0x6d620000u | (uint32_t)(idx + 1);

	for (uint32_t i = 0; i < size; i++)
		v[i] = (uint8_t)(i * 7 + (uint32_t)idx + 1);
	memcpy(v, &first, sizeof(first));
}

/* The current thread's value as BPF sees it: the first word, 0 where it has none. */
static int bpf_read(const struct ls_sys_state *st, uint32_t *first)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err = bpf_prog_test_run_opts(st->bpf_prog_fd, &opts);

	if (err)
		return -errno;
	*first = opts.retval;
	return 0;
}

static bool wants_bpf(const struct ls_sys_state *st, const struct ls_sys_prod *pp)
{
	return st->bpf_prog_fd >= 0 && pp->owner.pidfd_thread;
}

/* Write through the owner's fd, read back through a second fd (and from BPF): equal or -EIO. */
static int round_trip(struct mb_run *run, struct ls_sys_state *st, int idx, uint8_t *val,
		      uint8_t *back)
{
	struct ls_sys_prod *pp = &st->prod[idx];
	uint32_t size = st->args->value_size, first = 0;
	int key = pp->owner.fd, fd2 = mb_owner_reopen(&pp->owner), err = 0;

	if (fd2 < 0) {
		mb_err("%s: producer %d: cannot open %s: %s", run->bench->name, idx,
		       mb_owner_reopen_how(pp->owner.kind), strerror(-fd2));
		return fd2;
	}
	memset(back, 0, size);
	if (bpf_map_update_elem(st->map.fd[0], &key, val, BPF_ANY) ||
	    bpf_map_lookup_elem(st->map.fd[0], &fd2, back))
		err = -errno;
	close(fd2);
	if (err) {
		mb_err("%s: producer %d: the round trip's update or lookup failed: %s",
		       run->bench->name, idx, strerror(-err));
		return err;
	}
	if (memcmp(val, back, size)) {
		mb_err("%s: producer %d: the value read back through %s differs from the one written",
		       run->bench->name, idx, mb_owner_reopen_how(pp->owner.kind));
		return -EIO;
	}
	pp->round_trip = true;
	/* A process pidfd names the main thread: BPF's current task is another. */
	if (!wants_bpf(st, pp))
		return 0;
	err = bpf_read(st, &first);
	if (!err && first != *(uint32_t *)val) {
		mb_err("%s: producer %d: BPF read 0x%x from the current task's storage, user space wrote 0x%x",
		       run->bench->name, idx, first, *(uint32_t *)val);
		return -EIO;
	}
	if (err)
		mb_err("%s: producer %d: the syscall program's test_run failed: %s", run->bench->name,
		       idx, strerror(-err));
	pp->bpf_read = !err;
	return err;
}

static void count(struct mb_counters *c, int ret)
{
	c->ops++;
	c->calls++;
	if (ret)
		c->errors++;
	else
		c->hits++;
}

/* LS_SYS_CHUNK ops; the first failure ends them (-errno). */
static int chunk(struct ls_sys_state *st, int key, void *val, struct mb_counters *c)
{
	int fd = st->map.fd[0], op = st->args->op, ret = 0;

	for (int i = 0; i < LS_SYS_CHUNK && !ret; i++) {
		if (op == LS_SYS_LOOKUP) {
			ret = bpf_map_lookup_elem(fd, &key, val);
		} else if (op == LS_SYS_UPDATE) {
			ret = bpf_map_update_elem(fd, &key, val, BPF_EXIST);
		} else {
			uint64_t t0 = mb_now_ns(), t1;

			/* Put back, not timed: a failure here is counted as the op's. */
			ret = bpf_map_update_elem(fd, &key, val, BPF_NOEXIST);
			t1 = mb_now_ns();
			c->excluded_ns += t1 - t0;
			if (!ret)
				ret = bpf_map_delete_elem(fd, &key);
		}
		count(c, ret);
	}
	return ret ? -errno : 0;
}

int ls_sys_producer(struct mb_run *run, struct mb_producer *p)
{
	struct ls_sys_state *st = run->priv;
	struct ls_sys_prod *pp = &st->prod[p->idx];
	uint32_t size = st->args->value_size;
	uint8_t *val = malloc(size), *back = malloc(size);
	struct mb_counters c = { 0 };
	int err = val && back ? 0 : -ENOMEM;

	if (!err && st->args->storage == MB_OWNER_TASK)
		err = mb_owner_self(&pp->owner);
	if (!err) {
		fill_value(val, size, p->idx);
		err = round_trip(run, st, p->idx, val, back);
	}
	/* The delete's value is put back before each one: start from none. */
	if (!err && st->args->op == LS_SYS_DELETE &&
	    bpf_map_delete_elem(st->map.fd[0], &pp->owner.fd))
		err = -errno;
	if (!err)
		mb_producer_publish_stamped(p, &c);
	while (!err && !mb_run_should_stop(run)) {
		err = chunk(st, pp->owner.fd, st->args->op == LS_SYS_LOOKUP ? back : val, &c);
		mb_producer_publish_stamped(p, &c);
	}
	if (err && c.ops)
		mb_err("%s: producer %d: %s failed after %llu ops: %s", run->bench->name, p->idx,
		       ls_sys_op_names[st->args->op], (unsigned long long)c.ops, strerror(-err));
	free(val);
	free(back);
	return err;
}

/* Delete: the time of the untimed updates out of each producer's covered time. */
void ls_sys_measure(struct mb_run *run, struct mb_sample *s)
{
	for (int p = 0; p < run->nr_producers; p++) {
		struct mb_counters *c = &s->prod[p];

		if (c->end_ns && c->excluded_ns < c->end_ns)
			c->end_ns -= c->excluded_ns;
	}
	s->covered_ns = mb_sample_covered_ns(s, run->nr_producers);
}

static void add_extra(struct mb_run *run, struct ls_sys_state *st)
{
	const struct mb_owner *o = &st->prod[0].owner;
	struct mb_json *x = mb_run_extra(run), *rt = mb_json_object();

	mb_json_set_str(x, "storage", ls_storage_type(o->kind));
	mb_json_set_str(x, "owner", mb_owner_kind_name(o->kind));
	mb_json_set_str(x, "owner_fd", o->how ? o->how : "?");
	mb_json_set_str(x, "op", ls_sys_op_names[st->args->op]);
	mb_json_set_str(x, "method", st->args->op == LS_SYS_DELETE ?
			"bpf_map_delete_elem syscall, the value put back by an untimed bpf_map_update_elem" :
			st->args->op == LS_SYS_UPDATE ? "bpf_map_update_elem syscall (BPF_EXIST)" :
							"bpf_map_lookup_elem syscall");
	mb_json_set_num(x, "value_size", st->args->value_size);
	if (st->args->op == LS_SYS_DELETE)
		mb_json_set_num(x, "clock_read_ns", st->clock_read_ns);
	mb_json_set_str(rt, "second_fd", mb_owner_reopen_how(o->kind));
	mb_json_set_bool(rt, "user", true);
	mb_json_set_bool(rt, "bpf", wants_bpf(st, &st->prod[0]));
	if (wants_bpf(st, &st->prod[0]))
		mb_json_set_str(rt, "bpf_reader", "syscall program, bpf_task_storage_get on the current task, by test_run");
	mb_json_set(x, "round_trip", rt);
}

/* Every op counted as it went, none failed, every producer's round trip done: or no figure. */
void ls_sys_finish(struct mb_run *run)
{
	struct ls_sys_state *st = run->priv;
	uint64_t ops = 0, hits = 0, errors = 0;

	for (int i = 0; i < run->nr_samples; i++) {
		ops += run->samples[i].total.ops;
		hits += run->samples[i].total.hits;
		errors += run->samples[i].total.errors;
	}
	for (int i = 0; i < st->nr_producers; i++) {
		const struct ls_sys_prod *pp = &st->prod[i];

		if (!pp->round_trip || (wants_bpf(st, pp) && !pp->bpf_read)) {
			mb_run_fail(run, -EIO, "producer %d made no round trip", i);
			return;
		}
	}
	if ((!ops && !mb_interrupted()) || errors || hits != ops) {
		mb_run_fail(run, -EIO, "%llu %ss counted, %llu succeeded, %llu failed: no figure",
			    (unsigned long long)ops, ls_sys_op_names[st->args->op],
			    (unsigned long long)hits, (unsigned long long)errors);
		return;
	}
	add_extra(run, st);
}
