// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-in-map-replace: the result (run->extra) and what it concludes about grace-period waits.
 * The conclusion comes from what the run counted and timed: the waits the fentry programs saw
 * on the updating thread, and the replacements timed while a program held the RCU read lock.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/bench.h"
#include "core/run.h"
#include "mim.h"
#include "util/json.h"

static void set_num_or_null(struct mb_json *o, const char *key, double v, bool known)
{
	mb_json_set(o, key, known ? mb_json_number(v) : mb_json_null());
}

static struct mb_json *wait_json(uint64_t calls, uint64_t ns)
{
	struct mb_json *o = mb_json_object();

	mb_json_set_num(o, "calls", (double)calls);
	mb_json_set_num(o, "total_us", (double)ns / 1000);
	return o;
}

static struct mb_json *case_json(enum mim_case c, const struct mim_result *r)
{
	struct mb_json *o = mb_json_object();
	bool frees = c == MIM_REPLACE || c == MIM_DELETE || c == MIM_READER;
	struct mim_dist d;

	mim_dist(r, &d);
	mb_json_set_str(o, "case", mim_case_name(c));
	mb_json_set_num(o, "calls", r->done);
	mb_json_set_bool(o, "capped", r->capped);
	mb_json_set_num(o, "verified", r->verified);
	set_num_or_null(o, "old_ids_gone", r->old_gone, frees);
	mb_json_set_num(o, "mean_us", d.mean);
	mb_json_set_num(o, "min_us", d.min);
	mb_json_set_num(o, "p50_us", d.p50);
	mb_json_set_num(o, "p90_us", d.p90);
	mb_json_set_num(o, "p99_us", d.p99);
	mb_json_set_num(o, "max_us", d.max);
	mb_json_set_num(o, "sleeps_per_call", r->done ? (double)r->sleeps / r->done : 0);
	mb_json_set_num(o, "offcpu_mean_us", r->done ? r->offcpu_ns / r->done / 1000 : 0);
	mb_json_set(o, "synchronize_rcu", r->gp_known ?
		    wait_json(r->gp.sync_calls, r->gp.sync_ns) : mb_json_null());
	mb_json_set(o, "synchronize_rcu_expedited", r->gp_known ?
		    wait_json(r->gp.exp_calls, r->gp.exp_ns) : mb_json_null());
	if (c == MIM_READER) {
		struct mb_json *rd = mb_json_child(o, "reader");

		mb_json_set_num(rd, "runs", (double)r->reader_runs);
		mb_json_set_num(rd, "lookups", (double)r->reader_lookups);
		mb_json_set_num(rd, "found", (double)r->reader_found);
	}
	return o;
}

static void config_json(struct mb_run *run, struct mb_json *x)
{
	const struct mim_args *a = run->args;
	const struct mim_state *st = run->priv;
	struct mb_json *cpus = mb_json_child(x, "cpus");

	mb_json_set_str(x, "map_type", mim_outer_names[a->map_type]);
	mb_json_set_str(x, "inner_type", mim_inner_names[a->inner_type]);
	mb_json_set_num(x, "max_entries", a->max_entries);
	mb_json_set_num(x, "inner_entries", a->inner_entries);
	mb_json_set_num(cpus, "updater", st->cpu_updater);
	set_num_or_null(cpus, "reader", st->cpu_reader, st->reader != NULL);
	set_num_or_null(x, "rcu_expedited", st->rcu_expedited, st->rcu_expedited >= 0);
	set_num_or_null(x, "rcu_normal", st->rcu_normal, st->rcu_normal >= 0);
	mb_json_set(x, "reader_not_run", st->reader ? mb_json_null() :
		    mb_json_string(st->reader_why));
	mb_json_set(x, "grace_period_not_run", st->res[MIM_GP].err ?
		    mb_json_string(strerror(-st->res[MIM_GP].err)) : mb_json_null());
	mb_json_set(x, "waits_not_counted", st->gp ? mb_json_null() :
		    mb_json_string(st->gp_why));
}

/* Every timed update did what it should; the reader ran while its case did. */
static int check_ops(struct mb_run *run)
{
	const struct mim_state *st = run->priv;

	for (int c = 0; c < MIM_NR_CASES; c++) {
		const struct mim_result *r = &st->res[c];

		if (!r->ran)
			continue;
		if (r->verified != r->done)
			return mb_run_fail(run, -EIO, "%s: %u of %u updates did not read back as written",
					   mim_case_name(c), r->done - r->verified, r->done);
		if (!r->done && !mb_interrupted())
			return mb_run_fail(run, -EIO, "%s: no update was made", mim_case_name(c));
		if (c == MIM_READER && r->done && (!r->reader_runs || !r->reader_found))
			return mb_run_fail(run, -EIO, "%s: the reader program did not read the outer map during the case (%llu runs)",
					   mim_case_name(c), (unsigned long long)r->reader_runs);
	}
	return 0;
}

int mim_report(struct mb_run *run)
{
	const struct mim_state *st = run->priv;
	struct mb_json *x = mb_run_extra(run), *cases;

	config_json(run, x);
	cases = mb_json_array();
	for (int c = 0; c < MIM_NR_CASES; c++)
		if (st->res[c].ran)
			mb_json_append(cases, case_json(c, &st->res[c]));
	mb_json_set(x, "cases", cases);
	mim_verdict(run, mb_json_child(x, "verdict"));
	return check_ops(run);
}
