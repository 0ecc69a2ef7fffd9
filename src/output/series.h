/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Runs of the results history grouped into series, in memory, for the readers (gate, trend,
 * report): one series per bench, parameter set and machine class, and per kernel where the
 * set splits by kernel (the gate compares only like with like; a trend draws a series across
 * kernels and marks where the kernel changed). Runs are kept oldest first, as added.
 */
#ifndef MB_SERIES_H
#define MB_SERIES_H

#include <stdbool.h>
#include <stddef.h>

/* One run of a series: copies of what the readers use. */
struct mb_series_run {
	long long id;
	char *time;		/* ISO 8601 UTC */
	char *kernel;
	char *version;		/* mapbench's version and revision */
	char *hostname;
	double mean, median, stddev;
	double *samples;	/* the headline figure of each measured sample */
	size_t n;
	bool noisy;
};

struct mb_series {
	char *bench, *params, *machine_class;
	char *kernel;		/* its runs' kernel if the set splits by kernel, else NULL */
	char *figure, *unit;
	bool higher_is_better;
	int machine;		/* 1-based number of machine_class in the set */
	struct mb_series_run *runs;
	size_t nr, cap;
};

struct mb_series_set {
	bool by_kernel;		/* split series by kernel release */
	struct mb_series *s;
	size_t nr, cap;
};

/* What one stored run brings (the store's struct mb_store_run, as far as series need it). */
struct mb_series_input {
	long long id;
	const char *time, *bench, *params, *kernel, *machine_class, *hostname, *version;
	const char *figure, *unit;
	bool higher_is_better, noisy;
	double mean, median, stddev;
	const double *samples;
	size_t n;
};

/* Add a run to its series (made as needed). Returns 0 or -ENOMEM. */
int mb_series_add(struct mb_series_set *set, const struct mb_series_input *in);
/*
 * Number the machine classes of @set in order of first appearance (series.machine, the same
 * number for a class in every bench); call after the last add.
 */
void mb_series_number_machines(struct mb_series_set *set);
/* How many machine classes bench @bench (NULL: any bench) has in @set. */
int mb_series_machines(const struct mb_series_set *set, const char *bench);
/* The machine class numbered @machine, or NULL. */
const char *mb_series_machine_class(const struct mb_series_set *set, int machine);
void mb_series_free(struct mb_series_set *set);

/*
 * The parameters that tell @s apart from the other series of its bench in @set ("key=value"
 * pairs whose value differs in another, joined by ","), "-" when none does, into @buf.
 */
void mb_series_short_params(const struct mb_series_set *set, const struct mb_series *s,
			    char *buf, size_t len);

#endif
