// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-create, the kernel's bench of what creating a local storage costs. Producers
 * work in rounds: open --batch-size sockets and close them, or start --batch-size threads
 * with an empty body and join them; a program makes storage on each new owner with
 * get(F_CREATE), and counts it in the producer's slot when it got storage. One op is one
 * storage made. Beside the rate: kmallocs per create, counted on the kmalloc tracepoint (this
 * process's by default, the kernel's system-wide count with --kmalloc_scope all).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <linux/types.h>

#include "core/bench.h"
#include "drivers/thread_slots.h"
#include "ls_create.h"
#include "ls_create_shared.h"
#include "ls_create.skel.h"
#include "util/json.h"

_Static_assert(MB_LSC_MAX_PRODUCERS == MB_MAX_PRODUCERS, "a BPF slot for every producer");

#define FD_RESERVE	64	/* descriptors kept for everything else of the process */

static const char *const storage_names[] = { "socket", "task", NULL };
static const char *const scope_names[] = { "pid", "all", NULL };

static const struct mb_opt lsc_opts[] = {
	MB_OPT_ENUM_DEF("storage-type", struct lsc_args, storage, "socket", storage_names,
			"socket: sk storage on each socket(AF_INET6, SOCK_DGRAM); task: task storage on each thread started"),
	MB_OPT_U32_DEF("batch-size", struct lsc_args, batch_size, "32", 1, LSC_MAX_BATCH, "N",
		       "owners made, then closed or joined, per round"),
	MB_OPT_ENUM_DEF("kmalloc_scope", struct lsc_args, kmalloc_scope, "pid", scope_names,
			"pid: this process's kmallocs; all: every process's, as the kernel's (noisy on a shared host: other load counts too)"),
	MB_OPT_END,
};

static const struct mb_counter_desc lsc_counters[] = {
	[LSC_CREATE_ERRS] = { "create_errs", "creates", "get(F_CREATE) returned no storage" },
	[LSC_OWNER_ERRS] = { "owner_errs", "owners", "socket() or pthread_create() failed" },
	{ NULL, NULL, NULL },
};

static const struct mb_metric_desc lsc_metrics[] = {
	[LSC_M_KMALLOCS] = { "kmallocs", "kmallocs" },	/* counted in the sample */
	[LSC_M_KMEM] = { "kmem", "bytes" },		/* the fallback: kmem charged in it */
	{ NULL, NULL },
};

extern const struct mb_text_style ls_create_text;	/* ls_create_text.c */

/* Sockets hold a descriptor each until the round closes them: they must all fit. */
static int lsc_validate(struct mb_run *run)
{
	const struct lsc_args *args = run->args;
	uint64_t need = (uint64_t)args->batch_size * (uint64_t)run->nr_producers + FD_RESERVE;
	struct rlimit rl;

	if (args->storage != LSC_SOCKET || getrlimit(RLIMIT_NOFILE, &rl) ||
	    rl.rlim_cur == RLIM_INFINITY || need <= rl.rlim_cur)
		return 0;
	return mb_run_bad_num(run, "batch-size", args->batch_size,
			      "1..%llu with %d producer%s (each socket of a round holds a descriptor; RLIMIT_NOFILE is %llu)",
			      (unsigned long long)((rl.rlim_cur - FD_RESERVE) /
						   (uint64_t)run->nr_producers),
			      run->nr_producers, run->nr_producers > 1 ? "s" : "",
			      (unsigned long long)rl.rlim_cur);
}

static int lsc_setup(struct mb_run *run)
{
	struct lsc_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	run->priv = st;
	run->runner = "owners";
	return lsc_load(run, st);
}

/* One round of sockets: made, then closed. Returns the failures. */
static uint64_t socket_round(int *fds, uint32_t n)
{
	uint64_t errs = 0;

	for (uint32_t i = 0; i < n; i++) {
		fds[i] = socket(AF_INET6, SOCK_DGRAM, 0);
		errs += fds[i] < 0;
	}
	for (uint32_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return errs;
}

static void *empty_thread(void *arg)
{
	return arg;
}

/* One round of threads: started, then joined. Returns the failures. */
static uint64_t thread_round(pthread_t *th, bool *ok, uint32_t n)
{
	uint64_t errs = 0;

	for (uint32_t i = 0; i < n; i++) {
		ok[i] = !pthread_create(&th[i], NULL, empty_thread, NULL);
		errs += !ok[i];
	}
	for (uint32_t i = 0; i < n; i++)
		if (ok[i])
			pthread_join(th[i], NULL);
	return errs;
}

static void lsc_publish(struct mb_producer *p, const struct mb_lsc_slot *s, uint64_t owner_errs)
{
	struct mb_counters c = { 0 };

	c.ops = __atomic_load_n(&s->creates, __ATOMIC_RELAXED);
	c.counter[LSC_CREATE_ERRS] = __atomic_load_n(&s->create_errs, __ATOMIC_RELAXED);
	c.counter[LSC_OWNER_ERRS] = owner_errs;
	mb_producer_publish(p, &c);
}

static int lsc_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct lsc_args *args = run->args;
	struct lsc_state *st = run->priv;
	const struct mb_lsc_slot *slot = &st->skel->bss->mb_lsc_slots[p->idx];
	uint32_t n = args->batch_size;
	uint64_t owner_errs = 0;
	pthread_t *th = NULL;
	bool *ok = NULL;
	int *fds = NULL;
	int err;

	/* The programs count a create in the slot of the thread that made the owner. */
	err = mb_thread_slot_register(bpf_map__fd(st->skel->maps.mb_thread_slots),
				      (uint32_t)p->idx);
	if (err)
		return err;
	if (args->storage == LSC_SOCKET) {
		fds = calloc(n, sizeof(*fds));
		if (!fds)
			return -ENOMEM;
	} else {
		th = calloc(n, sizeof(*th));
		ok = calloc(n, sizeof(*ok));
		if (!th || !ok) {
			free(th);
			free(ok);
			return -ENOMEM;
		}
	}
	while (!mb_run_should_stop(run)) {
		owner_errs += fds ? socket_round(fds, n) : thread_round(th, ok, n);
		lsc_publish(p, slot, owner_errs);
	}
	free(fds);
	free(th);
	free(ok);
	return 0;
}

/* Each sample's kmallocs, or the fallback's kmem charged, from the last sample's reading. */
static void lsc_measure(struct mb_run *run, struct mb_sample *s)
{
	struct lsc_state *st = run->priv;
	struct mb_memcg_usage u;

	if (st->km != LSC_KM_NONE) {
		uint64_t now = __atomic_load_n(&st->skel->bss->mb_lsc_kmallocs, __ATOMIC_RELAXED);

		s->metric[LSC_M_KMALLOCS] = (double)(now - st->km_last);
		st->km_last = now;
	} else if (st->memcg_ok && !mb_memcg_read(&st->memcg, &u) && u.has_kmem) {
		s->metric[LSC_M_KMEM] = (double)u.kmem - (double)st->kmem_last;
		st->kmem_last = u.kmem;
	}
}

/* What the programs counted, all slots, and what the producers published last. */
struct lsc_totals {
	uint64_t counted, create_errs;			/* the programs', producers' slots */
	uint64_t other;					/* theirs in other threads */
	uint64_t published, owner_errs;			/* the producers' */
	uint64_t measured, kmallocs;			/* over the measured samples */
	double kmem;
};

static void lsc_totals(const struct mb_run *run, const struct lsc_state *st,
		       struct lsc_totals *t)
{
	const struct mb_lsc_slot *slots = st->skel->bss->mb_lsc_slots;

	memset(t, 0, sizeof(*t));
	for (int i = 0; i < run->nr_producers; i++) {
		t->counted += __atomic_load_n(&slots[i].creates, __ATOMIC_RELAXED);
		t->create_errs += __atomic_load_n(&slots[i].create_errs, __ATOMIC_RELAXED);
	}
	/* The producer threads themselves, started by the main thread (task storage). */
	t->other = __atomic_load_n(&slots[MB_LSC_OTHER].creates, __ATOMIC_RELAXED);
	for (int i = 0; i < run->nr_producers; i++) {
		struct mb_counters c;

		mb_producer_read(&run->prod[i], &c, NULL);
		t->published += c.ops;
		t->owner_errs += c.counter[LSC_OWNER_ERRS];
	}
	for (int i = 0; i < run->nr_samples; i++) {
		const struct mb_sample *s = &run->samples[i];

		if (s->warmup)
			continue;
		t->measured += s->total.ops;
		if (st->km != LSC_KM_NONE)
			t->kmallocs += (uint64_t)s->metric[LSC_M_KMALLOCS];
		else if (st->memcg_ok)
			t->kmem += s->metric[LSC_M_KMEM];
	}
}

static struct mb_json *ratio(double num, uint64_t den, bool have)
{
	return have && den ? mb_json_number(num / (double)den) : mb_json_null();
}

/* extra: how the storage was made and the kmallocs counted, and the counts behind them. */
static void lsc_report(struct mb_run *run, const struct lsc_state *st, const struct lsc_totals *t)
{
	const struct lsc_args *args = run->args;
	struct mb_json *extra = mb_run_extra(run);
	char name[64];

	mb_json_set_str(extra, "storage_type", storage_names[args->storage]);
	mb_json_set_num(extra, "batch_size", args->batch_size);
	mb_json_set_num(extra, "value_size", MB_LSC_VALUE_SIZE);
	mb_json_set_str(extra, "create_hook", lsc_hook_name(st->hook));
	mb_json_set(extra, "create_hook_note", st->hook_note[0] ?
		    mb_json_string(st->hook_note) : mb_json_null());
	mb_json_set(extra, "cgroup", st->cg.created ? mb_json_string(st->cg.path) :
						      mb_json_null());
	mb_json_set_str(extra, "kmalloc_scope", scope_names[args->kmalloc_scope]);
	if (st->km != LSC_KM_NONE)
		snprintf(name, sizeof(name), "%s (%s)", lsc_kmalloc_name(st->km),
			 scope_names[args->kmalloc_scope]);
	mb_json_set(extra, "kmalloc_counter", st->km != LSC_KM_NONE ? mb_json_string(name) :
								     mb_json_null());
	mb_json_set(extra, "kmalloc_unavailable", st->km == LSC_KM_NONE ?
		    mb_json_string(st->km_why) : mb_json_null());
	mb_json_set(extra, "kmallocs", st->km != LSC_KM_NONE ?
		    mb_json_number((double)t->kmallocs) : mb_json_null());
	mb_json_set(extra, "kmallocs_per_create", ratio((double)t->kmallocs, t->measured,
							st->km != LSC_KM_NONE));
	mb_json_set(extra, "kmem_bytes_per_create", ratio(t->kmem, t->measured, st->memcg_ok));
	mb_json_set(extra, "memcg", st->memcg_ok ? mb_json_string(st->memcg.path) :
						    mb_json_null());
	mb_json_set(extra, "memcg_unavailable", st->km == LSC_KM_NONE && !st->memcg_ok ?
		    mb_json_string(st->memcg_why) : mb_json_null());
	mb_json_set_num(extra, "creates_counted", (double)t->counted);
	mb_json_set_num(extra, "creates_published", (double)t->published);
	mb_json_set_num(extra, "creates_other", (double)t->other);
	mb_json_set_num(extra, "create_errs", (double)t->create_errs);
	mb_json_set_num(extra, "owner_errs", (double)t->owner_errs);
	mb_json_set_str(extra, "owner_call", args->storage == LSC_SOCKET ? "socket" :
									   "pthread_create");
}

static void lsc_finish(struct mb_run *run)
{
	const struct lsc_args *args = run->args;
	struct lsc_state *st = run->priv;
	struct lsc_totals t;

	lsc_totals(run, st, &t);
	lsc_report(run, st, &t);
	if (run->status != MB_RUN_OK)
		return;
	/* Before a figure is reported: the programs made storage, and the counts agree. */
	if (!t.counted) {
		mb_run_fail(run, -EIO, "no storage was created: %llu get(F_CREATE) calls returned NULL, %llu %s() calls failed",
			    (unsigned long long)t.create_errs, (unsigned long long)t.owner_errs,
			    args->storage == LSC_SOCKET ? "socket" : "pthread_create");
		return;
	}
	if (t.counted != t.published)
		mb_run_fail(run, -EIO, "the programs made %llu storages in the producers' threads, the producers published %llu",
			    (unsigned long long)t.counted, (unsigned long long)t.published);
}

static void lsc_teardown(struct mb_run *run)
{
	struct lsc_state *st = run->priv;

	if (!st)
		return;
	lsc_unload(run, st);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_ls_create = {
	.name = "local-storage-create",
	.family = "localstorage",
	.desc = "local storage creates per second on new sockets or threads, and kmallocs per create, as the kernel's",
	.opts = lsc_opts,
	.args_size = sizeof(struct lsc_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("sk_storage", "task_storage"),
	/* Creates over the producers' time: making the owner is part of the op. */
	.headline = { .clock = MB_HEADLINE_WALL_RATE },
	.counters = lsc_counters,
	.metrics = lsc_metrics,
	.text = &ls_create_text,
	.validate = lsc_validate,
	.setup = lsc_setup,
	.producer = lsc_producer,
	.measure = lsc_measure,
	.finish = lsc_finish,
	.teardown = lsc_teardown,
};
