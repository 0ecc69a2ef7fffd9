// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * One walk of map-scan's map by its method, through drivers/map_walk (the syscall methods)
 * or scan_prog.c (the BPF methods), and the check that makes it count: the walk saw as many
 * entries as the map holds, with the same fingerprint (each entry's number mixed and summed:
 * one entry seen twice and another missed gives another sum), and a drain left nothing (a
 * separate get_next_key walk, outside the timed one).
 */
#include <errno.h>
#include <string.h>
#include <linux/types.h>

#include "scan.h"
#include "scan_shared.h"
#include "drivers/map_walk.h"
#include "maps/maps.h"

uint32_t scan_key_entry(const struct scan_state *st, const void *key)
{
	uint32_t k;

	if (st->e.key == MB_KEY_LPM) {
		memcpy(&k, (const uint8_t *)key + st->key_size - 4, 4);
		return __builtin_bswap32(k);
	}
	memcpy(&k, key, 4);
	return k;
}

struct visit_ctx {
	const struct scan_state *st;
	struct scan_walk *out;
};

/* Under --churn: the writer's keys apart, a return to the walk's first key, a second sight. */
static void churn_visit(const struct scan_state *st, struct scan_walk *out, uint32_t k)
{
	if (k >= st->present) {
		out->churned++;
		return;
	}
	if (!out->started) {
		out->started = true;
		out->first = k;
	} else if (k == out->first) {
		out->restarts++;
	}
	if (st->seen[k] < UINT8_MAX && st->seen[k]++)
		out->twice++;
}

void scan_walk_prepare(struct scan_state *st)
{
	if (st->seen)
		memset(st->seen, 0, st->present);
}

/* Per entry, inside the timed walk: a load, a mix and an add, about 1-2 ns. */
static int visit(const void *key, const void *value, void *ctx)
{
	struct visit_ctx *v = ctx;
	uint32_t k = scan_key_entry(v->st, key);

	(void)value;
	if (k == v->st->miscount)
		k++;
	v->out->sum += scan_mix(k);
	if (v->st->seen)
		churn_visit(v->st, v->out, k);
	return 0;
}

static void walk_init(const struct scan_state *st, struct mb_walk *w, struct visit_ctx *v)
{
	memset(w, 0, sizeof(*w));
	w->fd = st->fd;
	w->type = st->type->type;
	w->key_size = st->key_size;
	w->value_bytes = mb_map_value_bytes(st->type, st->a->value_size);
	w->batch = st->a->batch_size;
	w->fn = visit;
	w->ctx = v;
	w->calls = &v->out->calls;
	w->stop = st->stop;
	w->stop_ctx = st->stop_ctx;
}

int scan_walk_once(struct scan_state *st, struct scan_walk *out)
{
	struct visit_ctx v = { .st = st, .out = out };
	struct mb_walk w;

	memset(out, 0, sizeof(*out));
	walk_init(st, &w, &v);
	switch (st->method) {
	case SCAN_GET_NEXT_KEY:
		w.lookup = true;
		return mb_map_walk_keys(&w, &out->entries);
	case SCAN_LOOKUP_BATCH:
		return mb_map_walk_batch(&w, &out->entries);
	case SCAN_LOOKUP_AND_DELETE_BATCH:
		return mb_map_drain_batch(&w, &out->entries);
	case SCAN_DELETE:
		return mb_map_drain_keys(&w, &out->entries);
	default:
		return scan_prog_walk(st, out);
	}
}

/* Entries left in the map, by get_next_key alone. */
static int left_in(const struct scan_state *st, uint64_t *n)
{
	struct mb_walk w;

	memset(&w, 0, sizeof(w));
	w.fd = st->fd;
	w.type = st->type->type;
	w.key_size = st->key_size;
	w.value_bytes = mb_map_value_bytes(st->type, st->a->value_size);
	return mb_map_walk_keys(&w, n);
}

/* Under --churn a walk is not expected to see each entry once: what it saw is the figure. */
static void churn_tally(struct scan_state *st, const struct scan_walk *out)
{
	for (uint64_t k = 0; k < st->present; k++)
		st->missed += !st->seen[k];
	st->restarts += out->restarts;
	st->twice += out->twice;
	st->churned += out->churned;
}

int scan_walk_check(struct mb_run *run, struct scan_state *st, const struct scan_walk *out)
{
	const char *how = scan_method_names[st->method];
	uint64_t left;
	int err;

	if (st->seen) {
		churn_tally(st, out);
		return 0;
	}
	if (out->entries != st->present || out->sum != st->sum)
		return mb_run_fail(run, -EPROTO, "a %s walk of the %s map found %llu entries%s where it holds %llu, each once: no figure from it",
				   how, st->type->name, (unsigned long long)out->entries,
				   out->entries == st->present ? " (not the same ones)" : "",
				   (unsigned long long)st->present);
	if (!scan_drains(st->method))
		return 0;
	err = left_in(st, &left);
	if (err)
		return mb_run_fail(run, err, "cannot walk the %s map after a drain: %s",
				   st->type->name, strerror(-err));
	if (left)
		return mb_run_fail(run, -EPROTO, "a %s drain of the %s map left %llu of its %llu entries: no figure from it",
				   how, st->type->name, (unsigned long long)left,
				   (unsigned long long)st->present);
	return 0;
}
