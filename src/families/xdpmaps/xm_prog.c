// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdpmaps family: xm.bpf.c loaded for one run: the map set-up made takes the place of the
 * object's map of its type (the others are not created), and only the program of the run's
 * type and kind loads (xm.bpf.c says why never both kinds). The keys and the values the
 * programs compare with go into the mmapped .bss after load.
 */
#include <errno.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "xm.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "sys/probe.h"
#include "xm.skel.h"

#define XM_LOAD_REDIRECT	"cannot load the XDP program of bpf_redirect_map (a may_goto loop)"
#define XM_LOAD_LOOKUP		"cannot load the lookup loop"

struct xm_objs {
	struct bpf_map *map;
	struct bpf_program *lookup;	/* NULL: cpumap, whose entries BPF may not look up */
	struct bpf_program *redirect;
	struct bpf_program *live;	/* NULL: frames go to devices only */
};

static struct xm_objs xm_objs(struct xm_bpf *s, enum xm_type t)
{
	switch (t) {
	case XM_DEVMAP_HASH:
		return (struct xm_objs){ s->maps.mb_xm_devmap_hash,
					 s->progs.mb_xm_lookup_devmap_hash,
					 s->progs.mb_xm_redirect_devmap_hash,
					 s->progs.mb_xm_live_devmap_hash };
	case XM_CPUMAP:
		return (struct xm_objs){ s->maps.mb_xm_cpumap, NULL,
					 s->progs.mb_xm_redirect_cpumap, NULL };
	case XM_XSKMAP:
		return (struct xm_objs){ s->maps.mb_xm_xskmap, s->progs.mb_xm_lookup_xskmap,
					 s->progs.mb_xm_redirect_xskmap, NULL };
	default:
		return (struct xm_objs){ s->maps.mb_xm_devmap, s->progs.mb_xm_lookup_devmap,
					 s->progs.mb_xm_redirect_devmap,
					 s->progs.mb_xm_live_devmap };
	}
}

/* Only @want (and @also) load, and only @map of the four maps is there (set-up's). */
static int xm_pick(struct xm_bpf *s, struct bpf_map *map, struct bpf_program *want,
		   struct bpf_program *also, int fd)
{
	struct bpf_program *p;
	struct bpf_map *m;

	bpf_object__for_each_program(p, s->obj)
		bpf_program__set_autoload(p, p == want || p == also);
	bpf_object__for_each_map(m, s->obj) {
		const char *n = bpf_map__name(m);

		if (!strncmp(n, "mb_xm_", 6) && m != map)
			bpf_map__set_autocreate(m, false);
	}
	return bpf_map__reuse_fd(map, fd);
}

/*
 * Live frames: the counting program on both ends of the veth pair, attached from inside the
 * run's namespace (the kernel finds an ifindex in the caller's); detached by xm_prog_close,
 * or with the namespace.
 */
static int xm_attach_rx(struct mb_run *run, struct xm_state *st)
{
	int home, err = xm_world_enter(&st->w, &home);

	for (int i = 0; !err && i < 2; i++) {
		st->rx_link[i] = bpf_program__attach_xdp(st->skel->progs.mb_xm_rx,
							 st->w.ifindex[1 + i]);
		if (!st->rx_link[i]) {
			err = -errno;
			mb_run_fail(run, err, "cannot attach the counting XDP program to %s: %s",
				    st->w.dev[1 + i], strerror(errno));
		}
	}
	if (xm_world_leave(&home) && !err)
		err = mb_run_fail(run, -EIO, "cannot return to the process's network namespace");
	return err;
}

int xm_prog_load(struct mb_run *run, struct xm_state *st, enum xm_prog_kind kind)
{
	struct xm_bpf *s = xm_bpf__open();
	struct bpf_program *want;
	struct xm_objs o;
	char why[1024];
	int err;

	if (!s)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	st->skel = s;
	if (kind == XM_PROG_LOOKUP)
		mb_loop_prepare(s->skeleton, &run->loop);
	o = xm_objs(s, st->type);
	want = kind == XM_PROG_LOOKUP ? o.lookup : kind == XM_PROG_LIVE ? o.live : o.redirect;
	err = xm_pick(s, o.map, want, kind == XM_PROG_LIVE ? s->progs.mb_xm_rx : NULL,
		      st->map_fd);
	if (err)
		return mb_run_fail(run, err, "cannot hand the %s to the program: %s",
				   xm_type_names[st->type], strerror(-err));
	err = xm_bpf__load(s);
	if (err) {
		mb_explain_load_error(err, kind == XM_PROG_LOOKUP ? XM_LOAD_LOOKUP :
				      XM_LOAD_REDIRECT, why, sizeof(why));
		return mb_run_fail(run, err, "%s (--map_type %s)", why, xm_type_names[st->type]);
	}
	for (uint32_t i = 0; i < st->nr; i++) {
		s->bss->mb_xm_keys[i] = st->keys[i];
		s->bss->mb_xm_want[i] = st->values[i];
	}
	s->bss->mb_xm_nr_keys = st->nr;
	st->prog_fd = bpf_program__fd(want);
	return kind == XM_PROG_LIVE ? xm_attach_rx(run, st) : 0;
}

void xm_prog_close(struct xm_state *st)
{
	for (int i = 0; i < 2; i++) {
		bpf_link__destroy(st->rx_link[i]);
		st->rx_link[i] = NULL;
	}
	xm_bpf__destroy(st->skel);
	st->skel = NULL;
	st->prog_fd = -1;
}
