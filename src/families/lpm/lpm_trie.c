// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * lpm-trie-noop, -baseline, -lookup, -insert, -update, -delete: LPM trie operations in the
 * in-kernel op loop, with the kernel bench's names and options. noop is the loop alone,
 * baseline adds the key generation, the others one map operation per iteration on a trie of
 * --nr_entries entries. Insert and delete walk every key once; the program then returns a
 * code and the producer empties or refills the trie with batch syscalls, outside the
 * in-kernel time (excluded_ns).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "util/json.h"
#include "drivers/kloop.h"
#include "util/log.h"
#include "lpm_trie.h"
#include "lpm_trie.skel.h"
#include "maps/maps.h"
#include "sys/probe.h"
#include "drivers/slots.h"

enum lpm_op {
	LPM_NOOP,
	LPM_BASELINE,
	LPM_LOOKUP,
	LPM_INSERT,
	LPM_UPDATE,
	LPM_DELETE,
};

static const char *const op_names[] = { "noop", "baseline", "lookup", "insert", "update",
					"delete" };

struct lpm_state {
	struct lpm_trie_bpf *skel;
	struct lpm_keys keys;
	enum lpm_op op;
	int prog_fd;
	uint64_t refills;	/* insert: times the trie was emptied; delete: refilled */
};

static struct bpf_program *op_prog(struct lpm_trie_bpf *skel, enum lpm_op op)
{
	switch (op) {
	case LPM_NOOP:
		return skel->progs.mb_lpm_noop;
	case LPM_BASELINE:
		return skel->progs.mb_lpm_baseline;
	case LPM_LOOKUP:
		return skel->progs.mb_lpm_lookup;
	case LPM_INSERT:
		return skel->progs.mb_lpm_insert;
	case LPM_UPDATE:
		return skel->progs.mb_lpm_update;
	case LPM_DELETE:
		return skel->progs.mb_lpm_delete;
	}
	return NULL;
}

/* Load the op's program on the filled trie @fd (which is closed here, the object keeps it). */
static int load(struct mb_run *run, struct lpm_state *st, int fd)
{
	const struct lpm_args *a = run->args;
	struct bpf_program *prog, *want;
	char msg[512];
	int err;

	st->skel = lpm_trie_bpf__open();
	if (!st->skel) {
		err = -errno;
		close(fd);
		return mb_run_fail(run, err, "cannot open the BPF object: %s", strerror(-err));
	}
	mb_loop_prepare(st->skel->skeleton, &run->loop);
	st->skel->rodata->mb_lpm_ks = st->keys.ks;
	st->skel->rodata->mb_lpm_random = a->random;
	memcpy(st->skel->data_groups->mb_lpm_groups, st->keys.ks.group,
	       sizeof(st->keys.ks.group));
	err = bpf_map__reuse_fd(st->skel->maps.mb_lpm_trie, fd);
	close(fd);	/* reuse_fd holds its own duplicate */
	if (err)
		return mb_run_fail(run, err, "cannot hand the trie to the BPF object: %s",
				   strerror(-err));
	/* Only the op's program: the others would only cost verification time. */
	want = op_prog(st->skel, st->op);
	bpf_object__for_each_program(prog, st->skel->obj)
		bpf_program__set_autoload(prog, prog == want);
	err = lpm_trie_bpf__load(st->skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the BPF program", msg, sizeof(msg));
		return mb_run_fail(run, err, "%s", msg);
	}
	st->prog_fd = bpf_program__fd(want);
	return 0;
}

/*
 * Make and fill the trie, inside a fresh memory cgroup so that its charge is measured; the
 * program is loaded afterwards, outside it. Every bench reports the memory of the full trie,
 * so insert fills it too, then empties it: its first op starts from an empty trie, as every
 * later round does.
 */
static int lpm_setup(struct mb_run *run, enum lpm_op op)
{
	struct lpm_state *st;
	int err, fd;

	st = lpm_state_alloc(run, sizeof(*st), &err);
	if (!st)
		return err;
	st->op = op;
	fd = lpm_keys_and_trie(run, &st->keys);
	if (fd < 0)
		return fd;
	err = load(run, st, fd);
	if (err)
		return err;
	if (op == LPM_INSERT) {
		err = lpm_trie_empty(bpf_map__fd(st->skel->maps.mb_lpm_trie), &st->keys, NULL);
		if (err)
			return lpm_fill_failed(run, err);
	}
	run->runner = "kernel-loop";
	return 0;
}

#define LPM_SETUP(_op, _OP)						\
static int _op##_setup(struct mb_run *run) { return lpm_setup(run, _OP); }

LPM_SETUP(noop, LPM_NOOP)
LPM_SETUP(baseline, LPM_BASELINE)
LPM_SETUP(lookup, LPM_LOOKUP)
LPM_SETUP(insert, LPM_INSERT)
LPM_SETUP(update, LPM_UPDATE)
LPM_SETUP(delete, LPM_DELETE)

/* Insert filled the trie, or delete emptied it: start the next round (not timed). */
static int lpm_on_ret(struct mb_run *run, struct mb_producer *p, uint32_t ret, void *ctx)
{
	struct lpm_state *st = ctx;
	int fd = bpf_map__fd(st->skel->maps.mb_lpm_trie);
	int err;

	if (ret == MB_LPM_RET_FULL && st->op == LPM_INSERT) {
		err = lpm_trie_empty(fd, &st->keys, run);
	} else if (ret == MB_LPM_RET_EMPTY && st->op == LPM_DELETE) {
		err = lpm_trie_fill(fd, &st->keys, run);
	} else {
		mb_err("%s: the BPF program returned %u, which this bench does not expect",
		       run->bench->name, ret);
		return -EPROTO;
	}
	if (err == -EINTR)
		return 0;	/* the run is stopping */
	if (err) {
		mb_err("%s: cannot %s the trie: %s", run->bench->name,
		       st->op == LPM_INSERT ? "empty" : "refill", strerror(-err));
		return err;
	}
	st->skel->bss->mb_slots[p->idx].cursor = 0;
	st->refills++;
	return 0;
}

static int lpm_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct lpm_args *a = run->args;
	struct lpm_state *st = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = st->prog_fd,
		.slots = st->skel->bss->mb_slots,
		.on_ret = lpm_on_ret,
		.ctx = st,
		/* The loop alone and the key arithmetic have nothing to miss. */
		.every_op_hits = st->op == LPM_NOOP || st->op == LPM_BASELINE,
	};

	/* Sequential producers start spread over the keys rather than all on the same ones. */
	if (st->op != LPM_INSERT && st->op != LPM_DELETE)
		cfg.slots[p->idx].cursor = (uint64_t)a->nr_entries * (uint64_t)p->idx /
					   (uint64_t)run->nr_producers;
	return mb_kloop_produce(run, p, &cfg);
}

static void lpm_finish(struct mb_run *run)
{
	struct lpm_state *st = run->priv;
	uint64_t errors, ops;
	struct mb_slot sum;

	mb_slots_sum(st->skel->bss->mb_slots, run->nr_producers, &sum);
	errors = sum.errors;
	ops = sum.ops;
	if (errors && st->op == LPM_LOOKUP)
		mb_run_warn(run, "%llu of %llu lookups missed or found another entry's value: the trie holds every entry, so each lookup must find its own",
			    (unsigned long long)errors, (unsigned long long)ops);
	else if (errors)
		mb_run_warn(run, "%llu of %llu %s operations failed", (unsigned long long)errors,
			    (unsigned long long)ops, op_names[st->op]);
	if (st->op == LPM_INSERT)
		mb_json_set_num(mb_run_extra(run), "empties", (double)st->refills);
	else if (st->op == LPM_DELETE)
		mb_json_set_num(mb_run_extra(run), "refills", (double)st->refills);
}

static void lpm_teardown(struct mb_run *run)
{
	struct lpm_state *st = run->priv;

	if (!st)
		return;
	lpm_trie_bpf__destroy(st->skel);
	lpm_keys_free(&st->keys);
	free(st);
	run->priv = NULL;
}

static int validate_any(struct mb_run *run)
{
	return lpm_validate(run, NULL);
}

static int validate_insert(struct mb_run *run)
{
	return lpm_validate(run, "inserts every key once, in order");
}

static int validate_delete(struct mb_run *run)
{
	return lpm_validate(run, "deletes every key once, in order");
}

/* The map types each bench measures: noop and baseline none (no map op). */
static const char *const lpm_types_noop[] = { NULL };
static const char *const lpm_types_baseline[] = { NULL };
static const char *const lpm_types_lookup[] = { "lpm_trie", NULL };
static const char *const lpm_types_insert[] = { "lpm_trie", NULL };
static const char *const lpm_types_update[] = { "lpm_trie", NULL };
static const char *const lpm_types_delete[] = { "lpm_trie", NULL };

#define LPM_BENCH(_op, _desc, _flags, _text, _validate)				\
const struct mb_bench mb_bench_lpm_trie_##_op = {				\
	.name = "lpm-trie-" #_op,						\
	.family = "lpm",							\
	.desc = _desc,								\
	.opts = lpm_opts,							\
	.args_size = sizeof(struct lpm_args),					\
	.flags = MB_BENCH_NEEDS_BPF | (_flags),					\
	.map_types = lpm_types_##_op,						\
	.instrument = &mb_kloop_instrument,					\
	.text = _text,								\
	.validate = _validate,							\
	.setup = _op##_setup,							\
	.producer = lpm_producer,						\
	.finish = lpm_finish,							\
	.teardown = lpm_teardown,						\
}

LPM_BENCH(noop, "in-kernel op loop with an empty op: the harness cost under the LPM figures",
	  MB_BENCH_EMPTY_OP, &lpm_text_ops, validate_any);
LPM_BENCH(baseline, "in-kernel op loop building one trie key per op: the key generation cost",
	  0, &lpm_text_ops, validate_any);
LPM_BENCH(lookup, "LPM trie lookup of an entry's prefix (a miss is an error), in the kernel",
	  0, &lpm_text_ops, validate_any);
LPM_BENCH(insert, "LPM trie insert of every key in order, emptied between rounds (not timed)",
	  MB_BENCH_SINGLE_PRODUCER, &lpm_text_frac_second, validate_insert);
LPM_BENCH(update, "LPM trie update (BPF_EXIST) of an existing entry, in the kernel",
	  0, &lpm_text_ops, validate_any);
LPM_BENCH(delete, "LPM trie delete of every key in order, refilled between rounds (not timed)",
	  MB_BENCH_SINGLE_PRODUCER, &lpm_text_frac_second, validate_delete);
