// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sockmap family: the producer and the check of its ops. An update or delete round moves
 * --batch spare sockets in or out of the map, timed, then reads each key back and undoes
 * the round, untimed; a lookup reads a key of the level and compares the cookie it gives
 * with the socket's. The producer's end_ns is the clock of its timed calls (its start
 * plus their time), so a sample's rate divides by the time they took, not the rounds'.
 */
#include <errno.h>
#include <string.h>

#include "sockmap.h"
#include "core/run.h"
#include "util/json.h"
#include "util/log.h"

#define SM_LOOKUP_CHUNK	256	/* lookups between two publications */

static void sm_count(struct mb_counters *c, int err)
{
	c->ops++;
	if (!err)
		c->hits++;
	else
		c->errors++;
}

/* Update: the spares in, timed; read back and out again. Delete: in, then out timed. */
static int sm_round(struct sm_state *st, struct mb_counters *c)
{
	uint32_t lo = st->args->nr_entries, hi = lo + st->args->batch;
	bool up = st->op == SM_UPDATE;
	uint64_t t0 = mb_now_ns(), t1, t2;
	int err = 0, bad = 0;

	for (uint32_t k = lo; k < hi && !up && !err; k++)
		err = sm_insert(st, k);
	t1 = mb_now_ns();
	for (uint32_t k = lo; k < hi && !err; k++) {
		int e = up ? sm_insert(st, k) : sm_remove(st, k);

		sm_count(c, e);
		bad = bad ? bad : e;
	}
	t2 = mb_now_ns();
	c->end_ns += t2 - t1;
	c->calls += st->args->batch;
	for (uint32_t k = lo; k < hi && !err && !bad; k++) {
		if (!(up ? sm_check(st, k) : sm_check_absent(st, k)))
			c->counter[SM_VERIFIED]++;
		if (up)
			err = sm_remove(st, k);
	}
	c->excluded_ns += (t1 - t0) + (mb_now_ns() - t2);
	st->rounds++;
	return err ? err : bad;
}

static int sm_lookups(struct sm_state *st, struct mb_counters *c)
{
	uint64_t t0 = mb_now_ns();

	for (int i = 0; i < SM_LOOKUP_CHUNK; i++) {
		int e = sm_check(st, st->cursor);

		sm_count(c, e);
		if (!e)
			c->counter[SM_VERIFIED]++;
		if (++st->cursor == st->args->nr_entries)
			st->cursor = 0;
	}
	c->end_ns += mb_now_ns() - t0;
	c->calls += SM_LOOKUP_CHUNK;
	return 0;
}

int sm_producer(struct mb_run *run, struct mb_producer *p)
{
	struct sm_state *st = run->priv;
	struct mb_counters c = { .end_ns = mb_now_ns() };
	int err = 0;

	if (st->skel)
		return sm_kern_produce(run, p);
	mb_producer_publish(p, &c);
	while (!err && !mb_run_should_stop(run)) {
		err = st->op == SM_LOOKUP ? sm_lookups(st, &c) : sm_round(st, &c);
		mb_producer_publish(p, &c);
	}
	st->done = c;
	st->err = err;
	if (err)
		mb_err("%s: %s: %s", run->bench->name, st->op == SM_LOOKUP ? "a lookup failed" :
		       "a round of updates failed or could not be undone", strerror(-err));
	return err;
}

static void sm_describe(struct mb_run *run, const struct sm_state *st)
{
	const struct sm_args *a = st->args;
	struct mb_json *x = mb_run_extra(run), *m = mb_json_child(x, "map");
	static const char *const ops[] = { "update", "lookup", "delete" };

	mb_json_set_str(m, "type", sm_type_names[a->map_type]);
	mb_json_set_num(m, "max_entries", st->nr_socks);
	mb_json_set_num(m, "level", a->nr_entries);
	mb_json_set_str(x, "op", ops[st->op]);
	if (st->op == SM_LOOKUP)
		mb_json_set_str(x, "path", sm_path_names[a->path]);
	mb_json_set_num(x, "sockets", st->nr_socks);
	mb_json_set_num(x, "tcp_pairs", st->tp.nr);
	mb_json_set_num(x, "fill_ns", (double)st->fill_ns);
	if (st->op != SM_LOOKUP) {
		mb_json_set_num(x, "batch", a->batch);
		mb_json_set_num(x, "rounds", (double)st->rounds);
	}
}

/* Every op succeeded and was read back, or the run fails. */
static bool sm_ops_ok(struct mb_run *run, const struct sm_state *st)
{
	const struct mb_counters *c = &st->done;
	struct mb_json *chk = mb_json_child(mb_run_extra(run), "ops_checked");

	mb_json_set_num(chk, "ops", (double)c->ops);
	mb_json_set_num(chk, "succeeded", (double)c->hits);
	mb_json_set_num(chk, "verified", (double)c->counter[SM_VERIFIED]);
	mb_json_set_num(chk, "errors", (double)c->errors);
	if (c->ops && !c->errors && !st->err && c->hits == c->ops &&
	    c->counter[SM_VERIFIED] == c->ops)
		return true;
	mb_run_fail(run, -EIO, "%llu ops: %llu succeeded, %llu read back as they should, %llu errors: every op must succeed and read back",
		    (unsigned long long)c->ops, (unsigned long long)c->hits,
		    (unsigned long long)c->counter[SM_VERIFIED], (unsigned long long)c->errors);
	return false;
}

/*
 * The map holds the level and nothing else: each key of the level its own socket, every
 * spare key empty. (A sockmap's get_next_key walks every index, full or not, so the keys
 * are asked one by one.)
 */
static void sm_left_ok(struct mb_run *run, const struct sm_state *st)
{
	struct mb_json *l = mb_json_child(mb_run_extra(run), "left");
	uint32_t level = st->args->nr_entries;
	uint64_t n = 0, good = 0;
	int err = 0;

	for (uint32_t k = 0; k < st->nr_socks && !err; k++) {
		int e = sm_check(st, k);

		if (e == -ENOENT)
			continue;
		n++;
		good += !e && k < level;
		if (e && e != -EBADMSG)
			err = e;
	}
	mb_json_set_num(l, "entries", (double)n);
	mb_json_set_num(l, "level_checked", (double)good);
	if (!err && n == level && good == n)
		return;
	mb_run_fail(run, err ? err : -EIO, "the map holds %llu entries, %llu of them the socket due, after the run: it must hold the level, %u",
		    (unsigned long long)n, (unsigned long long)good, level);
}

void sm_finish(struct mb_run *run)
{
	struct sm_state *st = run->priv;

	sm_describe(run, st);
	if (sm_ops_ok(run, st))
		sm_left_ok(run, st);
}
