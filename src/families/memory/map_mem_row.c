// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-mem: one measurement's row. Its fresh memory cgroup (joined before the map exists, left
 * and removed at the end), the readings of the charge and the waits for freed memory, a failure's
 * reason, and the row's JSON object.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/bench.h"
#include "core/runner.h"
#include "util/json.h"
#include "maps/maps.h"
#include "map_mem_run.h"

double mm_delta(uint64_t now, uint64_t base)
{
	return (double)now - (double)base;
}

double mm_memlock_of(int fd)
{
	uint64_t v;

	return mb_map_memlock(fd, &v) ? NAN : (double)v;
}

void mm_row_fail_why(struct mm_state *st, struct mm_row *r, int err, const char *why)
{
	r->err = err;
	if (err == -EINTR) {
		snprintf(r->why, sizeof(r->why), "interrupted");
		return;
	}
	snprintf(r->why, sizeof(r->why), "%s", why);
	if (!st->first_err) {
		st->first_err = err;
		snprintf(st->first_why, sizeof(st->first_why), "%s", why);
	}
	st->nr_failed++;
}

void mm_row_fail(struct mm_state *st, struct mm_row *r, int err, const char *what)
{
	char why[256];

	if (err == -MB_ENOTSUPP)	/* strerror does not know it */
		snprintf(why, sizeof(why), "%s: this map type does not support the operation (ENOTSUPP)",
			 what);
	else
		mb_explain_map_create(err, what, why, sizeof(why));
	mm_row_fail_why(st, r, err, why);
}

bool mm_read_charged(struct mm_state *st, struct mm_row *r, struct mb_memcg_usage *u)
{
	return r->memcg && !mb_memcg_read(&st->cg, u);
}

void mm_wait_release(struct mb_run *run, struct mm_state *st, uint64_t target,
		     struct mb_memcg_wait *w, bool *waited)
{
	const struct map_mem_args *a = run->args;

	*waited = a->release_timeout_ms > 0;
	if (mb_memcg_wait_release(&st->cg, target, a->release_timeout_ms ? a->settle_ms : 0,
				  a->release_timeout_ms, mm_phase_tick, w))
		memset(w, 0, sizeof(*w));
}

void mm_row_init(struct mm_row *r, uint32_t max_entries, uint32_t nr)
{
	memset(r, 0, sizeof(*r));
	r->max_entries = max_entries;
	r->nr = nr;
	r->created = r->filled = r->deleted_now = r->deleted = r->closed = NAN;
	r->usage_created = r->usage_filled = r->peak = NAN;
	r->memlock_created = r->memlock_filled = r->memlock_deleted = NAN;
	r->fill_ms = r->delete_ms = NAN;
	r->percpu_created = r->percpu_filled = r->percpu_values = NAN;
}

uint64_t mm_row_begin(struct mm_state *st, uint32_t max_entries, uint32_t nr, struct mm_row *r,
		      struct mb_memcg_usage *base)
{
	uint64_t slack = 0;

	mm_row_init(r, max_entries, nr);
	st->nr_rows++;
	/* A fresh cgroup, joined before the map exists: the map is charged where it is made. */
	if (st->memcg_ok) {
		r->memcg = !mb_memcg_enter(&st->site, &st->cg, r->memcg_why, sizeof(r->memcg_why));
		if (r->memcg && mb_memcg_read(&st->cg, base)) {
			snprintf(r->memcg_why, sizeof(r->memcg_why),
				 "cannot read the files of the row's memory cgroup");
			r->memcg = false;
		}
		slack = mb_memcg_slack(&st->cg);
	} else {
		snprintf(r->memcg_why, sizeof(r->memcg_why), "%s", st->memcg_why);
	}
	return slack;
}

struct mb_json *mm_num_or_null(double v)
{
	return isnan(v) ? mb_json_null() : mb_json_number(v);
}

static struct mb_json *wait_json(const struct mb_memcg_wait *w, bool waited)
{
	struct mb_json *o;

	if (!waited)
		return mb_json_null();
	o = mb_json_object();
	mb_json_set_num(o, "release_ms", (double)w->release_ms);
	mb_json_set_num(o, "waited_ms", (double)w->waited_ms);
	mb_json_set_bool(o, "reached", w->reached);
	mb_json_set_bool(o, "settled", w->settled);
	mb_json_set_bool(o, "interrupted", w->interrupted);
	return o;
}

/* A streaming map's row: nothing inserted, memlock compared with the charge at creation. */
static void stream_row_json(struct mb_json *o, const struct mm_row *r)
{
	mb_json_set(o, "nr_entries", mb_json_null());
	mb_json_set(o, "entries", mb_json_null());
	mb_json_set(o, "compared_bytes", mm_num_or_null(r->created));
	mb_json_set(o, "memlock_error", mm_num_or_null(r->created > 0 ?
		    (r->memlock_created - r->created) / r->created : NAN));
	mb_json_set_str(o, "fill_reason", r->fill_reason);
	mb_json_set(o, "rounded_from", r->rounded_from ? mb_json_number(r->rounded_from) :
		    mb_json_null());
}

struct mb_json *mm_row_json(const struct mm_row *r)
{
	struct mb_json *o = mb_json_object();
	double e = (double)r->entries;
	/* memlock counts per-CPU values; where the charge leaves them out, they are added. */
	double compared = r->filled + (isnan(r->percpu_values) || r->percpu_charged ? 0 :
				       r->percpu_values);

	mb_json_set_num(o, "max_entries", r->max_entries);
	mb_json_set_num(o, "nr_entries", r->nr);
	mb_json_set_str(o, "error", r->err ? r->why : NULL);
	mb_json_set_num(o, "entries", e);
	mb_json_set(o, "memcg_reason", r->memcg ? mb_json_null() : mb_json_string(r->memcg_why));
	mb_json_set(o, "created_bytes", mm_num_or_null(r->created));
	mb_json_set(o, "filled_bytes", mm_num_or_null(r->filled));
	mb_json_set(o, "bytes_per_entry", mm_num_or_null(e > 0 ? r->filled / e : NAN));
	mb_json_set(o, "added_bytes_per_entry",
		    mm_num_or_null(e > 0 ? (r->filled - r->created) / e : NAN));
	mb_json_set(o, "peak_bytes", mm_num_or_null(r->peak));
	mb_json_set(o, "percpu_created_bytes", mm_num_or_null(r->percpu_created));
	mb_json_set(o, "percpu_filled_bytes", mm_num_or_null(r->percpu_filled));
	mb_json_set(o, "usage_created_bytes", mm_num_or_null(r->usage_created));
	mb_json_set(o, "usage_filled_bytes", mm_num_or_null(r->usage_filled));
	mb_json_set(o, "memlock_created_bytes", mm_num_or_null(r->memlock_created));
	mb_json_set(o, "memlock_filled_bytes", mm_num_or_null(r->memlock_filled));
	mb_json_set(o, "memlock_deleted_bytes", mm_num_or_null(r->memlock_deleted));
	mb_json_set(o, "percpu_values_bytes", mm_num_or_null(r->percpu_values));
	mb_json_set(o, "compared_bytes", mm_num_or_null(compared));
	mb_json_set(o, "memlock_error", mm_num_or_null(compared > 0 ?
		    (r->memlock_filled - compared) / compared : NAN));
	mb_json_set_bool(o, "can_delete", r->can_delete);
	mb_json_set(o, "deleted_immediate_bytes", mm_num_or_null(r->deleted_now));
	mb_json_set(o, "deleted_bytes", mm_num_or_null(r->deleted));
	mb_json_set(o, "delete_release", wait_json(&r->del_wait, r->del_waited && r->memcg &&
						   r->can_delete && !isnan(r->deleted)));
	mb_json_set(o, "closed_bytes", mm_num_or_null(r->closed));
	mb_json_set(o, "close_release", wait_json(&r->close_wait, r->close_waited &&
						  !isnan(r->closed)));
	mb_json_set(o, "fill_ms", mm_num_or_null(r->fill_ms));
	mb_json_set(o, "delete_ms", mm_num_or_null(r->delete_ms));
	mb_json_set_str(o, "fill_method", r->err && isnan(r->fill_ms) ? NULL :
				r->fill_batched ? "batch" : "single");
	if (r->fill_reason) {
		mb_json_set(o, "fill_method", mb_json_null());
		stream_row_json(o, r);
	}
	return o;
}

void mm_row_end(struct mb_run *run, struct mm_state *st)
{
	int err;

	if (!st->cg.created)
		return;
	err = mb_memcg_leave(&st->cg);
	if (err)
		mb_run_warn(run, "cannot remove the memory cgroup %s: %s", st->cg.path,
			    strerror(-err));
}
