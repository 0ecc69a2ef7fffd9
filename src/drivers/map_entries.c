// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "map_entries.h"

size_t mb_entries_stride(const struct mb_entries *e)
{
	return mb_map_value_bytes(e->type, e->value_size);
}

uint32_t mb_entries_chunk(uint32_t key_size, size_t stride)
{
	size_t per = (key_size ? key_size : 1) + stride, n = MB_ENTRY_CHUNK_BYTES / per;

	if (n > MB_ENTRY_CHUNK_MAX)
		n = MB_ENTRY_CHUNK_MAX;
	return n ? (uint32_t)n : 1;
}

void mb_index_key_pattern(void *key, uint32_t key_size)
{
	uint8_t *k = key;

	/* Words 1.. hold 2654435761 * w, as the kernel's bpf-hashmap-lookup does. */
	for (uint32_t off = 4; off < key_size; off += 4) {
		uint32_t w = 2654435761u * (off / 4), n = key_size - off < 4 ? key_size - off : 4;

		memcpy(k + off, &w, n);
	}
}

/* @i little-endian in the first min(4, @size) bytes of @p. */
static void put_le(uint8_t *p, uint32_t size, uint32_t i)
{
	for (uint32_t b = 0; b < 4 && b < size; b++)
		p[b] = (uint8_t)(i >> (8 * b));
}

void mb_index_key(void *key, uint32_t key_size, uint32_t i)
{
	mb_index_key_pattern(key, key_size);
	put_le(key, key_size, i);
}

/* A full-length prefix; consecutive entries are consecutive addresses. */
static void lpm_key(uint8_t *k, uint32_t key_size, uint32_t i)
{
	uint32_t data = key_size - 4, plen = data * 8;

	memset(k, 0, key_size);
	memcpy(k, &plen, sizeof(plen));
	for (uint32_t b = 0; b < 4 && b < data; b++)
		k[key_size - 1 - b] = (uint8_t)(i >> (8 * b));
}

void mb_entry_key(const struct mb_entries *e, uint32_t i, void *key)
{
	switch (e->key) {
	case MB_KEY_INDEX:
		mb_index_key(key, e->key_size, i);
		break;
	case MB_KEY_LPM:
		lpm_key(key, e->key_size, i);
		break;
	case MB_KEY_GIVEN:
		memcpy(key, (const uint8_t *)e->keys + (size_t)i * e->key_size, e->key_size);
		break;
	case MB_KEY_NONE:
		break;
	}
}

void mb_entry_value(const struct mb_entries *e, uint32_t i, void *value)
{
	size_t stride = mb_entries_stride(e), one = e->type && e->type->percpu ?
		(e->value_size + 7) & ~(size_t)7 : e->value_size;
	uint8_t *v = value;
	uint32_t fd = (uint32_t)e->value_fd;

	memset(v, 0, stride);
	/* Per-CPU maps: every CPU's copy the same. */
	for (size_t off = 0; off + e->value_size <= stride && one; off += one) {
		if (e->value == MB_VALUE_INDEX)
			put_le(v + off, e->value_size, i);
		else if (e->value == MB_VALUE_GIVEN)
			memcpy(v + off, (const uint8_t *)e->values + (size_t)i * e->value_size,
			       e->value_size);
		else if (e->value == MB_VALUE_FD)
			memcpy(v + off, &fd, e->value_size < 4 ? e->value_size : 4);
	}
}

bool mb_entries_fit(const struct mb_entries *e, uint64_t n)
{
	uint32_t bytes = e->key == MB_KEY_LPM ? e->key_size - 4 : e->key_size;

	if (e->key == MB_KEY_NONE || e->key == MB_KEY_GIVEN || bytes >= 4)
		return true;
	return n <= 1ULL << (8 * bytes);
}

int mb_entries_buffers(struct mb_entries *e, uint32_t chunk)
{
	size_t kbytes = e->key_size ? e->key_size : 1, stride = mb_entries_stride(e);

	e->chunk = chunk ? chunk : mb_entries_chunk(e->key_size, stride);
	/* Two keys at least: a walk holds a key and the next one. */
	e->key_buf = malloc(kbytes * (e->chunk < 2 ? 2 : e->chunk));
	e->value_buf = malloc(stride ? stride * e->chunk : 1);
	if (!e->key_buf || !e->value_buf) {
		mb_entries_buffers_free(e);
		return -ENOMEM;
	}
	memset(e->key_buf, 0, kbytes * (e->chunk < 2 ? 2 : e->chunk));
	memset(e->value_buf, 0, stride ? stride * e->chunk : 1);
	return 0;
}

void mb_entries_buffers_free(struct mb_entries *e)
{
	free(e->key_buf);
	free(e->value_buf);
	e->key_buf = e->value_buf = NULL;
	e->chunk = 0;
}

void mb_entries_share(uint32_t count, uint32_t n, uint32_t i, uint32_t *first, uint32_t *len)
{
	uint32_t share = count / n;

	*first = i * share;
	*len = i == n - 1 ? count - i * share : share;
}
