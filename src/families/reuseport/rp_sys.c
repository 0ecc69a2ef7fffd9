// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * reuseport-update and reuseport-lookup: one BPF_MAP_UPDATE_ELEM or BPF_MAP_LOOKUP_ELEM per
 * op from user space, on a reuseport_sockarray whose every slot holds a socket of the group.
 *
 * A socket sits in one slot of one array at a time (the kernel refuses a second with EBUSY),
 * so an update cannot write a slot's own socket again: the group has one socket more than the
 * array, the spare, and each update puts the spare into the next slot (BPF_EXIST), the socket
 * it replaces becoming the spare. A lookup returns the slot's socket cookie (8-byte values),
 * compared with the cookie read from the socket at set-up.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "rp.h"
#include "drivers/map_create.h"
#include "util/json.h"
#include "util/log.h"
#include "core/run.h"

/* Ops between two publications of the counters. */
#define RP_CHUNK 64

int rp_sys_setup(struct mb_run *run, enum rp_bench b)
{
	const struct rp_args *a = run->args;
	struct rp_state *st = calloc(1, sizeof(*st));
	uint32_t n = a->nr_entries;
	int err;

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	st->bench = b;
	st->args = a;
	st->map_fd = -1;
	run->runner = "syscall";
	err = rp_group_open(&st->g, a->proto, n + (b == RP_UPDATE));
	if (err)
		return mb_run_fail(run, err, "cannot open %u %s sockets with SO_REUSEPORT on 127.0.0.1",
				   n + (b == RP_UPDATE), rp_proto_names[a->proto]);
	st->slot_sock = calloc(n, sizeof(*st->slot_sock));
	if (!st->slot_sock)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	st->map_fd = rp_map_create(run, n);
	if (st->map_fd < 0)
		return st->map_fd;
	st->map_id = mb_map_id(st->map_fd);
	for (uint32_t i = 0; i < n; i++) {
		st->slot_sock[i] = i;
		err = rp_map_put(st->map_fd, &st->g, i, i, BPF_NOEXIST);
		if (err)
			return mb_run_fail(run, err, "cannot put %s socket %u in slot %u",
					   rp_proto_names[a->proto], i, i);
	}
	st->spare = n;
	err = rp_map_check(st->map_fd, &st->g, NULL, n);
	if (err)
		return mb_run_fail(run, err, "the slots do not read back the cookies of the sockets put in them");
	return 0;
}

static void count(struct mb_counters *c, int err)
{
	c->ops++;
	c->calls++;
	if (err)
		c->errors++;
	else
		c->hits++;
}

/* The spare into the next slot; the socket it replaces is the next spare. */
static int update_one(struct rp_state *st)
{
	uint32_t slot = st->next_slot, sock = st->spare;
	int err = rp_map_put(st->map_fd, &st->g, slot, sock, BPF_EXIST);

	if (err)
		return err;
	st->spare = st->slot_sock[slot];
	st->slot_sock[slot] = sock;
	st->next_slot = slot + 1 == st->args->nr_entries ? 0 : slot + 1;
	return 0;
}

/* Slot @slot's cookie, compared: -EBADMSG where it is not its socket's. */
static int lookup_one(const struct rp_state *st, uint32_t slot)
{
	uint64_t cookie = 0;

	if (bpf_map_lookup_elem(st->map_fd, &slot, &cookie))
		return -errno;
	return cookie == st->g.cookie[slot] ? 0 : -EBADMSG;
}

int rp_sys_producer(struct mb_run *run, struct mb_producer *p)
{
	struct rp_state *st = run->priv;
	uint32_t n = st->args->nr_entries, slot = (uint32_t)p->idx % n;
	struct mb_counters c = { 0 };
	int err = 0;

	mb_producer_publish_stamped(p, &c);
	while (!err && !mb_run_should_stop(run)) {
		for (int i = 0; i < RP_CHUNK && !err; i++) {
			if (st->bench == RP_UPDATE) {
				err = update_one(st);
			} else {
				err = lookup_one(st, slot);
				slot = slot + 1 == n ? 0 : slot + 1;
			}
			count(&c, err);
		}
		mb_producer_publish_stamped(p, &c);
	}
	if (err)
		mb_err("%s: producer %d: %s failed after %llu ops: %s", run->bench->name, p->idx,
		       st->bench == RP_UPDATE ? "an update" : "a lookup",
		       (unsigned long long)c.ops, strerror(-err));
	for (size_t k = 0; k < MB_COUNTERS_NR; k++)
		__atomic_add_fetch(&((uint64_t *)&st->done)[k], ((uint64_t *)&c)[k],
				   __ATOMIC_RELAXED);
	return err;
}

static void describe(struct mb_run *run, const struct rp_state *st, bool equal)
{
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_child(x, "ops_checked");
	struct mb_json *rb = mb_json_child(x, "read_back");

	mb_json_set_str(x, "proto", rp_proto_names[st->args->proto]);
	mb_json_set_num(x, "port", st->g.port);
	mb_json_set_num(x, "sockets", st->g.nr);
	mb_json_set_num(x, "slots", st->args->nr_entries);
	mb_json_set_str(x, "op", st->bench == RP_UPDATE ?
			"bpf_map_update_elem(BPF_EXIST): the spare socket replaces the next slot's" :
			"bpf_map_lookup_elem: the slot's socket cookie, compared");
	mb_json_set_num(chk, "ops", (double)st->done.ops);
	mb_json_set_num(chk, "ok", (double)st->done.hits);
	mb_json_set_num(chk, "errors", (double)st->done.errors);
	mb_json_set_num(rb, "slots", (double)st->checked);
	mb_json_set_bool(rb, "equal", equal);
}

void rp_sys_finish(struct mb_run *run)
{
	struct rp_state *st = run->priv;
	const struct mb_counters *c = &st->done;
	int err = rp_map_check(st->map_fd, &st->g, st->bench == RP_UPDATE ? st->slot_sock : NULL,
			       st->args->nr_entries);

	if (!err)
		st->checked = st->args->nr_entries;
	describe(run, st, !err);
	if (!c->ops || c->errors || c->hits != c->ops) {
		mb_run_fail(run, -EIO, "%llu ops, %llu did what they should, %llu failed: every op must succeed",
			    (unsigned long long)c->ops, (unsigned long long)c->hits,
			    (unsigned long long)c->errors);
		return;
	}
	if (err)
		mb_run_fail(run, err, "after %llu ops the slots do not read back the cookies of the sockets the ops left in them",
			    (unsigned long long)c->ops);
}
