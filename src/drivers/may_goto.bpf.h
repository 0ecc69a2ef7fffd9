/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The may_goto instruction as a macro, for any program's bounded loop: the op loop's
 * (kloop.bpf.h) and a trigger program's own (the socket kind's, which loops over its ops
 * inside one tp_btf run). The verifier accepts it from Linux 6.9 on.
 */
#ifndef MB_MAY_GOTO_BPF_H
#define MB_MAY_GOTO_BPF_H

/*
 * may_goto: BPF_JMP | BPF_JCOND (opcode 0xe5), src_reg BPF_MAY_GOTO (0), the jump offset in
 * instructions. clang-14 has no mnemonic for it, so the instruction is written as its bytes
 * (little-endian: code, registers, 16-bit offset, 32-bit immediate 0). clang-14 misplaces a
 * 2-byte fixup, so the offset goes out in a 4-byte word whose upper half is the immediate's
 * lower half. The verifier turns the instruction into a budget check that jumps to @label
 * when the program has looped long enough.
 */
#define MB_MAY_GOTO(label)							\
	asm volatile goto("1: .byte 0xe5\n\t"					\
			  ".byte 0\n\t"						\
			  ".long ((%l[" #label "] - 1b - 8) / 8) & 0xffff\n\t"	\
			  ".short 0"						\
			  :::: label)

#endif
