// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hash family, user-space paths: what a control plane pays. --path syscall issues one
 * bpf_map_*_elem per op; --path batch the BPF_MAP_*_BATCH commands, --batch_size elements per
 * call (lookups dump the map in its own order: there is no keyed batch lookup). Each
 * producer has its own key stream and buffers; refills happen outside the measured time.
 * With --latency, one op (batch) in HASH_USER_LAT_EVERY (HASH_BATCH_LAT_EVERY) is timed.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "hash.h"
#include "util/log.h"
#include "core/runner.h"
#include "drivers/user_latency.h"

/* Single ops between two publications of the counters (and two CPU clock reads). */
#define USER_CHUNK 256

struct user_prod {
	struct hash_state *st;
	const struct hash_stream *s;
	uint32_t key_size;
	size_t value_bytes;
	uint8_t *keys;		/* [batch] keys, pattern bytes filled once */
	uint8_t *values;	/* [batch] values */
	uint32_t *idx;		/* precomputed stream, or NULL (seq) */
	uint32_t idx_len;
	uint32_t pos;		/* in idx */
	uint32_t cursor;	/* seq position, or position in a once-through range */
	uint64_t in_token, out_token;	/* batch lookup position */
	int token_fd;		/* map the token belongs to, -1: start from the beginning */
	struct mb_counters c;
	uint64_t cpu_ns;	/* thread CPU time spent on ops */
	uint64_t refill_cpu_ns;	/* ... and on refills, to take out of it */
	struct mb_user_lat *lat;	/* --latency: its timed ops, or NULL */
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint32_t next_index(struct user_prod *u, bool wraps, bool *last)
{
	uint32_t v;

	*last = false;
	if (!wraps) {
		v = u->idx ? u->idx[u->cursor] : u->s->base + u->cursor;
		*last = ++u->cursor >= u->s->range;
		return v;
	}
	if (u->idx) {
		v = u->idx[u->pos];
		if (++u->pos == u->idx_len)
			u->pos = 0;
		return v;
	}
	v = u->s->base + u->cursor;
	if (++u->cursor >= u->s->range)
		u->cursor = 0;
	return v;
}

static int refill(struct mb_run *run, struct mb_producer *p, struct user_prod *u)
{
	uint64_t t = mb_now_ns(), cpu = thread_cpu_ns();
	int err = hash_refill_range(u->st, p->idx, p->cpu);

	u->refill_cpu_ns += thread_cpu_ns() - cpu;
	u->c.excluded_ns += mb_now_ns() - t;
	u->cursor = 0;
	if (err)
		mb_err("%s: producer %d: cannot refill its key range: %s", run->bench->name, p->idx,
		       strerror(-err));
	return err;
}

static int current_fd(struct mb_producer *p, struct user_prod *u)
{
	return hash_user_fd(u->st, p->cpu >= 0 ? p->cpu : sched_getcpu());
}

/* One syscall's outcome; @absent: the key is not expected in the map (lookup-miss). */
static void count(struct mb_counters *c, int ret, bool absent)
{
	c->ops++;
	c->calls++;
	if (absent && ret && errno == ENOENT)
		c->misses++;
	else if (!absent && !ret)
		c->hits++;
	else
		c->errors++;
}

static int syscall_chunk(struct mb_run *run, struct mb_producer *p, struct user_prod *u)
{
	enum hash_op op = u->st->op;
	bool wraps = hash_op_wraps(op), last;
	int fd = current_fd(p, u);
	uint8_t *key = u->keys;
	void *val = u->values;

	for (int j = 0; j < USER_CHUNK; j++) {
		uint32_t k = next_index(u, wraps, &last);
		bool timed = mb_user_latency_due(u->lat);
		uint64_t t0 = 0;

		memcpy(key, &k, sizeof(k));
		if (timed)
			t0 = mb_now_ns();
		switch (op) {
		case HASH_LOOKUP:
			count(&u->c, bpf_map_lookup_elem(fd, key, val), false);
			break;
		case HASH_MISS:
			count(&u->c, bpf_map_lookup_elem(fd, key, val), true);
			break;
		case HASH_UPDATE:
			count(&u->c, bpf_map_update_elem(fd, key, val, BPF_EXIST), false);
			break;
		case HASH_INSERT:
			count(&u->c, bpf_map_update_elem(fd, key, val, BPF_NOEXIST), false);
			break;
		case HASH_DELETE:
			count(&u->c, bpf_map_delete_elem(fd, key), false);
			break;
		case HASH_MIXED:
			count(&u->c, bpf_map_update_elem(fd, key, val, BPF_ANY), false);
			count(&u->c, bpf_map_lookup_elem(fd, key, val), false);
			count(&u->c, bpf_map_delete_elem(fd, key), false);
			break;
		default:
			return -EINVAL;
		}
		if (timed)
			mb_user_latency_end(u->lat, t0);
		if (last) {
			int err = refill(run, p, u);

			if (err)
				return err;
		}
	}
	return 0;
}

static int batch_lookup(struct mb_run *run, struct mb_producer *p, struct user_prod *u)
{
	const struct hash_args *a = u->st->args;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	int fd = current_fd(p, u), ret;
	uint32_t n = a->batch_size;

	bool timed = mb_user_latency_due(u->lat);
	uint64_t t0 = timed ? mb_now_ns() : 0;

	if (u->token_fd != fd)
		u->token_fd = -1;
	ret = bpf_map_lookup_batch(fd, u->token_fd < 0 ? NULL : &u->in_token, &u->out_token,
				   u->keys, u->values, &n, &opts);
	if (timed)
		mb_user_latency_end(u->lat, t0);
	u->c.calls++;
	u->c.ops += n;
	u->c.hits += n;
	if (ret && errno == ENOENT) {
		u->token_fd = -1;	/* the end of the map: start over */
		return 0;
	}
	if (ret) {
		if (errno == ENOSPC)
			mb_err("%s: --batch_size %u: a bucket of the map holds more elements than one batch: raise --batch_size",
			       run->bench->name, a->batch_size);
		else
			mb_err("%s: BPF_MAP_LOOKUP_BATCH failed: %s", run->bench->name,
			       strerror(errno));
		return -errno;
	}
	u->in_token = u->out_token;
	u->token_fd = fd;
	return 0;
}

static int batch_write(struct mb_run *run, struct mb_producer *p, struct user_prod *u)
{
	const struct hash_args *a = u->st->args;
	enum hash_op op = u->st->op;
	bool wraps = hash_op_wraps(op), last = false;
	int fd = current_fd(p, u);
	uint32_t n = 0, done = 0;
	bool timed = mb_user_latency_due(u->lat);
	uint64_t t0;

	while (n < a->batch_size && !last) {
		uint32_t k = next_index(u, wraps, &last);

		memcpy(u->keys + (size_t)n * u->key_size, &k, sizeof(k));
		n++;
	}
	t0 = timed ? mb_now_ns() : 0;
	/*
	 * A batch stops at its first failing element: count it, skip it, go on. elem_flags
	 * takes only BPF_F_LOCK: batch updates and inserts are BPF_ANY.
	 */
	while (done < n) {
		LIBBPF_OPTS(bpf_map_batch_opts, opts);
		uint32_t cnt = n - done;
		uint8_t *keys = u->keys + (size_t)done * u->key_size;
		int ret;

		if (op == HASH_DELETE)
			ret = bpf_map_delete_batch(fd, keys, &cnt, &opts);
		else
			ret = bpf_map_update_batch(fd, keys, u->values, &cnt, &opts);
		u->c.calls++;
		if (cnt > n - done)
			cnt = n - done;
		u->c.hits += cnt;
		done += cnt;
		if (!ret)
			continue;
		/* Element failures (absent, present, full) are counted; anything else ends it. */
		if (done >= n || (errno != ENOENT && errno != EEXIST && errno != E2BIG &&
				  errno != ENOMEM)) {
			mb_err("%s: %s failed: %s", run->bench->name,
			       op == HASH_DELETE ? "BPF_MAP_DELETE_BATCH" : "BPF_MAP_UPDATE_BATCH",
			       strerror(errno));
			return -errno;
		}
		u->c.errors++;
		done++;
	}
	if (timed)
		mb_user_latency_end(u->lat, t0);
	u->c.ops += n;
	if (last)
		return refill(run, p, u);
	return 0;
}

static void user_free(struct user_prod *u)
{
	free(u->keys);
	free(u->values);
	free(u->idx);
}

static int user_init(struct mb_run *run, struct mb_producer *p, struct user_prod *u)
{
	struct hash_state *st = run->priv;
	const struct hash_args *a = st->args;
	uint32_t batch = a->path == HASH_PATH_BATCH ? a->batch_size : 1;
	enum hash_op op = st->op;

	memset(u, 0, sizeof(*u));
	u->st = st;
	u->s = &st->streams[p->idx];
	u->key_size = a->key_size;
	u->value_bytes = mb_map_value_bytes(st->leaf, a->value_size);
	u->token_fd = -1;
	u->lat = mb_user_latency_of(run, p->idx);
	u->keys = calloc(batch, a->key_size);
	u->values = calloc(batch, u->value_bytes);
	if (!u->keys || !u->values)
		return -ENOMEM;
	for (uint32_t i = 0; i < batch; i++)
		mb_index_key_pattern(u->keys + (size_t)i * a->key_size, a->key_size);
	if (a->key_dist.kind == MB_DIST_SEQ) {
		u->cursor = hash_op_wraps(op) ? u->s->start : 0;
		return 0;
	}
	/* Draws and shuffles are made before the clock runs. */
	u->idx_len = hash_stream_len(op, u->s);
	u->idx = malloc(sizeof(uint32_t) * u->idx_len);
	if (!u->idx)
		return -ENOMEM;
	return hash_stream_indices(op, u->s, &a->key_dist, u->idx, u->idx_len);
}

int hash_user_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct hash_args *a = ((struct hash_state *)run->priv)->args;
	struct hash_cpu *cpu = &((struct hash_state *)run->priv)->cpu[p->idx];
	struct user_prod u;
	int err = user_init(run, p, &u);

	if (!err)
		mb_producer_publish_stamped(p, &u.c);
	while (!err && !mb_run_should_stop(run)) {
		uint64_t t0 = thread_cpu_ns(), refill0 = u.refill_cpu_ns;

		if (a->path == HASH_PATH_SYSCALL)
			err = syscall_chunk(run, p, &u);
		else if (u.st->op == HASH_LOOKUP)
			err = batch_lookup(run, p, &u);
		else
			err = batch_write(run, p, &u);
		u.cpu_ns += thread_cpu_ns() - t0 - (u.refill_cpu_ns - refill0);
		/*
		 * A batch call can be long (--batch_size): rates divide by the calls' time.
		 * Counters first: a sample never sees CPU time of ops it does not count.
		 */
		mb_producer_publish_stamped(p, &u.c);
		__atomic_store_n(&cpu->ns, u.cpu_ns, __ATOMIC_RELEASE);
	}
	user_free(&u);
	return err;
}
