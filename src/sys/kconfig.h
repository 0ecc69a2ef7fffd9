/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The running kernel's build configuration, as a short name: two kernels of one release built
 * with other options (a debug config, another preemption model) measure differently, and the
 * results history groups runs by it (docs/history.md, "machine class").
 */
#ifndef MB_KCONFIG_H
#define MB_KCONFIG_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64 bits, of @len bytes of @data, continuing from @h (start: MB_KCONFIG_HASH_INIT). */
#define MB_KCONFIG_HASH_INIT	0xcbf29ce484222325ULL
uint64_t mb_kconfig_hash_bytes(uint64_t h, const void *data, size_t len);

/*
 * The hash of the kernel's configuration as 16 hex digits in @buf: /proc/config.gz (its text,
 * decompressed), else /boot/config-RELEASE. Returns 0, or -ENOENT when neither can be read
 * (@buf is then empty).
 */
int mb_kconfig_hash(const char *release, char *buf, size_t len);

#endif
