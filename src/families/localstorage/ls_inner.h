/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The family's maps made from user space: @n maps of one description (local storage with the
 * minimal BTF the kernel wants of it, drivers/map_create), their ids taken as they are made.
 * Where a program reaches them through an array of maps, the first is the outer map's template
 * (so libbpf makes no map of its own for it) and all are put in once it is loaded. At the run's
 * end they are closed after the programs, and the run waits until the kernel has freed them: a
 * storage map holds one of its owners' 16 cache slots until then, which a sweep's next point
 * would have to share.
 */
#ifndef MB_LS_INNER_H
#define MB_LS_INNER_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/map_create.h"
#include "drivers/owners.h"

struct bpf_map;
struct mb_run;

/* The longest wait at a run's end for its maps to be freed. */
#define LS_FREE_WAIT_NS		5000000000ULL

/* The maps; a zeroed struct holds none. */
struct ls_inner {
	int *fd;		/* [nr]; -1: closed (an outer map may hold the map still) */
	uint32_t *id;		/* [nr]: the kernel's ids, taken as the maps are made */
	uint32_t nr;		/* made */
	uint64_t make_ns;	/* from ls_inner_make()'s start to its last map made (and done) */
};

/* What ls_inner_make() does beyond making the maps; NULL: nothing. */
struct ls_inner_opts {
	/* On each map once made (the hashmap control's fill): 0 or an error reported on run. */
	int (*each)(struct mb_run *run, int fd);
	bool skip_missing;	/* a kernel without the map type: a skip that says so */
	const char *what;	/* a failure's "<what>: <why>"; NULL: mb_run_map_create()'s */
};

/* A local storage map of @kind's owners: an fd for key, @value_size bytes, no prealloc. */
void ls_inner_storage_desc(struct mb_map_desc *d, enum mb_owner_kind kind, const char *name,
			   uint32_t value_size);

/*
 * Make @n maps of @d in @in (local storage: with a minimal BTF, released once they are made).
 * 0, or a negative error reported on @run (a skip where @o says so); what was made stays in
 * @in for ls_inner_release() or ls_inner_close().
 */
int ls_inner_make(struct mb_run *run, struct ls_inner *in, struct mb_map_desc *d, uint32_t n,
		  const struct ls_inner_opts *o);
/* Between the skeleton's open and load: the first map is @outer's template. 0 or -errno. */
int ls_inner_template(const struct ls_inner *in, struct bpf_map *outer);
/*
 * Put map i at key i of the array of maps @outer_fd. 0, or a negative error reported on @run,
 * "cannot put <noun> map <i> into the array of maps".
 */
int ls_inner_insert(struct mb_run *run, const struct ls_inner *in, int outer_fd,
		    const char *noun);
/* Close the fds (an outer map holds the maps on): the ids stay, for ls_inner_release(). */
void ls_inner_close_fds(struct ls_inner *in);
/*
 * After the programs are gone: close the maps and wait until the kernel has freed them, or
 * warn on @run that "<n> of the run's <nr> <noun> maps" were not; free @in's arrays.
 */
void ls_inner_release(struct mb_run *run, struct ls_inner *in, const char *noun);
/* Close the maps without waiting (no program held them) and free @in's arrays. */
void ls_inner_close(struct ls_inner *in);

/*
 * Storage maps of map type @type alive on the machine: they share the owners' 16 cache slots
 * with ours (a slot is given to each new map, round robin by least use), so they move the
 * cliff of the curve. -1 when the kernel does not let us walk the map ids.
 */
int ls_live_storage_maps(int type);

#endif
