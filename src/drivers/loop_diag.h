/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Warnings about the in-kernel loop, each from evidence the kernel gave (the loaded program,
 * the CPU's mitigations), never from a timing guess alone.
 */
#ifndef MB_LOOP_DIAG_H
#define MB_LOOP_DIAG_H

#include <stddef.h>

struct mb_run;
struct mb_loop_info;
struct mb_json;

/* Warns about what run->loop shows; @empty_ns is the measured empty loop's ns/op. */
void mb_loop_diagnose(struct mb_run *run, double empty_ns);

/* The result's "loop" object. */
struct mb_json *mb_loop_json(const struct mb_loop_info *info, double empty_ns);

#endif
