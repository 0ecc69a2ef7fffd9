// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The BPF ring buffer: its producer program and two consumers. rb-libbpf takes records with
 * libbpf's ring_buffer__poll() (a callback per record); rb-custom reads the mapped ring itself:
 * each record starts with a length word whose top bits say "still being written" and
 * "discarded", and the data pages are mapped twice in a row, so a record that wraps around
 * the end reads as one piece.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/runner.h"
#include "rb.h"
#include "ringbuf.skel.h"
#include "sys/kernel_btf.h"
#include "sys/probe.h"

#define RING_BUSY	(1u << 31)
#define RING_DISCARD	(1u << 30)

struct rb_ring {
	struct ringbuf_bpf *skel;
	struct ring_buffer *lib;	/* rb-libbpf */
	int epfd;			/* rb-custom: */
	uint64_t *cons_pos;		/* the consumer page, ours to write */
	const uint64_t *prod_pos;	/* the producer page, then the data twice */
	const uint8_t *data;
	uint64_t mask;
	size_t page, prod_len;
};

/* --rb-overwrite: the kernel's own value of BPF_F_RB_OVERWRITE, or a skip where it has none. */
static int overwrite_flag(struct mb_run *run, struct bpf_map *map)
{
	const struct rb_args *a = run->args;
	int64_t flag;
	int err;

	if (!a->overwrite)
		return 0;
	err = mb_kernel_enum_value("BPF_F_RB_OVERWRITE", &flag);
	if (err == -ENOENT)
		return mb_run_skip(run, "--rb-overwrite: this kernel has no overwrite mode for BPF ring buffers (BPF_F_RB_OVERWRITE is not in its BTF; it came after Linux 6.18)");
	if (err)
		return mb_run_skip(run, "--rb-overwrite: cannot read the kernel's BTF to find BPF_F_RB_OVERWRITE: %s",
				   strerror(-err));
	return bpf_map__set_map_flags(map, bpf_map__map_flags(map) | (uint32_t)flag);
}

static int ring_load(struct mb_run *run, struct rb_state *st, struct rb_ring *r)
{
	const struct rb_args *a = run->args;
	struct bpf_program *prog, *want;
	char msg[512];
	int err;

	r->skel = ringbuf_bpf__open();
	if (!r->skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	mb_loop_prepare(r->skel->skeleton, &run->loop);
	r->skel->rodata->rb_rec_size = a->rec_size;
	r->skel->rodata->rb_stamp_mask = st->stamp_rows - 1;
	r->skel->rodata->rb_stamps_on = a->check == RB_CHECK_RECORDS;
	/* The kernel bench's threshold: --rb-sample-rate records, as they take the ring. */
	if (a->sampled)
		r->skel->rodata->rb_wakeup_data_size =
			(uint64_t)a->sample_rate * rb_ring_record_bytes(a->rec_size);
	r->skel->rodata->rb_no_wakeup = a->bench_producer;
	bpf_map__set_max_entries(r->skel->maps.mb_rb, (uint32_t)a->rb_size);
	err = overwrite_flag(run, r->skel->maps.mb_rb);
	if (err)
		return err;
	bpf_map__set_max_entries(r->skel->maps.mb_rb_stamps,
				 (uint32_t)(st->stamp_rows * (uint64_t)run->nr_producers));
	want = a->use_output ? r->skel->progs.mb_rb_output : r->skel->progs.mb_rb_reserve;
	bpf_object__for_each_program(prog, r->skel->obj)
		if (prog != want)
			bpf_program__set_autoload(prog, false);
	err = ringbuf_bpf__load(r->skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the BPF program", msg, sizeof(msg));
		return mb_run_fail(run, err, "%s", msg);
	}
	st->prog_fd = bpf_program__fd(want);
	st->slots = r->skel->bss->mb_slots;
	return rb_map_stamps(run, st, bpf_map__fd(r->skel->maps.mb_rb_stamps));
}

static int lib_record(void *ctx, void *data, size_t len)
{
	struct rb_state *st = ctx;
	uint64_t id = 0;

	rb_poll_record(st);
	if (!st->check.each) {
		rb_check_count(&st->check);
		return 0;
	}
	memcpy(&id, data, len < sizeof(id) ? len : sizeof(id));
	rb_check_record(&st->check, id, 0);
	return 0;
}

static int custom_map(struct mb_run *run, struct rb_ring *r, int fd, uint64_t size)
{
	struct epoll_event ev = { .events = EPOLLIN };
	void *p;

	r->page = (size_t)sysconf(_SC_PAGESIZE);
	r->mask = size - 1;
	p = mmap(NULL, r->page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return mb_run_fail(run, -errno, "cannot map the ring's consumer page: %s",
				   strerror(errno));
	r->cons_pos = p;
	r->prod_len = r->page + 2 * size;
	p = mmap(NULL, r->prod_len, PROT_READ, MAP_SHARED, fd, (off_t)r->page);
	if (p == MAP_FAILED)
		return mb_run_fail(run, -errno, "cannot map the ring's data pages: %s",
				   strerror(errno));
	r->prod_pos = p;
	r->data = (const uint8_t *)p + r->page;
	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0 || epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev))
		return mb_run_fail(run, -errno, "cannot watch the ring with epoll: %s",
				   strerror(errno));
	return 0;
}

static int ring_setup(struct mb_run *run, struct rb_state *st)
{
	const struct rb_args *a = run->args;
	struct rb_ring *r = calloc(1, sizeof(*r));
	int err, fd;

	if (!r)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	r->epfd = -1;
	st->buf = r;
	st->nr_bufs = 1;
	st->capacity = a->rb_size / rb_ring_record_bytes(a->rec_size);
	st->stamp_rows = rb_run_stamp_rows(run, st->capacity);
	err = ring_load(run, st, r);
	if (err)
		return err;
	fd = bpf_map__fd(r->skel->maps.mb_rb);
	if (st->kind == RB_CUSTOM) {
		st->consumer_name = "custom: reads the mapped ring, no callback per record";
		return custom_map(run, r, fd, a->rb_size);
	}
	st->consumer_name = "libbpf: ring_buffer__poll(), a callback per record";
	r->lib = ring_buffer__new(fd, lib_record, st, NULL);
	if (!r->lib)
		return mb_run_fail(run, -errno, "cannot make libbpf's ring buffer: %s",
				   strerror(errno));
	return 0;
}

/* Every committed record from the consumer position on; stops at one still being written. */
static int custom_drain(struct rb_state *st, struct rb_ring *r)
{
	uint64_t cons = __atomic_load_n(r->cons_pos, __ATOMIC_ACQUIRE), prod, taken = 0;

	for (;;) {
		prod = __atomic_load_n(r->prod_pos, __ATOMIC_ACQUIRE);
		if (cons >= prod)
			break;
		while (cons < prod) {
			const uint32_t *hdr = (const uint32_t *)(r->data + (cons & r->mask));
			uint32_t len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
			uint64_t id;

			if (len & RING_BUSY)
				goto out;
			if (!(len & RING_DISCARD)) {
				if (st->check.each) {
					memcpy(&id, hdr + 2, sizeof(id));
					rb_check_record(&st->check, id, 0);
				} else {
					rb_check_count(&st->check);
				}
				taken++;
			}
			len &= ~(RING_BUSY | RING_DISCARD);
			cons += ((uint64_t)len + RB_HEADER + 7) / 8 * 8;
		}
		/* Give the space back before looking again: producers may be waiting for it. */
		__atomic_store_n(r->cons_pos, cons, __ATOMIC_RELEASE);
	}
out:
	__atomic_store_n(r->cons_pos, cons, __ATOMIC_RELEASE);
	return taken > INT_MAX ? INT_MAX : (int)taken;
}

static int custom_take(struct rb_state *st, struct rb_ring *r, int timeout_ms)
{
	struct epoll_event ev;
	int n;

	if (timeout_ms >= 0) {
		n = epoll_wait(r->epfd, &ev, 1, timeout_ms);
		if (n < 0)
			return errno == EINTR ? 0 : -errno;
		if (!n)
			return 0;
		rb_count_wakeup(st);
	}
	return custom_drain(st, r);
}

static int ring_take(struct rb_state *st, int timeout_ms)
{
	struct rb_ring *r = st->buf;
	uint64_t before = st->check.received;
	int n;

	if (st->kind == RB_CUSTOM)
		return custom_take(st, r, timeout_ms);
	rb_poll_begins(st, timeout_ms);
	n = timeout_ms >= 0 ? ring_buffer__poll(r->lib, timeout_ms) : ring_buffer__consume(r->lib);
	return rb_libbpf_took(st, n, before);
}

static void ring_release(struct rb_state *st)
{
	struct rb_ring *r = st->buf;

	if (!r)
		return;
	ring_buffer__free(r->lib);
	if (r->epfd >= 0)
		close(r->epfd);
	if (r->cons_pos)
		munmap(r->cons_pos, r->page);
	if (r->prod_pos)
		munmap((void *)r->prod_pos, r->prod_len);
	ringbuf_bpf__destroy(r->skel);
	free(r);
	st->buf = NULL;
}

const struct rb_buffer_ops rb_ring_ops = {
	.setup = ring_setup,
	.take = ring_take,
	.release = ring_release,
};
