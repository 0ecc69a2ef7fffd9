// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* A bench's refusal of an option value, worded as the option tables word theirs. */
#include <stdarg.h>
#include <stdio.h>

#include "bench.h"
#include "opts.h"

int mb_run_bad_num(struct mb_run *run, const char *name, unsigned long long value,
		   const char *fmt, ...)
{
	char num[32], allowed[384], msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(allowed, sizeof(allowed), fmt, ap);
	va_end(ap);
	snprintf(num, sizeof(num), "%llu", value);
	mb_opt_error(msg, sizeof(msg), name, num, allowed, NULL);
	return mb_run_usage(run, "%s", msg);
}
