// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * structops family: BPF_MAP_TYPE_STRUCT_OPS with tcp_congestion_ops. This file: the
 * descriptors and what both benches share (the per-op figures, the teardown), on top of
 * so_create.c (the map's creation and freeing), so_cc.c (the congestion control's object),
 * so_reg.c (its registration) and so_produce.c (the producer loop both run); so_text.c
 * writes the notes.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "so.h"
#include "core/summary.h"

static const struct mb_counter_desc so_create_counters[] = {
	[SO_C_FIRST_NS] = { "create_ns", "ns", "time in BPF_MAP_CREATE, summed" },
	[SO_C_SECOND_NS] = { "close_ns", "ns", "time in close() of the map's only fd, summed" },
	{ NULL, NULL, NULL },
};

static const struct mb_metric_desc so_create_metrics[] = {
	{ "create_ns", "ns/op" },
	{ "close_ns", "ns/op" },
	{ NULL },
};

static const struct mb_counter_desc so_reg_counters[] = {
	[SO_C_FIRST_NS] = { "register_ns", "ns", "time in the BPF_LINK_CREATE that registers, summed" },
	[SO_C_SECOND_NS] = { "unregister_ns", "ns", "time in close() of the link, which unregisters, summed" },
	{ NULL, NULL, NULL },
};

static const struct mb_metric_desc so_reg_metrics[] = {
	{ "register_ns", "ns/op" },
	{ "unregister_ns", "ns/op" },
	{ NULL },
};

void so_measure(struct mb_run *run, struct mb_sample *s)
{
	for (int p = 0; p < run->nr_producers; p++) {
		struct mb_counters *c = &s->prod[p];

		if (c->end_ns && c->excluded_ns < c->end_ns)
			c->end_ns -= c->excluded_ns;
	}
	s->covered_ns = mb_sample_covered_ns(s, run->nr_producers);
	if (!s->total.ops)
		return;
	s->metric[0] = (double)s->total.counter[SO_C_FIRST_NS] / (double)s->total.ops;
	s->metric[1] = (double)s->total.counter[SO_C_SECOND_NS] / (double)s->total.ops;
}

void so_teardown(struct mb_run *run)
{
	struct so_state *st = run->priv;

	if (!st)
		return;
	mb_recipe_map_put(&st->m);
	so_cc_close(st->cc);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_struct_ops_create = {
	.name = "struct-ops-create",
	.family = "structops",
	.desc = "BPF_MAP_CREATE of a struct_ops map (tcp_congestion_ops) and close() of its fd, each timed",
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = MB_MAP_TYPES("struct_ops"),
	.text = &so_text,
	.counters = so_create_counters,
	.metrics = so_create_metrics,
	.setup = so_create_setup,
	.producer = so_create_producer,
	.measure = so_measure,
	.finish = so_create_finish,
	.teardown = so_teardown,
};

const struct mb_bench mb_bench_struct_ops_register = {
	.name = "struct-ops-register",
	.family = "structops",
	.desc = "register and unregister a tcp_congestion_ops struct_ops map (a BPF_STRUCT_OPS link), each timed",
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = MB_MAP_TYPES("struct_ops"),
	.text = &so_text,
	.counters = so_reg_counters,
	.metrics = so_reg_metrics,
	.setup = so_reg_setup,
	.producer = so_reg_producer,
	.measure = so_measure,
	.finish = so_reg_finish,
	.teardown = so_teardown,
};
