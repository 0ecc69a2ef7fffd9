// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Map types by name from BTF (a hand-made enum: aliases, the names left out), the recipes'
 * table, and the probe: every recipe of a type this kernel has creates its map, and leaves no
 * descriptor behind (as root; skipped otherwise).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <bpf/btf.h>

#include "maps/map_recipe.h"
#include "drivers/map_probe.h"
#include "sys/probe.h"

static int nr_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void test_types_from_btf(void **state)
{
	struct btf *btf = btf__new_empty();
	struct mb_kernel_map_type *t;
	int n;

	(void)state;
	assert_non_null(btf);
	/* No enum bpf_map_type: -ENOENT. */
	assert_int_equal(mb_map_types_from_btf(btf, &t, &n), -ENOENT);
	assert_true(btf__add_enum(btf, "bpf_map_type", 4) > 0);
	assert_int_equal(btf__add_enum_value(btf, "BPF_MAP_TYPE_UNSPEC", 0), 0);
	assert_int_equal(btf__add_enum_value(btf, "BPF_MAP_TYPE_HASH", 1), 0);
	assert_int_equal(btf__add_enum_value(btf, "BPF_MAP_TYPE_CGROUP_STORAGE_DEPRECATED", 19), 0);
	assert_int_equal(btf__add_enum_value(btf, "BPF_MAP_TYPE_CGROUP_STORAGE", 19), 0);
	assert_int_equal(btf__add_enum_value(btf, "BPF_MAP_TYPE_NEW_ONE", 40), 0);
	assert_int_equal(btf__add_enum_value(btf, "BPF_MAP_TYPE_ARRAY", 2), 0);
	assert_int_equal(btf__add_enum_value(btf, "__MAX_BPF_MAP_TYPE", 41), 0);
	assert_int_equal(mb_map_types_from_btf(btf, &t, &n), 0);
	/* By value; the alias gives way to the plain name; unspec and the max left out. */
	assert_int_equal(n, 4);
	assert_string_equal(t[0].name, "hash");
	assert_string_equal(t[1].name, "array");
	assert_string_equal(t[2].name, "cgroup_storage");
	assert_int_equal(t[2].value, 19);
	/* A type newer than any recipe still appears, by its name. */
	assert_string_equal(t[3].name, "new_one");
	assert_null(mb_map_recipe_find("new_one"));
	free(t);
	btf__free(btf);
}

static void test_recipes(void **state)
{
	int i;

	(void)state;
	/* The names list is the table's, in order (a bench's coverage list). */
	for (i = 0; mb_map_recipes[i].name; i++) {
		const struct mb_map_recipe *r = &mb_map_recipes[i];

		assert_non_null(mb_map_recipe_names[i]);
		assert_string_equal(mb_map_recipe_names[i], r->name);
		assert_ptr_equal(mb_map_recipe_find(r->name), r);
		/* A value from the kernel's BTF names the types to look for. */
		if (r->needs & (MB_RECIPE_VMLINUX_VALUE | MB_RECIPE_VALUE_BTF))
			assert_non_null(r->btf_types);
	}
	assert_null(mb_map_recipe_names[i]);
	assert_non_null(mb_map_recipe_find("insn_array")->since);
	assert_non_null(mb_map_recipe_find("rhash")->since);
	assert_true(mb_map_recipe_find("task_storage")->needs & MB_RECIPE_BTF);
	assert_true(mb_map_recipe_find("hash_of_maps")->needs & MB_RECIPE_INNER);
	assert_null(mb_map_recipe_find("hash")->no_bench);
	assert_null(mb_map_recipe_find("queue")->no_bench);
	assert_null(mb_map_recipe_find("stack_trace")->no_bench);
	/* Types no bench covers give a reason: those newer than this kernel. */
	assert_non_null(mb_map_recipe_find("insn_array")->no_bench);
}

static void test_explain(void **state)
{
	char buf[256];

	(void)state;
	mb_map_recipe_explain(mb_map_recipe_find("sockmap"), -EINVAL, buf, sizeof(buf));
	assert_non_null(strstr(buf, "EINVAL"));
	assert_non_null(strstr(buf, "CONFIG_BPF_STREAM_PARSER"));
	mb_map_recipe_explain(NULL, -524, buf, sizeof(buf));
	assert_non_null(strstr(buf, "built without"));
	mb_map_recipe_explain(mb_map_recipe_find("struct_ops"), -ENOENT, buf, sizeof(buf));
	assert_non_null(strstr(buf, "tcp_congestion_ops"));
	mb_map_recipe_explain(NULL, -EPERM, buf, sizeof(buf));
	assert_non_null(strstr(buf, "CAP_BPF"));
}

/* The kernel's types each probed; the recipes it lacks at the end, each with a reason. */
static void test_probe_all(void **state)
{
	struct mb_map_probe *p;
	int n, fds = nr_fds(), hash = -1, missing = 0;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(mb_map_probe_all(&p, &n), 0);
	assert_true(n > 30);
	for (int i = 0; i < n; i++) {
		if (!strcmp(p[i].name, "hash"))
			hash = i;
		if (p[i].value < 0) {
			missing++;
			assert_int_equal(p[i].err, -EINVAL);
			assert_non_null(strstr(p[i].why, "not on this kernel"));
		} else {
			assert_true(missing == 0);	/* the kernel's types come first */
		}
		if (p[i].err)
			assert_true(strlen(p[i].why) > 10);
	}
	assert_true(hash >= 0);
	assert_int_equal(p[hash].err, 0);
	assert_int_equal(p[hash].value, BPF_MAP_TYPE_HASH);
	free(p);
	assert_int_equal(nr_fds(), fds);
}

/*
 * A recipe with extras (BTF, an inner map, a kernel value type) makes its map and releases
 * them all.
 */
static void test_recipe_map(void **state)
{
	static const char *const names[] = { "task_storage", "array_of_maps", "struct_ops",
					      "ringbuf", "arena" };
	int fds = nr_fds();
	char why[256];

	(void)state;
	if (geteuid() != 0)
		skip();
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		const struct mb_map_recipe *r = mb_map_recipe_find(names[i]);
		struct mb_kernel_map_type *kt;
		int n, err, value = -1;
		char missing[128];

		assert_int_equal(mb_kernel_map_types(&kt, &n), 0);
		for (int k = 0; k < n; k++)
			if (!strcmp(kt[k].name, names[i]))
				value = kt[k].value;
		free(kt);
		if (value < 0)
			continue;
		err = mb_map_probe_type(r, value, why, sizeof(why));
		/* A sandbox that dropped capabilities can refuse a type (arena): said so. */
		if (err == -EPERM && mb_missing_caps(missing, sizeof(missing))) {
			assert_non_null(strstr(why, missing));
			continue;
		}
		assert_int_equal(err, 0);
	}
	assert_int_equal(nr_fds(), fds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types_from_btf),
		cmocka_unit_test(test_recipes),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_probe_all),
		cmocka_unit_test(test_recipe_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
