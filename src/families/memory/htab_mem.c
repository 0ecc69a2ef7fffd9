// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * htab-mem: the kernel's hash map memory bench. Producers call getpgid(); a program on its
 * entry (the trigger runner, src/drivers/trigger.h) runs one op per call: a batch of 64
 * operations on a hash map (overwrite existing keys; add then delete them; or add on one CPU
 * and delete on another). Reported: ops per second per producer, and the average and peak
 * memory of a memory cgroup made for the run, which the process joins before the map exists
 * (so the map, the programs and the producers' stacks are charged to it, as in the kernel's
 * bench).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <linux/futex.h>

#include "drivers/trigger.h"
#include "htab_mem_shared.h"
#include "core/bench.h"
#include "htab_mem.skel.h"
#include "util/json.h"
#include "util/log.h"
#include "maps/maps.h"
#include "drivers/map_report.h"
#include "mem.h"
#include "sys/probe.h"
#include "core/runner.h"
#include "core/summary.h"

#define KERNEL_MIN_ENTRIES	8192	/* the kernel's bench: max(8192, 64 x CPUs) */
#define PAIR_SPIN_NS		50000	/* spin this long for the partner's turn, then sleep */
#define PAIR_SLEEP_NS		10000000	/* futex timeout, to notice the stop flag */

enum htab_use_case {
	UC_OVERWRITE,
	UC_BATCH_ADD_BATCH_DEL,
	UC_ADD_DEL_ON_DIFF_CPU,
};

static const char *const use_case_names[] = {
	"overwrite", "batch_add_batch_del", "add_del_on_diff_cpu", NULL,
};

struct htab_mem_args {
	int use_case;
	bool preallocated;
	uint32_t value_size;
	uint32_t max_entries;
};

static const struct mb_opt htab_mem_opts[] = {
	MB_OPT_ENUM_DEF("use-case", struct htab_mem_args, use_case, "overwrite", use_case_names,
			"overwrite: 64 updates of existing keys per op; batch_add_batch_del: 64 updates then 64 deletes (2 ops); add_del_on_diff_cpu: producer pairs, one adds 64 keys, the other deletes them, in turn"),
	MB_OPT_FLAG_DEF("preallocated", struct htab_mem_args, preallocated,
			"preallocated hash map (default: BPF_F_NO_PREALLOC, the bpf memory allocator)"),
	/* The kernel bench's spellings, kept (they are the params keys): not MB_OPT_VALUE_SIZE. */
	MB_OPT_U32_DEF("value-size", struct htab_mem_args, value_size, "8", 1, MB_HTAB_MAX_VALUE,
		       "BYTES", "value size of the hash map"),
	MB_OPT_U32_DEF("max-entries", struct htab_mem_args, max_entries, "0", 0, 1 << 24, "N",
		       "hash map size; 0: max(8192, 64 x producers), as the kernel's bench"),
	MB_OPT_END,
};

static const struct mb_metric_desc htab_mem_metrics[] = {
	{ "memory", "bytes" },	/* the cgroup's usage: memory.current / memory.usage_in_bytes */
	{ "kmem", "bytes" },	/* its kernel memory: v1 kmem counter, v2 memory.stat kernel */
	{ NULL, NULL },
};

/* The turn of an add/delete pair: 0 the adder's, 1 the deleter's. */
struct htab_pair {
	int turn;
} __attribute__((aligned(128)));

struct htab_mem_state {
	struct htab_mem_bpf *skel;
	struct mb_trigger trig;		/* where the programs run, their slots */
	uint32_t max_entries;
	struct mb_memcg cg;
	bool memcg_ok;
	char memcg_why[512];
	struct mb_memcg_usage at_setup;	/* after the programs were loaded */
	struct htab_pair *pairs;
};

static bool pairs_of(const struct htab_mem_args *args)
{
	return args->use_case == UC_ADD_DEL_ON_DIFF_CPU;
}

static int htab_mem_validate(struct mb_run *run)
{
	const struct htab_mem_args *args = run->args;
	uint64_t need = (uint64_t)MB_HTAB_BATCH * (uint64_t)run->nr_producers;

	if (pairs_of(args) && run->nr_producers % 2)
		return mb_run_usage(run, "-p/--producers %d: --use-case add_del_on_diff_cpu needs an even number (producers work in add/delete pairs)",
				    run->nr_producers);
	if (args->max_entries && args->max_entries < need)
		return mb_run_usage(run, "--max-entries %u: must be 0 or at least %llu (64 keys for each of the %d producers)",
				    args->max_entries, (unsigned long long)need, run->nr_producers);
	return 0;
}

/* The programs of the use case (MB_TRIGGER_PROGS' names in htab_mem.bpf.c). */
static const char *const *use_case_progs(int use_case)
{
	static const char *const overwrite[] = { "mb_htab_overwrite", NULL };
	static const char *const batch[] = { "mb_htab_batch", NULL };
	static const char *const pair[] = { "mb_htab_add", "mb_htab_del", NULL };

	if (use_case == UC_OVERWRITE)
		return overwrite;
	return use_case == UC_BATCH_ADD_BATCH_DEL ? batch : pair;
}

/* The trigger runner's loader: open, size the map, load and attach one attach point's. */
static int htab_mem_load(struct mb_run *run, struct mb_trigger *t, void *ctx)
{
	const struct htab_mem_args *args = run->args;
	struct htab_mem_state *st = ctx;
	struct htab_mem_bpf *skel;
	int err;

	skel = htab_mem_bpf__open();
	if (!skel)
		return -errno;
	skel->rodata->mb_htab_step = (__u32)(pairs_of(args) ? run->nr_producers / 2 :
							    run->nr_producers);
	err = bpf_map__set_value_size(skel->maps.mb_htab, args->value_size);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.mb_htab, st->max_entries);
	if (!err)
		err = bpf_map__set_map_flags(skel->maps.mb_htab,
					     args->preallocated ? 0 : BPF_F_NO_PREALLOC);
	if (!err)
		err = mb_trigger_prepare(skel->obj, t->attach, use_case_progs(args->use_case));
	if (!err)
		err = htab_mem_bpf__load(skel);
	if (!err)
		err = htab_mem_bpf__attach(skel);
	if (err) {
		htab_mem_bpf__destroy(skel);
		return err;
	}
	st->skel = skel;
	t->slots = skel->bss->mb_slots;
	return 0;
}

static int htab_mem_setup(struct mb_run *run)
{
	const struct htab_mem_args *args = run->args;
	struct htab_mem_state *st = calloc(1, sizeof(*st));
	uint64_t need = (uint64_t)MB_HTAB_BATCH * (uint64_t)run->nr_producers;
	char why[512];
	int err;

	if (!st)
		return -ENOMEM;
	run->priv = st;
	st->max_entries = args->max_entries ? args->max_entries :
			  (uint32_t)(need > KERNEL_MIN_ENTRIES ? need : KERNEL_MIN_ENTRIES);
	/* Join the cgroup first: everything the run creates from here on is charged to it. */
	if (mb_memcg_enter_self(&st->cg, st->memcg_why, sizeof(st->memcg_why)))
		mb_run_warn(run, "memory figures unavailable: %s", st->memcg_why);
	else
		st->memcg_ok = true;
	err = mb_trigger_load(run, &st->trig, htab_mem_load, st);
	if (err == -EPERM) {
		mb_explain_eperm(why, sizeof(why));
		return mb_run_skip(run, "%s", why);
	}
	if (err) {
		mb_explain_map_create(err, "loading the hash map and its getpgid programs", why,
				      sizeof(why));
		return mb_run_fail(run, err, "%s (-v shows libbpf's log)", why);
	}
	if (st->memcg_ok && mb_memcg_read(&st->cg, &st->at_setup))
		memset(&st->at_setup, 0, sizeof(st->at_setup));
	/*
	 * The peak then restarts: loading parsed vmlinux BTF in user space (several MiB, freed
	 * again), which would otherwise be the peak of every run.
	 */
	if (st->memcg_ok && mb_memcg_reset_peak(&st->cg))
		mb_debug("%s: cannot reset the cgroup's peak: it includes the set-up",
			 run->bench->name);
	if (pairs_of(args)) {
		st->pairs = aligned_alloc(128, sizeof(*st->pairs) * (size_t)(run->nr_producers / 2));
		if (!st->pairs)
			return mb_run_fail(run, -ENOMEM, "out of memory");
		memset(st->pairs, 0, sizeof(*st->pairs) * (size_t)(run->nr_producers / 2));
	}
	return 0;
}

/*
 * Wait for @want in @turn: spin a while (the partner's op takes microseconds, a wake-up from
 * sleep can take longer), then sleep on the futex; the sleep is published as a wait (@c holds
 * the producer's counters, @c->wait_ns gets it). False when the run stops.
 */
static bool pair_wait(struct mb_run *run, struct mb_producer *p, struct mb_counters *c,
		      int *turn, int want, uint64_t t0)
{
	struct timespec ts = { .tv_nsec = PAIR_SLEEP_NS };
	bool sleep = false, ret;

	for (unsigned int spin = 1;; spin++) {
		int v = __atomic_load_n(turn, __ATOMIC_ACQUIRE);

		if (v == want || mb_run_should_stop(run)) {
			ret = v == want;
			break;
		}
		if (!sleep && !(spin % 64) && mb_now_ns() - t0 > PAIR_SPIN_NS) {
			sleep = true;
			mb_producer_wait_begin(p, c);
		}
		if (sleep)
			syscall(SYS_futex, turn, FUTEX_WAIT_PRIVATE, v, &ts, NULL, 0);
	}
	if (sleep)
		mb_producer_wait_end(p, c);
	return ret;
}

static void pair_pass(int *turn, int to)
{
	__atomic_store_n(turn, to, __ATOMIC_RELEASE);
	syscall(SYS_futex, turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/*
 * add_del_on_diff_cpu: producer 2k adds the pair's 64 keys, producer 2k+1 deletes them, in
 * strict turns as the kernel's pthread barriers make them (a handover that can notice the end
 * of the run instead of a barrier, which cannot); the wait is excluded time.
 */
static int pair_producer(struct mb_run *run, struct mb_producer *p)
{
	struct htab_mem_state *st = run->priv;
	const struct mb_slot *s = &st->trig.slots[p->idx];
	struct htab_pair *pair = &st->pairs[p->idx / 2];
	bool adder = !(p->idx & 1);
	__u64 arg = mb_trigger_arg(adder ? MB_HTAB_ADD : MB_HTAB_DEL, (__u32)p->idx);
	uint64_t excluded = 0, wait = 0;
	struct mb_counters c;
	int err;

	for (;;) {
		uint64_t t = mb_now_ns();
		bool go;

		mb_trigger_counters(s, excluded, wait, &c);
		go = pair_wait(run, p, &c, &pair->turn, adder ? 0 : 1, t);
		wait = c.wait_ns;
		excluded += mb_now_ns() - t;
		if (!go)
			break;
		err = mb_trigger_fire(run, p, &st->trig, arg);
		if (err) {
			/* Let the partner notice the stop rather than wait for its turn. */
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			return err;
		}
		pair_pass(&pair->turn, adder ? 1 : 0);
		mb_trigger_publish(p, &st->trig, excluded, wait);
	}
	mb_trigger_publish(p, &st->trig, excluded, wait);
	return 0;
}

static int htab_mem_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct htab_mem_args *args = run->args;
	struct htab_mem_state *st = run->priv;

	if (pairs_of(args))
		return pair_producer(run, p);
	return mb_trigger_produce(run, p, &st->trig, args->use_case == UC_OVERWRITE ?
				  MB_HTAB_OVERWRITE : MB_HTAB_BATCH_ADD_DEL);
}

static void htab_mem_measure(struct mb_run *run, struct mb_sample *s)
{
	struct htab_mem_state *st = run->priv;
	struct mb_memcg_usage u;

	if (!st->memcg_ok || mb_memcg_read(&st->cg, &u))
		return;
	s->metric[0] = (double)u.usage;
	if (u.has_kmem)
		s->metric[1] = (double)u.kmem;
}

static void htab_mem_finish(struct mb_run *run)
{
	const struct htab_mem_args *args = run->args;
	struct htab_mem_state *st = run->priv;
	struct mb_json *extra = mb_run_extra(run), *mc;
	uint64_t kns = 0, mops = 0;
	struct mb_memcg_usage u;

	mb_json_set_str(extra, "use_case", use_case_names[args->use_case]);
	mb_json_set_bool(extra, "preallocated", args->preallocated);
	mb_json_set_num(extra, "value_size", args->value_size);
	mb_json_set_num(extra, "max_entries", st->max_entries);
	mb_json_set_str(extra, "op", args->use_case == UC_BATCH_ADD_BATCH_DEL ?
		"a batch of 64 map operations: one program run does 64 updates and 64 deletes and counts 2 ops" :
		"a batch of 64 map operations: one program run on a producer's getpgid() call");
	mb_json_set_num(extra, "map_ops_per_op", MB_HTAB_BATCH);
	mb_trigger_report(&st->trig, extra);
	for (int i = 0; i < run->nr_samples; i++) {
		if (run->samples[i].warmup)
			continue;
		kns += run->samples[i].total.kernel_ns;
		mops += run->samples[i].total.hits + run->samples[i].total.errors;
	}
	mb_json_set(extra, "map_op_latency_ns",
		    mops ? mb_json_number((double)kns / (double)mops) : mb_json_null());
	mc = mem_memcg_json(&st->cg, st->memcg_ok, st->memcg_why);
	if (st->memcg_ok && !mb_memcg_read(&st->cg, &u)) {
		mb_json_set_num(mc, "setup_bytes", (double)st->at_setup.usage);
		mb_json_set(mc, "setup_peak_bytes", st->at_setup.has_peak ?
			    mb_json_number((double)st->at_setup.peak) : mb_json_null());
		mb_json_set_str(mc, "peak_since", st->cg.peak_reset ? "setup" : "creation");
		mb_json_set(mc, "peak_bytes", u.has_peak ? mb_json_number((double)u.peak) :
							    mb_json_null());
		mb_json_set(mc, "kmem_peak_bytes", u.has_kmem_peak ?
			    mb_json_number((double)u.kmem_peak) : mb_json_null());
	}
	mb_json_set(extra, "memcg", mc);
	mb_run_report_map_memory(run, "htab", bpf_map__fd(st->skel->maps.mb_htab),
				 st->max_entries);
}

static void htab_mem_teardown(struct mb_run *run)
{
	struct htab_mem_state *st = run->priv;
	int err;

	if (!st)
		return;
	htab_mem_bpf__destroy(st->skel);
	err = mb_memcg_leave(&st->cg);
	if (err)
		mb_run_warn(run, "cannot remove the memory cgroup %s: %s", st->cg.path,
			    strerror(-err));
	free(st->pairs);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_htab_mem = {
	.name = "htab-mem",
	.family = "memory",
	.desc = "hash map op rate (batches of 64 updates/deletes on getpgid) and memory cgroup usage, as the kernel's htab-mem",
	.opts = htab_mem_opts,
	.args_size = sizeof(struct htab_mem_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("hash"),
	/* The ops' rate over the producers' time: the trigger path is part of the op. */
	.headline = { .clock = MB_HEADLINE_WALL_RATE },
	.text = &htab_mem_text,
	.metrics = htab_mem_metrics,
	.validate = htab_mem_validate,
	.setup = htab_mem_setup,
	.producer = htab_mem_producer,
	.measure = htab_mem_measure,
	.finish = htab_mem_finish,
	.teardown = htab_mem_teardown,
};
