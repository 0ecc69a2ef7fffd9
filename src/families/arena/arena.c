// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The arena benches. arena-alloc: bpf_arena_alloc_pages and bpf_arena_free_pages of
 * --page_cnt pages, in pairs, timed in the kernel around the program's loop. arena-access:
 * 8-byte reads or writes of the arena's --pages, from user space through the mmap (timed by
 * the producer's clock) or from BPF (timed in the kernel around its walk).
 */
#include <bpf/libbpf.h>

#include "arena.h"
#include "arena.skel.h"
#include "core/opts.h"
#include "output/report.h"
#include "util/json.h"

/* Pages a call allocates (and frees), in pairs of --page_cnt: about 1 ms in a KVM guest. */
#define AR_ALLOC_PAGES	64
#define AR_WALK_PAGES	2048	/* pages a BPF walk call visits: 1 Mi words */
#define AR_USER_CHUNK	64	/* pages a user-space producer walks between publications */

const char *const ar_side_names[] = { "user", "bpf", NULL };
const char *const ar_op_names[] = { "read", "write", NULL };

static const struct mb_opt ar_alloc_opts[] = {
	MB_OPT_U32_DEF("page_cnt", struct ar_args, page_cnt, "1", 1, AR_PAGE_CNT_MAX, "N",
		       "pages each bpf_arena_alloc_pages call allocates (and its free frees)"),
	MB_OPT_END,
};

static const struct mb_opt ar_access_opts[] = {
	MB_OPT_U32_DEF("pages", struct ar_args, pages, "256", 1, AR_ARENA_PAGES_MAX, "N",
		       "pages of the arena, each touched once from user space before the run, then walked over and over"),
	MB_OPT_ENUM_DEF("side", struct ar_args, side, "user", ar_side_names,
			"Who accesses the arena: user space through the mmap, or a BPF syscall program"),
	MB_OPT_ENUM_DEF("op", struct ar_args, op, "read", ar_op_names,
			"One op: an 8-byte load (summed) or an 8-byte store"),
	MB_OPT_END,
};

static const struct mb_counter_desc ar_alloc_counters[] = {
	[AR_C_PAGES] = { "pages", "pages", "pages allocated and freed again" },
	{ NULL, NULL, NULL },
};

static const struct mb_counter_desc ar_access_counters[] = {
	[AR_C_BYTES] = { "bytes", "bytes", "bytes read or written, 8 per op" },
	{ NULL, NULL, NULL },
};

/* A producer's slot as counters: its ops, failed allocations, in-kernel time. */
static void ar_slot_counters(const struct ar_slot *s, struct mb_counters *c, uint64_t per_op)
{
	c->ops = s->ops;
	c->errors = s->errors;
	c->hits = s->ops - s->errors;
	c->kernel_ns = s->ns;
	c->counter[0] = per_op ? s->ops * per_op : s->pages;
}

static int ar_bpf_producer(struct mb_run *run, struct mb_producer *p, int prog_fd,
			   struct ar_ctx *c, uint64_t per_op)
{
	struct ar_state *st = run->priv;
	const struct ar_slot *s = &st->skel->bss->mb_ar_slots[p->idx];
	struct mb_counters cnt = { 0 };

	c->slot = p->idx;
	/* A call of many pages can outlast a sample: each publication says when its calls ended. */
	mb_producer_publish_stamped(p, &cnt);
	while (!mb_run_should_stop(run)) {
		int err = ar_call(prog_fd, c);

		if (err)
			return mb_run_fail(run, err, "producer %d: the program failed", p->idx);
		cnt.calls++;
		ar_slot_counters(s, &cnt, per_op);
		mb_producer_publish_stamped(p, &cnt);
	}
	return 0;
}

static int ar_alloc_setup(struct mb_run *run)
{
	const struct ar_args *a = run->args;
	/* Room for twice every producer's pages: a run of --page_cnt free pages always exists. */
	int err = ar_setup(run, 2 * a->page_cnt * (uint32_t)run->nr_producers);

	return err ? err : ar_check_alloc(run);
}

static int ar_alloc_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct ar_args *a = run->args;
	struct ar_state *st = run->priv;
	uint32_t iters = AR_ALLOC_PAGES / a->page_cnt;
	struct ar_ctx c = { .iters = iters ? iters : 1, .page_cnt = a->page_cnt };

	return ar_bpf_producer(run, p, bpf_program__fd(st->skel->progs.mb_ar_alloc), &c, 0);
}

static void ar_alloc_finish(struct mb_run *run)
{
	ar_extra(run, "bpf_arena_alloc_pages + bpf_arena_free_pages");
}

const struct mb_bench mb_bench_arena_alloc = {
	.name = "arena-alloc",
	.family = "arena",
	.desc = "bpf_arena_alloc_pages then bpf_arena_free_pages of --page_cnt pages, in a syscall program",
	.opts = ar_alloc_opts,
	.args_size = sizeof(struct ar_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("arena"),
	.text = &ar_text,
	.counters = ar_alloc_counters,
	.setup = ar_alloc_setup,
	.producer = ar_alloc_producer,
	.finish = ar_alloc_finish,
	.teardown = ar_teardown,
};

static int ar_access_setup(struct mb_run *run)
{
	const struct ar_args *a = run->args;
	int err = ar_setup(run, a->pages);

	run->runner = a->side == AR_SIDE_USER ? "user" : "syscall-prog";
	return err ? err : ar_check_access(run);
}

/* One chunk of the walk: one volatile 8-byte load or store per word, so each is one access. */
static uint64_t ar_user_chunk(volatile uint64_t *w, size_t n, int op)
{
	uint64_t sum = 0;

	if (op == AR_WRITE) {
		for (size_t i = 0; i < n; i++)
			w[i] = AR_MAGIC;
	} else {
		for (size_t i = 0; i < n; i++)
			sum += w[i];
	}
	return sum;
}

static int ar_user_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct ar_args *a = run->args;
	struct ar_state *st = run->priv;
	size_t n = (size_t)a->pages * AR_PAGE_WORDS, chunk = AR_USER_CHUNK * AR_PAGE_WORDS;
	struct mb_counters cnt = { 0 };
	uint64_t sum = 0;

	for (size_t at = 0; !mb_run_should_stop(run); at = at + chunk < n ? at + chunk : 0) {
		size_t k = n - at < chunk ? n - at : chunk;

		sum += ar_user_chunk((volatile uint64_t *)st->mem + at, k, a->op);
		cnt.ops += k;
		cnt.hits += k;
		cnt.counter[AR_C_BYTES] += 8 * k;
		mb_producer_publish(p, &cnt);
	}
	/* Kept, so that the loads count for something. */
	__atomic_store_n(&st->sink, sum, __ATOMIC_RELAXED);
	return 0;
}

static int ar_access_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct ar_args *a = run->args;
	struct ar_state *st = run->priv;
	struct ar_ctx c = { .iters = AR_WALK_PAGES, .page_cnt = a->pages, .op = a->op,
			    .addr = (uintptr_t)st->mem, .value = AR_MAGIC };

	if (a->side == AR_SIDE_USER)
		return ar_user_producer(run, p);
	return ar_bpf_producer(run, p, bpf_program__fd(st->skel->progs.mb_ar_access), &c, 8);
}

static void ar_access_finish(struct mb_run *run)
{
	const struct ar_args *a = run->args;

	ar_extra(run, a->op == AR_WRITE ? "8-byte store" : "8-byte load");
	mb_json_set_str(mb_run_extra(run), "side", ar_side_names[a->side]);
}

const struct mb_bench mb_bench_arena_access = {
	.name = "arena-access",
	.family = "arena",
	.desc = "8-byte loads or stores of arena memory, from user space through the mmap or from BPF",
	.opts = ar_access_opts,
	.args_size = sizeof(struct ar_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("arena"),
	.text = &ar_text,
	.counters = ar_access_counters,
	.setup = ar_access_setup,
	.producer = ar_access_producer,
	.finish = ar_access_finish,
	.teardown = ar_teardown,
};
