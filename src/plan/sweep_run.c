// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench sweep: each point as a run. Configures a run per point, trial-validates it (a
 * point the bench refuses is skipped, or stops the sweep), then runs them one after another
 * with a line per point and a bar with the time left.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "output/progress.h"
#include "core/runner.h"
#include "session.h"
#include "sweep_cmd.h"

/* ---- a run per point ---- */

/* Configure @run (and its @env) for point @p; the run is validated by the caller. */
static int prepare_point(struct sweep *sw, const struct spoint *p, struct mb_run *run,
			 struct mb_env *env)
{
	const struct sseries *se = &sw->series[p->series];
	char msg[512];

	*env = sw->cli.env;
	for (int i = 0; i < sw->nr_params; i++) {
		if (p->idx[i] < 0 || !sw->params[i].global)
			continue;
		if (sweep_apply_value(sw->params[i].opt, env, sw->params[i].vals.v[p->idx[i]], msg,
				      sizeof(msg)))
			return mb_err("sweep: %s", msg), -EINVAL;
		if (!strcmp(sw->params[i].name, "consumers"))
			env->consumers_given = true;
	}
	if (mb_session_prepare_run(&sw->cli, run, p->pos, p->bench, env, se->args, sw->origin))
		return -EINVAL;
	for (int i = 0; i < sw->nr_params; i++) {
		int oi;

		if (p->idx[i] < 0 || sw->params[i].global)
			continue;
		oi = mb_opt_find(p->bench->opts, sw->params[i].name);
		if (sweep_apply_value(&p->bench->opts[oi], run->args,
				      sw->params[i].vals.v[p->idx[i]], msg, sizeof(msg)))
			return mb_err("sweep: %s: %s", p->bench->name, msg), -EINVAL;
		if (oi < 64)
			run->opts_given |= 1ULL << oi;
	}
	return 0;
}

/* Trial-validate a point: 0, -EINVAL with the bench's message in @why, or another error. */
static int try_point(struct sweep *sw, struct spoint *p, char **why)
{
	struct mb_run run;
	struct mb_env env;
	char *buf = NULL;
	size_t size = 0;
	FILE *mem;
	int err;

	*why = NULL;
	err = prepare_point(sw, p, &run, &env);
	if (err) {
		mb_run_free(&run);
		return err == -EINVAL ? -EBADMSG : err;
	}
	mem = open_memstream(&buf, &size);
	if (!mem) {
		mb_run_free(&run);
		return -ENOMEM;
	}
	mb_log_set_error_stream(mem);
	err = mb_run_validate(&run);
	mb_log_set_error_stream(NULL);
	fclose(mem);
	mb_run_free(&run);
	/* An option that answered a question (a list) makes no point to run. */
	if (err == MB_RUN_ANSWERED) {
		free(buf);
		*why = strdup("an option that asks a question (such as --list-scenarios) runs no point: give it without sweep");
		return -EINVAL;
	}
	if (err && buf) {
		/* One line, without the "mapbench: " prefix. */
		buf[strcspn(buf, "\n")] = '\0';
		*why = strdup(strncmp(buf, "mapbench: ", 10) ? buf : buf + 10);
	}
	free(buf);
	return err;
}

/* A point is one result: its table row and its plot point show one figure. */
static int check_one_result(const struct mb_run *run)
{
	const struct mb_bench *b = run->bench;
	int parts = b->nr_parts ? b->nr_parts(run) : 0;

	if (parts <= 1)
		return 0;
	mb_err("sweep: %s: a point would give %d results (one per %s): select one per point, e.g. --param %s=NAME,NAME",
	       b->name, parts, b->part_param, b->part_param);
	return -EINVAL;
}

int sweep_prepare_runs(struct sweep *sw)
{
	bool skip = sw->preset || sw->args.skip_invalid;
	int k = 0, err;

	for (long i = 0; i < sw->nr_points; i++) {
		struct spoint *p = &sw->points[i];

		err = try_point(sw, p, &p->reason);
		if (err == -EINVAL && skip) {
			sw->nr_refused++;
			continue;
		}
		if (err) {
			if (p->reason)
				mb_err("sweep: %s%s", p->reason,
				       sw->preset ? "" : " (--skip-invalid skips such points)");
			return -EINVAL;
		}
		p->run = sw->nr_runs++;
	}
	if (!sw->nr_runs) {
		mb_err("sweep: the bench refuses every point, e.g. %s",
		       sw->nr_points ? sw->points[0].reason : "(none)");
		return -EINVAL;
	}
	sw->runs = calloc((size_t)sw->nr_runs, sizeof(*sw->runs));
	sw->envs = calloc((size_t)sw->nr_runs, sizeof(*sw->envs));
	if (!sw->runs || !sw->envs)
		return -ENOMEM;
	for (long i = 0; i < sw->nr_points; i++) {
		struct spoint *p = &sw->points[i];

		if (p->run < 0)
			continue;
		k = p->run;
		if (prepare_point(sw, p, &sw->runs[k], &sw->envs[k]))
			return -EINVAL;
	}
	if (mb_cli_check_unused(&sw->cli, sw->runs, sw->nr_runs))
		return -EINVAL;
	for (int i = 0; i < sw->nr_runs; i++)
		if (mb_run_validate(&sw->runs[i]) || check_one_result(&sw->runs[i]))
			return -EINVAL;
	return 0;
}

/* ---- running ---- */

static double run_estimate(const struct mb_env *env)
{
	return (env->warmup + env->duration) * env->interval_ms / 1000.0 + RUN_OVERHEAD_S;
}

/* The progress sink: a point's label when its run begins, its line when it ends. */
struct sweep_progress {
	struct sweep *sw;
	struct mb_progress prog;
	const struct spoint **point_of_run;
};

static const struct spoint *run_point(const struct sweep_progress *sp, const struct mb_run *run)
{
	return sp->point_of_run[run - sp->sw->runs];
}

static void progress_run_begin(struct mb_sink *sink, const struct mb_run *run)
{
	struct sweep_progress *sp = sink->priv;
	char line[1024];

	sweep_point_label(sp->sw, run_point(sp, run), line, sizeof(line));
	mb_progress_begin(&sp->prog, line);
}

static void progress_run_end(struct mb_sink *sink, const struct mb_run *run)
{
	struct sweep_progress *sp = sink->priv;
	char line[1024];

	sweep_point_line(sp->sw, run_point(sp, run), line, sizeof(line));
	mb_progress_end(&sp->prog, run_estimate(run->env), line);
}

int sweep_run_all(struct sweep *sw, struct mb_session *session)
{
	struct mb_env *env = &sw->cli.env;
	bool bar = !env->quiet && !env->verbose && isatty(STDERR_FILENO);
	struct sweep_progress sp = { .sw = sw };
	struct mb_sink sink = { .run_begin = progress_run_begin, .run_end = progress_run_end,
				.priv = &sp };
	struct mb_chain_doc doc;
	/* The table is the document writer's: a row per point (sweep_output.c). */
	struct mb_chain_want want = { .live_text = true, .progress = &sink, .doc = &doc,
				      .baseline = true, .result_lines = env->machine_readable };
	double est = 0;
	char dur[32];
	FILE *devnull = NULL;
	int ran, status;

	sp.point_of_run = calloc((size_t)sw->nr_runs, sizeof(*sp.point_of_run));
	if (!sp.point_of_run) {
		mb_err("sweep: out of memory");
		return MB_EXIT_FAIL;
	}
	for (long i = 0; i < sw->nr_points; i++)
		if (sw->points[i].run >= 0)
			sp.point_of_run[sw->points[i].run] = &sw->points[i];
	for (int i = 0; i < sw->nr_runs; i++)
		est += run_estimate(&sw->envs[i]);
	if (!env->quiet) {
		mb_progress_duration(dur, sizeof(dur), est);
		fprintf(stderr, "Sweep: %d run%s%s, about %s\n", sw->nr_runs,
			sw->nr_runs > 1 ? "s" : "", sw->preset ? " (preset)" : "", dur);
	}
	/* Each run's kernel-style lines would bury the table: only -v shows them (on stderr). */
	if (!env->verbose) {
		devnull = fopen("/dev/null", "we");
		if (!devnull) {
			mb_err("sweep: /dev/null: %s", strerror(errno));
			free(sp.point_of_run);
			return MB_EXIT_FAIL;
		}
	}
	mb_log_init(env->quiet, env->verbose, devnull ? devnull : stderr);
	mb_progress_start(&sp.prog, sw->nr_runs, est, bar, !env->quiet && !env->verbose);
	/* The points' runs were made in point order: the plan is the runs array. */
	sweep_chain_doc(&doc, sw);
	ran = mb_session_execute(session, sw->runs, sw->nr_runs, &want);
	mb_progress_stop(&sp.prog);
	mb_log_init(env->quiet, env->verbose,
		    env->format == MB_FORMAT_JSON && !env->output ? stderr : stdout);
	if (devnull)
		fclose(devnull);
	status = mb_session_finish(session, sw->runs, sw->nr_runs, ran);
	free(sp.point_of_run);
	return status;
}
