// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Key-trace files: any content is read as keys or refused with a line number. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "maps/keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	char err[512] = "";
	uint64_t *keys;
	size_t nr, lines = 0;

	if (fd < 0) {
		fd = memfd_create("keys", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (!mb_keys_read_file(path, &keys, &nr, err, sizeof(err))) {
		/* One key per line, the last line may lack its newline. */
		if (!nr || nr > lines + 1)
			abort();
		free(keys);
	} else if (!err[0]) {
		abort();
	}
	return 0;
}
