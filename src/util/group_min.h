/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The lowest of several candidates in each of several groups: figures are added by group and
 * candidate, each candidate's mean is its figure, and the best of a group is the candidate
 * with the lowest mean (the first where two are equal). A sweep names so the fastest value of
 * one parameter at each combination of the others.
 */
#ifndef MB_GROUP_MIN_H
#define MB_GROUP_MIN_H

#include <stdint.h>

struct mb_group_min {
	int groups, candidates;
	double *sum;		/* [group * candidates + candidate] */
	uint32_t *n;
};

/* 0, -EINVAL for a size below 1 or too large, -ENOMEM. */
int mb_group_min_init(struct mb_group_min *m, int groups, int candidates);
/* Add figure @x of candidate @c in group @g; a figure that is not finite, or out of range: none. */
void mb_group_min_add(struct mb_group_min *m, int g, int c, double x);
/* The candidate of group @g with the lowest mean (its mean in @mean), or -1: none has one. */
int mb_group_min_best(const struct mb_group_min *m, int g, double *mean);
void mb_group_min_free(struct mb_group_min *m);

#endif
