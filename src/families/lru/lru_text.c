// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The LRU benches' text lines: test_lru_dist's lines, word for word, from what lru-dist and
 * lru-loss found (struct lru_dist_found, lru_loss_found), and one Summary line per map from
 * run->extra, live after the run and in a text document.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <bpf/libbpf.h>

#include "core/runner.h"
#include "lru_text.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"

/* The detail lines are printed unless -q (only the Summary lines then). */
static bool verbose(void)
{
	return !mb_log_quiet();
}

/* "nr_cpus:N" and a line saying which access path runs, as the first output lines. */
static void header(FILE *f, enum lru_access access)
{
	/* test_lru_dist prints the possible CPUs: NO_COMMON_LRU capacity is split over them. */
	fprintf(f, "nr_cpus:%d\n", libbpf_num_possible_cpus());
	if (access == LRU_ACCESS_SYSCALL)
		fprintf(f, "access:syscall (bpf() lookups, as test_lru_dist; they do not set the LRU reference bit a program's lookup sets: --access bpf replays from a program)\n\n");
	else
		fprintf(f, "access:bpf (a program replays each task's trace on its CPU; lookups set the LRU reference bit)\n\n");
}

/* ---- lru-dist ---- */

static void dist_task(FILE *f, const struct lru_dist_found *d, int t)
{
	const struct lru_dist_total *c = &d->task[t];
	int64_t extra = (int64_t)c->bpf_misses - (int64_t)c->perfect_misses;

	/*
	 * test_lru_dist's two lines, word for word (the BPF line shows the perfect nr_unique);
	 * a replay a signal cut short counts the accesses it made.
	 */
	fprintf(f, "    task:%d BPF LRU: nr_unique:%" PRIu64 "(/%" PRIu64 ") nr_misses:%" PRIu64 "(/%" PRIu64 ")\n",
		t, c->unique, c->accesses, c->bpf_misses, c->accesses);
	fprintf(f, "    task:%d Perfect LRU: nr_unique:%" PRIu64 "(/%" PRIu64 ") nr_misses:%" PRIu64 "(/%" PRIu64 ")\n",
		t, c->unique, c->accesses, c->perfect_misses, c->accesses);
	fprintf(f, "    task:%d cpu:%d miss_ratio BPF:%.3f%% Perfect:%.3f%% extra_misses:%+" PRId64 " resident:%" PRIu64 " ns/access:%.1f",
		t, d->cpu[t], 100 * lru_ratio(c->bpf_misses, c->accesses),
		100 * lru_ratio(c->perfect_misses, c->accesses), extra, c->resident,
		lru_ratio(c->wall_ns, c->accesses));
	if (c->kernel_ns)
		fprintf(f, " (in-kernel %.1f)", lru_ratio(c->kernel_ns, c->accesses));
	if (c->insert_failures)
		fprintf(f, " insert_failures:%" PRIu64, c->insert_failures);
	fputc('\n', f);
}

static void dist_total(FILE *f, const struct lru_dist_total *c, uint32_t max_entries)
{
	int64_t extra = (int64_t)c->bpf_misses - (int64_t)c->perfect_misses;

	fprintf(f, "    total: accesses:%" PRIu64 " nr_unique:%" PRIu64 " BPF nr_misses:%" PRIu64 " Perfect nr_misses:%" PRIu64 " extra_misses:%+" PRId64 " (%+.3f%% of accesses",
		c->accesses, c->unique, c->bpf_misses, c->perfect_misses, extra,
		100 * (double)extra / (double)(c->accesses ? c->accesses : 1));
	if (c->perfect_misses)
		fprintf(f, ", %+.2f%% over perfect", 100 * (double)extra / (double)c->perfect_misses);
	fprintf(f, ") resident:%" PRIu64 "(/%u)\n", c->resident, max_entries);
}

static void dist_variant(FILE *f, const struct lru_dist_found *d)
{
	if (!d->nr_tasks)
		return;
	fprintf(f, "test_parallel_lru_dist (map_type:%d map_flags:0x%X):\n", d->v.type, d->v.flags);
	for (int t = 0; t < d->nr_tasks; t++)
		dist_task(f, d, t);
	dist_total(f, &d->total, d->max_entries);
	fputc('\n', f);
}

static double num(const struct mb_json *o, const char *key)
{
	return mb_json_num(mb_json_get(o, key), 0);
}

/* "map_type lru" of a variant object, for the Interrupted line. */
static void variant_name(const struct mb_json *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", mb_json_str(mb_json_get(v, "map_type"), "?"),
		 mb_json_str(mb_json_get(v, "lru"), "?"));
}

/* The maps a signal left out, ": not run: ..." (nothing when every map ran). */
static void not_run(FILE *f, const struct mb_json *extra)
{
	const struct mb_json *nr = mb_json_get(extra, "not_run");
	char name[64];

	for (size_t i = 0; i < mb_json_len(nr); i++) {
		variant_name(mb_json_at(nr, i), name, sizeof(name));
		fprintf(f, "%s%s", i ? ", " : ": not run: ", name);
	}
}

/* After a signal (not with -q): the map it cut short, and those it left out. */
static void dist_interrupted(FILE *f, const struct mb_json *extra)
{
	const struct mb_json *vs = mb_json_get(extra, "variants");
	double len = num(mb_json_get(extra, "trace"), "accesses") * num(extra, "nr_tasks");
	char name[64];

	fprintf(f, "Interrupted");
	for (size_t i = 0; i < mb_json_len(vs); i++) {
		const struct mb_json *v = mb_json_at(vs, i);

		if (!mb_json_truthy(mb_json_get(v, "interrupted")))
			continue;
		variant_name(v, name, sizeof(name));
		fprintf(f, ": %s after %.0f of %.0f accesses (its figures are over those)", name,
			num(mb_json_get(v, "total"), "accesses"), len);
	}
	not_run(f, extra);
	fputc('\n', f);
}

static bool run_interrupted(const struct mb_json *extra)
{
	const struct mb_json *vs = mb_json_get(extra, "variants");
	bool any = mb_json_len(mb_json_get(extra, "not_run")) > 0;

	for (size_t i = 0; i < mb_json_len(vs); i++)
		any |= mb_json_truthy(mb_json_get(mb_json_at(vs, i), "interrupted"));
	return any;
}

/* A figure of variant @v (its map type and LRU kind as labels). */
static void variant_figure(struct mb_json *figs, const struct mb_json *v, const char *name,
			   const char *unit, double value)
{
	struct mb_json *fig = mb_figure(figs, name, unit, value);

	mb_figure_label_str(fig, "map_type", mb_json_str(mb_json_get(v, "map_type"), "?"));
	mb_figure_label_str(fig, "lru", mb_json_str(mb_json_get(v, "lru"), "?"));
}

/* A variant's time per access: in-kernel for --access bpf, else the syscalls' wall time. */
static double ns_per_access(const struct mb_json *t)
{
	const struct mb_json *kns = mb_json_get(t, "kernel_ns_per_access");

	return mb_json_is(kns, MB_JSON_NUMBER) ? mb_json_num(kns, 0) : num(t, "ns_per_access");
}

/* The value of figure @i of @figs (0 where null). */
static double fig_value(const struct mb_json *figs, size_t i)
{
	return mb_json_num(mb_json_get(mb_json_at(figs, i), "value"), 0);
}

#define DIST_FIGURES	9

/* What each Summary line says, per map: DIST_FIGURES figures, in the line's order. */
static void dist_figures(const struct mb_run *run, const struct mb_summary *sum,
			 struct mb_json *figs)
{
	const struct mb_json *vs = mb_json_get(run->extra, "variants");

	(void)sum;
	for (size_t i = 0; i < mb_json_len(vs); i++) {
		const struct mb_json *v = mb_json_at(vs, i), *t = mb_json_get(v, "total");
		double acc = num(t, "accesses"), bpf = num(t, "bpf_misses");
		double pf = num(t, "perfect_misses"), div = acc > 0 ? acc : 1;

		variant_figure(figs, v, "BPF LRU misses", "accesses", bpf);
		variant_figure(figs, v, "BPF LRU misses", "%", 100 * bpf / div);
		variant_figure(figs, v, "perfect LRU misses", "accesses", pf);
		variant_figure(figs, v, "perfect LRU misses", "%", 100 * pf / div);
		variant_figure(figs, v, "extra misses", "accesses", bpf - pf);
		variant_figure(figs, v, "extra misses", "%", 100 * (bpf - pf) / div);
		variant_figure(figs, v, "accesses", "accesses", acc);
		variant_figure(figs, v, "unique keys", "keys", num(t, "unique_keys"));
		variant_figure(figs, v, "time per access", "ns/access", ns_per_access(t));
	}
}

/* One Summary line per map, from extra: live after the run, and in a text document. */
static void dist_summary(FILE *f, const struct mb_run *run)
{
	const struct mb_json *extra = run->extra, *vs = mb_json_get(extra, "variants");
	const char *access = mb_json_str(mb_json_get(extra, "access"), "?");
	struct mb_json *figs = mb_json_array();

	if (verbose() && run_interrupted(extra))
		dist_interrupted(f, extra);
	dist_figures(run, NULL, figs);
	for (size_t i = 0; i < mb_json_len(vs); i++) {
		const struct mb_json *v = mb_json_at(vs, i), *t = mb_json_get(v, "total");

		/* The figures in the order dist_figures adds them, DIST_FIGURES per map. */
#define FIG(k) fig_value(figs, i * DIST_FIGURES + (k))
		fprintf(f, "Summary: %s %s lru_size %.0f tasks %.0f: BPF LRU misses %.0f (%.3f %%), perfect LRU misses %.0f (%.3f %%), extra misses %+.0f (%+.3f %% of accesses) over %.0f accesses, %.0f unique keys, %.1f ns/access (%s%s%s)\n",
			mb_json_str(mb_json_get(v, "map_type"), "?"),
			mb_json_str(mb_json_get(v, "lru"), "?"), num(v, "capacity_per_task"),
			num(extra, "nr_tasks"), FIG(0), FIG(1), FIG(2), FIG(3), FIG(4), FIG(5),
			FIG(6), FIG(7), FIG(8),
			mb_json_truthy(mb_json_get(v, "interrupted")) ? "interrupted, " : "",
			mb_json_is(mb_json_get(t, "kernel_ns_per_access"), MB_JSON_NUMBER) ?
				"in-kernel, " : "", access);
#undef FIG
	}
	mb_json_free(figs);
}

/* ---- lru-loss ---- */

static void loss_variant(FILE *f, const struct lru_loss_found *r)
{
	const struct lru_variant *v = &r->v;

	if (r->loss0_done) {
		fprintf(f, "test_lru_loss0 (map_type:%d map_flags:0x%X): older-elem-losses:%u(/100) active-elem-losses:%u(/800) newer-elem-losses:%u(/100)\n",
			v->type, v->flags, r->older[0], r->active[0], r->newer[0]);
		fprintf(f, "    Perfect LRU: older-elem-losses:%u(/100) active-elem-losses:%u(/800) newer-elem-losses:%u(/100)\n",
			r->older[1], r->active[1], r->newer[1]);
	}
	if (r->loss1_done) {
		fprintf(f, "test_lru_loss1 (map_type:%d map_flags:0x%X): nr_losses:%u(/1000)\n",
			v->type, v->flags, r->loss1[0]);
		fprintf(f, "    Perfect LRU: nr_losses:%u(/1000)\n", r->loss1[1]);
	}
	if (r->par_checked)
		fprintf(f, "test_parallel_lru_loss (map_type:%d map_flags:0x%X):\n", v->type,
			v->flags);
	for (int t = 0; t < r->par_tasks; t++) {
		fprintf(f, "    task:%d nr_losses:%u\n", t, r->lost[t]);
		fprintf(f, "    task:%d Perfect LRU: nr_losses:%u\n", t, r->plost[t]);
	}
	if (r->done)
		fputc('\n', f);
}

/* Keys lost by the BPF LRU and by the perfect one in each test of a variant: null, not run. */
static void loss_figures(const struct mb_run *run, const struct mb_summary *sum,
			 struct mb_json *figs)
{
	static const char *const loss0[] = { "older", "active", "newer" };
	const struct mb_json *vs = mb_json_get(run->extra, "variants");
	char name[48], key[32];

	(void)sum;
	for (size_t i = 0; i < mb_json_len(vs); i++) {
		const struct mb_json *v = mb_json_at(vs, i), *l0 = mb_json_get(v, "loss0");
		const struct mb_json *l1 = mb_json_get(v, "loss1"), *par = mb_json_get(v, "parallel");

		for (int k = 0; k < 2; k++) {
			const struct mb_json *o = k ? mb_json_get(l0, "perfect") : l0;

			for (size_t j = 0; j < 3; j++) {
				snprintf(name, sizeof(name), "loss0 %s%s", loss0[j],
					 k ? " perfect" : "");
				snprintf(key, sizeof(key), "%s_losses", loss0[j]);
				variant_figure(figs, v, name, "keys",
					       mb_json_num(mb_json_get(o, key), NAN));
			}
		}
		variant_figure(figs, v, "loss1", "keys", mb_json_num(mb_json_get(l1, "losses"), NAN));
		variant_figure(figs, v, "loss1 perfect", "keys",
			       mb_json_num(mb_json_get(l1, "perfect_losses"), NAN));
		variant_figure(figs, v, "parallel", "keys",
			       mb_json_num(mb_json_get(par, "losses"), NAN));
		variant_figure(figs, v, "parallel perfect", "keys",
			       mb_json_num(mb_json_get(par, "perfect_losses"), NAN));
	}
}

/* A variant's loss tests, each as its figures or "not run" (a signal). */
static void loss_tests(FILE *f, const struct mb_json *v)
{
	const struct mb_json *l0 = mb_json_get(v, "loss0"), *p0 = mb_json_get(l0, "perfect");
	const struct mb_json *l1 = mb_json_get(v, "loss1"), *par = mb_json_get(v, "parallel");
	size_t nr = mb_json_len(mb_json_get(par, "tasks"));

	if (mb_json_is(l0, MB_JSON_OBJECT))
		fprintf(f, "loss0 older %.0f/100 active %.0f/800 newer %.0f/100 (perfect %.0f/%.0f/%.0f)",
			num(l0, "older_losses"), num(l0, "active_losses"), num(l0, "newer_losses"),
			num(p0, "older_losses"), num(p0, "active_losses"),
			num(p0, "newer_losses"));
	else
		fprintf(f, "loss0 not run");
	if (mb_json_is(l1, MB_JSON_OBJECT))
		fprintf(f, ", loss1 %.0f/1000 (perfect %.0f)", num(l1, "losses"),
			num(l1, "perfect_losses"));
	else
		fprintf(f, ", loss1 not run");
	if (mb_json_is(par, MB_JSON_OBJECT))
		fprintf(f, ", parallel %.0f/%zu stable keys lost over %zu tasks (perfect %.0f)",
			num(par, "losses"), nr * LRU_LOSS_PAR_STABLE, nr,
			num(par, "perfect_losses"));
	else
		fprintf(f, ", parallel not run");
}

/* One Summary line per map, from extra: live after the run, and in a text document. */
static void loss_summary(FILE *f, const struct mb_run *run)
{
	const struct mb_json *extra = run->extra, *vs = mb_json_get(extra, "variants");

	if (verbose() && run_interrupted(extra)) {
		fprintf(f, "Interrupted: %zu of %zu maps tested (a test not run says so)",
			mb_json_len(vs), mb_json_len(vs) + mb_json_len(mb_json_get(extra, "not_run")));
		not_run(f, extra);
		fputc('\n', f);
	}
	for (size_t i = 0; i < mb_json_len(vs); i++) {
		const struct mb_json *v = mb_json_at(vs, i);

		fprintf(f, "Summary: %s %s: ", mb_json_str(mb_json_get(v, "map_type"), "?"),
			mb_json_str(mb_json_get(v, "lru"), "?"));
		loss_tests(f, v);
		fprintf(f, " (%s%s)\n",
			mb_json_truthy(mb_json_get(v, "interrupted")) ? "interrupted, " : "",
			mb_json_str(mb_json_get(extra, "access"), "?"));
	}
}

/* The lines of @nr variants, each found[i] of @size bytes, drawn by @lines. */
static void live(FILE *f, const struct mb_run *run, enum lru_access access, const void *found,
		 size_t size, int nr, void (*lines)(FILE *f, const void *found),
		 void (*summary)(FILE *f, const struct mb_run *run))
{
	if (verbose()) {
		header(f, access);
		for (int i = 0; i < nr; i++)
			lines(f, (const char *)found + (size_t)i * size);
	}
	if (summary)
		summary(f, run);
}

static void dist_lines(FILE *f, const void *found)
{
	dist_variant(f, found);
}

static void loss_lines(FILE *f, const void *found)
{
	loss_variant(f, found);
}

/* After the run: the first lines, each variant's lines and, when all ran, the Summary. */
static void dist_partial(FILE *f, const struct mb_run *run, const void *what)
{
	const struct lru_text_view *v = what;

	live(f, run, v->access, v->found, sizeof(struct lru_dist_found), v->nr, dist_lines,
	     v->summary ? dist_summary : NULL);
}

static void loss_partial(FILE *f, const struct mb_run *run, const void *what)
{
	const struct lru_text_view *v = what;

	live(f, run, v->access, v->found, sizeof(struct lru_loss_found), v->nr, loss_lines,
	     v->summary ? loss_summary : NULL);
}

const struct mb_text_style lru_dist_text = {
	.result = dist_summary,
	.partial = dist_partial,
	.figures = dist_figures,
};

const struct mb_text_style lru_loss_text = {
	.result = loss_summary,
	.partial = loss_partial,
	.figures = loss_figures,
};
