// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kernel_btf.h"

/* @name among the enumerators of type @t, whose values go to *@value. */
static bool enum_has(const struct btf *btf, const struct btf_type *t, const char *name,
		     int64_t *value)
{
	int n = btf_vlen(t);

	if (btf_is_enum(t)) {
		const struct btf_enum *e = btf_enum(t);

		for (int i = 0; i < n; i++, e++) {
			if (!strcmp(btf__name_by_offset(btf, e->name_off), name)) {
				*value = e->val;
				return true;
			}
		}
	} else if (btf_is_enum64(t)) {
		const struct btf_enum64 *e = btf_enum64(t);

		for (int i = 0; i < n; i++, e++) {
			if (!strcmp(btf__name_by_offset(btf, e->name_off), name)) {
				*value = (int64_t)btf_enum64_value(e);
				return true;
			}
		}
	}
	return false;
}

int mb_kernel_enum_value(const char *name, int64_t *value)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int err = -ENOENT, n;

	if (!btf)
		return errno ? -errno : -ENOENT;
	n = (int)btf__type_cnt(btf);
	for (int id = 1; id < n && err; id++)
		if (enum_has(btf, btf__type_by_id(btf, id), name, value))
			err = 0;
	btf__free(btf);
	return err;
}
