// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * lpm-trie-free: how long the kernel takes to free an LPM trie of --nr_entries entries. The
 * producer creates a trie, fills it with batch updates, closes its only fd and waits until the
 * kernel has freed it. The free runs later, on a kworker (bpf_map_free_deferred), so it is
 * timed in the kernel (src/families/lpm/lpm_free.bpf.c): by fentry/fexit on that function, as the kernel's
 * bench does, where the kernel allows BPF trampolines; otherwise by the workqueue tracepoints
 * around the same work item. Where neither works the bench is skipped: user space sees only
 * the close(), not the free.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "util/json.h"
#include "util/log.h"
#include "lpm_free.skel.h"
#include "lpm_trie.h"
#include "maps/maps.h"
#include "sys/probe.h"
#include "core/runner.h"

#define FREE_FUNC		"bpf_map_free_deferred"
#define WAIT_SPINS		64		/* sched_yield() polls before sleeping ones */
#define WAIT_SLEEP_NS		20000
#define WAIT_BASE_NS		(10ULL * 1000000000)	/* then 10 us more per entry */

struct free_state {
	struct lpm_free_bpf *skel;
	struct lpm_keys keys;
	int link[2];
	enum lpm_free_method method;		/* FENTRY or WORKQUEUE once loaded */
	char name[16];				/* the timed tries' name (BPF_OBJ_NAME_LEN) */
	char fentry_why[256];			/* why fentry/fexit was not used, or "" */
	uint64_t tries;
};

static const char *method_name(enum lpm_free_method m)
{
	return m == LPM_FREE_FENTRY ? "fentry" : "workqueue-tracepoints";
}

static const char *method_sentence(enum lpm_free_method m)
{
	return m == LPM_FREE_FENTRY ?
		"in-kernel time of bpf_map_free_deferred() for each trie, by fentry/fexit (as the kernel's bench)" :
		"in-kernel time of each trie's bpf_map_free_deferred() work item, between the workqueue_execute_start/end tracepoints (fentry/fexit not used)";
}

static int attach(struct free_state *st, enum lpm_free_method m, struct bpf_program *start,
		  struct bpf_program *end)
{
	if (m == LPM_FREE_FENTRY) {
		st->link[0] = bpf_link_create(bpf_program__fd(start), 0, BPF_TRACE_FENTRY, NULL);
		if (st->link[0] >= 0)
			st->link[1] = bpf_link_create(bpf_program__fd(end), 0, BPF_TRACE_FEXIT,
						      NULL);
	} else {
		st->link[0] = bpf_raw_tracepoint_open("workqueue_execute_start",
						      bpf_program__fd(start));
		if (st->link[0] >= 0)
			st->link[1] = bpf_raw_tracepoint_open("workqueue_execute_end",
							      bpf_program__fd(end));
	}
	return st->link[0] < 0 || st->link[1] < 0 ? -errno : 0;
}

static void detach(struct free_state *st)
{
	for (int i = 0; i < 2; i++) {
		if (st->link[i] >= 0)
			close(st->link[i]);
		st->link[i] = -1;
	}
}

/* Load and attach the programs of @m; on failure @why says why and nothing is left. */
static int load_method(struct free_state *st, enum lpm_free_method m, char *why, size_t len)
{
	struct lpm_free_bpf *skel = lpm_free_bpf__open();
	struct bpf_program *start, *end;
	int err;

	if (!skel) {
		err = -errno;
		snprintf(why, len, "cannot open the BPF object: %s", strerror(-err));
		return err;
	}
	memcpy((void *)skel->rodata->mb_free_name, st->name, sizeof(st->name));
	start = m == LPM_FREE_FENTRY ? skel->progs.mb_free_fentry : skel->progs.mb_free_wq_start;
	end = m == LPM_FREE_FENTRY ? skel->progs.mb_free_fexit : skel->progs.mb_free_wq_end;
	bpf_program__set_autoload(start, true);
	bpf_program__set_autoload(end, true);
	err = lpm_free_bpf__load(skel);
	if (err) {
		char what[64];

		snprintf(what, sizeof(what), "loading the %s programs fails", method_name(m));
		mb_explain_load_error(err, what, why, len);
		lpm_free_bpf__destroy(skel);
		return err;
	}
	err = attach(st, m, start, end);
	if (err) {
		snprintf(why, len, m == LPM_FREE_FENTRY ?
			 "attaching fentry/fexit to " FREE_FUNC " fails: %s" :
			 "attaching to the workqueue_execute_start/end tracepoints fails: %s",
			 strerror(-err));
		detach(st);
		lpm_free_bpf__destroy(skel);
		return err;
	}
	st->skel = skel;
	st->method = m;
	return 0;
}

/* Pick the method: fentry where it works (auto, fentry), else the workqueue tracepoints. */
static int choose_method(struct mb_run *run, struct free_state *st)
{
	const struct lpm_args *a = run->args;
	char why[256] = "", wq_why[256] = "";
	int err;

	if (a->free_method != LPM_FREE_WORKQUEUE) {
		err = mb_probe_fentry(FREE_FUNC, why, sizeof(why));
		if (!err)
			err = load_method(st, LPM_FREE_FENTRY, why, sizeof(why));
		if (!err)
			return 0;
		if (a->free_method == LPM_FREE_FENTRY)
			return mb_run_skip(run, "cannot time the free by fentry/fexit on %s: %s (--free_method workqueue times the same work item with tracepoints)",
					   FREE_FUNC, why);
		snprintf(st->fentry_why, sizeof(st->fentry_why), "%s", why);
	}
	err = load_method(st, LPM_FREE_WORKQUEUE, wq_why, sizeof(wq_why));
	if (!err) {
		if (st->fentry_why[0])
			mb_info("%s: fentry/fexit is not available (%s): timing the %s work item between the workqueue tracepoints instead",
				run->bench->name, st->fentry_why, FREE_FUNC);
		return 0;
	}
	if (a->free_method == LPM_FREE_WORKQUEUE)
		return mb_run_skip(run, "cannot time the free with the workqueue tracepoints: %s",
				   wq_why);
	return mb_run_skip(run, "cannot time the free in the kernel: fentry/fexit: %s; workqueue tracepoints: %s (the free runs later on a kworker: user space cannot time it)",
			   why, wq_why);
}

static int free_setup(struct mb_run *run)
{
	struct free_state *st;
	int err, fd;

	st = lpm_state_alloc(run, sizeof(*st), &err);
	if (!st)
		return err;
	st->link[0] = st->link[1] = -1;
	/* Unique per run, so that no other process's trie is timed. */
	snprintf(st->name, sizeof(st->name), "mb_lf_%08x",
		 (unsigned int)(mb_now_ns() ^ ((uint64_t)getpid() << 16)));
	/* The memory of one full trie (named otherwise: its free is not timed). */
	fd = lpm_keys_and_trie(run, &st->keys);
	if (fd < 0)
		return fd;
	close(fd);

	err = choose_method(run, st);
	if (err)
		return err;
	run->runner = st->method == LPM_FREE_FENTRY ? "fentry" : "tracepoint";
	return 0;
}

/*
 * Wait until the kernel has freed the trie (the free count moves past @count). Returns 0,
 * -EINTR when the run stops, -ETIMEDOUT.
 */
static int wait_free(struct mb_run *run, struct free_state *st, uint64_t count)
{
	const __u64 *done = &st->skel->bss->mb_free_count;
	uint64_t deadline = mb_now_ns() + WAIT_BASE_NS + st->keys.ks.nr_entries * 10000ULL;
	struct timespec ts = { .tv_nsec = WAIT_SLEEP_NS };

	for (int i = 0; __atomic_load_n(done, __ATOMIC_ACQUIRE) == count; i++) {
		if (mb_run_should_stop(run))
			return -EINTR;
		if (mb_now_ns() > deadline)
			return -ETIMEDOUT;
		/* A short free is over in microseconds; a long one is not worth spinning for. */
		if (i < WAIT_SPINS)
			sched_yield();
		else
			nanosleep(&ts, NULL);
	}
	return 0;
}

static int free_producer(struct mb_run *run, struct mb_producer *p)
{
	struct free_state *st = run->priv;
	struct lpm_free_bpf__bss *bss = st->skel->bss;
	struct mb_counters c = {};
	uint64_t count0 = __atomic_load_n(&bss->mb_free_count, __ATOMIC_ACQUIRE);
	uint64_t ns0 = bss->mb_free_ns;
	char msg[512];

	mb_producer_publish_stamped(p, &c);
	while (!mb_run_should_stop(run)) {
		uint64_t t0 = mb_now_ns(), t1, t2, count, ns, free_ns;
		int fd, err;

		fd = lpm_trie_create(&st->keys, st->name);
		if (fd < 0) {
			mb_explain_map_create(fd, "cannot create the trie", msg, sizeof(msg));
			mb_err("%s: %s", run->bench->name, msg);
			return fd;
		}
		err = lpm_trie_fill(fd, &st->keys, run);
		if (err) {
			close(fd);
			if (err == -EINTR)
				break;
			mb_err("%s: cannot fill the trie: %s", run->bench->name, strerror(-err));
			return err;
		}
		count = __atomic_load_n(&bss->mb_free_count, __ATOMIC_ACQUIRE);
		ns = bss->mb_free_ns;
		t1 = mb_now_ns();
		close(fd);	/* the only reference: the kernel queues the free */
		/*
		 * A wait, not a lost CPU, when the preemption check reads the producer's CPU
		 * clock: the free runs on a kworker, maybe on this CPU while this thread yields.
		 */
		mb_producer_wait_begin(p, &c);
		err = wait_free(run, st, count);
		mb_producer_wait_end(p, &c);
		if (err == -EINTR)
			break;
		if (err) {
			mb_err("%s: the trie's free was not seen within %llu s: is the %s program still attached?",
			       run->bench->name,
			       (unsigned long long)((WAIT_BASE_NS + st->keys.ks.nr_entries * 10000ULL) /
						    1000000000ULL),
			       method_name(st->method));
			return err;
		}
		t2 = mb_now_ns();
		free_ns = __atomic_load_n(&bss->mb_free_ns, __ATOMIC_ACQUIRE) - ns;
		/*
		 * Not the free's: creating and filling the trie, and the wait beyond the free
		 * itself (the kworker's wake-up, polling), which the free does not include.
		 */
		c.excluded_ns += t1 - t0;
		if (t2 - t1 > free_ns)
			c.excluded_ns += t2 - t1 - free_ns;
		c.ops = __atomic_load_n(&bss->mb_free_count, __ATOMIC_ACQUIRE) - count0;
		c.hits = c.ops;
		c.kernel_ns = bss->mb_free_ns - ns0;
		c.calls++;
		st->tries++;
		/* One trie is one long call: rates divide by the time the tries took. */
		mb_producer_publish_stamped(p, &c);
	}
	return 0;
}

static void free_finish(struct mb_run *run)
{
	struct free_state *st = run->priv;
	struct mb_json *o = mb_json_child(mb_run_extra(run), "free");

	mb_json_set_str(o, "method", method_name(st->method));
	mb_json_set_str(o, "measures", method_sentence(st->method));
	mb_json_set(o, "fentry_unavailable",
		    st->fentry_why[0] ? mb_json_string(st->fentry_why) : mb_json_null());
	mb_json_set_num(o, "tries", (double)st->tries);
}

static void free_teardown(struct mb_run *run)
{
	struct free_state *st = run->priv;

	if (!st)
		return;
	detach(st);
	lpm_free_bpf__destroy(st->skel);
	lpm_keys_free(&st->keys);
	free(st);
	run->priv = NULL;
}

static int free_validate(struct mb_run *run)
{
	return lpm_validate(run, "frees whole tries, filled with every key in order");
}

const struct mb_bench mb_bench_lpm_trie_free = {
	.name = "lpm-trie-free",
	.family = "lpm",
	.desc = "time the kernel takes to free a full LPM trie (timed in the kernel by fentry or tracepoints)",
	.opts = lpm_free_opts,
	.args_size = sizeof(struct lpm_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = MB_MAP_TYPES("lpm_trie"),
	.text = &lpm_text_free,
	.validate = free_validate,
	.setup = free_setup,
	.producer = free_producer,
	.finish = free_finish,
	.teardown = free_teardown,
};
