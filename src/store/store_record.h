/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One result as the store keeps it: the columns taken from a document's context and one of
 * its results (the same for every back-end), and the text of both as stored.
 */
#ifndef MB_STORE_RECORD_H
#define MB_STORE_RECORD_H

#include <stdbool.h>
#include <stddef.h>

struct mb_json;

struct mb_store_record {
	char *dedupe_key;	/* host, command line, bench, params, start and end, mean */
	const char *time, *end_time, *bench, *family, *status;
	char *params;		/* canonical: "key=value" sorted by key, joined by "," */
	const char *kernel, *hostname, *version, *git_revision;
	char *machine_class;
	const char *figure, *unit;	/* NULL: a result without a summary (one-shot bench) */
	bool higher_is_better;
	double mean, median, stddev, cv;	/* NaN: unknown (stored as NULL) */
	bool noisy;
	double *samples;
	int nsamples;
	char *result_json, *context_json;
};

/* Fill @rec from @context and @result. Returns 0 or -ENOMEM/-EINVAL with one line in @err. */
int mb_store_record_make(const struct mb_json *context, const struct mb_json *result,
			 struct mb_store_record *rec, char *err, size_t errlen);
void mb_store_record_free(struct mb_store_record *rec);

/* The canonical parameters of @result: its params and producers, sorted by name. */
char *mb_store_canonical_params(const struct mb_json *result);

/* The machine class of @context: CPU vendor/family/model/microcode, mitigations, config. */
char *mb_store_machine_class(const struct mb_json *context);

#endif
