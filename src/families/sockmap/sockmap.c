// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sockmap family: the options and the descriptors of sockmap-update, -lookup and -delete,
 * on top of sm_ops.c (one syscall an op), sm_setup.c (limits, sockets, the map at its
 * level) and sm_run.c (the producer, the ops read back); sm_text.c writes the notes.
 *
 * One producer: the spare keys a round moves in and out are one thread's, and a sockmap's
 * entry is one socket, so two threads would only contend for the same keys.
 */
#include "sockmap.h"
#include "maps/map_opts.h"
#include "output/report.h"

/* 2^20 sockets: far past what the fd limit and the ephemeral ports allow (validate says). */
#define SM_ENTRIES_MAX	(1u << 20)
#define SM_BATCH_MAX	4096

extern const struct mb_text_style sm_text;	/* sm_text.c */

#define SM_OPTS_COMMON								\
	MB_OPT_ENUM_DEF("map_type", struct sm_args, map_type, "sockmap", sm_type_names,	\
			"Map: sockmap (an array of sockets) or sockhash (a hash of them); 4-byte keys, 8-byte values (a socket's fd in, its cookie out)"), \
	MB_OPT_NR_ENTRIES(struct sm_args, nr_entries, "1000", 1, SM_ENTRIES_MAX,	\
			  "the level: established loopback TCP sockets the map holds around the timed ops (at most what RLIMIT_NOFILE and the ephemeral ports allow)")

static const struct mb_opt sm_opts[] = {
	SM_OPTS_COMMON,
	MB_OPT_U32_DEF("batch", struct sm_args, batch, "64", 1, SM_BATCH_MAX, "N",
		       "Spare sockets a round moves into the map (update) or out of it (delete), timed; the round is then read back and undone, untimed"),
	MB_OPT_END,
};

static const struct mb_opt sm_lookup_opts[] = {
	SM_OPTS_COMMON,
	MB_OPT_ENUM_DEF("path", struct sm_args, path, "syscall", sm_path_names,
			"Where the lookups run: BPF_MAP_LOOKUP_ELEM from user space (the socket's cookie), or bpf_map_lookup_elem in a tc program's own loop (a referenced socket, released)"),
	MB_OPT_END,
};

static const struct mb_counter_desc sm_counters[] = {
	[SM_VERIFIED] = { "verified", "ops",
			  "ops whose effect was read back: the key holds the socket's cookie (update, lookup) or nothing (delete)" },
	{ NULL, NULL, NULL },
};

#define SM_BENCH(_var, _name, _op, _opts, _desc)					\
static int _var##_validate(struct mb_run *run) { return sm_validate(run, _op); }	\
static int _var##_setup(struct mb_run *run) { return sm_setup(run, _op); }		\
const struct mb_bench _var = {								\
	.name = _name,									\
	.family = "sockmap",								\
	.desc = _desc,									\
	.opts = _opts,									\
	.args_size = sizeof(struct sm_args),						\
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,				\
	.map_types = sm_type_names,							\
	.text = &sm_text,								\
	.counters = sm_counters,							\
	.validate = _var##_validate,							\
	.setup = _var##_setup,								\
	.producer = sm_producer,							\
	.finish = sm_finish,								\
	.teardown = sm_teardown,							\
}

SM_BENCH(mb_bench_sockmap_update, "sockmap-update", SM_UPDATE, sm_opts,
	 "BPF_MAP_UPDATE_ELEM of a loopback TCP socket into a free key of a sockmap or sockhash holding --nr_entries sockets");
SM_BENCH(mb_bench_sockmap_lookup, "sockmap-lookup", SM_LOOKUP, sm_lookup_opts,
	 "BPF_MAP_LOOKUP_ELEM of a sockmap or sockhash key from user space: the socket's cookie, checked");
SM_BENCH(mb_bench_sockmap_delete, "sockmap-delete", SM_DELETE, sm_opts,
	 "BPF_MAP_DELETE_ELEM of a socket from a sockmap or sockhash holding --nr_entries sockets");
