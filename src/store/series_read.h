/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The runs a filter matches, read from the results history into series (output/series.h). */
#ifndef MB_STORE_SERIES_READ_H
#define MB_STORE_SERIES_READ_H

#include <stddef.h>

#include "output/series.h"
#include "store.h"

/*
 * Walk the runs @filter matches (mb_store_each) once, into each of the @nsets sets @sets (each
 * grouped as the caller set its by_kernel), then number each bench's machine classes in
 * each. Returns 0 or a negative errno with one line in @err.
 */
int mb_store_read_series(struct mb_store *store, const struct mb_store_filter *filter,
			 struct mb_series_set *sets, size_t nsets, char *err, size_t errlen);

#endif
