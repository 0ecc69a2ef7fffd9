// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* What a reader's filter means, the same on every back-end: parameters, --since dates. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store.h"
#include "store_backend.h"

/* Every "key=value" of the filter is one whole element of the run's "k=v,k=v" list. */
bool mb_store_params_match(const struct mb_store_filter *filter, const char *params)
{
	for (int i = 0; filter && i < filter->nparams; i++) {
		const char *want = filter->params[i], *p = params;
		size_t len = strlen(want);
		bool found = false;

		while (p && *p && !found) {
			found = !strncmp(p, want, len) && (p[len] == ',' || !p[len]);
			p = strchr(p, ',');
			p = p ? p + 1 : NULL;
		}
		if (!found)
			return false;
	}
	return true;
}

int mb_store_since_parse(const char *text, char *out, size_t len)
{
	struct tm tm = { 0 }, back;
	const char *end;
	time_t t;

	end = strptime(text, "%Y-%m-%d", &tm);
	if (!end || strlen(text) < 10 || text[4] != '-' || text[7] != '-')
		return -EINVAL;
	if (*end == 'T' || *end == ' ') {
		const char *rest = strptime(end + 1, "%H:%M:%S", &tm);

		if (!rest)
			rest = strptime(end + 1, "%H:%M", &tm);
		if (!rest || end[3] != ':')
			return -EINVAL;
		end = rest;
	}
	if (*end == 'Z')
		end++;
	if (*end || tm.tm_year < 0)
		return -EINVAL;
	/* Out-of-range fields (February 30) come back changed: refused. */
	back = tm;
	t = timegm(&back);
	if (t == (time_t)-1 || back.tm_mday != tm.tm_mday || back.tm_mon != tm.tm_mon ||
	    !gmtime_r(&t, &back))
		return -EINVAL;
	if (strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &back) == 0)
		return -EINVAL;
	return 0;
}
