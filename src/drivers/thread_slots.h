/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Producer threads in a BPF object's thread -> slot map (its BPF side: thread_slots.bpf.h), so
 * that a program running in a producer's thread counts in that producer's slot. Each producer
 * registers itself, on its own thread, before the programs can run for it.
 */
#ifndef MB_DRIVERS_THREAD_SLOTS_H
#define MB_DRIVERS_THREAD_SLOTS_H

#include <stdint.h>

/*
 * The calling thread is producer @slot's (0..MB_MAX_SLOTS-1), in the object's mb_thread_slots
 * map @map_fd; again: its slot is replaced. 0, -EINVAL for a slot out of range, or -errno.
 */
int mb_thread_slot_register(int map_fd, uint32_t slot);
/* The calling thread is no producer's any more. 0, -ENOENT where it was not, or -errno. */
int mb_thread_slot_unregister(int map_fd);

#endif
