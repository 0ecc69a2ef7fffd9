// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * What the kernel made of a loaded op loop, read back from it rather than guessed from
 * timing: the translated instructions (bpf_prog_info xlated_prog_insns) show whether a call
 * to the bpf_loop helper remains (the verifier did not inline it) and how many subprogram
 * calls there are; on x86-64 the JITed image shows whether the program got a private stack.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "loop_evidence.h"

/* x86-64 JIT, private stack prologue: add r9, gs:[disp32] (65 4c 03 0c 25). */
static const uint8_t priv_frame_x86[] = { 0x65, 0x4c, 0x03, 0x0c, 0x25 };

void mb_loop_scan_xlated(const void *insns, size_t len, int64_t loop_imm,
			 struct mb_loop_evidence *ev)
{
	const struct bpf_insn *in = insns;
	size_t n = len / sizeof(*in);

	ev->helper_calls_to_loop = 0;
	ev->subprog_calls = 0;
	for (size_t i = 0; i < n; i++) {
		if (in[i].code == (BPF_LD | BPF_DW | BPF_IMM)) {
			i++;	/* the second half of a 64-bit immediate load */
			continue;
		}
		if (in[i].code != (BPF_JMP | BPF_CALL))
			continue;
		if (in[i].src_reg == BPF_PSEUDO_CALL)
			ev->subprog_calls++;
		else if (in[i].src_reg == 0 && in[i].imm == loop_imm)
			ev->helper_calls_to_loop++;
	}
	if (loop_imm == INT64_MIN)
		ev->helper_calls_to_loop = -1;
}

int mb_loop_scan_jited_x86(const uint8_t *image, size_t len)
{
	const size_t k = sizeof(priv_frame_x86);

	for (size_t i = 0; i + k <= len; i++)
		if (!memcmp(image + i, priv_frame_x86, k))
			return 1;
	return 0;
}

static bool kallsyms_addr(const char *line, const char *sym, uint64_t *addr)
{
	char type, name[128];
	uint64_t a;

	if (sscanf(line, "%" SCNx64 " %c %127s", &a, &type, name) != 3 || strcmp(name, sym))
		return false;
	*addr = a;
	return true;
}

bool mb_loop_symbol_imm(FILE *kallsyms, const char *helper, int64_t *imm)
{
	uint64_t base = 0, addr = 0;
	char line[256];

	while (fgets(line, sizeof(line), kallsyms) && !(base && addr)) {
		if (!base && kallsyms_addr(line, "__bpf_call_base", &base))
			continue;
		if (!addr)
			kallsyms_addr(line, helper, &addr);
	}
	/* Hidden addresses read as 0 (kptr_restrict). */
	if (!base || !addr)
		return false;
	*imm = (int64_t)(addr - base);
	return *imm >= INT32_MIN && *imm <= INT32_MAX;
}

bool mb_loop_helper_imm(FILE *kallsyms, int64_t *imm)
{
	return mb_loop_symbol_imm(kallsyms, "bpf_loop", imm);
}

/* @helper's immediate in translated programs, from /proc/kallsyms; INT64_MIN: unknown. */
static int64_t helper_imm(const char *helper)
{
	int64_t imm = INT64_MIN;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (f) {
		if (!mb_loop_symbol_imm(f, helper, &imm))
			imm = INT64_MIN;
		fclose(f);
	}
	return imm;
}

static int64_t loop_helper_imm(void)
{
	static int64_t cached;
	static bool done;

	if (!done) {
		cached = helper_imm("bpf_loop");
		done = true;
	}
	return cached;
}

/* Reads @what (xlated or jited) of @fd into a new buffer; NULL when the kernel gives none. */
static void *prog_image(int fd, bool jited, uint32_t *len)
{
	struct bpf_prog_info info = {};
	uint32_t info_len = sizeof(info);
	void *buf;

	if (bpf_obj_get_info_by_fd(fd, &info, &info_len))
		return NULL;
	*len = jited ? info.jited_prog_len : info.xlated_prog_len;
	if (!*len)
		return NULL;
	buf = calloc(1, *len);
	if (!buf)
		return NULL;
	memset(&info, 0, sizeof(info));
	if (jited) {
		info.jited_prog_len = *len;
		info.jited_prog_insns = (uint64_t)(uintptr_t)buf;
	} else {
		info.xlated_prog_len = *len;
		info.xlated_prog_insns = (uint64_t)(uintptr_t)buf;
	}
	info_len = sizeof(info);
	if (bpf_obj_get_info_by_fd(fd, &info, &info_len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void mb_loop_inspect(int prog_fd, struct mb_loop_info *info)
{
	struct mb_loop_evidence ev = { -1, -1 };
	uint32_t len = 0;
	void *img;

	info->bpf_loop_inlined = -1;
	info->private_stack = -1;
	info->subprog_calls = -1;
	img = prog_image(prog_fd, false, &len);
	if (img) {
		mb_loop_scan_xlated(img, len, loop_helper_imm(), &ev);
		info->subprog_calls = ev.subprog_calls;
		if (info->kind == MB_LOOP_BPF_LOOP && ev.helper_calls_to_loop >= 0)
			info->bpf_loop_inlined = ev.helper_calls_to_loop == 0;
		free(img);
	}
#if defined(__x86_64__)
	img = prog_image(prog_fd, true, &len);
	if (img) {
		info->private_stack = mb_loop_scan_jited_x86(img, len);
		free(img);
	}
#endif
}

int mb_loop_helper_calls(int prog_fd, const char *helper)
{
	int64_t imm = helper_imm(helper);
	struct mb_loop_evidence ev;
	uint32_t len = 0;
	void *img;

	if (imm == INT64_MIN)
		return -ENOENT;
	img = prog_image(prog_fd, false, &len);
	if (!img)
		return -ENODATA;
	mb_loop_scan_xlated(img, len, imm, &ev);
	free(img);
	return ev.helper_calls_to_loop;
}
