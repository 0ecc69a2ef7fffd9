/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What every object built on the drivers' BPF headers defines once, whichever of them it
 * includes (kloop.bpf.h, trigger.bpf.h): its license and the producers' counter slots in its
 * .bss (struct mb_slot, kloop_shared.h), which user space reads through the skeleton.
 */
#ifndef MB_SLOTS_BPF_H
#define MB_SLOTS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "kloop_shared.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct mb_slot mb_slots[MB_MAX_SLOTS];

#endif
