// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-mem: local storage types (task, sk, cgrp, inode storage), per owner. A storage map has no
 * capacity (max_entries 0): it holds one value per owner, so --max_entries N is N owners. For
 * each size: N owners made in a cgroup of their own (their own charge is measured there and is
 * in no row); the storage map in a fresh cgroup, one update per owner keyed by its fd, every
 * value read back, one delete per owner, closed; then, what a user would keep instead, a hash
 * map keyed by the owners' ids (8 bytes), of the same value size and N entries, filled, read
 * back and emptied the same way in a cgroup of its own. Local storage is charged to the map's
 * memory cgroup (the creator's), not the owner's: the owners' cgroup is not the map's here, so
 * the storage row's growth on fill is that charge.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "core/bench.h"
#include "core/runner.h"
#include "util/json.h"
#include "maps/maps.h"
#include "sys/probe.h"
#include "map_mem.h"
#include "map_mem_run.h"

/* One size of a storage type: its owners, the storage map's row and the hash's. */
struct mm_srow {
	uint32_t owners;
	double owners_bytes;		/* the owners' own charge, in their cgroup */
	double owners_ms;		/* making them */
	struct mm_row st, hash;
};

/* A map keyed by owner: how it is made, its keys, value buffers touched before any cgroup. */
struct mm_keyed {
	struct mb_map_desc d;
	const char *label;		/* for the progress line */
	const void *keys;		/* key i at i x key_size */
	uint8_t *value, *back;
	uint32_t owners;
};

int mm_storage_validate(struct mb_run *run, const struct mb_map_type_info *t)
{
	const struct map_mem_args *a = run->args;
	char why[160];
	uint32_t max = mm_owners_max(t, why, sizeof(why));

	if (mb_run_opt_given(run, "key_size") && a->key_size != 4)
		return mb_run_usage(run, "--key_size %u: %s keys are owner fds (must be 4; the hash beside it takes 8-byte owner ids)",
				    a->key_size, t->name);
	for (uint32_t i = 0; i < a->sizes.n; i++)
		if (a->sizes.v[i] > max)
			return mb_run_usage(run, "--max_entries %u: %s makes that many owners (%ss); at most %u here (%s)",
					    a->sizes.v[i], t->name,
					    mb_owner_kind_name(mm_owner_kind(t)), max, why);
	return 0;
}

int mm_storage_setup(struct mb_run *run, struct mm_state *st)
{
	const struct map_mem_args *a = run->args;
	struct rlimit rl;
	int err;

	uint64_t storage = 0;

	for (int i = 0; mb_storage_map_types[i].name; i++)
		storage |= mm_storage_bit(&mb_storage_map_types[i]);
	if (!(a->types & storage))
		return 0;
	/* Owners hold a descriptor each: up to the hard limit validation allowed for. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	/* One BTF (a 4-byte key, a value of value_size bytes) for every storage map. */
	st->sdesc = (struct mb_map_desc){ .type = &mb_storage_map_types[0], .name = "mb_mem",
					  .key_size = 4, .value_size = a->value_size,
					  .inner_fd = -1, .btf_fd = -1 };
	err = mb_map_desc_add_btf(&st->sdesc);
	if (err)
		return mb_run_fail(run, err, "cannot load the BTF local storage maps need: %s",
				   strerror(-err));
	st->sdesc_ready = true;
	return 0;
}

void mm_storage_teardown(struct mm_state *st)
{
	mm_owners_free(&st->owners);
	if (st->sdesc_ready)
		mb_map_desc_put_btf(&st->sdesc);
	st->sdesc_ready = false;
}

static const void *key_of(const struct mm_keyed *k, uint32_t i)
{
	return (const uint8_t *)k->keys + (size_t)i * k->d.key_size;
}

/* The value of owner @i: its index in the first bytes, so reading it back names the owner. */
static void value_of(const struct mm_keyed *k, uint32_t i, uint8_t *v)
{
	memcpy(v, &i, k->d.value_size < sizeof(i) ? k->d.value_size : sizeof(i));
}

/* One update per owner, as a user-space agent would give each owner its value. */
static int keyed_fill(const struct mm_keyed *k, int fd, struct mm_row *r)
{
	uint64_t t0 = mb_now_ns();

	mm_phase(r->nr, 64, "map-mem: %s, %u owners: filling", k->label, k->owners);
	for (uint32_t i = 0; i < r->nr; i++) {
		if (i && !(i & 63) && mm_phase_tick())
			return -EINTR;
		value_of(k, i, k->value);
		if (bpf_map_update_elem(fd, key_of(k, i), k->value, BPF_NOEXIST))
			return -errno;
	}
	r->fill_ms = (double)(mb_now_ns() - t0) / 1e6;
	return 0;
}

/* Values read back as written: the entries the row counts. */
static uint64_t keyed_check(const struct mm_keyed *k, int fd, uint32_t nr)
{
	size_t cmp = k->d.value_size < sizeof(uint32_t) ? k->d.value_size : sizeof(uint32_t);
	uint64_t ok = 0;

	mm_phase(nr, 64, "map-mem: %s, %u owners: reading back", k->label, k->owners);
	for (uint32_t i = 0; i < nr; i++) {
		if (i && !(i & 63) && mm_phase_tick())
			break;
		memset(k->back, 0xff, cmp);
		value_of(k, i, k->value);
		ok += !bpf_map_lookup_elem(fd, key_of(k, i), k->back) &&
		      !memcmp(k->back, k->value, cmp);
	}
	return ok;
}

/* One delete per owner, then the wait for the freed values (RCU) as other types have it. */
static void keyed_delete(struct mb_run *run, struct mm_state *st, const struct mm_keyed *k,
			 int fd, struct mm_row *r, const struct mb_memcg_usage *base,
			 uint64_t slack)
{
	struct mb_memcg_usage u;
	uint64_t t0 = mb_now_ns();
	int err = 0;

	mm_phase(r->nr, 64, "map-mem: %s, %u owners: deleting", k->label, k->owners);
	for (uint32_t i = 0; i < r->nr && !err; i++) {
		if (i && !(i & 63) && mm_phase_tick())
			err = -EINTR;
		else if (bpf_map_delete_elem(fd, key_of(k, i)))
			err = -errno;
	}
	r->delete_ms = (double)(mb_now_ns() - t0) / 1e6;
	r->can_delete = true;
	if (err) {
		mm_row_fail(st, r, err, "deleting every owner's value");
		return;
	}
	r->memlock_deleted = mm_memlock_of(fd);
	if (!mm_read_charged(st, r, &u))
		return;
	r->deleted_now = mm_delta(u.charged, base->charged);
	mm_phase(0, 0, "map-mem: %s, %u owners: waiting for the deleted values' release",
		 k->label, k->owners);
	mm_wait_release(run, st, base->charged + (uint64_t)fmax(r->created, 0) + slack,
			&r->del_wait, &r->del_waited);
	r->deleted = mm_delta(r->del_wait.end_bytes, base->charged);
}

/* After the fill: the charge, the values read back, the delete. False: the row failed. */
static bool keyed_filled(struct mm_state *st, const struct mm_keyed *k, int fd,
			 struct mm_row *r, const struct mb_memcg_usage *base)
{
	struct mb_memcg_usage u;
	char why[160];

	r->memlock_filled = mm_memlock_of(fd);
	if (mm_read_charged(st, r, &u)) {
		r->filled = mm_delta(u.charged, base->charged);
		r->usage_filled = mm_delta(u.usage, base->usage);
		r->peak = mm_delta(st->cg.kmem ? u.kmem_peak : u.peak,
				   st->cg.kmem ? base->kmem : base->usage);
	}
	/* The ops happened: every value is there, as written, before a figure is reported. */
	r->entries = keyed_check(k, fd, r->nr);
	if (mb_interrupted()) {
		mm_row_fail_why(st, r, -EINTR, "");
		return false;
	}
	if (r->entries == r->nr)
		return true;
	snprintf(why, sizeof(why), "reading the values back: %llu of %u as written",
		 (unsigned long long)r->entries, r->nr);
	mm_row_fail_why(st, r, -EIO, why);
	return false;
}

/* A map keyed by owner, in a fresh cgroup: created, filled, read back, emptied, closed. */
static void keyed_measure(struct mb_run *run, struct mm_state *st, const struct mm_keyed *k,
			  uint32_t nr, struct mm_row *r)
{
	struct mb_memcg_usage base = {}, u;
	uint64_t slack = mm_row_begin(st, k->d.max_entries, nr, r, &base);
	int fd, err;

	mm_phase(0, 0, "map-mem: %s, %u owners: creating", k->label, k->owners);
	fd = mb_map_create(&k->d);
	if (fd < 0) {
		mm_row_fail(st, r, fd, "creating the map");
		goto out;
	}
	r->memlock_created = mm_memlock_of(fd);
	if (mm_read_charged(st, r, &u)) {
		r->created = mm_delta(u.charged, base.charged);
		r->usage_created = mm_delta(u.usage, base.usage);
	}
	err = keyed_fill(k, fd, r);
	if (err) {
		mm_row_fail(st, r, err, "filling the map (one update per owner)");
		goto close;
	}
	if (keyed_filled(st, k, fd, r, &base))
		keyed_delete(run, st, k, fd, r, &base, slack);
close:
	close(fd);
	if (!r->err && r->memcg && !mb_interrupted()) {
		mm_phase(0, 0, "map-mem: %s, %u owners: waiting for the closed map's release",
			 k->label, k->owners);
		mm_wait_release(run, st, base.charged + slack, &r->close_wait, &r->close_waited);
		r->closed = mm_delta(r->close_wait.end_bytes, base.charged);
	}
out:
	mm_phase_clear();
	mm_row_end(run, st);
}

/* The owners, in a cgroup of their own: what they cost themselves is in no row. */
static int owners_make(struct mb_run *run, struct mm_state *st, const struct mb_map_type_info *t,
		       struct mm_srow *s, char *why, size_t len)
{
	struct mb_memcg_usage b0, b1;
	bool memcg = false;
	uint64_t t0;
	int err;

	err = mm_owners_alloc(&st->owners, mm_owner_kind(t), s->owners, why, len);
	if (err)
		return err;
	if (st->memcg_ok) {
		memcg = !mb_memcg_enter(&st->site, &st->cg, why, len);
		memcg = memcg && !mb_memcg_read(&st->cg, &b0);
	}
	mm_phase(s->owners, 64, "map-mem: %s, %u owners: making %ss", t->name, s->owners,
		 mb_owner_kind_name(mm_owner_kind(t)));
	t0 = mb_now_ns();
	err = mm_owners_make(&st->owners, why, len);
	s->owners_ms = (double)(mb_now_ns() - t0) / 1e6;
	if (!err && memcg && !mb_memcg_read(&st->cg, &b1))
		s->owners_bytes = mm_delta(b1.charged, b0.charged);
	mm_phase_clear();
	mm_row_end(run, st);
	return err;
}

static void keyed_init(struct mm_keyed *k, uint8_t *buf, uint32_t value_size, uint32_t owners)
{
	memset(k, 0, sizeof(*k));
	k->value = buf;
	k->back = buf + value_size;
	k->owners = owners;
	k->d.value_size = value_size;
	k->d.inner_fd = -1;
	k->d.btf_fd = -1;
	k->d.name = "mb_mem";
}

/* One size: the owners, the storage row, the hash row; the owners gone after. */
static void measure_size(struct mb_run *run, struct mm_state *st, const struct mb_map_type_info *t,
			 uint8_t *buf, struct mm_srow *s)
{
	const struct map_mem_args *a = run->args;
	const struct mb_map_type_info *hash = mb_map_type_by_name("hash");
	uint32_t nr = a->nr_entries ? a->nr_entries : s->owners;
	struct mm_keyed k;
	char why[256];
	int err;

	s->owners_bytes = s->owners_ms = NAN;
	mm_row_init(&s->st, 0, nr);
	mm_row_init(&s->hash, s->owners, nr);
	err = owners_make(run, st, t, s, why, sizeof(why));
	if (err) {
		/* One failure, said on both rows. */
		st->nr_rows++;
		mm_row_fail_why(st, &s->st, err, why);
		s->hash.err = err;
		snprintf(s->hash.why, sizeof(s->hash.why), "%s",
			 err == -EINTR ? "interrupted" : "no owners: see the storage row");
		goto out;
	}
	keyed_init(&k, buf, a->value_size, s->owners);
	k.d = st->sdesc;
	k.d.type = t;
	k.d.flags = t->flags_needed | (a->map_flags & t->flags_ok);
	k.label = t->name;
	k.keys = st->owners.fd;
	keyed_measure(run, st, &k, nr, &s->st);
	if (mb_interrupted())
		goto out;
	keyed_init(&k, buf, a->value_size, s->owners);
	k.d.type = hash;
	k.d.key_size = sizeof(*st->owners.id);
	k.d.max_entries = s->owners;
	k.d.flags = a->map_flags & hash->flags_ok;
	k.label = MM_HASH_ROW;
	k.keys = st->owners.id;
	keyed_measure(run, st, &k, nr, &s->hash);
out:
	mm_phase(0, 0, "map-mem: %s, %u owners: ending them", t->name, s->owners);
	mm_owners_free(&st->owners);
	mm_phase_clear();
}

/* ---- output ---- */

static struct mb_json *storage_row_json(const struct mm_srow *s)
{
	struct mb_json *o = mm_row_json(&s->st), *h = mm_row_json(&s->hash);
	double e = (double)s->st.entries, he = (double)s->hash.entries;
	double per_owner = !s->st.err && e > 0 ? s->st.filled / e : NAN;
	double per_entry = !s->hash.err && he > 0 ? s->hash.filled / he : NAN;

	mb_json_set_num(o, "owners", s->owners);
	mb_json_set(o, "owners_bytes", mm_num_or_null(s->owners_bytes));
	mb_json_set(o, "owner_bytes_each", mm_num_or_null(s->owners_bytes / s->owners));
	mb_json_set(o, "owners_ms", mm_num_or_null(s->owners_ms));
	mb_json_set(o, "bytes_per_owner", mm_num_or_null(per_owner));
	mb_json_set(o, "hash", h);
	mb_json_set(o, "hash_bytes_per_entry", mm_num_or_null(per_entry));
	mb_json_set(o, "storage_vs_hash", mm_num_or_null(per_owner / per_entry));
	return o;
}

/* What keys a storage map from user space, per owner kind. */
static const char *const owner_key[MB_OWNER_NR] = {
	"a pidfd of the thread (pidfd_open PIDFD_THREAD)", "the socket's fd",
	"an open fd of the cgroup v2 directory", "an open fd of the file",
};

/* A storage type's object in extra.footprint: the map, its owners and the hash beside it. */
static struct mb_json *storage_type_json(const struct mb_map_type_info *t,
					 const struct map_mem_args *a)
{
	const struct mb_map_type_info *hash = mb_map_type_by_name("hash");
	enum mb_owner_kind kind = mm_owner_kind(t);
	struct mb_json *o = mb_json_object(), *s = mb_json_object(), *h = mb_json_object();
	char flags[128], why[160];
	uint32_t max = mm_owners_max(t, why, sizeof(why));

	mb_map_flags_format(t->flags_needed | (a->map_flags & t->flags_ok), flags, sizeof(flags));
	mb_json_set_num(o, "key_size", 4);
	mb_json_set_num(o, "value_size", a->value_size);
	mb_json_set_bool(o, "percpu", false);
	mb_json_set(o, "percpu_values_charged", mb_json_null());
	mb_json_set_str(o, "map_flags", flags);
	mb_json_set_str(s, "owner_kind", mb_owner_kind_name(kind));
	mb_json_set_str(s, "key", owner_key[kind]);
	mb_json_set_num(s, "max_owners", max);
	mb_json_set_str(s, "max_owners_why", why);
	mb_json_set_str(s, "owners_charged",
			"apart: made in a cgroup of their own before the map's, in no row");
	mb_map_flags_format(a->map_flags & hash->flags_ok, flags, sizeof(flags));
	mb_json_set_num(h, "key_size", 8);
	mb_json_set_str(h, "key", mb_owner_id_name(kind));
	mb_json_set_num(h, "value_size", a->value_size);
	mb_json_set_str(h, "map_flags", flags);
	mb_json_set_bool(h, "preallocated", !(a->map_flags & BPF_F_NO_PREALLOC));
	mb_json_set(s, "hash", h);
	mb_json_set(o, "storage", s);
	mb_json_set(o, "rows", mb_json_array());
	return o;
}

/* Why @t cannot be measured here (NULL: it can): the kernel lacks it, or its owners. */
static const char *storage_skip(const struct mb_map_type_info *t, char *why, size_t len)
{
	struct mb_owner_site site;
	char site_why[256];

	if (mb_probe_map_type(t->type, t->name, why, len))
		return why;
	if (mb_owner_site_open(&site, mm_owner_kind(t), site_why, sizeof(site_why))) {
		snprintf(why, len, "no %s can be made here for its owners: %s",
			 mb_owner_kind_name(mm_owner_kind(t)), site_why);
		return why;
	}
	mb_owner_site_close(&site);
	return NULL;
}

int mm_storage_measure_type(struct mb_run *run, struct mm_state *st,
			    const struct mb_map_type_info *t, struct mb_json *footprint)
{
	const struct map_mem_args *a = run->args;
	struct mb_json *tj, *rows, *row;
	uint8_t *buf;
	char why[512];

	/* Value buffers touched now: a page fault later would be charged to a row's cgroup. */
	buf = malloc(2 * (size_t)a->value_size);
	if (!buf)
		return mb_run_fail(run, -ENOMEM, "%s: cannot allocate buffers", t->name);
	memset(buf, 0, 2 * (size_t)a->value_size);
	mb_json_set(footprint, t->name, storage_type_json(t, a));
	tj = mb_json_get(footprint, t->name);
	rows = mb_json_get(tj, "rows");
	mb_run_partial(run, &(struct mm_news){ .kind = MM_NEWS_HEADER, .type = t->name, .tj = tj });
	if (storage_skip(t, why, sizeof(why))) {
		mb_run_partial(run, &(struct mm_news){ .kind = MM_NEWS_SKIPPED, .why = why });
		mb_json_set_str(tj, "skipped", why);
		free(buf);
		return 0;
	}
	for (uint32_t i = 0; i < a->sizes.n && !mb_interrupted(); i++) {
		struct mm_srow s = { .owners = a->sizes.v[i] };

		measure_size(run, st, t, buf, &s);
		row = storage_row_json(&s);
		mb_run_partial(run, &(struct mm_news){ .kind = MM_NEWS_ROW, .type = t->name,
						       .row = row });
		mb_json_append(rows, row);
	}
	mb_run_partial(run, &(struct mm_news){ .kind = MM_NEWS_NOTE, .type = t->name, .tj = tj });
	free(buf);
	return 0;
}
