// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdpmaps family: what every bench sets up and checks. The map of the bench's type from its
 * recipe (drivers/map_probe.h), and its entries: devmap and devmap_hash entries name the
 * devices in turn (devmap_hash under keys spread over 32 bits), cpumap one entry per online
 * CPU with --qsize, xskmap the sockets in turn. The map is filled key by key from the thread
 * that is in the devices' namespace: the kernel reads an ifindex in the namespace of the
 * thread that writes it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "xm.h"
#include "core/env.h"
#include "drivers/map_fill.h"
#include "drivers/map_probe.h"
#include "maps/map_recipe.h"
#include "util/cpuset.h"
#include "util/json.h"

static const int xm_kernel_type[XM_TYPE_NR] = {
	[XM_DEVMAP] = BPF_MAP_TYPE_DEVMAP,
	[XM_DEVMAP_HASH] = BPF_MAP_TYPE_DEVMAP_HASH,
	[XM_CPUMAP] = BPF_MAP_TYPE_CPUMAP,
	[XM_XSKMAP] = BPF_MAP_TYPE_XSKMAP,
};

int xm_validate_common(struct mb_run *run, enum xm_type type)
{
	const struct xm_args *a = run->args;

	if (type == XM_CPUMAP && mb_run_opt_given(run, "nr_entries") &&
	    a->nr_entries > (uint32_t)run->env->online.count)
		return mb_run_bad_num(run, "nr_entries", a->nr_entries,
				      "1..%d (cpumap: one entry per online CPU)",
				      run->env->online.count);
	if (type == XM_CPUMAP && a->dev)
		return mb_run_usage(run, "--dev %s: a cpumap's entries are CPUs, not devices",
				    a->dev);
	return xm_check_dev(run, a->dev);
}

uint32_t xm_value(const struct xm_state *st, uint32_t i, uint32_t turn)
{
	uint32_t j = i + turn;

	switch (st->type) {
	case XM_CPUMAP:
		/*
		 * Every update a different queue size, so that a read back tells them apart: one
		 * more, or one less at the kernel's limit (0 would delete the entry).
		 */
		if (!(turn & 1))
			return st->args->qsize;
		return st->args->qsize < XM_MAX_QSIZE ? st->args->qsize + 1 : st->args->qsize - 1;
	case XM_XSKMAP:
		return (uint32_t)st->w.xsk[j % (uint32_t)st->w.nr_xsk].fd;
	default:
		/* Frames sent go to the veth pair only: lo takes no XDP frames. */
		if (st->args->live)
			return (uint32_t)st->w.ifindex[1 + j % 2];
		return (uint32_t)st->w.ifindex[j % (uint32_t)st->w.nr_dev];
	}
}

/* The entries' keys, their first values; the map's max_entries. */
static int xm_entries(struct mb_run *run, struct xm_state *st, uint32_t *max)
{
	const struct xm_args *a = run->args;
	int cpu = -1;

	st->nr = a->nr_entries;
	if (st->type == XM_CPUMAP && !mb_run_opt_given(run, "nr_entries"))
		st->nr = (uint32_t)run->env->online.count;
	st->keys = calloc(st->nr, sizeof(*st->keys));
	st->values = calloc(st->nr, sizeof(*st->values));
	st->turn = calloc(st->nr, sizeof(*st->turn));
	if (!st->keys || !st->values || !st->turn)
		return mb_run_fail(run, -ENOMEM, "out of memory for %u entries", st->nr);
	*max = st->nr;
	for (uint32_t i = 0; i < st->nr; i++) {
		if (st->type == XM_CPUMAP) {
			cpu = mb_cpuset_next(&run->env->online, cpu + 1);
			st->keys[i] = (uint32_t)cpu;
			*max = (uint32_t)cpu + 1;
		} else {
			/* devmap_hash: keys spread over 32 bits (Knuth's multiplier). */
			st->keys[i] = st->type == XM_DEVMAP_HASH ? i * 2654435761u : i;
		}
		st->values[i] = xm_value(st, i, 0);
	}
	return 0;
}

/* Create the map from its recipe and fill it in the devices' namespace. */
static int xm_map_make(struct mb_run *run, struct xm_state *st, uint32_t max)
{
	const char *name = xm_type_names[st->type];
	struct mb_recipe_map m;
	struct mb_entries e = { .key_size = 4, .value_size = 4, .key = MB_KEY_GIVEN,
				.value = MB_VALUE_GIVEN, .keys = st->keys, .values = st->values };
	struct mb_fill f = { .e = &e, .count = st->nr, .method = MB_FILL_SINGLE };
	struct mb_fill_result r = { 0 };
	char why[256];
	int home, err;

	err = mb_recipe_map_get(&m, mb_map_recipe_find(name), xm_kernel_type[st->type], max, why,
				sizeof(why));
	if (!err) {
		m.d.name = "mb_xm_map";
		st->map_fd = mb_run_map_create(run, &m.d, NULL);
	}
	e.type = &m.ti;
	f.fd = st->map_fd;
	if (!err && st->map_fd >= 0) {
		err = xm_world_enter(&st->w, &home);
		if (!err)
			err = mb_map_fill(&f, &r);
		if (xm_world_leave(&home) && !err)
			err = -EIO;
		if (err || r.failed)
			mb_run_fail(run, err ? err : -EIO, "cannot fill the %s with %u entries: %s",
				    name, st->nr, err ? strerror(-err) : "keys refused");
	} else if (err) {
		mb_run_fail(run, err, "cannot make the %s: %s", name, why);
	}
	mb_recipe_map_put(&m);
	return st->map_fd < 0 ? st->map_fd : err ? err : r.failed ? -EIO : 0;
}

int xm_setup(struct mb_run *run, enum xm_type type, bool xsk)
{
	const struct xm_args *a = run->args;
	struct xm_state *st;
	uint32_t max = 0;
	char why[256];
	int err;

	if (mb_map_probe_type(mb_map_recipe_find(xm_type_names[type]), xm_kernel_type[type], why,
			      sizeof(why)))
		return mb_run_skip(run, "%s", why);
	st = calloc(1, sizeof(*st));
	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	st->args = a;
	st->type = type;
	st->map_fd = -1;
	st->prog_fd = -1;
	/* A cpumap names no device: no namespace to make. */
	st->w.ns.fd = -1;
	err = type == XM_CPUMAP ? 0 : xm_world_open(run, &st->w, a->dev, xsk);
	if (err)
		return err;
	if (xsk && !st->w.nr_xsk)
		return mb_run_skip(run, "xskmap needs AF_XDP sockets: %s", st->w.xsk_why);
	err = xm_entries(run, st, &max);
	return err ? err : xm_map_make(run, st, max);
}

void xm_teardown(struct mb_run *run)
{
	struct xm_state *st = run->priv;

	if (!st)
		return;
	xm_prog_close(st);
	if (st->map_fd >= 0)
		close(st->map_fd);
	/* After the map: its entries hold the devices and sockets. */
	xm_world_close(&st->w);
	free(st->keys);
	free(st->values);
	free(st->turn);
	free(st);
	run->priv = NULL;
}

void xm_read_back(struct xm_state *st)
{
	st->read_back = st->type != XM_XSKMAP;
	for (uint32_t i = 0; st->read_back && i < st->nr; i++) {
		uint32_t v = 0;

		if (!bpf_map_lookup_elem(st->map_fd, &st->keys[i], &v) && v == st->values[i])
			st->read_ok++;
		else
			st->read_wrong++;
	}
}

void xm_describe(struct mb_run *run, const struct xm_state *st)
{
	struct mb_json *x = mb_run_extra(run), *devs = mb_json_array();

	mb_json_set_str(x, "map_type", xm_type_names[st->type]);
	mb_json_set_num(x, "entries", st->nr);
	if (st->w.ns.fd >= 0)
		mb_json_set_num(x, "netns_inode", (double)st->w.ns.inode);
	mb_json_set_str(x, "namespace", st->w.ns.fd >= 0 ? "the run's own" :
			st->w.nr_dev ? "the host's" : "none");
	for (int i = 0; i < st->w.nr_dev; i++) {
		struct mb_json *d = mb_json_object();

		mb_json_set_str(d, "name", st->w.dev[i]);
		mb_json_set_num(d, "ifindex", st->w.ifindex[i]);
		mb_json_append(devs, d);
	}
	mb_json_set(x, "devices", devs);
	mb_json_set_num(x, "xsk_sockets", st->w.nr_xsk);
	if (st->type == XM_CPUMAP)
		mb_json_set_num(x, "qsize", st->args->qsize);
}
