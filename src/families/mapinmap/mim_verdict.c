// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-in-map-replace: whether an update of the outer map waits for an RCU grace period on
 * this kernel, and which wait, from what the run saw. Counted evidence first: the fentry
 * programs count synchronize_rcu() and synchronize_rcu_expedited() on the updating thread.
 * Timed evidence beside it: with a program holding the RCU read lock for --reader_us per run
 * on another CPU, an update that waits for readers takes on average about half a run longer.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/bench.h"
#include "mim.h"
#include "util/json.h"

/* A reader's run is under way at a random moment: the wait averages half of it. */
#define MIM_READER_WAIT_MIN	0.25

struct mim_seen {
	const char *wait;	/* the function each update called, or NULL */
	int waits;		/* 1, 0, -1: cannot tell */
	int expedited;		/* 1, 0, -1 */
	int readers;		/* waits for readers: 1, 0, -1 (no reader case) */
	int grace;		/* the conclusion: counted where it could be, else timed */
	double share;		/* of the update time, in the wait (NaN: not counted) */
};

static void counted(const struct mim_state *st, const struct mim_result *r, struct mim_seen *s)
{
	const struct mim_gp *g = &r->gp;
	double total = 0;

	s->waits = s->expedited = -1;
	s->wait = NULL;
	s->share = NAN;
	if (!r->gp_known || !r->done)
		return;
	for (uint32_t i = 0; i < r->done; i++)
		total += r->ns[i];
	if (g->sync_calls >= r->done) {
		s->wait = "synchronize_rcu";
		s->share = total > 0 ? (double)g->sync_ns / total : NAN;
		/* synchronize_rcu() takes the expedited path where rcu_expedited is set. */
		s->expedited = g->exp_calls >= r->done;
	} else if (g->exp_calls >= r->done) {
		s->wait = "synchronize_rcu_expedited";
		s->share = total > 0 ? (double)g->exp_ns / total : NAN;
		s->expedited = 1;
	}
	s->waits = s->wait != NULL;
	if (!s->waits && (g->sync_calls || g->exp_calls))
		s->waits = -1;	/* some updates waited, not all */
	(void)st;
}

static void timed(const struct mb_run *run, const struct mim_state *st, struct mim_seen *s)
{
	const struct mim_args *a = run->args;
	struct mim_dist rd, rp;

	s->readers = -1;
	if (!st->res[MIM_READER].ran || !st->res[MIM_READER].done)
		return;
	mim_dist(&st->res[MIM_READER], &rd);
	mim_dist(&st->res[MIM_REPLACE], &rp);
	s->readers = rd.mean - rp.mean >= MIM_READER_WAIT_MIN * a->reader_us;
}

/* The counted wait: which function each replacement called, and its share of the time. */
static int counted_part(const struct mim_state *st, const struct mim_seen *s, char *buf,
			size_t len)
{
	if (s->waits == 1)
		return snprintf(buf, len, "each replacement called %s()%s, %.0f %% of its time",
				s->wait, s->expedited == 1 && !strcmp(s->wait, "synchronize_rcu") ?
				" and in it synchronize_rcu_expedited()" : "", 100 * s->share);
	if (s->waits == 0)
		return snprintf(buf, len, "no replacement called synchronize_rcu() or synchronize_rcu_expedited()");
	return snprintf(buf, len, "which wait a replacement makes was not counted (%s)",
			st->gp ? "some replacements waited, not all" : st->gp_why);
}

static void sentence(const struct mb_run *run, const struct mim_state *st,
		     const struct mim_seen *s, char *buf, size_t len)
{
	const struct mim_args *a = run->args;
	struct mim_dist rp, rd, cd, gd;
	const struct mim_result *r = &st->res[MIM_REPLACE];
	size_t n;

	mim_dist(r, &rp);
	mim_dist(&st->res[MIM_READER], &rd);
	mim_dist(&st->res[MIM_CONTROL], &cd);
	mim_dist(&st->res[MIM_GP], &gd);
	if (!r->done) {
		snprintf(buf, len, "no replacement was timed: cannot tell whether one waits for an RCU grace period");
		return;
	}
	n = (size_t)snprintf(buf, len, "%s; replace p50 %.1f us (%.2f sleeps per call), a plain array update %.2f us",
			     s->grace < 0 ? "cannot tell whether a replacement waits for an RCU grace period" :
			     s->grace ? "a replacement waits for an RCU grace period" :
			     "a replacement does not wait for an RCU grace period",
			     rp.p50, r->done ? (double)r->sleeps / r->done : 0, cd.p50);
	if (n < len && st->res[MIM_GP].ran)
		n += (size_t)snprintf(buf + n, len - n, ", a bare synchronize_rcu() (membarrier) %.1f us",
				      gd.p50);
	if (n < len && s->readers >= 0)
		n += (size_t)snprintf(buf + n, len - n, "; with a program holding the RCU read lock %u us per run, replace mean %.1f us against %.1f us: %s",
				      a->reader_us, rd.mean, rp.mean, s->readers ?
				      "it waits for running programs" : "it does not wait for running programs");
	if (n + 2 < len) {
		n += (size_t)snprintf(buf + n, len - n, "; ");
		n += (size_t)counted_part(st, s, buf + n, len - n);
	}
	if (n < len && st->rcu_expedited == 1)
		snprintf(buf + n, len - n, "; /sys/kernel/rcu_expedited is 1: synchronize_rcu() is expedited here too");
}

void mim_verdict(struct mb_run *run, struct mb_json *v)
{
	const struct mim_state *st = run->priv;
	struct mim_seen s;
	char buf[1000];

	counted(st, &st->res[MIM_REPLACE], &s);
	timed(run, st, &s);
	s.grace = s.waits >= 0 ? s.waits : s.readers;
	mb_json_set(v, "waits_for_grace_period", s.grace < 0 ? mb_json_null() :
		    mb_json_bool(s.grace));
	mb_json_set_str(v, "evidence", s.waits >= 0 ? "counted" : s.readers >= 0 ? "timed" : "none");
	mb_json_set(v, "wait", s.wait ? mb_json_string(s.wait) : mb_json_null());
	mb_json_set(v, "expedited", s.expedited < 0 ? mb_json_null() : mb_json_bool(s.expedited));
	mb_json_set(v, "wait_share", isnan(s.share) ? mb_json_null() : mb_json_number(s.share));
	mb_json_set(v, "waits_for_readers", s.readers < 0 ? mb_json_null() :
		    mb_json_bool(s.readers));
	sentence(run, st, &s, buf, sizeof(buf));
	mb_json_set_str(v, "sentence", buf);
}
