/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Which in-kernel op loop runs (kloop.bpf.h makes two programs per op): may_goto (no call per
 * op) where the kernel accepts the instruction, bpf_loop otherwise, or what --loop forces; and
 * keeping that kind's program of each op in a skeleton. What the kernel made of the loaded
 * program: loop_evidence.h. The choice is recorded in core's struct mb_loop_info.
 */
#ifndef MB_LOOP_KIND_H
#define MB_LOOP_KIND_H

#include <stdbool.h>

#include "core/loop_info.h"

struct bpf_object_skeleton;

/* Set (to anything): the may_goto probe reports a refusal, as a kernel before 6.9 would. */
#define MB_LOOP_REFUSE_ENV "MAPBENCH_REFUSE_MAY_GOTO"

/* Does the running kernel accept may_goto? Probed once with a three-instruction program. */
bool mb_loop_may_goto_supported(void);

/* The kind to load for @requested; fills @info's kind, requested and why. */
enum mb_loop_kind mb_loop_kind_pick(enum mb_loop_kind requested, struct mb_loop_info *info);

/*
 * Between a skeleton's __open() and __load(): keep only one program of each op, @loop's kind,
 * and where @loop->lat_every is set (--latency, may_goto only) its _lat twin, which times one
 * op in that many, with the histogram map it writes (created only then). A program with a
 * _lat twin and no bpf_loop one (the XDP loop's) keeps itself or, with --latency, the twin.
 * The skeleton's
 * pointer to each op's program is turned to the kept twin, so the bench's code (autoload,
 * fds) works on whichever program was kept.
 */
void mb_loop_prepare(const struct bpf_object_skeleton *s, const struct mb_loop_info *loop);

#endif
