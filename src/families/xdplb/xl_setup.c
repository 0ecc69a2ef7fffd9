// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdp-lb's set-up: the connection tables (one LRU hash per CPU in an array of maps, from
 * drivers/map_create.h), the program loaded on them, the balancer's configuration for the
 * scenario (its VIP, the reals, the router's MAC, its flow in every table; the rings, zeroed,
 * all name the IPv4 real), and
 * the check before timing: one call whose verdict, output packet and stats must be what the
 * scenario implies, or the run fails with no figure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/env.h"
#include "drivers/loop_kind.h"
#include "drivers/map_fill.h"
#include "drivers/thread_slots.h"
#include "sys/probe.h"
#include "util/log.h"
#include "xl_run.h"

/* One entry written through the drivers' fill: @key and @val of @fd, a map of @type. */
static int put(struct mb_run *run, int fd, const char *type, const void *key, __u32 ksz,
	       const void *val, __u32 vsz, const char *what)
{
	struct mb_entries e = { .type = mb_map_type_by_name(type), .key_size = ksz,
				.value_size = vsz, .key = MB_KEY_GIVEN, .keys = key,
				.value = MB_VALUE_GIVEN, .values = val };
	struct mb_fill f = { .fd = fd, .e = &e, .count = 1, .method = MB_FILL_SINGLE };
	struct mb_fill_result r;
	int err = mb_map_fill(&f, &r);

	if (err || r.failed)
		return mb_run_fail(run, err ? err : -EIO, "cannot write %s: %s", what,
				   strerror(err ? -err : EIO));
	return 0;
}

static void vip_key(const struct xl_scenario *s, struct xl_vip *k)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->vipv6, s->vip, s->v6 ? 16 : 4);
	k->port = htons(s->dport);
	k->proto = s->proto;
}

/* The scenario's flow in every CPU's table, to the real its encapsulation needs. */
static int fill_known(struct mb_run *run, struct xl_state *st)
{
	const struct xl_scenario *s = ((const struct xl_args *)run->args)->scenario;
	struct xl_lru_val v = { .pos = s->outer_v6 ? XL_REAL_V6 : XL_REAL_V4 };
	struct xl_flow k = { .proto = s->proto };
	struct timespec ts;
	int err = 0;

	memcpy(k.srcv6, s->src, s->v6 ? 16 : 4);
	memcpy(k.dstv6, s->vip, s->v6 ? 16 : 4);
	k.port16[0] = htons(s->sport);
	k.port16[1] = htons(s->dport);
	/* A UDP flow's last packet: now, on the clock the program reads. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (s->proto == XL_PROTO_UDP)
		v.atime = (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec;
	for (int cpu = 0; cpu < st->lru.nr_outer && !err; cpu++)
		if (st->lru.inner_fd[cpu] >= 0)
			err = put(run, st->lru.inner_fd[cpu], "lru_hash", &k, sizeof(k), &v,
				  sizeof(v), "the scenario's flow into a connection table");
	return err;
}

static int configure(struct mb_run *run, struct xl_state *st)
{
	const struct xl_scenario *s = ((const struct xl_args *)run->args)->scenario;
	struct xl_bpf *m = st->skel;
	struct xl_real real[2] = { { .flags = 0 }, { .flags = XL_F_IPV6 } };
	struct xl_vip_meta meta = { .flags = s->vip_flags, .vip_num = s->vip_num };
	struct xl_ctl ctl = { .pad = { 0 } };
	struct xl_vip vip;
	__u32 key = 0;
	int err;

	memcpy(ctl.mac, xl_router_mac, 6);
	memcpy(&real[0].dst, xl_tunnel_v4, 4);
	memcpy(real[0].dstv6, xl_tunnel_v6, 16);
	memcpy(real[1].dstv6, xl_tunnel_v6, 16);
	vip_key(s, &vip);
	_Static_assert(XL_REAL_V4 == 0, "the rings, zeroed, name the IPv4 real");
	err = put(run, bpf_map__fd(m->maps.xl_ctl), "array", &key, 4, &ctl, sizeof(ctl),
			  "the router's MAC");
	for (__u32 i = 0; i < 2 && !err; i++) {
		key = i ? XL_REAL_V6 : XL_REAL_V4;
		err = put(run, bpf_map__fd(m->maps.xl_reals), "array", &key, 4, &real[i],
			  sizeof(real[i]), "a real");
	}
	key = 0;
	/* Only a scenario sent to a real has its VIP: the others must find none. */
	if (!err && s->action == XDP_TX)
		err = put(run, bpf_map__fd(m->maps.xl_vips), "hash", &vip, sizeof(vip), &meta,
			  sizeof(meta), "the VIP");
	if (!err && s->action == XDP_TX)
		err = put(run, bpf_map__fd(m->maps.xl_miss_vip), "array", &key, 4, &vip,
			  sizeof(vip), "the VIP whose misses are counted");
	if (!err && s->known)
		err = fill_known(run, st);
	return err;
}

static int load(struct mb_run *run, struct xl_state *st)
{
	struct mb_map_desc inner = { .type = mb_map_type_by_name("lru_hash"), .name = "mb_xl_conn",
				     .key_size = sizeof(struct xl_flow),
				     .value_size = sizeof(struct xl_lru_val),
				     .max_entries = XL_LRU_SIZE };
	struct mb_map_desc outer = { .type = mb_map_type_by_name("array_of_maps"),
				     .name = "mb_xl_conn_cpu" };
	char why[1024];
	int err;

	err = mb_cpu_maps_create(run, &st->lru, &outer, &inner);
	if (err)
		return err;
	for (int cpu = 0; cpu < st->lru.nr_outer; cpu++)
		st->nr_tables += st->lru.inner_fd[cpu] >= 0;
	st->skel = xl_bpf__open();
	if (!st->skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	/* --latency: the timed twin in mb_xl_lb's place, for the check and the producers. */
	mb_loop_prepare(st->skel->skeleton, &run->loop);
	err = bpf_map__reuse_fd(st->skel->maps.xl_lru_cpu, st->lru.outer_fd);
	if (err)
		return mb_run_fail(run, err, "cannot hand the connection tables to the program: %s",
				   strerror(-err));
	err = xl_bpf__load(st->skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the load balancer's XDP program", why,
				      sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	return 0;
}

int xl_setup(struct mb_run *run)
{
	const struct xl_scenario *s = ((const struct xl_args *)run->args)->scenario;
	struct xl_state *st = calloc(1, sizeof(*st));
	int err;

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "kernel-loop";
	/* The program's loop is may_goto's alone: no bpf_loop twin to fall back on. */
	if (run->loop.kind != MB_LOOP_MAY_GOTO)
		return mb_run_skip(run, "this kernel does not accept the may_goto instruction (it needs Linux 6.9 or later), which bounds xdp-lb's packet loop");
	st->packet.len = xl_pkt_build(s, st->pkt);
	st->packet.data = st->pkt;
	xl_pkt_expect(s, st->pkt, st->packet.len, &st->expect);
	err = load(run, st);
	if (!err)
		err = configure(run, st);
	if (!err)
		err = xl_check(run, st);
	return err;
}

void xl_teardown(struct mb_run *run)
{
	struct xl_state *st = run->priv;

	if (!st)
		return;
	xl_bpf__destroy(st->skel);
	mb_cpu_maps_close(&st->lru);
	free(st);
	run->priv = NULL;
}
