// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpuset.h"
#include "cpustat.h"

/* The fields of a cpuN line, in /proc/stat's order (proc(5)). */
enum { USER, NICE, SYSTEM, IDLE, IOWAIT, IRQ, SOFTIRQ, STEAL, NR_FIELDS };

/* Parse one "cpuN f0 f1 ..." line; returns the CPU number, or -1 for any other line. */
static int parse_line(const char *line, struct mb_cpu_ticks *t)
{
	uint64_t f[NR_FIELDS] = { 0 };
	const char *p = line + 3;
	char *end;
	long cpu;
	int n;

	if (strncmp(line, "cpu", 3) || *p < '0' || *p > '9')
		return -1;
	cpu = strtol(p, &end, 10);
	if (cpu < 0 || cpu >= MB_MAX_CPUS || (*end != ' ' && *end != '\t'))
		return -1;
	for (n = 0, p = end; n < NR_FIELDS; n++, p = end) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		f[n] = strtoull(p, &end, 10);
		/* No tick counter comes near this: a garbled line, whose sums would wrap. */
		if (f[n] > UINT64_MAX / 16)
			return -1;
	}
	if (n <= IDLE)
		return -1;
	/* guest and guest_nice are already part of user and nice: not added again. */
	t->steal = f[STEAL];
	t->busy = f[USER] + f[NICE] + f[SYSTEM] + f[IRQ] + f[SOFTIRQ] + f[STEAL];
	t->total = t->busy + f[IDLE] + f[IOWAIT];
	return (int)cpu;
}

static int grow(struct mb_cpustat *st, int cpu)
{
	struct mb_cpu_ticks *c;
	int nr = st->nr ? st->nr : 8;

	if (cpu < st->nr)
		return 0;
	while (nr <= cpu)
		nr *= 2;
	c = realloc(st->cpu, sizeof(*c) * (size_t)nr);
	if (!c)
		return -ENOMEM;
	memset(c + st->nr, 0, sizeof(*c) * (size_t)(nr - st->nr));
	st->cpu = c;
	st->nr = nr;
	return 0;
}

int mb_cpustat_parse(const char *text, struct mb_cpustat *st)
{
	const char *line = text;
	int seen = 0;

	memset(st, 0, sizeof(*st));
	while (line && *line) {
		struct mb_cpu_ticks t;
		int cpu = parse_line(line, &t);

		if (cpu >= 0) {
			if (grow(st, cpu)) {
				mb_cpustat_free(st);
				return -ENOMEM;
			}
			st->cpu[cpu] = t;
			seen++;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!seen) {
		mb_cpustat_free(st);
		return -EINVAL;
	}
	return 0;
}

void mb_cpustat_free(struct mb_cpustat *st)
{
	free(st->cpu);
	memset(st, 0, sizeof(*st));
}

bool mb_cpustat_busy(const struct mb_cpustat *a, const struct mb_cpustat *b, int cpu,
		     struct mb_cpu_busy *out)
{
	const struct mb_cpu_ticks *x, *y;
	double total;

	if (cpu < 0 || cpu >= a->nr || cpu >= b->nr)
		return false;
	x = &a->cpu[cpu];
	y = &b->cpu[cpu];
	if (!x->total || y->total <= x->total || y->busy < x->busy || y->steal < x->steal)
		return false;
	total = (double)(y->total - x->total);
	out->busy = (double)(y->busy - x->busy) / total;
	out->steal = (double)(y->steal - x->steal) / total;
	/* Idle time read back a little lower (the nohz idle/iowait accounting): at most all. */
	if (out->busy > 1)
		out->busy = 1;
	return true;
}
