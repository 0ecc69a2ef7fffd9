// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hash family: the run's hooks. The in-kernel producer (one op loop, its key range refilled
 * or emptied between rounds), the choice of the user-space one (hash_user.c), the op's cost
 * per sample, and the run's warnings and extra figures at its end.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "hash.h"
#include "hash.skel.h"
#include "util/json.h"
#include "drivers/kloop.h"
#include "util/log.h"
#include "core/runner.h"

static int hash_on_ret(struct mb_run *run, struct mb_producer *p, uint32_t ret, void *ctx)
{
	struct hash_state *st = ctx;
	int err;

	if (ret != MB_HASH_RET_REFILL) {
		mb_err("%s: producer %d: unexpected program return value %u", run->bench->name,
		       p->idx, ret);
		return -EPROTO;
	}
	err = hash_refill_range(st, p->idx, p->cpu);
	if (err)
		mb_err("%s: producer %d: cannot refill its key range: %s", run->bench->name, p->idx,
		       strerror(-err));
	st->skel->bss->mb_slots[p->idx].cursor = 0;
	return err;
}

int hash_kernel_producer(struct mb_run *run, struct mb_producer *p)
{
	struct hash_state *st = run->priv;
	const struct hash_stream *s = &st->streams[p->idx];
	struct mb_slot *slot = &st->skel->bss->mb_slots[p->idx];
	struct bpf_program *prog = st->op_prog;
	struct mb_kloop_cfg cfg = {
		.slots = st->skel->bss->mb_slots,
		.ops_per_iter = st->ops_per_iter,
		.fixed_iters = st->fixed_iters,
		.on_ret = hash_on_ret,
		.ctx = st,
	};

	if (!prog)
		return -ENOENT;
	cfg.prog_fd = bpf_program__fd(prog);
	if (st->src == MB_HASH_SRC_ARRAY) {
		slot->arg = MB_HASH_ARG((uint32_t)p->idx * st->idx_stride,
					hash_stream_len(st->op, s));
		slot->cursor = 0;
	} else {
		slot->arg = MB_HASH_ARG(s->base, s->range);
		slot->cursor = s->start;
	}
	slot->rng = s->seed | 1;
	return mb_kloop_produce(run, p, &cfg);
}

int hash_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct hash_args *a = run->args;

	if (a->path == HASH_PATH_KERNEL)
		return hash_kernel_producer(run, p);
	return hash_user_producer(run, p);
}

/* The op's cost: in-kernel ns/op, or wall-clock ns/op per producer minus refills. */
void hash_measure(struct mb_run *run, struct mb_sample *s)
{
	struct hash_state *st = run->priv;
	/* The CPU time is published with the counters: the time of the calls counted. */
	double busy = (double)s->covered_ns * run->nr_producers - (double)s->total.excluded_ns;
	uint64_t cpu = 0;

	if (!st->cpu) {
		if (s->total.ops && s->total.kernel_ns)
			s->metric[0] = (double)s->total.kernel_ns / (double)s->total.ops;
		return;
	}
	for (int i = 0; i < st->nr_producers; i++) {
		uint64_t now = __atomic_load_n(&st->cpu[i].ns, __ATOMIC_ACQUIRE);

		cpu += now - st->last_cpu_ns[i];
		st->last_cpu_ns[i] = now;
	}
	if (s->total.ops && cpu)
		s->metric[0] = (double)cpu / (double)s->total.ops;
	if (busy > 0)
		s->metric[1] = (double)cpu / busy;
}

void hash_finish(struct mb_run *run)
{
	struct hash_state *st = run->priv;
	uint64_t ops = 0, errors = 0;
	double share = 0;
	int n = 0;

	for (int i = 0; i < run->nr_samples; i++) {
		const struct mb_sample *s = &run->samples[i];

		if (s->warmup)
			continue;
		ops += s->total.ops;
		errors += s->total.errors;
		if (!isnan(s->metric[1])) {
			share += s->metric[1];
			n++;
		}
	}
	if (n && share / n < HASH_CPU_SHARE_MIN)
		mb_run_warn(run, "the producers ran %.0f %% of the wall time (other load on their CPUs): op_ns is per CPU time of the producers, the wall-clock throughput is lower",
			    100.0 * share / n);
	if (errors)
		mb_run_warn(run, "%llu of %llu operations failed and count as errors, not hits%s",
			    (unsigned long long)errors, (unsigned long long)ops,
			    st->leaf->lru ? ": an LRU map evicts keys when its free lists run low (more head room in --max_entries avoids it)" : "");

	if (st->op == HASH_INSERT && st->leaf->lru)
		mb_json_set(mb_run_extra(run), "evicted_keys",
			    st->mim ? mb_json_null() : mb_json_number((double)st->evicted));
}
