// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Queue family: set-up and teardown. The skeleton's map of the run's type is sized from the
 * options (the others are not created); the programs of the run's op, and its push and pop
 * (which bring the map back to its level between rounds), are loaded. Before any op is
 * timed, a round trip: values pushed in the kernel are popped from user space, and values
 * pushed from user space popped in the kernel, each in FIFO or LIFO order. Then the map is
 * filled to the bench's level.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>

#include "queue.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "queue.skel.h"
#include "maps/maps.h"
#include "sys/probe.h"
#include "util/json.h"

/* The slot of the untimed pushes and pops (the producer's is 0). */
#define QU_RESET_SLOT		1
/* Pushes or pops of one reset call. */
#define QU_RESET_CHUNK		(1u << 22)
/* Values the round trip sends each way (at most the capacity). */
#define QU_ROUND_TRIP		64

static const int qu_map_types[QU_TYPE_NR] = {
	[QU_QUEUE] = BPF_MAP_TYPE_QUEUE,
	[QU_STACK] = BPF_MAP_TYPE_STACK,
	[QU_HASH] = BPF_MAP_TYPE_HASH,
};

/* The skeleton's programs by type and op, after mb_loop_prepare() picked the loop's kind. */
static void qu_all_progs(struct queue_bpf *s, struct bpf_program *all[QU_TYPE_NR][QU_P_NR])
{
	struct bpf_program *t[QU_TYPE_NR][QU_P_NR] = {
		[QU_QUEUE] = { s->progs.mb_qu_queue_push, s->progs.mb_qu_queue_push_exist,
			       s->progs.mb_qu_queue_pop, s->progs.mb_qu_queue_peek,
			       s->progs.mb_qu_queue_push_pop },
		[QU_STACK] = { s->progs.mb_qu_stack_push, s->progs.mb_qu_stack_push_exist,
			       s->progs.mb_qu_stack_pop, s->progs.mb_qu_stack_peek,
			       s->progs.mb_qu_stack_push_pop },
		[QU_HASH] = { s->progs.mb_qu_hash_push, s->progs.mb_qu_hash_push_exist,
			      s->progs.mb_qu_hash_pop, s->progs.mb_qu_hash_peek,
			      s->progs.mb_qu_hash_push_pop },
	};

	memcpy(all, t, sizeof(t));
}

static int qu_load(struct mb_run *run, struct qu_state *st)
{
	const struct qu_args *a = run->args;
	enum qu_prog op = qu_info(st->bench)->prog;
	struct bpf_program *all[QU_TYPE_NR][QU_P_NR];
	struct queue_bpf *skel = queue_bpf__open();
	struct bpf_map *maps[QU_TYPE_NR];
	char why[1024];
	int err;

	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	st->skel = skel;
	mb_loop_prepare(skel->skeleton, &run->loop);
	qu_all_progs(skel, all);
	for (int t = 0; t < QU_TYPE_NR; t++) {
		for (int p = 0; p < QU_P_NR; p++) {
			bool keep = t == a->map_type &&
				    (p == (int)op || p == QU_P_PUSH || p == QU_P_POP);

			bpf_program__set_autoload(all[t][p], keep);
			st->progs[p] = keep ? all[t][p] : st->progs[p];
		}
	}
	maps[QU_QUEUE] = skel->maps.mb_qu_queue;
	maps[QU_STACK] = skel->maps.mb_qu_stack;
	maps[QU_HASH] = skel->maps.mb_qu_hash;
	for (int t = 0; t < QU_TYPE_NR; t++)
		bpf_map__set_autocreate(maps[t], t == a->map_type);
	bpf_map__set_value_size(maps[a->map_type], a->value_size);
	bpf_map__set_max_entries(maps[a->map_type], a->max_entries);
	skel->rodata->mb_qu_cap = a->max_entries;
	err = queue_bpf__load(skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the BPF maps and programs", why,
				      sizeof(why));
		return mb_run_fail(run, err, "%s (--map_type %s --max_entries %u --value_size %u)",
				   why, qu_type_names[a->map_type], a->max_entries, a->value_size);
	}
	st->map_fd = bpf_map__fd(maps[a->map_type]);
	return 0;
}

/* One call of the reset slot: @n pushes or pops, each of which must succeed. */
static int qu_reset_call(struct qu_state *st, bool push, uint64_t n, int cpu)
{
	struct mb_slot *slot = &st->skel->bss->mb_slots[QU_RESET_SLOT];
	struct bpf_program *prog = st->progs[push ? QU_P_PUSH : QU_P_POP];
	uint64_t errors = slot->errors, misses = slot->misses;
	int ret = mb_kloop_call(bpf_program__fd(prog), QU_RESET_SLOT, n, cpu);

	if (ret < 0)
		return ret;
	if (ret != MB_RET_OK && ret != MB_QU_RET_ROUND)
		return -EPROTO;
	/* Every push and pop of a reset must succeed, each pop with the value due. */
	return slot->errors != errors || slot->misses != misses ? -EIO : 0;
}

int qu_reset(struct qu_state *st, uint32_t level, int cpu)
{
	uint64_t now;

	/* In calls the loop runs whole (may_goto's budget and bpf_loop's limit: 2^23). */
	while ((now = qu_level(st)) != level) {
		uint64_t n = now < level ? level - now : now - level;
		int err = qu_reset_call(st, now < level, n < QU_RESET_CHUNK ? n : QU_RESET_CHUNK,
					cpu);

		if (err)
			return err;
		if (qu_level(st) == now)
			return -EIO;
	}
	return 0;
}

/*
 * Values pushed by the kernel and popped from user space, then pushed from user space and
 * popped by the kernel, in FIFO (queue, hash) or LIFO (stack) order: each side's pops check
 * the value against the one due. The map is empty before and after.
 */
static int qu_round_trip(struct mb_run *run, struct qu_state *st)
{
	uint32_t k = st->args->max_entries < QU_ROUND_TRIP ? st->args->max_entries : QU_ROUND_TRIP;
	uint64_t n = 0;
	int err = qu_reset(st, k, -1);

	if (err)
		return mb_run_fail(run, err, "round trip: the kernel's %u pushes: %s", k,
				   strerror(-err));
	err = qu_sys_drain(st, &n);
	if (err || n != k)
		return mb_run_fail(run, err ? err : -EIO, "round trip: user space popped %llu of the kernel's %u values: %s",
				   (unsigned long long)n, k, strerror(err ? -err : EIO));
	for (uint32_t i = 0; i < k && !err; i++)
		err = qu_sys_push(st, 0);
	if (!err)
		err = qu_reset(st, 0, -1);
	if (err)
		return mb_run_fail(run, err, "round trip: %u values pushed from user space, popped in the kernel: %s",
				   k, strerror(-err));
	st->checked = 2ull * k;
	return 0;
}

int qu_setup(struct mb_run *run, enum qu_bench b)
{
	const struct qu_args *a = run->args;
	int type = qu_map_types[a->map_type], err;
	struct qu_state *st;
	char why[256];

	if (mb_probe_map_type(type, qu_type_names[a->map_type], why, sizeof(why)))
		return mb_run_skip(run, "%s", why);
	st = calloc(1, sizeof(*st));
	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	st->bench = b;
	st->args = a;
	st->level = a->nr_entries;
	run->runner = a->path == QU_PATH_KERNEL ? "kernel-loop" : "syscall";
	err = qu_load(run, st);
	if (!err)
		err = qu_round_trip(run, st);
	if (err)
		return err;
	err = qu_reset(st, st->level, -1);
	if (err)
		return mb_run_fail(run, err, "cannot fill the map to %u entries: %s", st->level,
				   strerror(-err));
	return 0;
}

void qu_teardown(struct mb_run *run)
{
	struct qu_state *st = run->priv;

	if (!st)
		return;
	queue_bpf__destroy(st->skel);
	free(st);
	run->priv = NULL;
}
