/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * How the machines of two result documents differ where it changes in-kernel figures: the
 * kernel, the CPU (vendor, family, model, stepping, microcode) and each speculative-execution
 * mitigation. A return thunk alone can make every call in JITed BPF cost ~8 ns more.
 */
#ifndef MB_COMPARE_CONTEXT_H
#define MB_COMPARE_CONTEXT_H

struct mb_json;

/* One string per difference ("CPU model 207 -> 17", ...), in a new array. */
struct mb_json *mb_context_differences(const struct mb_json *base_doc,
				       const struct mb_json *cur_doc);

#endif
