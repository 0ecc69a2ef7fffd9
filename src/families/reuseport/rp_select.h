/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* reuseport-select's state, which rp_select.c runs and rp_select_check.c checks. */
#ifndef MB_FAMILIES_RP_SELECT_H
#define MB_FAMILIES_RP_SELECT_H

#include <stdint.h>

#include "rp.h"

#define RP_CLIENTS	16	/* UDP senders, each its own source port and so its own hash */

struct rp_select_bpf;

struct rp_select {
	struct rp_select_bpf *skel;
	int client[RP_CLIENTS];		/* UDP: connected to the group's port */
	uint64_t *received;		/* [nr]: datagrams or connections each socket took */
	int test_run_err;		/* what BPF_PROG_TEST_RUN answered (0: it ran) */
	uint64_t runs0;			/* the program's runs before the producer began */
};

#endif
