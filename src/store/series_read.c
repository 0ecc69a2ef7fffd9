// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The runs a filter matches, read from the results history into series. */
#include <errno.h>
#include <stdio.h>

#include "series_read.h"

/* The sets each run goes into. */
struct read_into {
	struct mb_series_set *sets;
	size_t n;
};

static int add_run(const struct mb_store_run *run, void *arg)
{
	struct mb_series_input in = {
		.id = run->id,
		.time = run->time,
		.bench = run->bench,
		.params = run->params,
		.kernel = run->kernel,
		.machine_class = run->machine_class,
		.hostname = run->hostname,
		.version = run->version,
		.figure = run->figure,
		.unit = run->unit,
		.higher_is_better = run->higher_is_better,
		.noisy = run->noisy,
		.mean = run->mean,
		.median = run->median,
		.stddev = run->stddev,
		.samples = run->samples,
		.n = run->nsamples > 0 ? (size_t)run->nsamples : 0,
	};

	struct read_into *into = arg;

	for (size_t i = 0; i < into->n; i++) {
		int ret = mb_series_add(&into->sets[i], &in);

		if (ret)
			return ret;
	}
	return 0;
}

int mb_store_read_series(struct mb_store *store, const struct mb_store_filter *filter,
			 struct mb_series_set *sets, size_t nsets, char *err, size_t errlen)
{
	struct read_into into = { sets, nsets };
	int ret = mb_store_each(store, filter, add_run, &into, err, errlen);

	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory reading the runs");
	for (size_t i = 0; !ret && i < nsets; i++)
		mb_series_number_machines(&sets[i]);
	return ret;
}
