/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* local-storage-syscall: what its set-up, producers and text share. */
#ifndef MB_LS_SYS_H
#define MB_LS_SYS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bench.h"
#include "drivers/owners.h"
#include "ls_inner.h"

enum ls_sys_op { LS_SYS_LOOKUP, LS_SYS_UPDATE, LS_SYS_DELETE };

#define LS_SYS_MAX_VALUE	65407	/* 64 KiB less the element's header: the kernel's limit */

struct ls_sys_args {
	int storage;		/* enum mb_owner_kind (ls_storage.h) */
	int op;			/* enum ls_sys_op */
	uint32_t value_size;
};

/* One producer's owner and what its round trip showed. */
struct ls_sys_prod {
	struct mb_owner owner;	/* task: made by the producer (its own thread); else in set-up */
	bool round_trip;	/* user space read back what it wrote, through a second fd */
	bool bpf_read;		/* task: a syscall program read it too */
} __attribute__((aligned(64)));

struct ls_sys_bpf;

struct ls_sys_state {
	const struct ls_sys_args *args;
	struct ls_inner map;		/* the one storage map: map.fd[0] */
	struct mb_owner_site site;
	struct ls_sys_prod *prod;	/* [nr_producers] */
	int nr_producers;
	struct ls_sys_bpf *skel;	/* task: the BPF leg of the round trip; NULL: none */
	int bpf_prog_fd;		/* its program, -1: none */
	double clock_read_ns;		/* delete: one clock read, inside each timed delete */
};

extern const char *const ls_sys_op_names[];
extern const struct mb_text_style ls_sys_text;

/* ls_sys_run.c */
int ls_sys_producer(struct mb_run *run, struct mb_producer *p);
void ls_sys_measure(struct mb_run *run, struct mb_sample *s);
void ls_sys_finish(struct mb_run *run);

#endif
