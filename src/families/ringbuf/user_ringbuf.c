// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * user-ringbuf: the other direction of the ring buffer benches. User-space producers write
 * records into a BPF_MAP_TYPE_USER_RINGBUF with libbpf's user_ring_buffer__reserve() and
 * __submit(), and one consumer thread drains it in BPF with bpf_user_ringbuf_drain(), run by
 * BPF_PROG_TEST_RUN (user_ringbuf.bpf.c), which checks every record as the other benches'
 * consumers do. The kernel has no bench for it.
 *
 * libbpf's user ring buffer takes one producer at a time, so with -p > 1 the producers
 * serialise reserve + submit with a mutex, per record: that lock is what an application with
 * several producing threads pays. A producer never waits for room: a full ring is a drop, as in
 * the kernel's bench. Nothing wakes the consumer either (the kernel has no notification in this
 * direction): it calls the drain again at once when the ring was empty, a busy poll.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "maps/map_mmap.h"
#include "drivers/kloop_call.h"
#include "core/runner.h"
#include "rb.h"
#include "sys/probe.h"
#include "user_ringbuf.skel.h"
#include "util/json.h"

#define UR_CONSUMER	"BPF bpf_user_ringbuf_drain via test_run (busy poll: nothing wakes it)"

struct ur_prod {
	uint64_t made;		/* records that got into the ring: the next sequence number */
	uint64_t attempted;
	uint64_t dropped;
};

struct ur_state {
	struct user_ringbuf_bpf *skel;
	struct user_ring_buffer *ring;
	pthread_mutex_t lock;		/* serialises the producers when there are several */
	bool locked;
	volatile uint64_t *stamps;	/* mmapped mb_ur_stamps */
	size_t stamps_len;
	uint64_t stamp_mask;		/* stamps per producer - 1 */
	uint64_t drains, empty_drains;	/* the consumer's drain calls */
	struct ur_prod prod[];
};

_Static_assert(sizeof(((struct user_ringbuf_bpf__bss *)0)->ur_lat_bucket) ==
	       MB_HIST_BUCKETS * sizeof(uint64_t), "user_ringbuf.bpf.c's histogram is util/hist.h's");

static int ur_validate(struct mb_run *run)
{
	static const char *const unused[] = {
		"rb-b2b", "rb-use-output", "rb-sampled", "rb-sample-rate", "perfbuf-sz",
	};

	for (size_t i = 0; i < sizeof(unused) / sizeof(unused[0]); i++)
		if (mb_run_opt_given(run, unused[i]))
			return mb_run_usage(run, "--%s: not for user-ringbuf (user producers write with user_ring_buffer__reserve() and __submit(); the BPF consumer is never woken)",
					    unused[i]);
	if (mb_run_opt_given(run, "rb-check"))
		return mb_run_usage(run, "--rb-check: not for user-ringbuf (its BPF consumer checks every record; the kernel has no bench to match)");
	return rb_validate(run);
}

static int ur_load(struct mb_run *run, struct ur_state *st)
{
	const struct rb_args *a = run->args;
	uint64_t rows = rb_stamp_rows(a->rb_size / rb_ring_record_bytes(a->rec_size));
	uint64_t entries = rows * (uint64_t)run->nr_producers;
	struct user_ringbuf_bpf *skel;
	char why[512];
	int err;

	skel = user_ringbuf_bpf__open();
	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	st->skel = skel;
	st->stamp_mask = rows - 1;
	bpf_map__set_max_entries(skel->maps.mb_ur_ring, (uint32_t)a->rb_size);
	bpf_map__set_max_entries(skel->maps.mb_ur_stamps, (uint32_t)entries);
	skel->rodata->ur_nr_producers = (uint32_t)run->nr_producers;
	skel->rodata->ur_stamp_mask = st->stamp_mask;
	err = user_ringbuf_bpf__load(skel);
	if (err) {
		if (err == -ENOMEM)
			return mb_run_fail(run, err, "not enough memory for the ring (ENOMEM) with --rb-size %llu: lower it, or raise the memory cgroup limit",
					   (unsigned long long)a->rb_size);
		mb_explain_load_error(err, "cannot load the BPF maps and program", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	return 0;
}

static int ur_map(struct mb_run *run, struct ur_state *st)
{
	struct bpf_map *map = st->skel->maps.mb_ur_stamps;
	void *p = mb_map_mmap(bpf_map__fd(map), (size_t)bpf_map__max_entries(map) * sizeof(uint64_t),
			      PROT_READ | PROT_WRITE, &st->stamps_len);

	if (!p)
		return mb_run_fail(run, -errno, "cannot map the stamp table: %s", strerror(errno));
	st->stamps = p;
	st->ring = user_ring_buffer__new(bpf_map__fd(st->skel->maps.mb_ur_ring), NULL);
	if (!st->ring)
		return mb_run_fail(run, -errno, "cannot map the user ring buffer: %s",
				   strerror(errno));
	return 0;
}

static int ur_setup(struct mb_run *run)
{
	int np = run->nr_producers, err;
	struct ur_state *st;
	char why[256];

	if (mb_probe_map_type(BPF_MAP_TYPE_USER_RINGBUF, "user ring buffer", why, sizeof(why)))
		return mb_run_skip(run, "%s (it came with Linux 6.1)", why);
	st = calloc(1, sizeof(*st) + (size_t)np * sizeof(st->prod[0]));
	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "user";
	err = ur_load(run, st);
	if (!err)
		err = ur_map(run, st);
	if (err)
		return err;
	if (np > 1) {
		err = -pthread_mutex_init(&st->lock, NULL);
		if (err)
			return mb_run_fail(run, err, "cannot make the producers' lock: %s",
					   strerror(-err));
		st->locked = true;
	}
	return 0;
}

/* One record of producer @idx: true when it got in (its sequence number *@seq is used). */
static bool ur_put(struct ur_state *st, uint32_t size, uint64_t idx, uint64_t *seq, int *err)
{
	uint64_t *rec;

	if (st->locked)
		pthread_mutex_lock(&st->lock);
	rec = user_ring_buffer__reserve(st->ring, size);
	if (rec) {
		rec[0] = rb_record_id(idx, *seq);
		/* Before the submit, whose release makes it visible with the record. */
		if (!(*seq & (RB_STAMP_EVERY - 1)))
			st->stamps[rb_stamp_index(idx, *seq, st->stamp_mask)] = mb_now_ns();
		user_ring_buffer__submit(st->ring, rec);
		(*seq)++;
	} else if (errno != ENOSPC) {
		*err = -errno;
	}
	if (st->locked)
		pthread_mutex_unlock(&st->lock);
	return rec != NULL;
}

static int ur_produce(struct mb_run *run, struct mb_producer *p)
{
	const struct rb_args *a = run->args;
	struct ur_state *st = run->priv;
	struct ur_prod *me = &st->prod[p->idx];
	struct mb_counters c = { 0 };
	uint64_t seq = 0, left = a->records;
	int err = 0;

	while (!mb_run_should_stop(run) && !err) {
		uint64_t n = a->batch_cnt;

		if (a->records) {
			if (!left)
				break;
			n = n < left ? n : left;
			left -= n;
		}
		for (uint64_t i = 0; i < n && !err; i++) {
			c.ops++;
			if (!ur_put(st, a->rec_size, (uint64_t)p->idx, &seq, &err))
				c.misses++;
		}
		mb_producer_publish(p, &c);
	}
	me->made = seq;
	me->attempted = c.ops;
	me->dropped = c.misses;
	if (err)
		return mb_run_fail(run, err, "producer %d: user_ring_buffer__reserve: %s", p->idx,
				   strerror(-err));
	return 0;
}

/* One drain: the records it took, or -errno. */
static int64_t ur_drain(struct ur_state *st, int cpu)
{
	int ret = mb_kloop_call(bpf_program__fd(st->skel->progs.mb_ur_drain), 0, 0, cpu);

	if (ret < 0)
		return ret;
	st->drains++;
	if (!st->skel->bss->ur_drained)
		st->empty_drains++;
	return st->skel->bss->ur_drained;
}

static int ur_consume(struct mb_run *run, struct mb_producer *c)
{
	struct ur_state *st = run->priv;
	struct mb_counters cc = { 0 };

	for (;;) {
		/* Read first: once every producer is done, an empty drain means all is taken. */
		bool last = mb_run_consumers_should_stop(run);
		int64_t n = ur_drain(st, c->cpu);

		if (n < 0)
			return mb_run_fail(run, (int)n, "bpf_user_ringbuf_drain: %s",
					   strerror((int)-n));
		if (n)
			cc.calls++;
		cc.hits = st->skel->bss->ur_received;
		mb_producer_publish(c, &cc);
		if (last && !n)
			return 0;
	}
}

/* The BPF consumer's counters as rb_check has them (one buffer), and its delays. */
static void ur_check(const struct mb_run *run, const struct ur_state *st, struct rb_check *chk)
{
	const struct user_ringbuf_bpf__bss *b = st->skel->bss;

	for (int p = 0; p < run->nr_producers; p++) {
		chk->next[p] = b->ur_next[p];
		chk->count[p] = b->ur_count[p];
		chk->sum[p] = b->ur_sum[p];
	}
	chk->received = b->ur_received;
	chk->duplicated = b->ur_duplicated;
	chk->foreign = b->ur_foreign;
	chk->latency->count = b->ur_lat_count;
	chk->latency->min = b->ur_lat_min;
	chk->latency->max = b->ur_lat_max;
	memcpy(chk->latency->bucket, b->ur_lat_bucket, sizeof(chk->latency->bucket));
}

static void ur_report_drain(struct mb_run *run, const struct ur_state *st)
{
	struct mb_json *d = mb_json_object();

	mb_json_set_num(d, "calls", (double)st->drains);
	mb_json_set_num(d, "empty_calls", (double)st->empty_drains);
	mb_json_set_str(d, "producer_lock", st->locked ? "pthread mutex per record" : "none");
	mb_json_set(mb_run_extra(run), "drain", d);
}

static void ur_finish(struct mb_run *run)
{
	struct ur_state *st = run->priv;
	uint64_t *made, attempted = 0, dropped = 0;
	struct rb_verdict v;
	struct rb_check chk;

	made = calloc((size_t)run->nr_producers, sizeof(*made));
	if (!made || rb_check_init(&chk, run->nr_producers, 1, true)) {
		free(made);
		mb_run_warn(run, "out of memory for the records' check");
		return;
	}
	for (int p = 0; p < run->nr_producers; p++) {
		made[p] = st->prod[p].made;
		attempted += st->prod[p].attempted;
		dropped += st->prod[p].dropped;
	}
	ur_check(run, st, &chk);
	rb_check_verdict(&chk, made, &v);
	rb_result_records(run, attempted, dropped, &v);
	rb_result_latency(run, chk.latency);
	rb_result_consumer(run, UR_CONSUMER);
	ur_report_drain(run, st);
	rb_check_free(&chk);
	free(made);
}

static void ur_teardown(struct mb_run *run)
{
	struct ur_state *st = run->priv;

	if (!st)
		return;
	if (st->locked)
		pthread_mutex_destroy(&st->lock);
	user_ring_buffer__free(st->ring);
	if (st->stamps)
		munmap((void *)st->stamps, st->stamps_len);
	user_ringbuf_bpf__destroy(st->skel);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_user_ringbuf = {
	.name = "user-ringbuf",
	.family = "ringbuf",
	.desc = "user-space producers (a mutex between them with -p > 1), a BPF consumer draining a user ring buffer (busy poll)",
	.opts = rb_opts,
	.args_size = sizeof(struct rb_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_CONSUMERS,
	.map_types = MB_MAP_TYPES("user_ringbuf"),
	/* Records the consumer got through, not the attempts the full ring dropped. */
	.headline = { .count = MB_HEADLINE_HITS },
	.text = &rb_text,
	.metrics = rb_metrics,
	.validate = ur_validate,
	.setup = ur_setup,
	.producer = ur_produce,
	.consumer = ur_consume,
	.measure = rb_measure,
	.finish = ur_finish,
	.teardown = ur_teardown,
};
