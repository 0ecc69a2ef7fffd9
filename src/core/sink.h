/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Where a run's results go. The runner never prints: it tells the run's sink what happened
 * (set-up begins, measuring starts, a sample was taken, a result was summarised, the run
 * ended), and the sinks the session chained (plan/chain.c, the one place that assembles
 * chains) decide what to show or keep: the live kernel-style text lines, a sweep's progress
 * bar, the table of several runs, the document (text, JSON, CSV) written at the end, the
 * baseline comparison, a results database. A sink leaves out the events it has no use for (a
 * NULL hook); each event goes to every sink of the chain, in order.
 */
#ifndef MB_SINK_H
#define MB_SINK_H

struct mb_json;
struct mb_run;
struct mb_sample;

/* What every sink is handed after the plan's last run, in chain order. */
struct mb_sink_end {
	struct mb_run *runs;
	int nr, ran;		/* the plan's runs, and how many of them ran */
	struct mb_json *doc;	/* the document, made before the end event (NULL: no memory) */
	int status;		/* the exit status so far (log.h); a sink may set a failure */
};

struct mb_sink {
	void (*run_begin)(struct mb_sink *sink, const struct mb_run *run);
	void (*run_started)(struct mb_sink *sink, const struct mb_run *run);
	void (*sample)(struct mb_sink *sink, const struct mb_run *run, int iter,
		       const struct mb_sample *s);
	/*
	 * A one-shot bench has something to show before its run ends (a finished row, the
	 * results of its variants): @what is the bench's own record, which only its text
	 * style's partial hook reads.
	 */
	void (*partial)(struct mb_sink *sink, const struct mb_run *run, const void *what);
	/* Once per result: the run itself, or each part of a split run (bench.h). */
	void (*result)(struct mb_sink *sink, const struct mb_run *result);
	void (*run_end)(struct mb_sink *sink, const struct mb_run *run);
	/* After the last run: documents, tables and baselines are written here. */
	void (*end)(struct mb_sink *sink, struct mb_sink_end *end);
	void *priv;
	struct mb_sink *next;
};

/* Send an event down @sink's chain (NULL: nobody listens). */
void mb_sink_run_begin(struct mb_sink *sink, const struct mb_run *run);
void mb_sink_run_started(struct mb_sink *sink, const struct mb_run *run);
void mb_sink_sample(struct mb_sink *sink, const struct mb_run *run, int iter,
		    const struct mb_sample *s);
void mb_sink_partial(struct mb_sink *sink, const struct mb_run *run, const void *what);
void mb_sink_result(struct mb_sink *sink, const struct mb_run *result);
void mb_sink_run_end(struct mb_sink *sink, const struct mb_run *run);
void mb_sink_end(struct mb_sink *sink, struct mb_sink_end *end);

/* Append @tail to the chain that starts at *@head. */
void mb_sink_chain(struct mb_sink **head, struct mb_sink *tail);

#endif
