// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdpmaps family: the devices a map's entries name. By default lo and a veth pair
 * (mb_xm0, mb_xm1) made in a network namespace of the run's own (sys/netns.h), all three up:
 * closing the namespace's fd removes it and them, also when the process is killed, so a run
 * leaves no device behind. With --dev NAME: lo and NAME of the host's own namespace, which
 * the run only names. The AF_XDP sockets, one per device, are made in the same namespace.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "xm.h"
#include "sys/veth.h"

static const char *const xm_veth[2] = { "mb_xm0", "mb_xm1" };

int xm_check_dev(struct mb_run *run, const char *name)
{
	if (!name)
		return 0;
	if (!*name || strlen(name) >= IF_NAMESIZE || !if_nametoindex(name))
		return mb_run_usage(run, "--dev %s: must be a network device of this namespace (ip link)",
				    name);
	return 0;
}

static void world_add(struct xm_world *w, const char *name)
{
	snprintf(w->dev[w->nr_dev], sizeof(w->dev[0]), "%s", name);
	w->ifindex[w->nr_dev++] = (int)if_nametoindex(name);
}

/* In the namespace: the veth pair, every device up. 0, or a negative errno with @why. */
static int world_veth(struct xm_world *w, char *why, size_t len)
{
	int err = mb_veth_add(xm_veth[0], xm_veth[1]);

	if (err) {
		snprintf(why, len, "cannot make a veth pair in the run's network namespace: %s%s",
			 strerror(-err),
			 err == -EOPNOTSUPP ? " (a kernel without CONFIG_VETH)" : "");
		return err;
	}
	world_add(w, "lo");
	world_add(w, xm_veth[0]);
	world_add(w, xm_veth[1]);
	for (int i = 0; i < w->nr_dev; i++) {
		err = w->ifindex[i] ? mb_link_set_up(w->ifindex[i]) : -ENODEV;
		if (err) {
			snprintf(why, len, "cannot set %s up in the run's network namespace: %s",
				 w->dev[i], strerror(-err));
			return err;
		}
	}
	return 0;
}

/* The sockets, one per device; none (and why) where the kernel refuses. */
static void world_xsk(struct xm_world *w)
{
	for (int i = 0; i < w->nr_dev; i++) {
		if (xm_xsk_open(&w->xsk[i], w->ifindex[i], w->xsk_why, sizeof(w->xsk_why))) {
			while (i--)
				xm_xsk_close(&w->xsk[i]);
			w->nr_xsk = 0;
			return;
		}
		w->nr_xsk++;
	}
}

int xm_world_open(struct mb_run *run, struct xm_world *w, const char *dev, bool xsk)
{
	char why[512];
	int home = -1, err = 0;

	for (int i = 0; i < XM_NR_DEVS; i++)
		w->xsk[i].fd = -1;
	w->ns.fd = -1;
	if (dev) {
		world_add(w, "lo");
		world_add(w, dev);
		if (xsk)
			world_xsk(w);
		return 0;
	}
	err = mb_netns_make(&w->ns, why, sizeof(why));
	if (err)
		return mb_run_skip(run, "%s", why);
	err = mb_netns_enter(&w->ns, &home);
	if (err)
		return mb_run_fail(run, err, "cannot enter the run's network namespace: %s",
				   strerror(-err));
	err = world_veth(w, why, sizeof(why));
	if (!err && xsk)
		world_xsk(w);
	if (mb_netns_leave(&home) && !err)
		return mb_run_fail(run, -EIO, "cannot return to the process's network namespace");
	return err ? mb_run_skip(run, "%s", why) : 0;
}

void xm_world_close(struct xm_world *w)
{
	for (int i = 0; i < XM_NR_DEVS; i++)
		xm_xsk_close(&w->xsk[i]);
	w->nr_xsk = 0;
	mb_netns_close(&w->ns);
}

int xm_world_enter(const struct xm_world *w, int *home)
{
	*home = -1;
	return w->ns.fd < 0 ? 0 : mb_netns_enter(&w->ns, home);
}

int xm_world_leave(int *home)
{
	return mb_netns_leave(home);
}
