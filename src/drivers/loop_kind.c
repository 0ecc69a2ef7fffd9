// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The in-kernel loop's kind: the may_goto probe, the choice, and keeping one program per op. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loop_kind.h"

#define BL_SUFFIX	"_bl"
#define LAT_SUFFIX	"_lat"
#define LAT_MAP		"mb_lat_hists"	/* kloop_lat.bpf.h */

/* r0 = 0; may_goto +1; r0 = 1; exit: loads only where the kernel knows the instruction. */
static int probe_may_goto(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | 0xe0 /* BPF_JCOND */ | BPF_K, .off = 1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd;

	/* The tests' stand-in for a kernel older than 6.9. */
	if (getenv(MB_LOOP_REFUSE_ENV))
		return -EINVAL;
	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "mb_may_goto", "Dual BSD/GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), NULL);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

bool mb_loop_may_goto_supported(void)
{
	static int cached = -1;

	if (cached < 0)
		cached = probe_may_goto() == 0;
	return cached;
}

enum mb_loop_kind mb_loop_kind_pick(enum mb_loop_kind requested, struct mb_loop_info *info)
{
	enum mb_loop_kind kind = requested;

	info->requested = requested;
	info->bpf_loop_inlined = -1;
	info->private_stack = -1;
	info->subprog_calls = -1;
	if (requested == MB_LOOP_MAY_GOTO) {
		snprintf(info->why, sizeof(info->why), "--loop may_goto");
	} else if (requested == MB_LOOP_BPF_LOOP) {
		snprintf(info->why, sizeof(info->why), "--loop bpf_loop");
	} else if (mb_loop_may_goto_supported()) {
		kind = MB_LOOP_MAY_GOTO;
		snprintf(info->why, sizeof(info->why), "the kernel accepts may_goto");
	} else {
		kind = MB_LOOP_BPF_LOOP;
		snprintf(info->why, sizeof(info->why),
			 "the kernel refused a may_goto probe (it needs Linux 6.9 or later): bpf_loop fallback");
	}
	info->kind = kind;
	return kind;
}

/* The skeleton entry of @name's twin, its name followed by @suffix, or -1. */
static int twin_of(const struct bpf_object_skeleton *s, const char *name, const char *suffix)
{
	size_t len = strlen(name);

	for (int j = 0; j < s->prog_cnt; j++) {
		const char *t = s->progs[j].name;

		if (!strncmp(t, name, len) && !strcmp(t + len, suffix))
			return j;
	}
	return -1;
}

/* Keep the program of skeleton entry @keep (-1: the entry's own) for entry @i; drop @drop. */
static void keep_twin(const struct bpf_object_skeleton *s, int i, int keep, int drop)
{
	if (drop >= 0)
		bpf_program__set_autoload(*s->progs[drop].prog, false);
	if (keep < 0)
		return;
	bpf_program__set_autoload(*s->progs[i].prog, false);
	*s->progs[i].prog = *s->progs[keep].prog;
}

void mb_loop_prepare(const struct bpf_object_skeleton *s, const struct mb_loop_info *loop)
{
	bool lat = loop->lat_every && loop->kind == MB_LOOP_MAY_GOTO;
	struct bpf_map *hists = bpf_object__find_map_by_name(*s->obj, LAT_MAP);

	for (int i = 0; i < s->prog_cnt; i++) {
		int bl = twin_of(s, s->progs[i].name, BL_SUFFIX);
		int timed = twin_of(s, s->progs[i].name, LAT_SUFFIX);

		if (timed < 0)
			continue;
		if (bl >= 0 && loop->kind == MB_LOOP_BPF_LOOP) {
			keep_twin(s, i, -1, timed);
			keep_twin(s, i, bl, -1);
			continue;
		}
		/* A may_goto loop alone (the XDP loop's) has no bpf_loop twin to drop. */
		if (bl >= 0)
			keep_twin(s, i, -1, bl);
		keep_twin(s, i, lat ? timed : -1, lat ? -1 : timed);
	}
	/* Every object of an op loop has the map; it costs memory on every CPU only when used. */
	if (hists)
		bpf_map__set_autocreate(hists, lat);
}
