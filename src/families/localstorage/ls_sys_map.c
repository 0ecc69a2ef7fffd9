// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Local storage maps from user space: the kernel refuses them without BTF for key and value,
 * so one minimal BTF of their sizes (drivers/map_create) serves every map made here.
 */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>

#include "ls_storage.h"
#include "ls_sys_map.h"
#include "core/bench.h"
#include "drivers/map_create.h"

static int create_failed(struct mb_run *run, const struct mb_map_desc *d, int err)
{
	int has = err == -EINVAL ? libbpf_probe_bpf_map_type((enum bpf_map_type)d->type->type,
							     NULL) : 1;
	char why[512];

	if (!has)
		return mb_run_skip(run, "this kernel has no %s map type, so its storage cannot be reached from user space",
				   d->type->name);
	mb_explain_map_desc(err, d, has, "cannot create the storage map", why, sizeof(why));
	return mb_run_fail(run, err, "%s", why);
}

int ls_sys_maps_create(struct mb_run *run, enum mb_owner_kind kind, uint32_t value_size,
		       int *fd, uint32_t n)
{
	const char *name = ls_storage_type(kind);
	struct mb_map_desc d = { .type = mb_storage_type_by_name(name), .name = "mb_ls_sys",
				 .key_size = 4, .value_size = value_size,
				 .flags = BPF_F_NO_PREALLOC, .inner_fd = -1, .btf_fd = -1 };
	int err = 0;

	if (!d.type)
		return mb_run_fail(run, -EINVAL, "%s: no storage type named %s", run->bench->name,
				   name);
	err = mb_map_desc_add_btf(&d);
	if (err)
		return mb_run_fail(run, err, "cannot load the BTF of a %s map: %s", name,
				   strerror(-err));
	for (uint32_t i = 0; i < n && !err; i++) {
		fd[i] = mb_map_create(&d);
		if (fd[i] < 0) {
			err = create_failed(run, &d, fd[i]);
			fd[i] = -1;
		}
	}
	mb_map_desc_put_btf(&d);
	return err;
}
