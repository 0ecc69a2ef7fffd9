// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-tasks-trace's figures from its counts: each sample's grace-period latency and
 * the kthread's ticks per grace period, their mean and spread as the kernel's bench computes
 * them (mean of the samples' values, sample standard deviation), and the kthread's stime.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ls_trace.h"

double ls_trace_gp_us(double gp_ns, double gp)
{
	return gp > 0 ? gp_ns / 1000.0 / gp : NAN;
}

void ls_trace_stat(const double *v, int n, struct ls_trace_stat *st)
{
	double sum = 0, sq = 0;

	st->n = 0;
	for (int i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		sum += v[i];
		st->n++;
	}
	st->mean = st->n ? sum / st->n : NAN;
	for (int i = 0; i < n; i++)
		if (!isnan(v[i]))
			sq += (v[i] - st->mean) * (v[i] - st->mean);
	/* The kernel prints 0 over one sample, where no spread is known: NaN says so. */
	st->stddev = st->n > 1 ? sqrt(sq / (st->n - 1)) : NAN;
}

int ls_trace_parse_stime(const char *line, long *stime)
{
	/* The comm is in parentheses and may hold spaces: count fields after its last ')'. */
	const char *p = strrchr(line, ')');
	char *end;

	if (!p)
		return -EINVAL;
	p++;
	/* state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime: 12 */
	for (int field = 0; field < 12; field++) {
		while (*p == ' ')
			p++;
		if (!*p)
			return -EINVAL;
		while (*p && *p != ' ')
			p++;
	}
	errno = 0;
	*stime = strtol(p, &end, 10);
	if (end == p || errno || *stime < 0 || (*end && *end != ' ' && *end != '\n'))
		return -EINVAL;
	return 0;
}

int ls_trace_read_stime(uint32_t pid, long *stime)
{
	char path[64], line[1024];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = fgets(line, sizeof(line), f) ? ls_trace_parse_stime(line, stime) : -EIO;
	fclose(f);
	return err;
}
