// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * struct-ops-register: the congestion control of so_cc.bpf.c, made ready once per run and then
 * registered and unregistered as often as the run goes.
 *
 * libbpf 1.1 registers a struct_ops map by its update and unregisters by its delete; a map
 * so registered stays registered when the process dies, a congestion control left behind. The
 * map is made with BPF_F_LINK instead: the update (bpf_map__attach_struct_ops) then only makes
 * it ready, a BPF_STRUCT_OPS link registers it, and closing the link, by the run or by the
 * process's end, unregisters it. Its name is the run's own, "mb_<pid>", written over the
 * object's placeholder before it is opened: libbpf 1.1 gives no other way to set it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "so.h"
#include "so_cc.skel.h"
#include "core/run.h"

/* Newer than this system's uapi header (Linux 6.4): the kernel's values. */
#define MB_BPF_F_LINK		(1u << 13)
#define MB_BPF_STRUCT_OPS	44

struct so_cc {
	char name[16];
	void *elf;
	struct bpf_object *obj;
	struct bpf_map *map;
	struct bpf_link *ready;		/* the update; destroyed before the object */
	double load_us, update_us;
};

/* The object's bytes with the placeholder name replaced. 0, or -errno. */
static int patch_name(struct so_cc *cc, size_t *size)
{
	const void *bytes = so_cc_bpf__elf_bytes(size);
	char *at, *again;

	cc->elf = malloc(*size);
	if (!cc->elf)
		return -ENOMEM;
	memcpy(cc->elf, bytes, *size);
	at = memmem(cc->elf, *size, MB_SO_PLACEHOLDER, sizeof(MB_SO_PLACEHOLDER));
	if (!at)
		return -ENOENT;
	again = memmem(at + 1, *size - (size_t)(at + 1 - (char *)cc->elf), MB_SO_PLACEHOLDER,
		       sizeof(MB_SO_PLACEHOLDER));
	if (again)
		return -EEXIST;
	memset(at, 0, sizeof(MB_SO_PLACEHOLDER));
	memcpy(at, cc->name, strlen(cc->name));
	return 0;
}

static int load(struct mb_run *run, struct so_cc *cc)
{
	size_t size;
	uint64_t t0 = mb_now_ns(), t1;
	int err = patch_name(cc, &size);

	if (err)
		return mb_run_fail(run, err, "cannot name the congestion control in its object");
	cc->obj = bpf_object__open_mem(cc->elf, size, NULL);
	if (!cc->obj)
		return mb_run_fail(run, -errno, "cannot open the struct_ops object");
	cc->map = bpf_object__find_map_by_name(cc->obj, "mb_so_cc");
	if (!cc->map)
		return mb_run_fail(run, -ENOENT, "the object has no map mb_so_cc");
	bpf_map__set_map_flags(cc->map, MB_BPF_F_LINK);
	err = bpf_object__load(cc->obj);
	if (err)
		return mb_run_skip(run, "struct_ops programs: this kernel refuses to load a tcp_congestion_ops set (%s): they run through a BPF trampoline, which this kernel may block",
				   strerror(-err));
	t1 = mb_now_ns();
	cc->ready = bpf_map__attach_struct_ops(cc->map);
	if (!cc->ready)
		return mb_run_skip(run, "struct_ops: this kernel refuses the map update that puts the programs in (%s)",
				   strerror(errno));
	cc->load_us = (double)(t1 - t0) / 1e3;
	cc->update_us = (double)(mb_now_ns() - t1) / 1e3;
	return 0;
}

int so_cc_open(struct mb_run *run, struct so_cc **out)
{
	struct so_cc *cc = calloc(1, sizeof(*cc));
	int err;

	*out = NULL;
	if (!cc)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	snprintf(cc->name, sizeof(cc->name), "mb_%d", (int)getpid());
	err = load(run, cc);
	if (err) {
		so_cc_close(cc);
		return err;
	}
	*out = cc;
	return 0;
}

int so_cc_register(struct so_cc *cc)
{
	int fd = bpf_link_create(bpf_map__fd(cc->map), 0, MB_BPF_STRUCT_OPS, NULL);

	return fd < 0 ? -errno : fd;
}

int so_cc_usable(const struct so_cc *cc)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc->name, strlen(cc->name)))
		err = -errno;
	close(fd);
	return err;
}

int so_cc_listed(const struct so_cc *cc)
{
	char buf[1024], *tok, *save = NULL;
	FILE *f = fopen(SO_CC_LIST, "re");
	int found = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		found |= !strcmp(tok, cc->name);
	return found;
}

const char *so_cc_name(const struct so_cc *cc)
{
	return cc->name;
}

void so_cc_steps(const struct so_cc *cc, double *load_us, double *update_us)
{
	*load_us = cc->load_us;
	*update_us = cc->update_us;
}

void so_cc_close(struct so_cc *cc)
{
	if (!cc)
		return;
	/* Its detach deletes the element, which a BPF_F_LINK map refuses: nothing to undo. */
	bpf_link__destroy(cc->ready);
	bpf_object__close(cc->obj);
	free(cc->elf);
	free(cc);
}
