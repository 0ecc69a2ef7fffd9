// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The sockmap bench's modes by name, as its flags and messages spell them (sms.h). */
#include <stddef.h>

#include "sms.h"

const char *const sms_mode_names[] = {
	"rx-normal", "rx-pass", "rx-verdict-egress", "rx-verdict-ingress",
	"tx-normal", "tx-pass", "tx-verdict-ingress", "tx-verdict-egress", NULL,
};
