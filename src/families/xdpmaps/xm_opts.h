/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The xdpmaps family's options every bench takes (each its own --map_type list). */
#ifndef MB_FAMILIES_XM_OPTS_H
#define MB_FAMILIES_XM_OPTS_H

#include "core/opts.h"
#include "xm.h"

#define XM_OPT_MAP_TYPE(_names, _help)						\
	MB_OPT_ENUM_DEF("map_type", struct xm_args, map_type, "devmap", _names, _help)
#define XM_OPT_NR_ENTRIES							\
	MB_OPT_U32_DEF("nr_entries", struct xm_args, nr_entries, "64", 1, XM_MAX_ENTRIES, "N", \
		       "Entries of the map (cpumap: one per online CPU, all of them unless given)")
#define XM_OPT_DEV								\
	MB_OPT_STRING_DEF("dev", struct xm_args, dev, NULL, "NAME",				\
			  "Put lo and this device of the host's namespace in the map, not a veth pair in a namespace of the run's own")
#define XM_OPT_QSIZE								\
	MB_OPT_U32_DEF("qsize", struct xm_args, qsize, "192", 1, XM_MAX_QSIZE, "N",			\
		       "cpumap: each entry's queue of frames (the kernel's limit is 16384)")

#endif
