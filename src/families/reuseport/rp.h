/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The reuseport family (reuseport-*): BPF_MAP_TYPE_REUSEPORT_SOCKARRAY with real SO_REUSEPORT
 * sockets, TCP listeners or bound UDP sockets on 127.0.0.1 and one port the run takes: user
 * space updates and looks up the array; an sk_reuseport program selects from it for real
 * connections and datagrams. This header holds what the family's files share.
 */
#ifndef MB_FAMILIES_RP_H
#define MB_FAMILIES_RP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bench.h"

enum rp_proto {
	RP_TCP,
	RP_UDP,
};

enum rp_bench {
	RP_UPDATE,	/* BPF_MAP_UPDATE_ELEM: a spare socket replaces a slot's */
	RP_LOOKUP,	/* BPF_MAP_LOOKUP_ELEM: a slot's socket cookie */
	RP_SELECT,	/* bpf_sk_select_reuseport() for a real datagram or connection */
};

struct rp_args {
	int proto;		/* enum rp_proto */
	uint32_t nr_entries;	/* sockets in the array (and in the group, beside a spare) */
};

/* The sockets of one reuseport group: SO_REUSEPORT, 127.0.0.1:port. */
struct rp_group {
	int *fd;		/* [nr]: -1 where not open */
	uint64_t *cookie;	/* [nr]: SO_COOKIE, what a lookup of its slot returns */
	uint32_t nr;
	uint16_t port;		/* host order */
	int proto;
};

struct rp_select;

struct rp_state {
	enum rp_bench bench;
	const struct rp_args *args;
	struct rp_group g;	/* update: nr_entries + 1 sockets, the last the first spare */
	int map_fd;
	uint32_t map_id;
	/* update: which socket each slot holds (an index into g), and the one outside */
	uint32_t *slot_sock;
	uint32_t spare;
	uint32_t next_slot;
	struct rp_select *sel;	/* reuseport-select's program and clients */
	uint64_t checked;	/* slots read back at the end, equal to what the ops left */
	struct mb_counters done;	/* the ops, summed over producers at their end */
};

extern const char *const rp_proto_names[];

/* rp_socks.c: the group, made in order, each socket bound and (TCP) listening. 0 or -errno. */
int rp_group_open(struct rp_group *g, int proto, uint32_t nr);
void rp_group_close(struct rp_group *g);
/* The reuseport_sockarray of @nr slots, 8-byte values (cookies on lookup). fd or -errno. */
int rp_map_create(struct mb_run *run, uint32_t nr);
/* Put socket @sock of @g in slot @slot (flags BPF_*). 0 or -errno. */
int rp_map_put(int map_fd, const struct rp_group *g, uint32_t slot, uint32_t sock,
	       uint64_t flags);
/* Every slot of @nr reads back the cookie of g->fd[want[slot]] (want NULL: slot i, socket i). */
int rp_map_check(int map_fd, const struct rp_group *g, const uint32_t *want, uint32_t nr);

/* rp_sys.c: update and lookup from user space. */
int rp_sys_setup(struct mb_run *run, enum rp_bench b);
int rp_sys_producer(struct mb_run *run, struct mb_producer *p);
void rp_sys_finish(struct mb_run *run);

/* rp_select.c: the program, the clients, the selections. */
int rp_select_setup(struct mb_run *run);
int rp_select_producer(struct mb_run *run, struct mb_producer *p);
void rp_select_measure(struct mb_run *run, struct mb_sample *s);
void rp_select_finish(struct mb_run *run);
void rp_select_close(struct rp_state *st);

/* rp_text.c */
extern const struct mb_text_style rp_text;

#endif
