// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-sk-get and local-storage-sk-create-delete: a socket's local storage, one get
 * (hit) or one create+delete pair per op over --nr_maps storage maps, as local-storage-get
 * and local-storage-create-delete do for a task's and a cgroup's. No program that
 * BPF_PROG_TEST_RUN runs gets a typed socket, so the op loop (and its instrument: calibration,
 * reference, loop evidence, which the runner would apply to every run of local-storage-get)
 * cannot host it: this bench runs on the trigger runner's socket kind instead
 * (drivers/trigger.h). Each producer owns a UDP socket; each read of it runs LS_SK_GETS ops
 * in a may_goto loop inside the tp_btf/sock_recv_length program, timed around the loop, so
 * the in-kernel ns per op compares with the op loop's figures for the other types. The first
 * read makes and writes the socket's storages, which the producer reads back through the
 * socket's fd before timing (and, for create+delete, deletes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "drivers/trigger.h"
#include "maps/maps.h"
#include "sys/probe.h"
#include "util/json.h"
#include "ls_inner.h"
#include "ls_sk.skel.h"
#include "ls_sk_shared.h"
#include "ls_types.h"
#include "ls_types_shared.h"

extern const struct mb_bench mb_bench_ls_sk_get, mb_bench_ls_sk_create_delete;

struct ls_sk_args {
	uint32_t nr_maps;
};

static const struct mb_opt ls_sk_opts[] = {
	MB_OPT_U32_DEF("nr_maps", struct ls_sk_args, nr_maps, "1", 1, LS_MAX_MAPS, "N",
		       "Storage maps per socket, taken in turn by the gets (the socket's cache holds 16)"),
	MB_OPT_END,
};

struct ls_sk {
	struct ls_sk_bpf *skel;
	struct mb_trigger trig;
	struct ls_inner inner;		/* the storage maps (ls_inner.h) */
	int other_maps;			/* sk storage maps alive before ours; -1: unknown */
	struct ls_round_trip *rt;	/* [nr_producers] */
};

static enum ls_sk_op op_of(const struct mb_run *run)
{
	return run->bench == &mb_bench_ls_sk_create_delete ? LS_SK_OP_CD : LS_SK_OP_GET;
}

static int make_inner(struct mb_run *run, struct ls_sk *st, uint32_t nr_maps)
{
	struct mb_map_desc d;

	ls_inner_storage_desc(&d, MB_OWNER_SOCK, "mb_ls_sk", sizeof(__u64));
	st->other_maps = ls_live_storage_maps(d.type->type);
	return ls_inner_make(run, &st->inner, &d, nr_maps, NULL);
}

/* The trigger runner's loader: the fill and the op's programs at @t->attach (tp_btf only). */
static int ls_sk_load(struct mb_run *run, struct mb_trigger *t, void *ctx)
{
	static const char *const get[] = { "mb_ls_sk_fill", "mb_ls_sk_get", NULL },
			  *const cd[] = { "mb_ls_sk_fill", "mb_ls_sk_cd", NULL };
	const struct ls_sk_args *a = run->args;
	struct ls_sk *st = ctx;
	struct ls_sk_bpf *skel = ls_sk_bpf__open();
	int err;

	if (!skel)
		return -errno;
	st->skel = skel;
	skel->rodata->mb_ls_nr_maps = a->nr_maps;
	err = bpf_map__set_max_entries(skel->maps.mb_ls_sk_outer, a->nr_maps);
	if (!err)
		err = ls_inner_template(&st->inner, skel->maps.mb_ls_sk_outer);
	if (!err)
		err = mb_trigger_prepare(skel->obj, t->attach,
					 op_of(run) == LS_SK_OP_CD ? cd : get);
	if (!err)
		err = ls_sk_bpf__load(skel);
	if (!err)
		err = ls_sk_bpf__attach(skel);
	if (err) {
		ls_sk_bpf__destroy(skel);
		st->skel = NULL;
		return err;
	}
	t->slots = skel->bss->mb_slots;
	t->socks = &skel->bss->mb_trigger_socks;
	t->threads = skel->maps.mb_thread_slots;
	return 0;
}

static int ls_sk_setup(struct mb_run *run)
{
	const struct ls_sk_args *a = run->args;
	struct ls_sk *st = calloc(1, sizeof(*st));
	char why[1024];
	int err;

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	st->trig.kind = MB_TRIGGER_KIND_SOCKET;
	st->rt = calloc((size_t)run->nr_producers, sizeof(*st->rt));
	if (!st->rt)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	err = make_inner(run, st, a->nr_maps);
	if (err)
		return err;
	err = mb_trigger_load(run, &st->trig, ls_sk_load, st);
	if (err == -EPERM) {
		mb_explain_eperm(why, sizeof(why));
		return mb_run_skip(run, "%s", why);
	}
	if (err == -EOPNOTSUPP || err == -ESRCH)
		return mb_run_skip(run, "a socket's storage is reached from a tp_btf program on sock_recv_length, which this kernel does not accept (%s)",
				   err == -ESRCH ? "no such tracepoint" : "refused");
	if (err) {
		mb_explain_load_error(err, "cannot load the sock_recv_length programs", why,
				      sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	/* No producer has registered yet: the programs run for none before the maps are in. */
	return ls_inner_insert(run, &st->inner, bpf_map__fd(st->skel->maps.mb_ls_sk_outer),
			       "storage");
}

/*
 * Producer @p's first read, on its own socket @fd: the fill program makes and writes the
 * socket's storage in every map; then each value is read back through the socket's fd.
 */
static int first_pass(struct mb_run *run, struct mb_producer *p, int fd)
{
	struct ls_sk *st = run->priv;
	const struct mb_slot *s = &st->trig.slots[p->idx];
	int err = mb_trigger_sock_register(p, &st->trig, LS_SK_OP_FILL);
	char c;

	if (err)
		return mb_run_fail(run, err, "producer %d: cannot register its socket: %s", p->idx,
				   strerror(-err));
	if (recv(fd, &c, sizeof(c), MSG_DONTWAIT) >= 0 || errno != EAGAIN)
		return mb_run_fail(run, -EIO, "producer %d: a read of its empty socket did not fail with EAGAIN",
				   p->idx);
	if (s->arg != st->inner.nr)
		return mb_run_fail(run, -ENOENT, "producer %d: the fill program made the socket's storage in %llu of %u maps",
				   p->idx, (unsigned long long)s->arg, st->inner.nr);
	for (uint32_t i = 0; i < st->inner.nr; i++) {
		__u64 v = 0;

		if (bpf_map_lookup_elem(st->inner.fd[i], &fd, &v))
			return mb_run_fail(run, -errno, "producer %d: map %u: cannot read the socket's storage through its fd: %s",
					   p->idx, i, strerror(errno));
		if (v != LS_VALUE(i))
			return mb_run_fail(run, -EIO, "producer %d: map %u: read 0x%llx through the socket's fd, the program wrote 0x%llx",
					   p->idx, i, (unsigned long long)v,
					   (unsigned long long)LS_VALUE(i));
		/* create+delete starts from no storage: each op makes and frees the socket's. */
		if (op_of(run) == LS_SK_OP_CD && bpf_map_delete_elem(st->inner.fd[i], &fd))
			return mb_run_fail(run, -errno, "producer %d: map %u: cannot delete the socket's storage: %s",
					   p->idx, i, strerror(errno));
	}
	st->rt[p->idx] = (struct ls_round_trip){ .checked = st->inner.nr, .done = true };
	return 0;
}

static int ls_sk_producer(struct mb_run *run, struct mb_producer *p)
{
	struct ls_sk *st = run->priv;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int err;

	if (fd < 0)
		return mb_run_fail(run, -errno, "producer %d: cannot open a UDP socket: %s", p->idx,
				   strerror(errno));
	err = first_pass(run, p, fd);
	if (!err)
		err = mb_trigger_sock_register(p, &st->trig, op_of(run));
	while (!err && !mb_run_should_stop(run)) {
		err = mb_trigger_sock_fire(run, p, &st->trig, fd);
		if (!err)
			mb_trigger_publish(p, &st->trig, 0, 0);
	}
	close(fd);
	return err;
}

static void describe(struct mb_run *run, const struct ls_sk *st)
{
	const struct ls_sk_args *a = run->args;
	struct mb_json *x = mb_run_extra(run);
	char prog[160];

	mb_json_set_str(x, "storage", "sk_storage");
	mb_json_set_num(x, "nr_maps", a->nr_maps);
	mb_json_set_str(x, "owner", "the producer's own UDP socket");
	mb_json_set_str(x, "op", op_of(run) == LS_SK_OP_GET ? "get (hit)" :
			"create+delete pair (get with F_CREATE, then delete)");
	if (st->other_maps >= 0)
		mb_json_set_num(x, "other_storage_maps", st->other_maps);
	snprintf(prog, sizeof(prog), "%s, run by recv() of the producer's empty socket; %d ops per read in a may_goto loop",
		 mb_trigger_attach_name(st->trig.attach), LS_SK_GETS);
	mb_json_set_str(x, "program", prog);
	mb_json_set_num(x, "ops_per_call", LS_SK_GETS);
	mb_json_set_str(x, "loop", "may_goto");
	mb_trigger_report(&st->trig, x);
}

/* The round trip as the result records it; false when a producer did not do its own. */
static bool round_trip_json(struct mb_run *run, const struct ls_sk *st)
{
	struct mb_json *rt = mb_json_object();
	uint32_t checked = 0;
	bool all = true;

	for (int i = 0; i < run->nr_producers; i++) {
		checked += st->rt[i].checked;
		all = all && st->rt[i].done;
	}
	mb_json_set_str(rt, "written_by", "BPF: the fill program (tp_btf/sock_recv_length, the producer's first read), get with F_CREATE");
	mb_json_set_str(rt, "read_by", "the producer's socket fd");
	mb_json_set_num(rt, "values_checked", checked);
	mb_json_set_bool(rt, "equal", checked > 0 && all);
	mb_json_set(mb_run_extra(run), "round_trip", rt);
	return checked > 0 && all;
}

/* Every op must have hit: a NULL get (or a failed delete) is an error, and fails the run. */
static void ls_sk_finish(struct mb_run *run)
{
	struct ls_sk *st = run->priv;
	uint64_t ops = 0, hits = 0, errors = 0;
	struct mb_json *chk = mb_json_object();

	for (int i = 0; i < run->nr_producers; i++) {
		ops += st->trig.slots[i].ops;
		hits += st->trig.slots[i].hits;
		errors += st->trig.slots[i].errors;
	}
	describe(run, st);
	mb_json_set_num(chk, "ops", (double)ops);
	mb_json_set_num(chk, "hits", (double)hits);
	mb_json_set_num(chk, "errors", (double)errors);
	mb_json_set(mb_run_extra(run), "ops_checked", chk);
	if (!round_trip_json(run, st))
		mb_run_fail(run, -EIO, "the round trip (BPF writes, user space reads) was not done");
	else if (errors || hits != ops || !ops)
		mb_run_fail(run, -EIO, "%llu ops, %llu hits, %llu errors read back from the program: every op must hit",
			    (unsigned long long)ops, (unsigned long long)hits,
			    (unsigned long long)errors);
}

/* The programs go first, then the maps; the next run waits for their cache slots to be free. */
static void ls_sk_teardown(struct mb_run *run)
{
	struct ls_sk *st = run->priv;

	if (!st)
		return;
	ls_sk_bpf__destroy(st->skel);
	ls_inner_release(run, &st->inner, "storage");
	free(st->rt);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_ls_sk_get = {
	.name = "local-storage-sk-get",
	.family = "localstorage",
	.desc = "socket local storage: one get (hit) per op over --nr_maps maps, in a loop in tp_btf/sock_recv_length",
	.opts = ls_sk_opts,
	.args_size = sizeof(struct ls_sk_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("sk_storage"),
	.text = &ls_types_text,
	.setup = ls_sk_setup,
	.producer = ls_sk_producer,
	.finish = ls_sk_finish,
	.teardown = ls_sk_teardown,
};

const struct mb_bench mb_bench_ls_sk_create_delete = {
	.name = "local-storage-sk-create-delete",
	.family = "localstorage",
	.desc = "socket local storage: one create+delete pair per op over --nr_maps maps, in a loop in tp_btf/sock_recv_length",
	.opts = ls_sk_opts,
	.args_size = sizeof(struct ls_sk_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("sk_storage"),
	.text = &ls_types_text,
	.setup = ls_sk_setup,
	.producer = ls_sk_producer,
	.finish = ls_sk_finish,
	.teardown = ls_sk_teardown,
};
