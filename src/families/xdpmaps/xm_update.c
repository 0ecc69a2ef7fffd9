// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdp-map-update: what user space pays to change a devmap, devmap_hash, cpumap or xskmap
 * entry, one BPF_MAP_*_ELEM at a time, going round the entries: an update that gives the
 * entry its next device (ifindex), queue size (a cpumap entry starts a new kernel thread and
 * stops the old one) or socket; a lookup (not xskmap: the kernel answers EOPNOTSUPP); a
 * delete, the entry put back untimed. Each call is timed alone (wall clock), each result
 * counted; after the run every entry is read back against what it must hold.
 */
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>

#include "xm.h"
#include "xm_opts.h"
#include "core/run.h"
#include "util/json.h"
#include "util/log.h"

#define XM_CHUNK	64	/* calls between two publications */

static const char *const xm_op_names[] = { "update", "lookup", "delete", NULL };

static const struct mb_opt xm_update_opts[] = {
	XM_OPT_MAP_TYPE(xm_type_names, "The map: devmap, devmap_hash (devices), cpumap (CPUs), xskmap (AF_XDP sockets)"),
	MB_OPT_ENUM_DEF("op", struct xm_args, op, "update", xm_op_names,
			"update (the entry's next device, queue size or socket), lookup (not xskmap), delete (put back untimed)"),
	XM_OPT_NR_ENTRIES,
	XM_OPT_QSIZE,
	XM_OPT_DEV,
	MB_OPT_END,
};

static const struct mb_metric_desc xm_update_metrics[] = {
	{ "op_ns", "ns/op" },
	{ NULL },
};

static int xm_update_validate(struct mb_run *run)
{
	const struct xm_args *a = run->args;
	enum xm_type t = xm_bench_type(xm_type_names, a->map_type);

	if (t == XM_XSKMAP && a->op == XM_OP_LOOKUP)
		return mb_run_usage(run, "--op lookup: xskmap answers lookups from BPF only (the kernel refuses them from user space with EOPNOTSUPP): xdp-map-lookup measures them");
	return xm_validate_common(run, t);
}

static int xm_update_setup(struct mb_run *run)
{
	const struct xm_args *a = run->args;
	enum xm_type t = xm_bench_type(xm_type_names, a->map_type);

	run->runner = "syscall";
	return xm_setup(run, t, t == XM_XSKMAP);
}

/*
 * One call on entry @i, its time added to *@ns: 0, or a negative errno. A delete's entry is
 * put back at once, its time added to *@excl (not the op's).
 */
static int xm_call(struct xm_state *st, uint32_t i, uint64_t *ns, uint64_t *excl)
{
	uint32_t *key = &st->keys[i], v = 0;
	uint64_t t0 = mb_now_ns(), t1;
	int err;

	switch (st->args->op) {
	case XM_OP_LOOKUP:
		err = bpf_map_lookup_elem(st->map_fd, key, &v) ? -errno :
		      v == st->values[i] ? 0 : -EBADMSG;
		*ns += mb_now_ns() - t0;
		return err;
	case XM_OP_DELETE:
		err = bpf_map_delete_elem(st->map_fd, key) ? -errno : 0;
		t1 = mb_now_ns();
		*ns += t1 - t0;
		/* Put back, so that the next round deletes it again. */
		if (!err && bpf_map_update_elem(st->map_fd, key, &st->values[i], BPF_ANY))
			err = -errno;
		*excl += mb_now_ns() - t1;
		return err;
	default:
		v = xm_value(st, i, st->turn[i] + 1);
		err = bpf_map_update_elem(st->map_fd, key, &v, BPF_EXIST) ? -errno : 0;
		*ns += mb_now_ns() - t0;
		if (!err) {
			st->turn[i]++;
			st->values[i] = v;
		}
		return err;
	}
}

static int xm_update_producer(struct mb_run *run, struct mb_producer *p)
{
	struct xm_state *st = run->priv;
	struct mb_counters c = { 0 };
	uint32_t i = 0;
	int home, err = xm_world_enter(&st->w, &home);
	/*
	 * A cpumap entry made or removed starts or stops a kernel thread: the call sleeps until
	 * it has, a wait the preemption check must not count as a lost CPU.
	 */
	bool wait = st->type == XM_CPUMAP && st->args->op != XM_OP_LOOKUP;

	if (err) {
		mb_err("%s: cannot enter the run's network namespace: %s", run->bench->name,
		       strerror(-err));
		return err;
	}
	while (!mb_run_should_stop(run)) {
		uint64_t ns = 0;

		for (int k = 0; k < XM_CHUNK; k++, i = i + 1 == st->nr ? 0 : i + 1) {
			c.ops++;
			c.calls++;
			if (wait)
				mb_producer_wait_begin(p, &c);
			err = xm_call(st, i, &ns, &c.excluded_ns);
			if (wait)
				mb_producer_wait_end(p, &c);
			if (err)
				c.errors++;
			else
				c.hits++;
		}
		__atomic_add_fetch(&st->op_ns, ns, __ATOMIC_RELEASE);
		mb_producer_publish(p, &c);
	}
	st->done = c;
	return xm_world_leave(&home);
}

static void xm_update_measure(struct mb_run *run, struct mb_sample *s)
{
	struct xm_state *st = run->priv;
	uint64_t now = __atomic_load_n(&st->op_ns, __ATOMIC_ACQUIRE);

	if (s->total.ops)
		s->metric[0] = (double)(now - st->last_op_ns) / (double)s->total.ops;
	st->last_op_ns = now;
}

static void xm_update_finish(struct mb_run *run)
{
	struct xm_state *st = run->priv;
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_child(x, "ops_checked");

	xm_read_back(st);
	xm_describe(run, st);
	mb_json_set_str(x, "op", xm_op_names[st->args->op]);
	mb_json_set_num(chk, "ops", (double)st->done.ops);
	mb_json_set_num(chk, "done", (double)st->done.hits);
	mb_json_set_num(chk, "failed", (double)st->done.errors);
	mb_json_set_bool(chk, "read_back", st->read_back);
	mb_json_set_num(chk, "entries_as_written", (double)st->read_ok);
	mb_json_set_num(chk, "entries_wrong", (double)st->read_wrong);
	if (st->done.ops && !st->done.errors && st->done.hits == st->done.ops && !st->read_wrong)
		return;
	mb_run_fail(run, -EIO, "%llu %s calls: %llu failed; %llu of %u entries read back wrong: every call must succeed and every entry hold what was written last",
		    (unsigned long long)st->done.ops, xm_op_names[st->args->op],
		    (unsigned long long)st->done.errors, (unsigned long long)st->read_wrong,
		    st->nr);
}

const struct mb_bench mb_bench_xdp_map_update = {
	.name = "xdp-map-update",
	.family = "xdpmaps",
	.desc = "a devmap, devmap_hash, cpumap or xskmap entry updated, looked up or deleted from user space: real devices, CPUs, AF_XDP sockets",
	.opts = xm_update_opts,
	.args_size = sizeof(struct xm_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = xm_type_names,
	.text = &xm_text,
	.metrics = xm_update_metrics,
	.headline = { .clock = MB_HEADLINE_WALL_RATE },
	.validate = xm_update_validate,
	.setup = xm_update_setup,
	.producer = xm_update_producer,
	.measure = xm_update_measure,
	.finish = xm_update_finish,
	.teardown = xm_teardown,
};
