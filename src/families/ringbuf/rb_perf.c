// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The perf buffer: a perf event array with one BPF-output perf event per CPU, each with its
 * own mapped ring of --perfbuf-sz pages. pb-libbpf takes samples with libbpf's perf_buffer
 * (perf_buffer__new_raw, for the kernel bench's sampled wake-ups); pb-custom opens the events
 * and reads their rings itself: each record is a perf_event_header, a sample's raw data after
 * its 4-byte size, and a record can wrap around the ring's end.
 */
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/env.h"
#include "core/runner.h"
#include "rb.h"
#include "perfbuf.skel.h"
#include "sys/probe.h"

struct pb_cpu {
	int fd;
	struct perf_event_mmap_page *meta;
	const uint8_t *data;
};

struct rb_perf {
	struct perfbuf_bpf *skel;
	struct perf_buffer *lib;	/* pb-libbpf */
	struct perf_event_attr attr;
	int epfd;			/* pb-custom: */
	int nr_cpus;			/* the map's entries: possible CPUs */
	struct pb_cpu *cpus;		/* [nr_cpus], fd -1 where the CPU is not online */
	struct epoll_event *events;
	size_t page, ring_len;		/* data bytes of one CPU's ring (a power of two) */
};

static int perf_load(struct mb_run *run, struct rb_state *st, struct rb_perf *pf)
{
	const struct rb_args *a = run->args;
	char msg[512];
	int err;

	pf->skel = perfbuf_bpf__open();
	if (!pf->skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	mb_loop_prepare(pf->skel->skeleton, &run->loop);
	pf->skel->rodata->rb_rec_size = a->rec_size;
	pf->skel->rodata->rb_stamp_mask = st->stamp_rows - 1;
	pf->skel->rodata->rb_stamps_on = a->check == RB_CHECK_RECORDS;
	bpf_map__set_max_entries(pf->skel->maps.mb_pb, (uint32_t)pf->nr_cpus);
	bpf_map__set_max_entries(pf->skel->maps.mb_rb_stamps,
				 (uint32_t)(st->stamp_rows * (uint64_t)run->nr_producers));
	err = perfbuf_bpf__load(pf->skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the BPF program", msg, sizeof(msg));
		return mb_run_fail(run, err, "%s", msg);
	}
	st->prog_fd = bpf_program__fd(pf->skel->progs.mb_pb_output);
	st->slots = pf->skel->bss->mb_slots;
	return rb_map_stamps(run, st, bpf_map__fd(pf->skel->maps.mb_rb_stamps));
}

/* The raw data of a PERF_RECORD_SAMPLE: its 4-byte size, then the record (read to check it). */
static void sample_record(struct rb_state *st, const uint8_t *raw, int cpu)
{
	uint64_t id;

	if (!st->check.each) {
		rb_check_count(&st->check);
		return;
	}
	memcpy(&id, raw + sizeof(uint32_t), sizeof(id));
	rb_check_record(&st->check, id, cpu);
}

static enum bpf_perf_event_ret lib_event(void *ctx, int cpu, struct perf_event_header *e)
{
	struct rb_state *st = ctx;
	uint64_t lost;

	if (e->type == PERF_RECORD_SAMPLE) {
		rb_poll_record(st);
		sample_record(st, (const uint8_t *)(e + 1), cpu);
	} else if (e->type == PERF_RECORD_LOST) {
		memcpy(&lost, (const uint8_t *)(e + 1) + sizeof(uint64_t), sizeof(lost));
		st->kernel_lost += lost;
	}
	return LIBBPF_PERF_EVENT_CONT;
}

static int lib_open(struct mb_run *run, struct rb_state *st, struct rb_perf *pf)
{
	const struct rb_args *a = run->args;

	st->consumer_name = "libbpf: perf_buffer__poll(), a callback per sample";
	pf->lib = perf_buffer__new_raw(bpf_map__fd(pf->skel->maps.mb_pb), a->perfbuf_sz, &pf->attr,
				       lib_event, st, NULL);
	if (!pf->lib)
		return mb_run_fail(run, -errno, "cannot make libbpf's perf buffer: %s",
				   strerror(errno));
	return 0;
}

/* pb-custom: the BPF-output event of @cpu, its ring mapped, in the map and in epoll. */
static int custom_open_cpu(struct mb_run *run, struct rb_perf *pf, int cpu)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)cpu };
	struct pb_cpu *c = &pf->cpus[cpu];
	int map_fd = bpf_map__fd(pf->skel->maps.mb_pb);
	void *p;

	c->fd = (int)syscall(__NR_perf_event_open, &pf->attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0)
		return mb_run_fail(run, -errno, "cannot open the BPF output perf event on CPU %d: %s",
				   cpu, strerror(errno));
	p = mmap(NULL, pf->page + pf->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (p == MAP_FAILED)
		return mb_run_fail(run, -errno, "cannot map the perf ring of CPU %d: %s", cpu,
				   strerror(errno));
	c->meta = p;
	c->data = (const uint8_t *)p + pf->page;
	if (ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0) ||
	    bpf_map_update_elem(map_fd, &cpu, &c->fd, BPF_ANY) ||
	    epoll_ctl(pf->epfd, EPOLL_CTL_ADD, c->fd, &ev))
		return mb_run_fail(run, -errno, "cannot attach the perf event of CPU %d: %s", cpu,
				   strerror(errno));
	return 0;
}

static int custom_open(struct mb_run *run, struct rb_state *st, struct rb_perf *pf)
{
	const struct mb_cpuset *online = &run->env->online;
	int err;

	st->consumer_name = "custom: reads the mapped perf rings, no callback per sample";
	pf->cpus = calloc((size_t)pf->nr_cpus, sizeof(*pf->cpus));
	pf->events = calloc((size_t)pf->nr_cpus, sizeof(*pf->events));
	if (!pf->cpus || !pf->events)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	for (int i = 0; i < pf->nr_cpus; i++)
		pf->cpus[i].fd = -1;
	pf->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (pf->epfd < 0)
		return mb_run_fail(run, -errno, "cannot make an epoll instance: %s", strerror(errno));
	for (int cpu = mb_cpuset_next(online, 0); cpu >= 0 && cpu < pf->nr_cpus;
	     cpu = mb_cpuset_next(online, cpu + 1)) {
		err = custom_open_cpu(run, pf, cpu);
		if (err)
			return err;
	}
	return 0;
}

static int perf_setup(struct mb_run *run, struct rb_state *st)
{
	const struct rb_args *a = run->args;
	struct rb_perf *pf = calloc(1, sizeof(*pf));
	int err;

	if (!pf)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	st->buf = pf;
	pf->epfd = -1;
	pf->nr_cpus = libbpf_num_possible_cpus();
	if (pf->nr_cpus <= 0)
		return mb_run_fail(run, pf->nr_cpus ? pf->nr_cpus : -EINVAL,
				   "cannot count the possible CPUs");
	pf->page = (size_t)sysconf(_SC_PAGESIZE);
	pf->ring_len = (size_t)a->perfbuf_sz * pf->page;
	st->nr_bufs = pf->nr_cpus;
	st->capacity = (uint64_t)run->env->online.count * pf->ring_len /
		       pb_record_bytes(a->rec_size);
	st->stamp_rows = rb_run_stamp_rows(run, st->capacity);
	err = perf_load(run, st, pf);
	if (err)
		return err;
	/* The kernel bench's attributes: a wake-up per sample, or per --rb-sample-rate. */
	pf->attr.size = sizeof(pf->attr);
	pf->attr.type = PERF_TYPE_SOFTWARE;
	pf->attr.config = PERF_COUNT_SW_BPF_OUTPUT;
	pf->attr.sample_type = PERF_SAMPLE_RAW;
	pf->attr.sample_period = a->sampled ? a->sample_rate : 1;
	pf->attr.wakeup_events = a->sampled ? a->sample_rate : 1;
	return st->kind == PB_LIBBPF ? lib_open(run, st, pf) : custom_open(run, st, pf);
}

/* @len bytes at ring offset @pos of @c, which may wrap around the end. */
static void ring_copy(const struct rb_perf *pf, const struct pb_cpu *c, uint64_t pos, void *dst,
		      size_t len)
{
	size_t off = (size_t)(pos & (pf->ring_len - 1)), first = pf->ring_len - off;

	if (first >= len) {
		memcpy(dst, c->data + off, len);
		return;
	}
	memcpy(dst, c->data + off, first);
	memcpy((uint8_t *)dst + first, c->data, len - first);
}

static uint64_t custom_drain_cpu(struct rb_state *st, struct rb_perf *pf, int cpu)
{
	struct pb_cpu *c = &pf->cpus[cpu];
	uint64_t head = __atomic_load_n(&c->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = c->meta->data_tail, taken = 0;
	struct perf_event_header h;
	uint8_t body[sizeof(uint32_t) + 2 * sizeof(uint64_t)];

	while (tail < head) {
		ring_copy(pf, c, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;	/* not a record: never happens with a sane kernel */
		if (h.type == PERF_RECORD_SAMPLE) {
			if (st->check.each)
				ring_copy(pf, c, tail + sizeof(h), body,
					  sizeof(uint32_t) + sizeof(uint64_t));
			sample_record(st, body, cpu);
			taken++;
		} else if (h.type == PERF_RECORD_LOST) {
			uint64_t lost;

			ring_copy(pf, c, tail + sizeof(h), body, 2 * sizeof(uint64_t));
			memcpy(&lost, body + sizeof(uint64_t), sizeof(lost));
			st->kernel_lost += lost;
		}
		tail += h.size;
	}
	__atomic_store_n(&c->meta->data_tail, tail, __ATOMIC_RELEASE);
	return taken;
}

static int custom_take(struct rb_state *st, struct rb_perf *pf, int timeout_ms)
{
	uint64_t taken = 0;
	int n;

	if (timeout_ms < 0) {
		for (int cpu = 0; cpu < pf->nr_cpus; cpu++)
			if (pf->cpus[cpu].fd >= 0)
				taken += custom_drain_cpu(st, pf, cpu);
		return taken > INT_MAX ? INT_MAX : (int)taken;
	}
	n = epoll_wait(pf->epfd, pf->events, pf->nr_cpus, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	if (n > 0)
		rb_count_wakeup(st);
	for (int i = 0; i < n; i++)
		taken += custom_drain_cpu(st, pf, (int)pf->events[i].data.u32);
	return taken > INT_MAX ? INT_MAX : (int)taken;
}

static int perf_take(struct rb_state *st, int timeout_ms)
{
	struct rb_perf *pf = st->buf;
	uint64_t before = st->check.received;
	int n;

	if (st->kind == PB_CUSTOM)
		return custom_take(st, pf, timeout_ms);
	rb_poll_begins(st, timeout_ms);
	n = timeout_ms >= 0 ? perf_buffer__poll(pf->lib, timeout_ms) :
			      perf_buffer__consume(pf->lib);
	return rb_libbpf_took(st, n, before);
}

static void perf_release(struct rb_state *st)
{
	struct rb_perf *pf = st->buf;

	if (!pf)
		return;
	perf_buffer__free(pf->lib);
	for (int i = 0; pf->cpus && i < pf->nr_cpus; i++) {
		if (pf->cpus[i].meta)
			munmap(pf->cpus[i].meta, pf->page + pf->ring_len);
		if (pf->cpus[i].fd >= 0)
			close(pf->cpus[i].fd);
	}
	if (pf->epfd >= 0)
		close(pf->epfd);
	free(pf->cpus);
	free(pf->events);
	perfbuf_bpf__destroy(pf->skel);
	free(pf);
	st->buf = NULL;
}

const struct rb_buffer_ops rb_perf_ops = {
	.setup = perf_setup,
	.take = perf_take,
	.release = perf_release,
};
