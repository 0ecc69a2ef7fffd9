// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "core/env.h"
#include "core/run.h"
#include "util/cpuset.h"
#include "map_create.h"

int mb_map_create(const struct mb_map_desc *d)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = d->flags, .map_extra = d->map_extra);
	int fd;

	if (d->type->map_in_map)
		opts.inner_map_fd = (__u32)d->inner_fd;
	if (d->flags & BPF_F_NUMA_NODE)
		opts.numa_node = (__u32)(d->numa_node > 0 ? d->numa_node : 0);
	if (d->btf_key_type_id || d->btf_value_type_id || d->vmlinux_value_type_id) {
		opts.btf_fd = (__u32)d->btf_fd;
		opts.btf_key_type_id = d->btf_key_type_id;
		opts.btf_value_type_id = d->btf_value_type_id;
		opts.btf_vmlinux_value_type_id = d->vmlinux_value_type_id;
	}
	fd = bpf_map_create((enum bpf_map_type)d->type->type, d->name, d->key_size, d->value_size,
			    d->max_entries, &opts);
	return fd < 0 ? -errno : fd;
}

/* The key's type: an int where BTF has one of that size, else bytes. Its id, or -errno. */
static int add_key_type(struct btf *btf, uint32_t size, int byte_id)
{
	switch (size) {
	case 1: case 2: case 4: case 8: case 16:
		return btf__add_int(btf, "mb_key", size, BTF_INT_SIGNED);
	default:
		return btf__add_array(btf, byte_id, byte_id, size);
	}
}

/* The BTF's fd (the caller's), from a built and loaded @btf; -errno. */
static int load_btf(struct btf *btf)
{
	int err = btf__load_into_kernel(btf);

	if (err)
		return err < 0 ? err : -EINVAL;
	/* btf__free() closes its own fd: the description keeps a duplicate. */
	err = fcntl(btf__fd(btf), F_DUPFD_CLOEXEC, 0);
	return err < 0 ? -errno : err;
}

int mb_map_desc_add_btf(struct mb_map_desc *d)
{
	struct btf *btf = btf__new_empty();
	int byte_id, key_id, value_id, fd;

	if (!btf)
		return -errno;
	byte_id = btf__add_int(btf, "mb_byte", 1, 0);
	key_id = byte_id < 0 ? byte_id : add_key_type(btf, d->key_size, byte_id);
	value_id = key_id < 0 ? key_id : btf__add_array(btf, byte_id, byte_id, d->value_size);
	fd = value_id < 0 ? value_id : load_btf(btf);
	btf__free(btf);
	if (fd < 0)
		return fd;
	d->btf_fd = fd;
	d->btf_key_type_id = (uint32_t)key_id;
	d->btf_value_type_id = (uint32_t)value_id;
	return 0;
}

void mb_map_desc_put_btf(struct mb_map_desc *d)
{
	if (d->btf_key_type_id || d->btf_value_type_id)
		close(d->btf_fd);
	d->btf_fd = -1;
	d->btf_key_type_id = d->btf_value_type_id = 0;
}

void mb_explain_map_desc(int err, const struct mb_map_desc *d, int has_type, const char *what,
			 char *buf, size_t len)
{
	const struct mb_map_type_info *t = d->type;
	const char *refused;

	if (err != -EINVAL) {
		mb_explain_map_create(err, what, buf, len);
		return;
	}
	if (!has_type) {
		snprintf(buf, len, "%s: this kernel has no %s map type (EINVAL)", what, t->name);
		return;
	}
	refused = mb_storage_attrs_refused(t, d->key_size, d->value_size, d->max_entries,
					   d->flags);
	if (refused)
		snprintf(buf, len, "%s: the kernel refuses this %s map (EINVAL): %s", what,
			 t->name, refused);
	else if (t->local_storage && (!d->btf_key_type_id || !d->btf_value_type_id))
		snprintf(buf, len, "%s: local storage maps need BTF for their key and value, max_entries 0 and no_prealloc (EINVAL): this %s map has no BTF",
			 what, t->name);
	else
		mb_explain_map_create(err, what, buf, len);
}

/* Whether the kernel has @d's map type, asked only when a creation failed with EINVAL. */
static int kernel_has_type(const struct mb_map_desc *d, int err)
{
	if (err != -EINVAL)
		return 1;
	return libbpf_probe_bpf_map_type((enum bpf_map_type)d->type->type, NULL);
}

int mb_run_map_create(struct mb_run *run, const struct mb_map_desc *d, const char *what)
{
	char why[512], deflt[160];
	int fd = mb_map_create(d);

	if (fd >= 0)
		return fd;
	if (!what) {
		snprintf(deflt, sizeof(deflt), "cannot create the %s map (%u entries of %u + %u bytes)",
			 d->type->name, d->max_entries, d->key_size, d->value_size);
		what = deflt;
	}
	mb_explain_map_desc(fd, d, kernel_has_type(d, fd), what, why, sizeof(why));
	return mb_run_fail(run, fd, "%s", why);
}

/* The NUMA node of @cpu, from sysfs (0 where it does not say). */
static int cpu_node(int cpu)
{
	char path[64];
	struct dirent *d;
	int node = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "node%d", &node) == 1)
			break;
	closedir(dir);
	return node;
}

static int create_inner(struct mb_run *run, const struct mb_map_desc *inner, int cpu)
{
	struct mb_map_desc d = *inner;
	char what[192];

	if (d.numa_node == MB_NUMA_OF_CPU)
		d.numa_node = cpu_node(cpu);
	snprintf(what, sizeof(what), "cannot create CPU %d's inner %s map (%u entries of %u + %u bytes)",
		 cpu, d.type->name, d.max_entries, d.key_size, d.value_size);
	return mb_run_map_create(run, &d, what);
}

int mb_cpu_maps_create(struct mb_run *run, struct mb_cpu_maps *m, const struct mb_map_desc *outer,
		       const struct mb_map_desc *inner)
{
	const struct mb_cpuset *online = &run->env->online;
	struct mb_map_desc od = *outer;
	char what[128];
	int last = -1;

	m->outer_fd = -1;
	for (int cpu = mb_cpuset_next(online, 0); cpu >= 0; cpu = mb_cpuset_next(online, cpu + 1))
		last = cpu;
	m->nr_outer = last + 1;
	m->inner_fd = malloc(sizeof(int) * (size_t)m->nr_outer);
	if (!m->inner_fd)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	for (int i = 0; i < m->nr_outer; i++)
		m->inner_fd[i] = -1;
	for (int cpu = mb_cpuset_next(online, 0); cpu >= 0; cpu = mb_cpuset_next(online, cpu + 1)) {
		int fd = create_inner(run, inner, cpu);

		if (fd < 0)
			return fd;
		m->inner_fd[cpu] = fd;
		od.inner_fd = fd;
	}
	od.key_size = od.value_size = 4;
	od.max_entries = (uint32_t)m->nr_outer;
	snprintf(what, sizeof(what), "cannot create the %s map", od.type->name);
	m->outer_fd = mb_run_map_create(run, &od, what);
	if (m->outer_fd < 0)
		return m->outer_fd;
	for (int cpu = 0; cpu < m->nr_outer; cpu++) {
		uint32_t key = (uint32_t)cpu;

		if (m->inner_fd[cpu] >= 0 &&
		    bpf_map_update_elem(m->outer_fd, &key, &m->inner_fd[cpu], BPF_ANY))
			return mb_run_fail(run, -errno, "cannot add CPU %d's inner map to the %s map: %s",
					   cpu, od.type->name, strerror(errno));
	}
	return 0;
}

int mb_cpu_maps_first(const struct mb_cpu_maps *m)
{
	for (int cpu = 0; cpu < m->nr_outer; cpu++)
		if (m->inner_fd[cpu] >= 0)
			return m->inner_fd[cpu];
	return -1;
}

void mb_cpu_maps_close(struct mb_cpu_maps *m)
{
	if (!m->inner_fd)
		return;
	if (m->outer_fd >= 0)
		close(m->outer_fd);
	for (int i = 0; i < m->nr_outer; i++)
		if (m->inner_fd[i] >= 0)
			close(m->inner_fd[i]);
	free(m->inner_fd);
	memset(m, 0, sizeof(*m));
}

uint32_t mb_map_id(int fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

int mb_map_ids_wait_gone(const uint32_t *ids, uint32_t n, uint64_t timeout_ns)
{
	uint64_t end = mb_now_ns() + timeout_ns;
	int left;

	do {
		left = 0;
		for (uint32_t i = 0; i < n; i++) {
			int fd = ids[i] ? bpf_map_get_fd_by_id(ids[i]) : -1;

			if (fd >= 0) {
				left++;
				close(fd);
			}
		}
	} while (left && mb_now_ns() < end && !usleep(1000));
	return left;
}
