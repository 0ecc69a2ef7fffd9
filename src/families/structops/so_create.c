// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * struct-ops-create: one op is BPF_MAP_CREATE of a struct_ops map whose value is the kernel's
 * bpf_struct_ops_tcp_congestion_ops (as drivers/map_probe makes it from its recipe: the
 * kernel's value type id and a small BTF of the program's own, loaded once for the run), then
 * close() of its only fd. Each is timed alone with the monotonic clock; between them, untimed
 * and taken out of the covered time, the map is read back (its type and value type). Closing
 * the last fd only queues the map's freeing (the kernel frees a struct_ops map after an RCU
 * and an RCU-tasks grace period, in a worker): at the end the bench waits for the last maps'
 * ids to go, and says how long that took.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "so.h"
#include "util/json.h"
#include "util/log.h"
#include "core/run.h"

#define SO_CHUNK	16
#define SO_FREE_WAIT_NS	(10ull * 1000000000ull)

int so_create_setup(struct mb_run *run)
{
	const struct mb_map_recipe *r = mb_map_recipe_find("struct_ops");
	struct so_state *st = calloc(1, sizeof(*st));
	char why[256] = "";
	int err, fd;

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "syscall";
	st->m.own_btf_fd = st->m.d.btf_fd = st->m.d.inner_fd = -1;
	if (!r)
		return mb_run_fail(run, -ENOENT, "no recipe for struct_ops");
	err = mb_recipe_map_get(&st->m, r, BPF_MAP_TYPE_STRUCT_OPS, 0, why, sizeof(why));
	if (err)
		return mb_run_skip(run, "struct_ops: %s", why);
	st->m.d.name = "mb_so_map";
	fd = mb_map_create(&st->m.d);
	if (fd < 0) {
		mb_map_recipe_explain(r, fd, why, sizeof(why));
		return mb_run_skip(run, "struct_ops: %s", why);
	}
	close(fd);
	st->min_ns = UINT64_MAX;
	return 0;
}

/* The map behind @fd is a struct_ops map of the run's value type: its id, else 0. */
static uint32_t read_back(const struct so_state *st, int fd)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) || info.type != BPF_MAP_TYPE_STRUCT_OPS ||
	    info.btf_vmlinux_value_type_id != st->m.d.vmlinux_value_type_id)
		return 0;
	return info.id;
}

/* One map made, read back and closed; its two steps' times in @c. 0 or -errno. */
static int create_one(struct so_state *st, struct mb_producer *p, struct mb_counters *c)
{
	uint64_t t0 = mb_now_ns(), t1, t2, t3;
	int fd = mb_map_create(&st->m.d);
	uint32_t id;

	(void)p;	/* a creation waits for no one: no wait to mark */
	t1 = mb_now_ns();
	if (fd < 0)
		return fd;
	id = read_back(st, fd);
	t2 = mb_now_ns();
	close(fd);
	t3 = mb_now_ns();
	c->counter[SO_C_FIRST_NS] += t1 - t0;
	c->counter[SO_C_SECOND_NS] += t3 - t2;
	c->excluded_ns += t2 - t1;
	st->min_ns = t1 - t0 < st->min_ns ? t1 - t0 : st->min_ns;
	st->max_ns = t1 - t0 > st->max_ns ? t1 - t0 : st->max_ns;
	if (!id)
		return -EBADMSG;
	st->ids[st->nr_ids++ % SO_IDS_KEPT] = id;
	return 0;
}

int so_create_producer(struct mb_run *run, struct mb_producer *p)
{
	struct so_state *st = run->priv;
	int err = so_produce(run, p, SO_CHUNK, create_one);

	if (err)
		mb_err("%s: a creation failed after %llu: %s", run->bench->name,
		       (unsigned long long)st->done.ops, strerror(-err));
	return err;
}

void so_create_finish(struct mb_run *run)
{
	struct so_state *st = run->priv;
	const struct mb_counters *c = &st->done;
	uint32_t n = st->nr_ids < SO_IDS_KEPT ? st->nr_ids : SO_IDS_KEPT;
	uint64_t t0 = mb_now_ns();
	int left = mb_map_ids_wait_gone(st->ids, n, SO_FREE_WAIT_NS);
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_child(x, "ops_checked");
	struct mb_json *fr = mb_json_child(x, "freed");

	mb_json_set_str(x, "value_type", "bpf_struct_ops_tcp_congestion_ops");
	mb_json_set_num(x, "value_size", st->m.d.value_size);
	mb_json_set_num(chk, "ops", (double)c->ops);
	mb_json_set_num(chk, "read_back", (double)c->hits);
	mb_json_set_num(chk, "errors", (double)c->errors);
	mb_json_set_num(x, "create_min_ns", c->hits ? (double)st->min_ns : 0);
	mb_json_set_num(x, "create_max_ns", (double)st->max_ns);
	mb_json_set_num(fr, "last_maps", n);
	mb_json_set_num(fr, "gone", n - (uint32_t)(left > 0 ? left : 0));
	mb_json_set_num(fr, "wait_ms", (double)(mb_now_ns() - t0) / 1e6);
	if (!c->ops || c->errors || c->hits != c->ops)
		mb_run_fail(run, -EIO, "%llu creations, %llu read back as struct_ops maps of the value type, %llu failed: every one must",
			    (unsigned long long)c->ops, (unsigned long long)c->hits,
			    (unsigned long long)c->errors);
	else if (left)
		mb_run_fail(run, -EBUSY, "%d of the last %u struct_ops maps closed were not freed within %llu s",
			    left, n, SO_FREE_WAIT_NS / 1000000000ull);
}
