// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Producer threads in a BPF object's thread -> slot map (thread_slots.h). */
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/types.h>
#include <bpf/bpf.h>

#include "kloop_shared.h"
#include "thread_slots.h"

/* The key the programs look up: the thread id bpf_get_current_pid_tgid() gives. */
static __u32 self(void)
{
	return (__u32)syscall(SYS_gettid);
}

int mb_thread_slot_register(int map_fd, uint32_t slot)
{
	__u32 tid = self(), v = slot;

	if (slot >= MB_MAX_SLOTS)
		return -EINVAL;
	return bpf_map_update_elem(map_fd, &tid, &v, BPF_ANY) ? -errno : 0;
}

int mb_thread_slot_unregister(int map_fd)
{
	__u32 tid = self();

	return bpf_map_delete_elem(map_fd, &tid) ? -errno : 0;
}
