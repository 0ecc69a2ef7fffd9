// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <zlib.h>

#include "kconfig.h"

uint64_t mb_kconfig_hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* gzread reads a plain file as it is, so one reader takes both places. */
static int hash_file(const char *path, uint64_t *out)
{
	uint64_t h = MB_KCONFIG_HASH_INIT;
	gzFile f = gzopen(path, "rb");
	char buf[16384];
	int n;

	if (!f)
		return -ENOENT;
	while ((n = gzread(f, buf, sizeof(buf))) > 0)
		h = mb_kconfig_hash_bytes(h, buf, (size_t)n);
	gzclose(f);
	if (n < 0)
		return -EIO;
	*out = h;
	return 0;
}

int mb_kconfig_hash(const char *release, char *buf, size_t len)
{
	char path[512];
	uint64_t h;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	if (len)
		buf[0] = '\0';
	if (hash_file("/proc/config.gz", &h) && hash_file(path, &h))
		return -ENOENT;
	snprintf(buf, len, "%016" PRIx64, h);
	return 0;
}
