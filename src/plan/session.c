// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/baseline.h"
#include "output/compare.h"
#include "store/store.h"
#include "util/json.h"
#include "util/log.h"
#include "util/outfile.h"
#include "preflight.h"
#include "families/registry.h"
#include "core/runner.h"
#include "session.h"

int mb_session_prepare_run(struct mb_cli *cli, struct mb_run *run, int pos,
			   const struct mb_bench *bench,
			   const struct mb_env *env, const char *const *words, const char *origin)
{
	int err = mb_run_init(run, bench, env);

	if (err)
		return err;
	if (words && mb_cli_apply_words(run, words, origin))
		return -EINVAL;
	if (mb_cli_apply(cli, run, pos))
		return -EINVAL;
	return 0;
}

int mb_session_resolve(const char *const *names, int nr, const struct mb_bench **out)
{
	for (int i = 0; i < nr; i++) {
		const char *sugg[4];
		int n;

		out[i] = mb_bench_find(names[i]);
		if (out[i])
			continue;
		n = mb_bench_suggest(names[i], sugg, 4);
		if (n == 0)
			mb_err("unknown bench '%s' (mapbench --list names them all)", names[i]);
		else
			mb_err("unknown bench '%s'; did you mean %s%s%s%s%s%s%s?", names[i], sugg[0],
			       n > 1 ? ", " : "", n > 1 ? sugg[1] : "", n > 2 ? ", " : "",
			       n > 2 ? sugg[2] : "", n > 3 ? ", " : "", n > 3 ? sugg[3] : "");
		return -EINVAL;
	}
	return 0;
}

/* Where the results will go must take them: found now, not after the whole run. */
static int check_outputs(const struct mb_env *env)
{
	char why[1024];

	for (int k = -1; k < env->nr_more_outputs; k++) {
		const char *file = k < 0 ? env->output : env->more_output[k];

		if (file && mb_output_check(file, why, sizeof(why))) {
			mb_err("-o/--output %s: %s", file, why);
			return -EINVAL;
		}
	}
	if (env->save_baseline && mb_baseline_check_save(env->save_baseline, why, sizeof(why))) {
		mb_err("--save-baseline %s: %s", env->save_baseline, why);
		return -EINVAL;
	}
	return 0;
}

int mb_session_check_options(const struct mb_cli *cli)
{
	static const char *const needs_baseline[] = { "threshold", "alpha", "fail-on-regression",
						      "ignore" };
	const struct mb_env *env = &cli->env;
	struct mb_cmp_opts probe = { 0 };
	char *bufs[MB_CLI_LIST_MAX] = { NULL };
	int ret;

	for (size_t i = 0; i < sizeof(needs_baseline) / sizeof(*needs_baseline); i++) {
		if (mb_cli_given(cli, needs_baseline[i]) && !env->baseline) {
			mb_err("--%s: only with --baseline NAME (or in mapbench compare)",
			       needs_baseline[i]);
			return -EINVAL;
		}
	}
	if (env->save_baseline && !mb_baseline_name_ok(env->save_baseline)) {
		mb_err("--save-baseline %s: not a baseline name (letters, digits, '.', '_', '-'; at most %d; starting with a letter or digit)",
		       env->save_baseline, MB_BASELINE_NAME_MAX);
		return -EINVAL;
	}
	/* Too many --ignore names: said now, not after the runs. */
	ret = mb_cmp_opts_ignore(&probe, &env->ignore, bufs);
	for (int i = 0; i < MB_CLI_LIST_MAX; i++)
		free(bufs[i]);
	if (ret == -E2BIG) {
		mb_err("--ignore: at most %d names", MB_CMP_MAX_IGNORE);
		return -EINVAL;
	}
	return ret ? ret : check_outputs(env);
}

/* The CPUs the runs will use, as the preflight judges them: those the producers are pinned to. */
static void preflight_use(const struct mb_env *env, int max_producers,
			  struct mb_preflight_use *use)
{
	memset(use, 0, sizeof(*use));
	use->threads = max_producers;
	for (int i = 0; i < max_producers; i++) {
		int cpu = mb_run_producer_cpu(env, (int)env->consumers, i);

		if (cpu >= 0)
			mb_cpuset_add(&use->pinned, cpu);
	}
}

int mb_session_begin(struct mb_session *s, struct mb_env *env, int max_producers)
{
	struct mb_preflight_use use;
	char err[1024];
	int status;

	memset(s, 0, sizeof(*s));
	s->env = env;
	if (env->baseline) {
		s->baseline = mb_baseline_load(env->baseline, err, sizeof(err));
		if (!s->baseline) {
			mb_err("--baseline %s", err);
			return MB_EXIT_USAGE;
		}
	}
	preflight_use(env, max_producers, &use);
	/* A bad --db is bad input, said alone like a bad --baseline: before the preflight. */
	if (mb_store_sink_open(env, &s->store))
		return MB_EXIT_USAGE;
	status = mb_preflight(env, &use);
	if (status)
		return status;
	mb_log_setup_libbpf();
	mb_signals_install();
	return 0;
}

int mb_session_execute(struct mb_session *s, struct mb_run *runs, int nr,
		       const struct mb_chain_want *want)
{
	struct mb_chain_want with_store = *want;
	int ran;

	with_store.store = s->store;
	mb_chain_build(&s->chain, &with_store, s->env, s->baseline);
	for (ran = 0; ran < nr && !mb_interrupted(); ran++) {
		runs[ran].sink = s->chain.head;
		mb_run_execute(&runs[ran]);
	}
	return ran;
}

/* The exit status of @ran runs out of @nr: interrupted, failed, all skipped, or ok. */
static int session_status(const struct mb_run *runs, int nr, int ran)
{
	int skipped = 0, failed = 0;

	if (mb_interrupted())
		return MB_EXIT_INTERRUPTED;
	for (int i = 0; i < ran; i++) {
		skipped += runs[i].status == MB_RUN_SKIPPED;
		failed += runs[i].status == MB_RUN_FAILED;
	}
	if (failed)
		return MB_EXIT_FAIL;
	if (ran == nr && skipped == nr)
		return MB_EXIT_SKIP;
	return MB_EXIT_OK;
}

int mb_session_finish(struct mb_session *s, struct mb_run *runs, int nr, int ran)
{
	return mb_chain_end(&s->chain, runs, nr, ran, session_status(runs, nr, ran));
}

void mb_session_free(struct mb_session *s)
{
	mb_json_free(s->baseline);
	s->baseline = NULL;
	mb_store_close(s->store);
	s->store = NULL;
}
