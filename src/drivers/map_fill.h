/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Fill a map, empty it or check it: one routine for every family. A request names the map,
 * which entries (drivers/map_entries.h: keys and values of entry i), the range of entries,
 * the order and the method:
 *
 *  - MB_FILL_KERNEL: a program of drivers/map_fill.bpf.c loops over the range in the kernel,
 *    on the map itself (bpf_map__reuse_fd) or on an inner map of a map-in-map; large ranges
 *    run in parallel, one thread per CPU of @cpus. Index keys (in key or bucket order) or
 *    given keys, zero values; the bloom filter: given values.
 *  - MB_FILL_BATCH: BPF_MAP_*_BATCH from user space, a chunk of entries per call; key by key
 *    where the map type has no batch operation.
 *  - MB_FILL_SINGLE: bpf_map_*_elem from user space, key by key.
 *
 * Each returns 0 or a negative errno (-EINTR when @stop said so, -EOPNOTSUPP for what the
 * method or the map type cannot do), and fills a result: the method that ran, its time and
 * the entries that failed (a fill: keys refused as present under @noexist, or by the kernel's
 * in-kernel updates; an empty or a check: keys absent).
 */
#ifndef MB_DRIVERS_MAP_FILL_H
#define MB_DRIVERS_MAP_FILL_H

#include <stdbool.h>
#include <stdint.h>

#include "map_entries.h"

struct mb_cpuset;
struct mb_filler;

enum mb_fill_method {
	MB_FILL_KERNEL,
	MB_FILL_BATCH,
	MB_FILL_SINGLE,
};

enum mb_fill_order {
	MB_ORDER_KEY,		/* entry numbers in turn */
	MB_ORDER_BUCKET,	/* hash maps, in the kernel: the map's bucket order (index keys) */
};

struct mb_fill {
	int fd;			/* the map; with @outer, the map-in-map holding it */
	bool outer;		/* in-kernel only: fill the inner map at key @inner_key of @fd */
	uint32_t inner_key;
	const struct mb_entries *e;
	uint32_t first, count;	/* entries first .. first + count - 1 */
	enum mb_fill_order order;
	enum mb_fill_method method;
	bool noexist;		/* updates refuse present keys (batches cannot: BPF_ANY) */
	uint32_t chunk;		/* user space: entries per batch (0: the buffers', or the default) */
	/* In the kernel: a loaded filler (NULL: one is loaded for this call) ... */
	struct mb_filler *filler;
	const struct mb_cpuset *cpus;	/* ... large ranges in parallel on these CPUs (NULL: no) */
	bool on_cpu;		/* ... or on CPU @cpu (else where the caller runs) */
	int cpu;
	int slot;		/* ... with key buffer @slot: one per caller running at once */
	/* Asked between chunks (from each thread of a parallel fill): true ends with -EINTR. */
	bool (*stop)(void *ctx);
	void *stop_ctx;
};

struct mb_fill_result {
	enum mb_fill_method method;	/* the one that ran (a batch may turn key by key) */
	enum mb_fill_order order;	/* the one that ran (bucket order where the kernel lets) */
	uint64_t ns;			/* the call's time, loading a filler included */
	uint64_t failed;
};

int mb_map_fill(const struct mb_fill *f, struct mb_fill_result *r);
int mb_map_empty(const struct mb_fill *f, struct mb_fill_result *r);
int mb_map_check(const struct mb_fill *f, struct mb_fill_result *r);

/* "bpf-loop", "batch", "single": as results name it. */
const char *mb_fill_method_name(enum mb_fill_method m);

/* ---- the in-kernel method's programs, kept loaded for fills between rounds ---- */

enum mb_fill_op {
	MB_FILL_OP_FILL,
	MB_FILL_OP_EMPTY,
	MB_FILL_OP_CHECK,
	MB_FILL_OP_NR,
};

#define MB_FILL_OPS(op)		(1u << (op))

/*
 * Load the programs for @f's map (or map-in-map), its key source and order, doing the
 * operations of @ops (MB_FILL_OPS() ORed); later requests set .filler to it and may name other
 * ranges, inner maps, CPUs and slots, with key order always and @f's order for fills. A fill in
 * bucket order that the kernel refuses (programs may not read the map's fields) loads in key
 * order: mb_filler_order() says which. Given keys or values are copied in now, for @f's
 * range. NULL with errno set on error.
 */
struct mb_filler *mb_filler_open(const struct mb_fill *f, unsigned int ops);
enum mb_fill_order mb_filler_order(const struct mb_filler *k);
void mb_filler_close(struct mb_filler *k);

#endif
