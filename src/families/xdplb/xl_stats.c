// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* xdp-lb's per-CPU stats as user space reads them: added up over the CPUs, or zeroed. */
#include <errno.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drivers/map_fill.h"
#include "xl_run.h"

int xl_counts_reset(const struct xl_state *st)
{
	struct mb_entries e = { .type = mb_map_type_by_name("percpu_array"), .key_size = 4,
				.value_size = sizeof(struct xl_stat_val), .key = MB_KEY_INDEX,
				.value = MB_VALUE_ZERO };
	struct mb_fill f = { .fd = bpf_map__fd(st->skel->maps.xl_stats), .e = &e,
			     .count = XL_STATS, .method = MB_FILL_SINGLE };
	struct mb_fill_result r;
	int err = mb_map_fill(&f, &r);

	return err ? err : r.failed ? -EIO : 0;
}

/* Stat @key (v1 and v2) added up over the CPUs. */
static int stat_sum(const struct xl_state *st, __u32 key, __u64 *v1, __u64 *v2)
{
	int ncpu = libbpf_num_possible_cpus();
	struct xl_stat_val *v;
	int err = 0;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	*v1 = *v2 = 0;
	if (bpf_map_lookup_elem(bpf_map__fd(st->skel->maps.xl_stats), &key, v))
		err = -errno;
	for (int c = 0; c < ncpu && !err; c++) {
		*v1 += v[c].v1;
		*v2 += v[c].v2;
	}
	free(v);
	return err;
}

int xl_counts_read(const struct xl_state *st, struct xl_counts *c)
{
	__u64 unused;
	int err = stat_sum(st, XL_STAT_TX, &c->tx, &unused);

	if (!err)
		err = stat_sum(st, XL_STAT_PASS, &c->pass, &unused);
	if (!err)
		err = stat_sum(st, XL_STAT_DROP, &c->drop, &unused);
	if (!err)
		err = stat_sum(st, XL_STAT_LRU, &c->lru_packets, &c->lru_misses);
	if (!err)
		err = stat_sum(st, XL_STAT_TCP_MISS, &c->tcp_misses, &unused);
	return err;
}
