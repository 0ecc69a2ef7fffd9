// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Maps that need BTF (the local storage types) made from a description, and why a creation
 * failed. The explanations are pure; the creations run as root only (skipped otherwise).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drivers/map_create.h"

static const char *const storage_names[] = { "task_storage", "sk_storage", "cgrp_storage",
					      "inode_storage" };

static struct mb_map_desc storage_desc(const char *name)
{
	const struct mb_map_type_info *t = mb_storage_type_by_name(name);

	assert_non_null(t);
	return (struct mb_map_desc){ .type = t, .name = "mb_t_create", .key_size = 4,
				     .value_size = 24, .flags = BPF_F_NO_PREALLOC, .btf_fd = -1 };
}

/* Open fds of this process: what a test made and did not close shows here. */
static int nr_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(dir);
	while (readdir(dir))
		n++;
	closedir(dir);
	return n;
}

/* The explanations, without a kernel: the attribute, the BTF, the missing type. */
static void test_explain(void **state)
{
	struct mb_map_desc d = storage_desc("task_storage");
	struct mb_map_type_info fake = { .name = "nonesuch", .type = 999 };
	char buf[512];

	(void)state;
	mb_explain_map_desc(-EINVAL, &d, 1, "making it", buf, sizeof(buf));
	assert_non_null(strstr(buf, "making it: local storage maps need BTF"));
	assert_non_null(strstr(buf, "task_storage map has no BTF"));
	d.max_entries = 10;
	mb_explain_map_desc(-EINVAL, &d, 1, "making it", buf, sizeof(buf));
	assert_non_null(strstr(buf, "max_entries must be 0"));
	d.max_entries = 0;
	d.flags = 0;
	mb_explain_map_desc(-EINVAL, &d, 1, "making it", buf, sizeof(buf));
	assert_non_null(strstr(buf, "no_prealloc"));
	d.type = &fake;
	mb_explain_map_desc(-EINVAL, &d, 0, "making it", buf, sizeof(buf));
	assert_string_equal(buf, "making it: this kernel has no nonesuch map type (EINVAL)");
	/* Not EINVAL: the general sentence, whatever the type. */
	d = storage_desc("sk_storage");
	mb_explain_map_desc(-ENOMEM, &d, 1, "making it", buf, sizeof(buf));
	assert_non_null(strstr(buf, "ENOMEM"));
	d.type = mb_map_type_by_name("hash");
	mb_explain_map_desc(-EINVAL, &d, 1, "making it", buf, sizeof(buf));
	assert_non_null(strstr(buf, "refused the map's attributes (EINVAL)"));
}

/* An fd of an owner of @name's storage: this task, a socket, a file (-1: cgroups, not tried). */
static int owner_fd(const char *name)
{
	if (!strcmp(name, "task_storage"))
		return (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (!strcmp(name, "sk_storage"))
		return socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!strcmp(name, "inode_storage"))
		return open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	return -1;
}

/* A value through the map and back, keyed by an owner's fd: the BTF is one the kernel uses. */
static void round_trip(int map_fd, const char *name)
{
	char in[24] = "mapbench local storage", out[24] = "";
	int key = owner_fd(name);

	if (key < 0)
		return;
	assert_int_equal(bpf_map_update_elem(map_fd, &key, in, BPF_NOEXIST), 0);
	assert_int_equal(bpf_map_lookup_elem(map_fd, &key, out), 0);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(bpf_map_delete_elem(map_fd, &key), 0);
	close(key);
}

static void create_one(const char *name)
{
	struct mb_map_desc d = storage_desc(name);
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);
	int fd;

	assert_int_equal(mb_map_desc_add_btf(&d), 0);
	fd = mb_map_create(&d);
	/* The BTF's fd is not the map's: the map keeps its own reference. */
	mb_map_desc_put_btf(&d);
	if (fd == -EINVAL && libbpf_probe_bpf_map_type(d.type->type, NULL) == 0) {
		print_message("%s: this kernel has no such map type, not checked\n", name);
		return;
	}
	assert_true(fd >= 0);
	assert_int_equal(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	assert_int_equal(info.type, d.type->type);
	assert_int_equal(info.max_entries, 0);
	assert_int_equal(info.value_size, 24);
	assert_true(info.btf_key_type_id && info.btf_value_type_id);
	round_trip(fd, name);
	close(fd);
}

/* Each storage type with BTF; without it, the kernel's EINVAL and the sentence. */
static void test_create_storage(void **state)
{
	int fds = nr_fds();

	(void)state;
	if (geteuid() != 0)
		skip();
	for (size_t i = 0; i < sizeof(storage_names) / sizeof(*storage_names); i++) {
		struct mb_map_desc d = storage_desc(storage_names[i]);
		char buf[512];
		int err;

		create_one(storage_names[i]);
		err = mb_map_create(&d);
		assert_int_equal(err, -EINVAL);
		mb_explain_map_desc(err, &d, 1, "x", buf, sizeof(buf));
		assert_non_null(strstr(buf, "need BTF"));
		assert_non_null(strstr(buf, storage_names[i]));
	}
	/* Nothing left open: maps, BTF, owners. */
	assert_int_equal(nr_fds(), fds);
}

/* A BTF for other sizes (a key that is no int) that a hash map takes. */
static void test_btf_hash(void **state)
{
	struct mb_map_desc d = { .type = mb_map_type_by_name("hash"), .name = "mb_t_create",
				 .key_size = 12, .value_size = 8, .max_entries = 4, .btf_fd = -1 };
	int fd, fds = nr_fds();

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(mb_map_desc_add_btf(&d), 0);
	fd = mb_map_create(&d);
	assert_true(fd >= 0);
	close(fd);
	mb_map_desc_put_btf(&d);
	assert_int_equal(d.btf_key_type_id, 0);
	/* A second put closes nothing. */
	mb_map_desc_put_btf(&d);
	assert_int_equal(nr_fds(), fds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_create_storage),
		cmocka_unit_test(test_btf_hash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
