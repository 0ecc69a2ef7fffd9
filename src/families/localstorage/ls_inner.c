// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The family's maps made from user space, in and out of an array of maps (ls_inner.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "core/run.h"
#include "ls_inner.h"
#include "ls_storage.h"

void ls_inner_storage_desc(struct mb_map_desc *d, enum mb_owner_kind kind, const char *name,
			   uint32_t value_size)
{
	*d = (struct mb_map_desc){
		.type = mb_storage_type_by_name(ls_storage_type(kind)),
		.name = name,
		.key_size = 4,
		.value_size = value_size,
		.flags = BPF_F_NO_PREALLOC,
		.inner_fd = -1,
		.btf_fd = -1,
	};
}

/* One map of @d: its fd, or a negative error reported on @run. */
static int make_one(struct mb_run *run, const struct mb_map_desc *d,
		    const struct ls_inner_opts *o)
{
	char why[512];
	int fd, has;

	if (!o->skip_missing)
		return mb_run_map_create(run, d, o->what);
	fd = mb_map_create(d);
	if (fd >= 0)
		return fd;
	has = fd == -EINVAL ? libbpf_probe_bpf_map_type((enum bpf_map_type)d->type->type, NULL) : 1;
	if (!has)
		return mb_run_skip(run, "this kernel has no %s map type, so its storage cannot be reached from user space",
				   d->type->name);
	mb_explain_map_desc(fd, d, has, o->what ? o->what : "cannot create the storage map", why,
			    sizeof(why));
	return mb_run_fail(run, fd, "%s", why);
}

int ls_inner_make(struct mb_run *run, struct ls_inner *in, struct mb_map_desc *d, uint32_t n,
		  const struct ls_inner_opts *o)
{
	static const struct ls_inner_opts none;
	uint64_t t0 = mb_now_ns();
	int err = 0;

	o = o ? o : &none;
	in->fd = malloc(sizeof(*in->fd) * n);
	in->id = calloc(n, sizeof(*in->id));
	if (!in->fd || !in->id)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	if (d->type->local_storage && (err = mb_map_desc_add_btf(d)))
		return mb_run_fail(run, err, "cannot load the BTF of the %s maps: %s",
				   d->type->name, strerror(-err));
	while (in->nr < n && !err) {
		int fd = make_one(run, d, o);

		if (fd < 0) {
			err = fd;
			break;
		}
		in->fd[in->nr] = fd;
		in->id[in->nr++] = mb_map_id(fd);
		if (o->each)
			err = o->each(run, fd);
		in->make_ns = mb_now_ns() - t0;
	}
	mb_map_desc_put_btf(d);
	return err;
}

int ls_inner_template(const struct ls_inner *in, struct bpf_map *outer)
{
	return in->nr ? bpf_map__set_inner_map_fd(outer, in->fd[0]) : -ENOENT;
}

int ls_inner_insert(struct mb_run *run, const struct ls_inner *in, int outer_fd,
		    const char *noun)
{
	for (uint32_t i = 0; i < in->nr; i++)
		if (bpf_map_update_elem(outer_fd, &i, &in->fd[i], BPF_ANY))
			return mb_run_fail(run, -errno, "cannot put %s map %u into the array of maps: %s",
					   noun, i, strerror(errno));
	return 0;
}

void ls_inner_close_fds(struct ls_inner *in)
{
	for (uint32_t i = 0; in->fd && i < in->nr; i++) {
		if (in->fd[i] >= 0)
			close(in->fd[i]);
		in->fd[i] = -1;
	}
}

void ls_inner_close(struct ls_inner *in)
{
	ls_inner_close_fds(in);
	free(in->fd);
	free(in->id);
	*in = (struct ls_inner){ 0 };
}

void ls_inner_release(struct mb_run *run, struct ls_inner *in, const char *noun)
{
	int left;

	ls_inner_close_fds(in);
	/* The maps go an RCU grace period after the programs: until then they keep their slots. */
	left = in->id ? mb_map_ids_wait_gone(in->id, in->nr, LS_FREE_WAIT_NS) : 0;
	if (left)
		mb_run_warn(run, "%d of the run's %u %s maps were still being freed %.0f s after it: a run right after this one may find their cache slots taken",
			    left, in->nr, noun, LS_FREE_WAIT_NS / 1e9);
	ls_inner_close(in);
}

int ls_live_storage_maps(int type)
{
	__u32 id = 0;
	int n = 0;

	while (!bpf_map_get_next_id(id, &id)) {
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_map_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && (int)info.type == type)
			n++;
		close(fd);
	}
	return errno == ENOENT ? n : -1;
}
