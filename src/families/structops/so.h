/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The structops family (struct-ops-*): BPF_MAP_TYPE_STRUCT_OPS, the map a struct_ops program
 * set lives in, with tcp_congestion_ops as the kind: what creating and freeing such a map
 * costs, and registering and unregistering a congestion control made of one.
 */
#ifndef MB_FAMILIES_SO_H
#define MB_FAMILIES_SO_H

#include <stdint.h>

#include "core/bench.h"
#include "drivers/map_probe.h"

/* The name so_cc.bpf.c gives its congestion control, replaced before load (16 bytes). */
#define MB_SO_PLACEHOLDER	"mb_so_placehold"
/* Map ids whose freeing the create bench waits for at its end. */
#define SO_IDS_KEPT		64

/* Counters of the benches' own: the two timed steps of an op, in ns, summed. */
enum { SO_C_FIRST_NS, SO_C_SECOND_NS };

struct so_cc;

struct so_state {
	/* struct-ops-create */
	struct mb_recipe_map m;		/* the map's description, its BTF */
	uint32_t ids[SO_IDS_KEPT];	/* the last maps made, to see them freed */
	uint32_t nr_ids;
	uint64_t min_ns, max_ns;	/* of one creation */
	/* struct-ops-register */
	struct so_cc *cc;
	struct mb_counters done;	/* the producer's at its end */
};

/* so_create.c */
int so_create_setup(struct mb_run *run);
int so_create_producer(struct mb_run *run, struct mb_producer *p);
void so_create_finish(struct mb_run *run);

/* so_reg.c, so_cc.c */
int so_reg_setup(struct mb_run *run);
int so_reg_producer(struct mb_run *run, struct mb_producer *p);
void so_reg_finish(struct mb_run *run);
/*
 * so_cc.c: the congestion control, loaded and its map updated (ready to register) in *@out.
 * 0, or the value of mb_run_fail() or mb_run_skip(), which it calls.
 */
int so_cc_open(struct mb_run *run, struct so_cc **out);
/* Register (a struct_ops link); its fd, or -errno. Unregister: close it. */
int so_cc_register(struct so_cc *cc);
/* Whether TCP takes the name for a new socket: 0 yes, else -errno (ENOENT: not there). */
int so_cc_usable(const struct so_cc *cc);
/*
 * Whether the kernel lists the name among its congestion controls (SO_CC_LIST): 1, 0, or
 * -errno. The check after an unregistration: TCP_CONGESTION with a name the kernel lacks
 * would ask for a module of it (modprobe) where the kernel loads modules.
 */
#define SO_CC_LIST	"/proc/sys/net/ipv4/tcp_available_congestion_control"
int so_cc_listed(const struct so_cc *cc);
const char *so_cc_name(const struct so_cc *cc);
/* What set-up measured once: the load and the map update, in us. */
void so_cc_steps(const struct so_cc *cc, double *load_us, double *update_us);
void so_cc_close(struct so_cc *cc);

/*
 * Both: a producer that makes ops, each two syscalls, with @op in chunks of @chunk, until the
 * run stops or an op fails; its counts end in st->done. 0, or the failed op's -errno.
 */
typedef int (*so_op_fn)(struct so_state *st, struct mb_producer *p, struct mb_counters *c);
int so_produce(struct mb_run *run, struct mb_producer *p, int chunk, so_op_fn op);
/* Both: per-op ns of the two steps; the time outside them out of the covered time. */
void so_measure(struct mb_run *run, struct mb_sample *s);
void so_teardown(struct mb_run *run);

extern const struct mb_text_style so_text;

#endif
