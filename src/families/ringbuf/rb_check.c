// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rb_check.h"

int rb_check_init(struct rb_check *c, int nr_producers, int nr_bufs, bool each)
{
	memset(c, 0, sizeof(*c));
	c->each = each;
	c->nr_producers = nr_producers;
	c->nr_bufs = nr_bufs;
	c->next = calloc((size_t)nr_producers * (size_t)nr_bufs, sizeof(*c->next));
	c->count = calloc((size_t)nr_producers, sizeof(*c->count));
	c->sum = calloc((size_t)nr_producers, sizeof(*c->sum));
	c->latency = malloc(sizeof(*c->latency));
	if (!c->next || !c->count || !c->sum || !c->latency) {
		rb_check_free(c);
		return -ENOMEM;
	}
	mb_hist_init(c->latency);
	return 0;
}

void rb_check_free(struct rb_check *c)
{
	free(c->next);
	free(c->count);
	free(c->sum);
	free(c->latency);
	memset(c, 0, sizeof(*c));
}

/* 0 + 1 + ... + (n - 1), modulo 2^64 as the consumer's sums are. */
static uint64_t seq_sum(uint64_t n)
{
	unsigned __int128 s = (unsigned __int128)n * (n ? n - 1 : 0) / 2;

	return (uint64_t)s;
}

/* Counts only: every record made was received, as many as were made. */
static void count_verdict(const struct rb_check *c, const uint64_t *made, struct rb_verdict *v)
{
	for (int p = 0; p < c->nr_producers; p++)
		v->made += made[p];
	v->lost = v->made > v->received ? v->made - v->received : 0;
	v->ok = v->received == v->made;
}

void rb_check_verdict(const struct rb_check *c, const uint64_t *made, struct rb_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->received = c->received;
	if (!c->each) {
		count_verdict(c, made, v);
		return;
	}
	v->checked = true;
	v->duplicated = c->duplicated;
	v->foreign = c->foreign;
	v->checksum_ok = true;
	for (int p = 0; p < c->nr_producers; p++) {
		v->made += made[p];
		/* More distinct records than were made: some sequence number was not made. */
		if (c->count[p] > made[p]) {
			v->checksum_ok = false;
			continue;
		}
		v->lost += made[p] - c->count[p];
		if (c->count[p] == made[p] && c->sum[p] != seq_sum(made[p]))
			v->checksum_ok = false;
	}
	v->ok = !v->lost && !v->duplicated && !v->foreign && v->checksum_ok;
}
