// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The loop kinds' names: --loop's choices (env.c), the result's "loop" object, the text. */
#include <stddef.h>

#include "loop_info.h"

const char *const mb_loop_kind_names[] = { "auto", "may_goto", "bpf_loop", NULL };
