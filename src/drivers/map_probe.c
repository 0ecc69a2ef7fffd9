// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/btf.h>

#include "map_probe.h"

/* The inner map of a map-in-map recipe: a one-entry array, the smallest template. */
static int make_inner(void)
{
	struct mb_map_desc in = { .type = mb_map_type_by_type(BPF_MAP_TYPE_ARRAY),
				  .name = "mb_probe_inner", .key_size = 4, .value_size = 4,
				  .max_entries = 1, .inner_fd = -1, .btf_fd = -1 };

	return mb_map_create(&in);
}

/* The value's type and size from the kernel's BTF. 0 or -errno. */
static int kernel_value(const struct mb_map_recipe *r, struct mb_map_desc *d)
{
	struct btf *btf = btf__load_vmlinux_btf();
	uint32_t id, size;
	int err;

	if (!btf)
		return -errno;
	err = mb_map_recipe_btf_type(r, btf, &id, &size);
	btf__free(btf);
	if (err)
		return err;
	d->value_size = size;
	if (r->needs & MB_RECIPE_VMLINUX_VALUE)
		d->vmlinux_value_type_id = id;
	return 0;
}

int mb_recipe_map_get(struct mb_recipe_map *m, const struct mb_map_recipe *r, int value,
		      uint32_t max_entries, char *why, size_t len)
{
	struct mb_map_desc *d = &m->d;
	int err = 0;

	memset(m, 0, sizeof(*m));
	m->own_btf_fd = -1;
	d->type = mb_map_recipe_info(r, value, &m->ti);
	d->name = "mb_probe";
	d->key_size = r->key_size;
	d->value_size = r->value_size;
	d->max_entries = max_entries ? max_entries : r->max_entries;
	d->flags = r->flags;
	d->inner_fd = -1;
	d->btf_fd = -1;
	if (!max_entries && (r->needs & MB_RECIPE_PAGE_ENTRIES))
		d->max_entries = (uint32_t)sysconf(_SC_PAGESIZE);
	if (r->needs & (MB_RECIPE_VMLINUX_VALUE | MB_RECIPE_VALUE_BTF)) {
		err = kernel_value(r, d);
		if (err)
			mb_map_recipe_explain(r, err, why, len);
	}
	if (!err && (r->needs & MB_RECIPE_INNER)) {
		d->inner_fd = make_inner();
		err = d->inner_fd < 0 ? d->inner_fd : 0;
		if (err)
			snprintf(why, len, "cannot create its inner array map: %s", strerror(-err));
	}
	if (!err && (r->needs & (MB_RECIPE_BTF | MB_RECIPE_VMLINUX_VALUE))) {
		err = mb_map_desc_add_btf(d);
		if (err)
			snprintf(why, len, "cannot load the BTF of its key and value: %s",
				 strerror(-err));
	}
	if (!err && (r->needs & MB_RECIPE_VMLINUX_VALUE)) {
		/* Its value is the kernel's type: the BTF goes with no key or value id. */
		m->own_btf_fd = d->btf_fd;
		d->btf_key_type_id = d->btf_value_type_id = 0;
	}
	return err;
}

void mb_recipe_map_put(struct mb_recipe_map *m)
{
	if (m->d.inner_fd >= 0)
		close(m->d.inner_fd);
	m->d.inner_fd = -1;
	if (m->own_btf_fd >= 0)
		close(m->own_btf_fd);
	m->own_btf_fd = -1;
	mb_map_desc_put_btf(&m->d);
}

int mb_map_probe_type(const struct mb_map_recipe *r, int value, char *why, size_t len)
{
	struct mb_recipe_map m;
	int fd;

	why[0] = '\0';
	fd = mb_recipe_map_get(&m, r, value, 0, why, len);
	if (!fd) {
		fd = mb_map_create(&m.d);
		if (fd >= 0)
			close(fd);
		else
			mb_map_recipe_explain(r, fd, why, len);
	}
	mb_recipe_map_put(&m);
	return fd < 0 ? fd : 0;
}

static void probe_one(struct mb_map_probe *p)
{
	p->recipe = mb_map_recipe_find(p->name);
	if (!p->recipe) {
		p->err = -ENOENT;
		snprintf(p->why, sizeof(p->why),
			 "not tried: mapbench has no recipe for this type yet (src/maps/map_recipe.c)");
		return;
	}
	p->err = mb_map_probe_type(p->recipe, p->value, p->why, sizeof(p->why));
}

static bool listed(const struct mb_map_probe *p, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(p[i].name, name))
			return true;
	return false;
}

int mb_map_probe_all(struct mb_map_probe **out, int *n)
{
	struct mb_kernel_map_type *kt;
	struct mb_map_probe *p;
	int nk, nr = 0, err;

	*out = NULL;
	*n = 0;
	err = mb_kernel_map_types(&kt, &nk);
	if (err)
		return err;
	for (int i = 0; mb_map_recipes[i].name; i++)
		nr++;
	p = calloc((size_t)(nk + nr), sizeof(*p));
	if (!p) {
		free(kt);
		return -ENOMEM;
	}
	for (int i = 0; i < nk; i++) {
		snprintf(p[i].name, sizeof(p[i].name), "%s", kt[i].name);
		p[i].value = kt[i].value;
		probe_one(&p[i]);
	}
	free(kt);
	*n = nk;
	for (int i = 0; mb_map_recipes[i].name; i++) {
		const struct mb_map_recipe *r = &mb_map_recipes[i];
		struct mb_map_probe *q = &p[*n];

		if (listed(p, *n, r->name))
			continue;
		snprintf(q->name, sizeof(q->name), "%s", r->name);
		q->value = -1;
		q->recipe = r;
		q->err = -EINVAL;
		snprintf(q->why, sizeof(q->why), "not on this kernel: %s",
			 r->since ? r->since : "this kernel's BTF does not name it");
		(*n)++;
	}
	*out = p;
	return 0;
}
