// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sockmap family: the syscalls of one op each. Key i holds socket i; a value of 8 bytes
 * carries the fd in (the kernel takes a u32 or a u64 fd) and, on a lookup from user space,
 * the socket's cookie out, which says which socket the key holds.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "sockmap.h"

const char *const sm_type_names[] = { "sockmap", "sockhash", NULL };
const char *const sm_path_names[] = { "syscall", "kernel", NULL };

int sm_insert(const struct sm_state *st, uint32_t key)
{
	uint64_t fd = (uint64_t)st->tp.fd[key];

	return bpf_map_update_elem(st->map_fd, &key, &fd, BPF_NOEXIST) ? -errno : 0;
}

int sm_remove(const struct sm_state *st, uint32_t key)
{
	return bpf_map_delete_elem(st->map_fd, &key) ? -errno : 0;
}

int sm_check(const struct sm_state *st, uint32_t key)
{
	uint64_t cookie;

	if (bpf_map_lookup_elem(st->map_fd, &key, &cookie))
		return -errno;
	return cookie == st->cookie[key] ? 0 : -EBADMSG;
}

int sm_check_absent(const struct sm_state *st, uint32_t key)
{
	uint64_t cookie;

	if (!bpf_map_lookup_elem(st->map_fd, &key, &cookie))
		return -EEXIST;
	return errno == ENOENT ? 0 : -errno;
}
