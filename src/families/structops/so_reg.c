// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * struct-ops-register: one op registers the run's congestion control (a BPF_STRUCT_OPS link
 * on its ready struct_ops map: tcp_register_congestion_control) and unregisters it (the link
 * closed), each timed alone. Between them, untimed and out of the covered time, a new TCP
 * socket must take the name (TCP_CONGESTION), and after the unregister the kernel's list of
 * congestion controls must not hold it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "so.h"
#include "util/json.h"
#include "util/log.h"
#include "core/run.h"

#define SO_REG_CHUNK	8

int so_reg_setup(struct mb_run *run)
{
	struct so_state *st = calloc(1, sizeof(*st));

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "syscall";
	st->m.own_btf_fd = st->m.d.btf_fd = st->m.d.inner_fd = -1;
	return so_cc_open(run, &st->cc);
}

/* Registered, usable, unregistered, gone; the two timed steps in @c. 0 or -errno. */
static int cycle(struct so_state *st, struct mb_producer *p, struct mb_counters *c)
{
	uint64_t t0 = mb_now_ns(), t1, t2, t3;
	int fd, err;

	/* Unregistering waits for the kernel (its grace periods): a block, not a lost CPU. */
	mb_producer_wait_begin(p, c);
	fd = so_cc_register(st->cc);
	t1 = mb_now_ns();
	mb_producer_wait_end(p, c);
	if (fd < 0)
		return fd;
	err = so_cc_usable(st->cc);
	mb_producer_wait_begin(p, c);
	t2 = mb_now_ns();
	close(fd);
	t3 = mb_now_ns();
	mb_producer_wait_end(p, c);
	c->counter[SO_C_FIRST_NS] += t1 - t0;
	c->counter[SO_C_SECOND_NS] += t3 - t2;
	if (!err)
		err = so_cc_listed(st->cc) == 0 ? 0 : -EEXIST;
	c->excluded_ns += t2 - t1 + mb_now_ns() - t3;
	return err;
}

int so_reg_producer(struct mb_run *run, struct mb_producer *p)
{
	struct so_state *st = run->priv;
	int err = so_produce(run, p, SO_REG_CHUNK, cycle);

	if (err)
		mb_err("%s: a register and unregister of %s failed after %llu: %s",
		       run->bench->name, so_cc_name(st->cc), (unsigned long long)st->done.ops,
		       strerror(-err));
	return err;
}

void so_reg_finish(struct mb_run *run)
{
	struct so_state *st = run->priv;
	const struct mb_counters *c = &st->done;
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_child(x, "ops_checked");
	struct mb_json *once = mb_json_child(x, "set_up_once");
	double load_us, update_us;

	so_cc_steps(st->cc, &load_us, &update_us);
	mb_json_set_str(x, "congestion_control", so_cc_name(st->cc));
	mb_json_set_num(once, "load_us", load_us);
	mb_json_set_num(once, "update_us", update_us);
	mb_json_set_num(chk, "ops", (double)c->ops);
	mb_json_set_num(chk, "usable_then_gone", (double)c->hits);
	mb_json_set_num(chk, "errors", (double)c->errors);
	if (!c->ops || c->errors || c->hits != c->ops)
		mb_run_fail(run, -EIO, "%llu registrations, %llu usable by a TCP socket while registered and gone after, %llu failed: every one must",
			    (unsigned long long)c->ops, (unsigned long long)c->hits,
			    (unsigned long long)c->errors);
}
