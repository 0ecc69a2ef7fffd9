// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* map-in-map-replace: the inner maps, and reading back what a slot of the outer map holds. */
#include <errno.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "drivers/map_create.h"
#include "maps/maps.h"
#include "mim.h"

int mim_inner_create(const struct mim_state *st, const struct mim_args *a)
{
	struct mb_map_desc d = {
		.type = mb_map_type_by_name(mim_inner_names[a->inner_type]), .name = "mb_mim_inner",
		.key_size = 4, .value_size = 8, .max_entries = a->inner_entries,
	};

	(void)st;
	return mb_map_create(&d);
}

int mim_slot_read(const struct mim_state *st, uint32_t slot, uint32_t *id)
{
	/* A map-in-map's lookup from user space gives the inner map's id. */
	if (bpf_map_lookup_elem(st->outer_fd, &slot, id)) {
		if (errno != ENOENT)
			return -errno;
		*id = 0;
	}
	return 0;
}

int mim_id_gone(uint32_t id)
{
	int fd = bpf_map_get_fd_by_id(id);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == ENOENT ? 1 : -errno;
}
