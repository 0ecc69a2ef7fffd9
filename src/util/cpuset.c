// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cpuset.h"

bool mb_cpuset_has(const struct mb_cpuset *set, int cpu)
{
	if (cpu < 0 || cpu >= MB_MAX_CPUS)
		return false;
	return set->bits[cpu / 64] & (1ULL << (cpu % 64));
}

void mb_cpuset_add(struct mb_cpuset *set, int cpu)
{
	if (cpu < 0 || cpu >= MB_MAX_CPUS || mb_cpuset_has(set, cpu))
		return;
	set->bits[cpu / 64] |= 1ULL << (cpu % 64);
	set->count++;
}

int mb_cpuset_next(const struct mb_cpuset *set, int from)
{
	for (int cpu = from < 0 ? 0 : from; cpu < MB_MAX_CPUS; cpu++)
		if (mb_cpuset_has(set, cpu))
			return cpu;
	return -1;
}

/* Parse one CPU number at *p; advances *p. */
static int parse_cpu(const char **p, int *cpu, const char **why)
{
	long v = 0;

	if (**p == '-') {
		*why = "negative CPU number";
		return -EINVAL;
	}
	if (**p < '0' || **p > '9') {
		*why = **p == ',' || !**p ? "empty item" : "expected a CPU number";
		return -EINVAL;
	}
	while (**p >= '0' && **p <= '9') {
		v = v * 10 + (**p - '0');
		if (v >= MB_MAX_CPUS) {
			*why = "CPU number too large";
			return -EINVAL;
		}
		(*p)++;
	}
	*cpu = (int)v;
	return 0;
}

int mb_cpuset_parse(const char *s, struct mb_cpuset *set, const char **why)
{
	const char *p = s;
	int lo, hi, err;

	memset(set, 0, sizeof(*set));
	*why = NULL;
	if (!s || !*s) {
		*why = "empty list";
		return -EINVAL;
	}
	for (;;) {
		err = parse_cpu(&p, &lo, why);
		if (err)
			return err;
		hi = lo;
		if (*p == '-') {
			p++;
			if (!*p) {
				*why = "range without an end";
				return -EINVAL;
			}
			err = parse_cpu(&p, &hi, why);
			if (err)
				return err;
			if (hi < lo) {
				*why = "reversed range";
				return -EINVAL;
			}
		}
		for (int cpu = lo; cpu <= hi; cpu++)
			mb_cpuset_add(set, cpu);
		if (!*p)
			return 0;
		if (*p != ',') {
			*why = "unexpected character";
			return -EINVAL;
		}
		p++;
	}
}

int mb_cpuset_format(const struct mb_cpuset *set, char *buf, int len)
{
	int need = 0, cpu = mb_cpuset_next(set, 0);

	if (len > 0)
		buf[0] = '\0';
	while (cpu >= 0) {
		int end = cpu;

		while (mb_cpuset_has(set, end + 1))
			end++;
		need += snprintf(need < len ? buf + need : NULL, need < len ? (size_t)(len - need) : 0,
				 end > cpu ? "%s%d-%d" : "%s%d", need ? "," : "", cpu, end);
		cpu = mb_cpuset_next(set, end + 1);
	}
	return need;
}

int mb_cpuset_online(struct mb_cpuset *set)
{
	char line[4096];
	const char *why;
	FILE *f;
	long n;

	f = fopen("/sys/devices/system/cpu/online", "re");
	if (f) {
		if (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (!mb_cpuset_parse(line, set, &why)) {
				fclose(f);
				return 0;
			}
		}
		fclose(f);
	}
	memset(set, 0, sizeof(*set));
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return -ENOENT;
	for (int cpu = 0; cpu < n; cpu++)
		mb_cpuset_add(set, cpu);
	return 0;
}
