// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* LPM trie benches: options, checks, keys, trie create/fill/empty (text lines: lpm_text.c). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "util/json.h"
#include "util/log.h"
#include "lpm_trie.h"
#include "maps/maps.h"
#include "drivers/map_create.h"
#include "drivers/map_fill.h"
#include "drivers/map_report.h"
#include "sys/probe.h"
#include "core/runner.h"

/* Entries per batch syscall: bounds the time before a stop or a signal is noticed. */
#define LPM_BATCH 65536

static const char *const key_bits_names[] = { "32", "128", NULL };
static const char *const dist_names[] = { "fixed", "mixed", NULL };
static const char *const free_method_names[] = { "auto", "fentry", "workqueue", NULL };

#define LPM_ENUM(_name, _field, _def, _choices, _meta, _help)				\
	{ .name = _name, .type = MB_OPT_ENUM, .offset = offsetof(struct lpm_args, _field),	\
	  .def = _def, .choices = _choices, .metavar = _meta, .help = _help }

#define LPM_OPTS								\
	MB_OPT_NR_ENTRIES(struct lpm_args, nr_entries, LPM_DEFAULT_ENTRIES, 1, LPM_MAX_ENTRIES,	\
			  "the trie (the kernel's bench requires it; mapbench defaults to the size of its published figures)"), \
	MB_OPT_U32_DEF("prefix_len", struct lpm_args, prefix_len, NULL, 1, 128, "L",		\
		       "Prefix length of the entries: 1..32, or 1..128 with --key_bits 128; with --prefix_dist mixed the longest one (default: the key width)"), \
	MB_OPT_FLAG_DEF("random", struct lpm_args, random,					\
			"Random instead of sequential keys (noop, baseline, lookup, update; not insert, delete or free, which walk every key once, in order)"), \
	LPM_ENUM("key_bits", key_bits, "32", key_bits_names, "BITS",				\
		 "Key width: 32 (IPv4-sized, as the kernel's bench) or 128 (IPv6-sized)"),	\
	LPM_ENUM("prefix_dist", prefix_dist, "fixed", dist_names, "DIST",			\
		 "Prefix lengths: fixed (all --prefix_len, dense, as the kernel's bench) or mixed (a routing-table-like spread up to --prefix_len)")

const struct mb_opt lpm_opts[] = {
	LPM_OPTS,
	MB_OPT_END,
};

const struct mb_opt lpm_free_opts[] = {
	LPM_OPTS,
	LPM_ENUM("free_method", free_method, "auto", free_method_names, "METHOD",
		 "How the free is timed in the kernel: fentry/fexit on bpf_map_free_deferred (as the kernel's bench), the workqueue tracepoints around that work item, or auto (fentry where the kernel allows it)"),
	MB_OPT_END,
};

static uint32_t lpm_key_bits(const struct lpm_args *a)
{
	return a->key_bits ? 128 : 32;
}

int lpm_validate(struct mb_run *run, const char *ordered)
{
	struct lpm_args *a = run->args;
	uint32_t kb = lpm_key_bits(a);

	if (!mb_run_opt_given(run, "prefix_len"))
		a->prefix_len = kb;
	if (a->prefix_len > kb)
		return mb_run_usage(run, "--prefix_len %u: must be 1..%u with --key_bits %u",
				    a->prefix_len, kb, kb);
	if (a->nr_entries > mb_lpm_prefix_space(a->prefix_len))
		return mb_run_usage(run, "--nr_entries %u: must be 1..%llu with --prefix_len %u (the number of distinct prefixes)",
				    a->nr_entries,
				    (unsigned long long)mb_lpm_prefix_space(a->prefix_len),
				    a->prefix_len);
	if (ordered && a->random)
		return mb_run_usage(run, "--random: not for this bench, it %s (--random is for noop, baseline, lookup and update)",
				    ordered);
	return 0;
}

/* Build every key (mb_run_fail() on error). */
static int lpm_keys_init(struct mb_run *run, struct lpm_keys *k)
{
	const struct lpm_args *a = run->args;
	const char *why = NULL;
	size_t nr = a->nr_entries;
	int err;

	memset(k, 0, sizeof(*k));
	err = mb_lpm_keyset_init(&k->ks, lpm_key_bits(a), a->prefix_len, a->prefix_dist,
				 a->nr_entries, &why);
	if (err)
		return mb_run_fail(run, err, "cannot build the keys: %s", why);
	k->keys = malloc(nr * k->ks.key_size);
	if (!k->keys)
		return mb_run_fail(run, -ENOMEM, "out of memory for the keys of %zu entries (%zu MiB)",
				   nr, nr * k->ks.key_size >> 20);
	mb_lpm_keys_fill(&k->ks, 0, a->nr_entries, k->keys);
	k->e = (struct mb_entries){ .type = mb_map_type_by_type(BPF_MAP_TYPE_LPM_TRIE),
				    .key_size = k->ks.key_size, .value_size = sizeof(uint32_t),
				    .key = MB_KEY_GIVEN, .value = MB_VALUE_INDEX, .keys = k->keys };
	return 0;
}

void lpm_keys_free(struct lpm_keys *k)
{
	free(k->keys);
	k->keys = NULL;
}

int lpm_trie_create(const struct lpm_keys *k, const char *name)
{
	struct mb_map_desc d = { .type = k->e.type, .name = name, .key_size = k->ks.key_size,
				 .value_size = k->e.value_size, .max_entries = k->ks.nr_entries,
				 .flags = BPF_F_NO_PREALLOC };

	return mb_map_create(&d);
}

static bool stopped(void *ctx)
{
	const struct mb_run *run = ctx;

	return mb_interrupted() || (run && mb_run_should_stop(run));
}

/* Every entry, LPM_BATCH at a time, checking for a stop between the calls. */
static struct mb_fill every_entry(int fd, const struct lpm_keys *k, const struct mb_run *run)
{
	return (struct mb_fill){ .fd = fd, .e = &k->e, .count = k->ks.nr_entries,
				 .method = MB_FILL_BATCH, .chunk = LPM_BATCH, .stop = stopped,
				 .stop_ctx = (void *)run };
}

int lpm_trie_fill(int fd, const struct lpm_keys *k, const struct mb_run *run)
{
	struct mb_fill f = every_entry(fd, k, run);
	struct mb_fill_result r;

	return mb_map_fill(&f, &r);
}

int lpm_trie_empty(int fd, const struct lpm_keys *k, const struct mb_run *run)
{
	struct mb_fill f = every_entry(fd, k, run);
	struct mb_fill_result r;

	/* A key is missing where an insert failed and was counted as an error: passed over. */
	return mb_map_empty(&f, &r);
}

int lpm_fill_failed(struct mb_run *run, int err)
{
	const struct lpm_args *a = run->args;

	if (err == -EINTR) {
		/* A signal during set-up: nothing to report, the run is interrupted. */
		run->status = MB_RUN_INTERRUPTED;
		return err;
	}
	return mb_run_fail(run, err, "cannot fill or empty a trie of %u entries: %s",
			   a->nr_entries, strerror(-err));
}

/* Join a fresh cgroup and read its charge (before creating the trie). Never fails the run. */
static void lpm_charge_begin(struct lpm_charge *c)
{
	memset(c, 0, sizeof(*c));
	if (mb_memcg_enter_self(&c->cg, c->why, sizeof(c->why)))
		return;
	if (mb_memcg_read(&c->cg, &c->base)) {
		snprintf(c->why, sizeof(c->why), "cannot read the files of the trie's memory cgroup");
		return;
	}
	c->ok = true;
}

/* Leave the cgroup if lpm_charge_end() did not (error paths). */
static void lpm_charge_abort(struct mb_run *run, struct lpm_charge *c)
{
	int err;

	if (!c->cg.created && !c->cg.joined)
		return;
	err = mb_memcg_leave(&c->cg);
	if (err)
		mb_run_warn(run, "cannot remove the memory cgroup %s: %s", c->cg.path,
			    strerror(-err));
}

/* After the fill: extra.memory.trie's charged figures (or why none), then leave the cgroup. */
static void lpm_charge_end(struct mb_run *run, struct lpm_charge *c, uint64_t entries)
{
	struct mb_json *mem = mb_json_child(mb_json_child(mb_run_extra(run), "memory"), "trie");
	struct mb_memcg_usage u;

	if (c->ok && mb_memcg_read(&c->cg, &u)) {
		snprintf(c->why, sizeof(c->why), "cannot read the files of the trie's memory cgroup");
		c->ok = false;
	}
	if (c->ok) {
		uint64_t bytes = u.charged > c->base.charged ? u.charged - c->base.charged : 0;

		mb_json_set_num(mem, "charged_bytes", (double)bytes);
		mb_json_set(mem, "charged_bytes_per_entry",
			    entries ? mb_json_number((double)bytes / (double)entries) : mb_json_null());
		mb_json_set_num(mem, "charged_slack_bytes", (double)mb_memcg_slack(&c->cg));
		mb_json_set_str(mem, "charged_counter", mb_memcg_charged_name(&c->cg));
		mb_json_set_str(mem, "cgroup", mb_memcg_version_name(c->cg.version));
		mb_json_set(mem, "charged_reason", mb_json_null());
	} else {
		mb_json_set(mem, "charged_bytes", mb_json_null());
		mb_json_set(mem, "charged_bytes_per_entry", mb_json_null());
		mb_json_set_str(mem, "charged_reason", c->why);
	}
	lpm_charge_abort(run, c);
}

/* extra.memory.trie (memlock of the full trie) and extra.keys (the prefix lengths). */
static void lpm_report_trie(struct mb_run *run, int fd, const struct lpm_keys *k)
{
	const struct lpm_args *a = run->args;
	struct mb_json *keys = mb_json_child(mb_run_extra(run), "keys");
	struct mb_json *groups = mb_json_array();

	mb_run_report_map_memory(run, "trie", fd, k->ks.nr_entries);
	mb_json_set_num(keys, "key_bits", k->ks.key_bits);
	mb_json_set_num(keys, "key_size", k->ks.key_size);
	mb_json_set_str(keys, "prefix_dist", a->prefix_dist ? "mixed" : "fixed");
	for (uint32_t g = 0; g < k->ks.nr_groups; g++) {
		struct mb_json *o = mb_json_object();

		mb_json_set_num(o, "prefix_len", k->ks.group[g].prefixlen);
		mb_json_set_num(o, "entries", k->ks.group[g].count);
		mb_json_append(groups, o);
	}
	mb_json_set(keys, "groups", groups);
}

/*
 * Create a trie holding every entry of @k, inside a fresh memory cgroup, and report its memlock
 * and charge. Returns the trie's fd, or a negative error already reported on @run.
 */
static int lpm_trie_create_full(struct mb_run *run, const struct lpm_keys *k)
{
	struct lpm_charge charge;
	char msg[512];
	int err, fd;

	lpm_charge_begin(&charge);
	fd = lpm_trie_create(k, "mb_lpm_trie");
	if (fd < 0) {
		lpm_charge_abort(run, &charge);
		mb_explain_map_create(fd, "cannot create the trie", msg, sizeof(msg));
		return mb_run_fail(run, fd, "%s", msg);
	}
	err = lpm_trie_fill(fd, k, NULL);
	if (err) {
		close(fd);
		lpm_charge_abort(run, &charge);
		return lpm_fill_failed(run, err);
	}
	lpm_report_trie(run, fd, k);
	lpm_charge_end(run, &charge, k->ks.nr_entries);
	return fd;
}

void *lpm_state_alloc(struct mb_run *run, size_t size, int *err)
{
	char msg[512];
	void *st;

	if (mb_probe_map_type(BPF_MAP_TYPE_LPM_TRIE, "LPM trie", msg, sizeof(msg))) {
		*err = mb_run_skip(run, "%s", msg);
		return NULL;
	}
	st = calloc(1, size);
	if (!st) {
		*err = mb_run_fail(run, -ENOMEM, "out of memory");
		return NULL;
	}
	run->priv = st;
	return st;
}

int lpm_keys_and_trie(struct mb_run *run, struct lpm_keys *k)
{
	int err = lpm_keys_init(run, k);

	return err ? err : lpm_trie_create_full(run, k);
}
