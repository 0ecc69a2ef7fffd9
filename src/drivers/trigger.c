// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The trigger runner's set-up: the attach points, loading at the first one that works. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "trigger.h"
#include "util/json.h"
#include "util/log.h"
#include "util/strlist.h"

static const struct {
	const char *name, *key, *suffix;
	enum mb_trigger_kind kind;
} attach_points[MB_TRIGGER_NR] = {
	[MB_TRIGGER_TP_BTF] = { "tp_btf/sys_enter", "tp_btf", "_btf", MB_TRIGGER_KIND_SYSCALL },
	[MB_TRIGGER_RAW_TP] = { "raw_tp/sys_enter", "raw_tp", "_raw", MB_TRIGGER_KIND_SYSCALL },
	[MB_TRIGGER_TP] = { "tp/syscalls/sys_enter_" MB_TRIGGER_SYSCALL, "tp", "_tp",
			    MB_TRIGGER_KIND_SYSCALL },
	[MB_TRIGGER_SOCK_RECV] = { "tp_btf/sock_recv_length", "sock_recv", "_sk",
				   MB_TRIGGER_KIND_SOCKET },
};

static bool attach_valid(enum mb_trigger_attach attach)
{
	return (unsigned int)attach < MB_TRIGGER_NR;
}

const char *mb_trigger_attach_name(enum mb_trigger_attach attach)
{
	return attach_valid(attach) ? attach_points[attach].name : NULL;
}

const char *mb_trigger_attach_key(enum mb_trigger_attach attach)
{
	return attach_valid(attach) ? attach_points[attach].key : NULL;
}

const char *mb_trigger_attach_suffix(enum mb_trigger_attach attach)
{
	return attach_valid(attach) ? attach_points[attach].suffix : NULL;
}

enum mb_trigger_kind mb_trigger_attach_kind(enum mb_trigger_attach attach)
{
	return attach_valid(attach) ? attach_points[attach].kind : MB_TRIGGER_KIND_SYSCALL;
}

bool mb_trigger_refused(const char *list, enum mb_trigger_attach attach)
{
	return mb_list_has(list, mb_trigger_attach_key(attach));
}

int mb_trigger_load(struct mb_run *run, struct mb_trigger *t, mb_trigger_load_fn load, void *ctx)
{
	const char *refuse = getenv(MB_TRIGGER_REFUSE_ENV);
	int first = 0, last = MB_TRIGGER_NR - 1;

	run->runner = "trigger";
	while (last >= 0 && attach_points[last].kind != t->kind)
		last--;
	for (int a = 0; a <= last; a++) {
		int err;

		if (attach_points[a].kind != t->kind)
			continue;
		t->attach = (enum mb_trigger_attach)a;
		t->slots = NULL;
		t->socks = NULL;
		t->threads = NULL;
		if (mb_trigger_refused(refuse, t->attach)) {
			mb_debug("%s: %s programs refused (%s)", run->bench->name,
				 mb_trigger_attach_key(t->attach), MB_TRIGGER_REFUSE_ENV);
			continue;
		}
		err = load(run, t, ctx);
		if (!err)
			return 0;
		if (err == -EPERM)
			return err;
		mb_debug("%s: %s programs failed (%s)%s", run->bench->name,
			 mb_trigger_attach_key(t->attach), strerror(-err),
			 a < last ? "; trying the next attach point" : "");
		if (!first)
			first = err;
	}
	return first ? first : -EOPNOTSUPP;
}

/* Where variable @name of the object's .rodata starts in its initial value, or NULL. */
static void *rodata_var(struct bpf_object *obj, const char *name, size_t size)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, ".rodata");
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec;
	size_t len = 0;
	char *data;
	int id;

	if (!map || !btf)
		return NULL;
	/* Writable until load, as skel->rodata is (libbpf 1.1 returns it const). */
	data = (char *)(uintptr_t)bpf_map__initial_value(map, &len);
	id = btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC);
	if (!data || id < 0)
		return NULL;
	sec = btf__type_by_id(btf, (__u32)id);
	vs = btf_var_secinfos(sec);
	for (int i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);

		if (!strcmp(btf__name_by_offset(btf, var->name_off), name) &&
		    vs->size == size && vs->offset + size <= len)
			return data + vs->offset;
	}
	return NULL;
}

int mb_trigger_prepare(struct bpf_object *obj, enum mb_trigger_attach attach,
		       const char *const *ops)
{
	__u32 *tgid = rodata_var(obj, "mb_trigger_tgid", sizeof(*tgid));
	__u32 *sysnr = rodata_var(obj, "mb_trigger_sysnr", sizeof(*sysnr));
	const char *suffix = mb_trigger_attach_suffix(attach);

	if (!tgid || !sysnr || !suffix)
		return -ENOENT;
	*tgid = (__u32)getpid();
	*sysnr = SYS_getpgid;
	for (int i = 0; ops[i]; i++) {
		struct bpf_program *prog;
		char name[128];

		snprintf(name, sizeof(name), "%s%s", ops[i], suffix);
		prog = bpf_object__find_program_by_name(obj, name);
		if (!prog)
			return -ENOENT;
		bpf_program__set_autoload(prog, true);
	}
	return 0;
}

int mb_trigger_allow_children(struct bpf_object *obj)
{
	__u32 *children = rodata_var(obj, "mb_trigger_children", sizeof(*children));

	if (!children)
		return -ENOENT;
	*children = 1;
	return 0;
}

void mb_trigger_report(const struct mb_trigger *t, struct mb_json *extra)
{
	mb_json_set_str(extra, "trigger", mb_trigger_attach_name(t->attach));
	mb_json_set_str(extra, "syscall",
			t->kind == MB_TRIGGER_KIND_SOCKET ? "recv" : MB_TRIGGER_SYSCALL);
}
