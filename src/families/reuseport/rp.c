// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * reuseport family: BPF_MAP_TYPE_REUSEPORT_SOCKARRAY with real SO_REUSEPORT sockets. This
 * file: the options and the descriptors, on top of the family's files: rp_socks.c (the group,
 * the map), rp_sys.c (update and lookup from user space), rp_select.c and rp_select_check.c
 * (the sk_reuseport program driven by packets); rp_text.c writes the notes. The teardown is
 * here, above the files whose state it releases.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>
#include <linux/types.h>

#include "rp.h"
#include "rp_shared.h"
#include "maps/map_opts.h"
#include "output/report.h"

/* Descriptors a run holds beside its sockets: the map, BPF objects, clients, stdio. */
#define RP_FDS_SPARE	64

#define RP_OPTS(_def_entries)								\
	MB_OPT_ENUM_DEF("proto", struct rp_args, proto, "tcp", rp_proto_names,		\
			"The sockets: TCP listeners, or bound UDP sockets, on 127.0.0.1"),	\
	MB_OPT_NR_ENTRIES(struct rp_args, nr_entries, _def_entries, 1, MB_RP_SOCKS_MAX,	\
			  "sockets of the group in the array, one a slot (max_entries)"),	\
	MB_OPT_END

static const struct mb_opt rp_sys_opts[] = { RP_OPTS("64") };
static const struct mb_opt rp_select_opts[] = { RP_OPTS("8") };

static const struct mb_counter_desc rp_select_counters[] = {
	{ "clock_ns", "ns", "the program's empty clock spans, two reads back to back, summed" },
	{ NULL, NULL, NULL },
};

static const struct mb_metric_desc rp_select_metrics[] = {
	{ "select_ns", "ns/op" },	/* the helper alone: its span less the empty one */
	{ "clock_ns", "ns/op" },	/* the empty span */
	{ NULL },
};

/* Each socket holds a descriptor: the group must fit in RLIMIT_NOFILE. */
static int rp_validate(struct mb_run *run)
{
	const struct rp_args *a = run->args;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    a->nr_entries + RP_FDS_SPARE <= rl.rlim_cur)
		return 0;
	return mb_run_bad_num(run, "nr_entries", a->nr_entries,
			      "1..%llu (each socket holds a descriptor; RLIMIT_NOFILE is %llu)",
			      (unsigned long long)rl.rlim_cur - RP_FDS_SPARE,
			      (unsigned long long)rl.rlim_cur);
}

static void rp_teardown(struct mb_run *run)
{
	struct rp_state *st = run->priv;

	if (!st)
		return;
	rp_select_close(st);
	if (st->map_fd >= 0)
		close(st->map_fd);
	rp_group_close(&st->g);
	free(st->slot_sock);
	free(st);
	run->priv = NULL;
}

static int rp_update_setup(struct mb_run *run) { return rp_sys_setup(run, RP_UPDATE); }
static int rp_lookup_setup(struct mb_run *run) { return rp_sys_setup(run, RP_LOOKUP); }

const struct mb_bench mb_bench_reuseport_update = {
	.name = "reuseport-update",
	.family = "reuseport",
	.desc = "bpf_map_update_elem from user space: a spare SO_REUSEPORT socket replaces a slot's",
	.opts = rp_sys_opts,
	.args_size = sizeof(struct rp_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = MB_MAP_TYPES("reuseport_sockarray"),
	.text = &rp_text,
	.validate = rp_validate,
	.setup = rp_update_setup,
	.producer = rp_sys_producer,
	.finish = rp_sys_finish,
	.teardown = rp_teardown,
};

const struct mb_bench mb_bench_reuseport_lookup = {
	.name = "reuseport-lookup",
	.family = "reuseport",
	.desc = "bpf_map_lookup_elem from user space: a slot's socket cookie, compared",
	.opts = rp_sys_opts,
	.args_size = sizeof(struct rp_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("reuseport_sockarray"),
	.text = &rp_text,
	.validate = rp_validate,
	.setup = rp_lookup_setup,
	.producer = rp_sys_producer,
	.finish = rp_sys_finish,
	.teardown = rp_teardown,
};

const struct mb_bench mb_bench_reuseport_select = {
	.name = "reuseport-select",
	.family = "reuseport",
	.desc = "bpf_sk_select_reuseport in an sk_reuseport program, driven by loopback datagrams or connections",
	.opts = rp_select_opts,
	.args_size = sizeof(struct rp_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = MB_MAP_TYPES("reuseport_sockarray"),
	.text = &rp_text,
	.counters = rp_select_counters,
	.metrics = rp_select_metrics,
	.validate = rp_validate,
	.setup = rp_select_setup,
	.producer = rp_select_producer,
	.measure = rp_select_measure,
	.finish = rp_select_finish,
	.teardown = rp_teardown,
};
