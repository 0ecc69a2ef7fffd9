// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/env.h"
#include "core/latency.h"
#include "kloop_latency.h"
#include "kloop_shared.h"

#define LAT_MAP_NAME	"mb_lat_hists"	/* kloop_lat.bpf.h */
#define MAX_MAP_IDS	64

void mb_kloop_latency_prepare(struct mb_run *run)
{
	struct mb_latency *lat = run->latency;

	run->loop.lat_every = 0;
	if (!lat)
		return;
	if (run->loop.kind != MB_LOOP_MAY_GOTO) {
		snprintf(lat->why, sizeof(lat->why), "ops are timed in the may_goto loop only, and this run has the bpf_loop fallback (%s)",
			 run->loop.why);
		return;
	}
	run->loop.lat_every = MB_LAT_EVERY;
	lat->every = MB_LAT_EVERY;
	snprintf(lat->why, sizeof(lat->why), "this bench runs its programs itself, not through the op loop's producer: its timed ops were not read (per-op timing of such benches is for later)");
}

/* A new fd of the histogram map among @prog_fd's maps, or -1. */
static int find_hist_map(int prog_fd)
{
	__u32 ids[MAX_MAP_IDS], len = sizeof(struct bpf_prog_info);
	struct bpf_prog_info info = { .nr_map_ids = MAX_MAP_IDS,
				      .map_ids = (__u64)(unsigned long)ids };

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -1;
	for (__u32 i = 0; i < info.nr_map_ids && i < MAX_MAP_IDS; i++) {
		struct bpf_map_info mi = {};
		__u32 mlen = sizeof(mi);
		int fd = bpf_map_get_fd_by_id(ids[i]);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &mi, &mlen) && !strcmp(mi.name, LAT_MAP_NAME) &&
		    mi.value_size == sizeof(struct mb_lat_hist))
			return fd;
		close(fd);
	}
	return -1;
}

void mb_kloop_latency_attach(struct mb_run *run, int prog_fd, uint32_t ops_per_iter)
{
	struct mb_latency *lat = run->latency;
	int fd;

	if (!lat || !run->loop.lat_every || lat->fd >= 0)
		return;
	fd = find_hist_map(prog_fd);
	if (fd < 0) {
		snprintf(lat->why, sizeof(lat->why), "the bench's program has no histogram map %s (%s)",
			 LAT_MAP_NAME, strerror(errno));
		return;
	}
	lat->ops_per_timed = ops_per_iter;
	lat->why[0] = '\0';
	/* The sampler reads the map from now on: everything above first. */
	__atomic_store_n(&lat->fd, fd, __ATOMIC_RELEASE);
}

/* @key's histograms of every CPU, summed into @h. */
static int read_merged(int fd, __u32 key, struct mb_lat_hist *h)
{
	int ncpu = libbpf_num_possible_cpus();
	struct mb_lat_hist *per_cpu;
	int err = 0;

	if (ncpu <= 0)
		return -EINVAL;
	per_cpu = calloc((size_t)ncpu, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, &key, per_cpu))
		err = -errno;
	memset(h, 0, sizeof(*h));
	for (int c = 0; !err && c < ncpu; c++)
		mb_lat_hist_merge(h, &per_cpu[c]);
	free(per_cpu);
	return err;
}

static int read_both(const struct mb_latency *lat, struct mb_lat_hist *op,
		     struct mb_lat_hist *timer)
{
	int err = read_merged(lat->fd, MB_LAT_OP, op);

	return err ? err : read_merged(lat->fd, MB_LAT_TIMER, timer);
}

void mb_kloop_latency_sample(struct mb_run *run, const struct mb_sample *s)
{
	struct mb_latency *lat = run->latency;

	if (lat && __atomic_load_n(&lat->fd, __ATOMIC_ACQUIRE) >= 0)
		mb_latency_sample(lat, read_both, s && !s->warmup);
}

void mb_kloop_latency_release(struct mb_run *run)
{
	struct mb_latency *lat = run->latency;

	if (!lat)
		return;
	if (lat->fd >= 0)
		close(lat->fd);
	lat->fd = -1;
	mb_latency_forget(lat);
}
