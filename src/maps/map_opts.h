/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The options several families share, each defined once here: its name, type, metavar and the
 * start of its help; a family adds its args struct and field, its default, its range and what
 * the option means for its benches. A range narrower than the kernel's is a named constant in
 * the family, with the reason beside it; --help prints the range each bench takes.
 */
#ifndef MB_MAP_OPTS_H
#define MB_MAP_OPTS_H

#include <stdint.h>

#include "core/opts.h"

/* BPF_MAP_CREATE's max_entries is a u32. */
#define MB_MAP_ENTRIES_MAX	UINT32_MAX
/* bpf_loop's limit (BPF_MAX_LOOPS in the kernel): iterations of one call. */
#define MB_LOOPS_MAX		(1u << 23)

/* --nr_entries: the entries a bench puts into its map. */
#define MB_OPT_NR_ENTRIES(_type, _field, _def, _min, _max, _what)				\
	MB_OPT_U32_DEF("nr_entries", _type, _field, _def, _min, _max, "N",			\
		       "Entries in the map: " _what)
/* --max_entries: the map's capacity (BPF_MAP_CREATE's max_entries). */
#define MB_OPT_MAX_ENTRIES(_type, _field, _def, _max, _what)				\
	MB_OPT_U32_DEF("max_entries", _type, _field, _def, 1, _max, "N",			\
		       "Map capacity: " _what)
#define MB_OPT_KEY_SIZE(_type, _field, _def, _min, _max, _what)				\
	MB_OPT_U32_DEF("key_size", _type, _field, _def, _min, _max, "BYTES", "Key size: " _what)
#define MB_OPT_VALUE_SIZE(_type, _field, _def, _min, _max, _what)				\
	MB_OPT_U32_DEF("value_size", _type, _field, _def, _min, _max, "BYTES",		\
		       "Value size: " _what)
/* --map_flags into a uint32_t: a number or names (mb_map_flags_parse); @_range: the names. */
#define MB_OPT_MAP_FLAGS(_type, _field, _range, _what)					\
	MB_OPT_CUSTOM_DEF("map_flags", _type, _field, "0", mb_map_flags_opt_parse,		\
			  mb_map_flags_opt_format, _range, "FLAGS", "Map flags: " _what)
/* --seed into a uint64_t: every seed is valid, and 1 is every bench's default. */
#define MB_OPT_SEED(_type, _field, _what)							\
	MB_OPT_U64_DEF("seed", _type, _field, "1", 0, UINT64_MAX, "N", "Seed of " _what)
/* --nr_loops: iterations of one in-kernel loop, at most bpf_loop's. */
#define MB_OPT_NR_LOOPS(_type, _field, _def, _what)						\
	MB_OPT_U32_DEF("nr_loops", _type, _field, _def, 1, MB_LOOPS_MAX, "N", _what)

/* MB_OPT_CUSTOM callbacks for a uint32_t of map flags. */
int mb_map_flags_opt_parse(const char *arg, void *field, const char **why);
void mb_map_flags_opt_format(const void *field, char *buf, size_t len);

#endif
