// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* /proc/interrupts text: any input parses or is refused cleanly, never read past its end. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sys/interrupts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	uint64_t n;
	int err;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	err = mb_interrupts_parse(s, MB_IRQ_WORK, &n);
	if (err && err != -ENOENT && err != -EINVAL)
		abort();
	free(s);
	return 0;
}
