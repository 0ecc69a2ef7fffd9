// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * What the benches check before they report, in set-up: pages BPF allocated and marked are
 * seen through the mmap; pages user space touched first fault in (counted apart from the
 * timed walks); words written from user space are read by BPF, and the other way round.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <bpf/libbpf.h>

#include "arena.h"
#include "arena.skel.h"
#include "util/json.h"

static uint64_t ar_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t ar_minflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : (uint64_t)ru.ru_minflt;
}

/* BPF allocates --page_cnt pages and marks each; user space reads the marks, BPF frees. */
int ar_check_alloc(struct mb_run *run)
{
	const struct ar_args *a = run->args;
	struct ar_state *st = run->priv;
	struct ar_ctx c = { .page_cnt = a->page_cnt };
	uintptr_t base = (uintptr_t)st->mem;
	int err = ar_call(bpf_program__fd(st->skel->progs.mb_ar_mark), &c);

	if (err)
		return mb_run_fail(run, err, "check: bpf_arena_alloc_pages of %u pages failed",
				   a->page_cnt);
	if (c.addr < base || c.addr + (uint64_t)a->page_cnt * AR_PAGE_SIZE > base + st->len ||
	    c.addr % AR_PAGE_SIZE)
		return mb_run_fail(run, -EFAULT, "check: the pages' address 0x%llx is not in the mmap at %p",
				   (unsigned long long)c.addr, st->mem);
	for (uint32_t i = 0; i < a->page_cnt; i++) {
		const volatile uint64_t *w = (const uint64_t *)(uintptr_t)(c.addr +
									  (uint64_t)i * AR_PAGE_SIZE);

		if (*w == AR_MAGIC + i)
			st->seen_pages++;
	}
	err = ar_call(bpf_program__fd(st->skel->progs.mb_ar_free), &c);
	if (err)
		return mb_run_fail(run, err, "check: bpf_arena_free_pages failed");
	if (st->seen_pages != a->page_cnt)
		return mb_run_fail(run, -EIO, "check: user space saw %llu of the %u pages BPF marked",
				   (unsigned long long)st->seen_pages, a->page_cnt);
	return 0;
}

/* Each page written once from user space: the fault that allocates it, timed apart. */
static void ar_first_touch(struct ar_state *st)
{
	uint64_t f0 = ar_minflt(), t0 = ar_now_ns();

	for (uint32_t i = 0; i < st->arena_pages; i++)
		((volatile uint64_t *)st->mem)[(size_t)i * AR_PAGE_WORDS] = 0;
	st->touch_ns = ar_now_ns() - t0;
	st->touch_faults = ar_minflt() - f0;
	st->touch_pages = st->arena_pages;
}

/* One walk of every page from BPF on slot 0, whose counters are cleared after. */
static int ar_bpf_walk(struct ar_state *st, enum ar_op op, uint64_t value, uint64_t *sum)
{
	struct ar_ctx c = { .iters = st->arena_pages, .page_cnt = st->arena_pages, .op = op,
			    .addr = (uintptr_t)st->mem, .value = value };
	struct ar_slot *s = &st->skel->bss->mb_ar_slots[0];
	int err = ar_call(bpf_program__fd(st->skel->progs.mb_ar_access), &c);

	if (!err && s->ops != (uint64_t)st->arena_pages * AR_PAGE_WORDS)
		err = -EIO;
	*sum = s->sum;
	memset(s, 0, sizeof(*s));
	return err;
}

int ar_check_access(struct mb_run *run)
{
	struct ar_state *st = run->priv;
	volatile uint64_t *w = st->mem;
	size_t n = (size_t)st->arena_pages * AR_PAGE_WORDS;
	uint64_t want = 0, sum = 0;
	int err;

	ar_first_touch(st);
	if (st->touch_faults < st->touch_pages)
		return mb_run_fail(run, -EIO, "check: %llu first touches took %llu page faults",
				   (unsigned long long)st->touch_pages,
				   (unsigned long long)st->touch_faults);
	for (size_t i = 0; i < n; i++) {
		w[i] = AR_MAGIC * (i + 1);
		want += AR_MAGIC * (i + 1);
	}
	err = ar_bpf_walk(st, AR_READ, 0, &sum);
	if (err || sum != want)
		return mb_run_fail(run, err ? err : -EIO, "check: BPF read a sum of 0x%llx over the words user space wrote, not 0x%llx",
				   (unsigned long long)sum, (unsigned long long)want);
	err = ar_bpf_walk(st, AR_WRITE, AR_MAGIC, &sum);
	for (size_t i = 0; i < n && !err; i++)
		if (w[i] != AR_MAGIC)
			err = -EIO;
	if (err)
		return mb_run_fail(run, err, "check: user space did not read back every word BPF wrote");
	st->checked_words = 2 * n;
	return 0;
}

void ar_extra(struct mb_run *run, const char *op)
{
	struct ar_state *st = run->priv;
	struct mb_json *x = mb_run_extra(run), *m = mb_json_object(), *c = mb_json_object();

	if (!st || !x || !m || !c) {
		mb_json_free(m);
		mb_json_free(c);
		return;
	}
	mb_json_set_num(m, "pages", st->arena_pages);
	mb_json_set_num(m, "bytes", (double)st->len);
	mb_json_set(x, "arena", m);
	mb_json_set_str(x, "op", op);
	if (st->touch_pages) {
		mb_json_set_num(c, "first_touch_pages", (double)st->touch_pages);
		mb_json_set_num(c, "first_touch_faults", (double)st->touch_faults);
		mb_json_set_num(c, "first_touch_ns_per_page",
				(double)st->touch_ns / (double)st->touch_pages);
		mb_json_set_num(c, "words_checked", (double)st->checked_words);
	} else {
		mb_json_set_num(c, "pages_seen", (double)st->seen_pages);
	}
	mb_json_set(x, "check", c);
}
