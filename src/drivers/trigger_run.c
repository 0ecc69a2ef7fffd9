// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The trigger runner's producers: getpgid() calls or reads of their socket, and the runs their
 * slots counted.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <bpf/libbpf.h>

#include "thread_slots.h"
#include "trigger.h"
#include "util/log.h"

void mb_trigger_counters(const struct mb_slot *s, uint64_t excluded_ns, uint64_t wait_ns,
			 struct mb_counters *c)
{
	*c = (struct mb_counters){
		.ops = s->ops,
		.hits = s->hits,
		.errors = s->errors,
		.kernel_ns = s->kernel_ns,
		.excluded_ns = excluded_ns,
		.calls = s->calls,
		.wait_ns = wait_ns,
	};
	for (int i = 0; i < MB_LOOP_COUNTERS && i < MB_MAX_COUNTERS; i++)
		c->counter[i] = s->counter[i];
}

void mb_trigger_publish(struct mb_producer *p, const struct mb_trigger *t, uint64_t excluded_ns,
			uint64_t wait_ns)
{
	struct mb_counters c;

	mb_trigger_counters(&t->slots[p->idx], excluded_ns, wait_ns, &c);
	mb_producer_publish(p, &c);
}

int mb_trigger_fire(struct mb_run *run, struct mb_producer *p, const struct mb_trigger *t,
		    __u64 arg)
{
	const struct mb_slot *s = &t->slots[p->idx];
	uint64_t calls = s->calls;

	syscall(SYS_getpgid, (long)arg);
	if (calls == 0 && s->calls == 0) {
		mb_err("%s: producer %d: the %s program did not run for %s()", run->bench->name,
		       p->idx, mb_trigger_attach_name(t->attach), MB_TRIGGER_SYSCALL);
		return -ENOENT;
	}
	return 0;
}

int mb_trigger_sock_register(struct mb_producer *p, const struct mb_trigger *t, __u32 op)
{
	if (!t->socks || !t->threads || p->idx < 0 || p->idx >= MB_MAX_SLOTS)
		return -EINVAL;
	/* The op first: a program that finds the thread's slot takes the op there. */
	__atomic_store_n(&t->socks->op[p->idx], op, __ATOMIC_RELEASE);
	return mb_thread_slot_register(bpf_map__fd(t->threads), (uint32_t)p->idx);
}

int mb_trigger_sock_fire(struct mb_run *run, struct mb_producer *p, const struct mb_trigger *t,
			 int fd)
{
	const struct mb_slot *s = &t->slots[p->idx];
	uint64_t calls = s->calls;
	char c;

	if (recv(fd, &c, sizeof(c), MSG_DONTWAIT) >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
		mb_debug("%s: producer %d: a read of its socket did not fail with EAGAIN",
			 run->bench->name, p->idx);
	if (calls == 0 && s->calls == 0) {
		mb_err("%s: producer %d: the %s program did not run for recv()", run->bench->name,
		       p->idx, mb_trigger_attach_name(t->attach));
		return -ENOENT;
	}
	return 0;
}

int mb_trigger_produce(struct mb_run *run, struct mb_producer *p, const struct mb_trigger *t,
		       __u32 op)
{
	__u64 arg = mb_trigger_arg(op, (__u32)p->idx);
	int err;

	while (!mb_run_should_stop(run)) {
		err = mb_trigger_fire(run, p, t, arg);
		if (err)
			return err;
		mb_trigger_publish(p, t, 0, 0);
	}
	return 0;
}
