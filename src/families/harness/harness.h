/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The harness family (count-*, bpf-noop, bpf-loop): its text lines, written in harness_text.c. */
#ifndef MB_FAMILIES_HARNESS_H
#define MB_FAMILIES_HARNESS_H

struct mb_text_style;

/* count-*: hits, drops and total operations per second. */
extern const struct mb_text_style harness_text_hits;
/* bpf-noop, bpf-loop: throughput and latency. */
extern const struct mb_text_style harness_text_ops;

#endif
