/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The xdpmaps family: the maps an XDP program redirects through (devmap, devmap_hash, cpumap,
 * xskmap), filled with real entries: network devices (lo and a veth pair the run makes in a
 * network namespace of its own, or --dev of the host's), CPUs (each entry a kernel thread),
 * AF_XDP sockets bound in copy mode. What the benches share: options, the devices and
 * sockets (xm_world.c, xm_xsk.c), the map and its entries (xm_map.c), the program
 * (xm_prog.c), the lines (xm_text.c).
 */
#ifndef MB_FAMILIES_XM_H
#define MB_FAMILIES_XM_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bench.h"
#include "sys/netns.h"
#include "xm_shared.h"

/* --map_type of every bench: one name list, each bench its part of it. */
enum xm_type {
	XM_DEVMAP,
	XM_DEVMAP_HASH,
	XM_CPUMAP,
	XM_XSKMAP,
	XM_TYPE_NR,
};

/* xdp-map-update's --op */
enum xm_op {
	XM_OP_UPDATE,
	XM_OP_LOOKUP,
	XM_OP_DELETE,
	XM_OP_NR,
};

struct xm_args {
	int map_type;		/* index into the bench's own names: see xm_bench_type() */
	int op;			/* xdp-map-update: enum xm_op */
	uint32_t nr_entries;
	uint32_t qsize;		/* cpumap: each entry's queue */
	const char *dev;	/* NULL: the run's own namespace with a veth pair */
	bool live;		/* xdp-redirect-map: frames sent (BPF_F_TEST_XDP_LIVE_FRAMES) */
};

/* Which programs of xm.bpf.c a run loads. */
enum xm_prog_kind {
	XM_PROG_LOOKUP,		/* the lookup loop (raw_tp) */
	XM_PROG_REDIRECT,	/* the redirect loop (XDP, the frame passed) */
	XM_PROG_LIVE,		/* one redirect a frame, sent; the peers' counting program */
};

#define XM_NR_DEVS	3	/* lo and a veth pair, or lo and --dev */
#define XM_MAX_QSIZE	16384	/* the kernel's limit on a cpumap entry's queue */

/* An AF_XDP socket bound to a device's queue 0 in copy mode, with its UMEM. */
struct xm_xsk {
	int fd;
	void *umem;
	size_t len;
};

/* The devices and sockets a map's entries name. */
struct xm_world {
	struct mb_netns ns;	/* fd -1: none, the devices are the host's (--dev) */
	int nr_dev;
	int ifindex[XM_NR_DEVS];
	char dev[XM_NR_DEVS][IF_NAMESIZE];
	int nr_xsk;
	struct xm_xsk xsk[XM_NR_DEVS];
	char xsk_why[256];	/* why none, when asked for and none could be made */
};

struct xm_bpf;
struct bpf_link;

struct xm_state {
	const struct xm_args *args;
	enum xm_type type;
	struct xm_world w;
	int map_fd;
	uint32_t nr;		/* entries */
	uint32_t *keys;		/* [nr]: entry i's key */
	uint32_t *values;	/* [nr]: the value entry i holds now */
	uint32_t *turn;		/* [nr]: updates made to entry i (its value's turn) */
	struct xm_bpf *skel;
	int prog_fd;
	struct bpf_link *rx_link[2];	/* live: the counting program on each veth end */
	/* xdp-map-update: wall ns of the timed calls (the producer's, read by measure) */
	uint64_t op_ns, last_op_ns;
	struct mb_counters done;	/* what the producer counted */
	uint64_t read_ok, read_wrong;	/* entries read back after the run */
	bool read_back;			/* whether they could be (xskmap: no user lookups) */
};

/* xm_types.c: the names of the four types, and the lookups' list. */
extern const char *const xm_type_names[];
extern const char *const xm_lookup_types[];	/* devmap, devmap_hash, xskmap */
/* The type the bench's --map_type names (@names: the bench's list). */
enum xm_type xm_bench_type(const char *const *names, int idx);

/* xm_xsk.c: an AF_XDP socket on @ifindex (in the calling thread's namespace). */
int xm_xsk_open(struct xm_xsk *x, int ifindex, char *why, size_t len);
void xm_xsk_close(struct xm_xsk *x);

/* xm_world.c: devices (and sockets, if @xsk); a failure reported on @run (skip or fail). */
int xm_world_open(struct mb_run *run, struct xm_world *w, const char *dev, bool xsk);
void xm_world_close(struct xm_world *w);
/* Move the calling thread where the devices are (nothing to do for the host's). */
int xm_world_enter(const struct xm_world *w, int *home);
int xm_world_leave(int *home);
/* Whether --dev @name is a device of the host (0), or the usage error (-EINVAL, reported). */
int xm_check_dev(struct mb_run *run, const char *name);

/*
 * xm_map.c: the common set-up of every bench: the state, the devices, the map of @type
 * with its entries in it. 0, or the failure or skip reported.
 */
int xm_setup(struct mb_run *run, enum xm_type type, bool xsk);
void xm_teardown(struct mb_run *run);
/* The value entry @i takes at its turn @turn (a device, a queue size, a socket). */
uint32_t xm_value(const struct xm_state *st, uint32_t i, uint32_t turn);
/* Every entry read back from user space against st->values (not xskmap's). */
void xm_read_back(struct xm_state *st);
/* The map's entries, devices and sockets, into run->extra. */
void xm_describe(struct mb_run *run, const struct xm_state *st);
/* Bench options shared by all: --map_type and --nr_entries checks. */
int xm_validate_common(struct mb_run *run, enum xm_type type);

/* xm_prog.c: the programs of xm.bpf.c of @kind for the run's type. */
int xm_prog_load(struct mb_run *run, struct xm_state *st, enum xm_prog_kind kind);
void xm_prog_close(struct xm_state *st);

/* xm_live.c: xdp-redirect-map --live's producer, and the frames that arrived at the peers. */
int xm_live_producer(struct mb_run *run, struct mb_producer *p);
uint64_t xm_live_arrived(const struct xm_state *st);

/* xm_text.c */
extern const struct mb_text_style xm_text;

#endif
