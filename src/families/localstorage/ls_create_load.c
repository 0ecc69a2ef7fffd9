// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-create's programs: which create hook (the kernel's where this kernel allows
 * it), which kmalloc counter (the first of raw_tp, tp_btf, tp that loads and attaches), and
 * where none does, the memory cgroup fallback. Each try loads the object afresh and leaves
 * nothing behind when it fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/libbpf.h>

#include "ls_create.h"
#include "ls_create_shared.h"
#include "ls_create.skel.h"
#include "sys/probe.h"
#include "util/log.h"
#include "util/strlist.h"

#define LSM_HOOK	"socket_post_create"

static const char *const tracefs_kmalloc[] = {
	"/sys/kernel/tracing/events/kmem/kmalloc",
	"/sys/kernel/debug/tracing/events/kmem/kmalloc",
	NULL,
};

static const struct {
	const char *name, *key;
} kmalloc_points[LSC_KM_NONE] = {
	[LSC_KM_RAW_TP] = { "raw_tp/kmalloc", "raw_tp" },
	[LSC_KM_TP_BTF] = { "tp_btf/kmalloc", "tp_btf" },
	[LSC_KM_TP] = { "tp/kmem/kmalloc", "tp" },
};

const char *lsc_hook_name(enum lsc_hook hook)
{
	if (hook == LSC_HOOK_FORK)
		return "tp_btf/sched_process_fork";
	return hook == LSC_HOOK_LSM ? "lsm.s/" LSM_HOOK : "cgroup/sock_create";
}

const char *lsc_kmalloc_name(enum lsc_kmalloc km)
{
	return (unsigned int)km < LSC_KM_NONE ? kmalloc_points[km].name : NULL;
}

bool lsc_kmalloc_refused(const char *list, enum lsc_kmalloc km)
{
	return mb_list_has(list, (unsigned int)km < LSC_KM_NONE ? kmalloc_points[km].key : NULL);
}

/* The program of @hook, or of counter @km, and where its skeleton keeps the link. */
static struct bpf_program *hook_prog(struct ls_create_bpf *skel, enum lsc_hook hook,
				     struct bpf_link ***link)
{
	if (hook == LSC_HOOK_FORK) {
		*link = &skel->links.mb_lsc_fork;
		return skel->progs.mb_lsc_fork;
	}
	if (hook == LSC_HOOK_LSM) {
		*link = &skel->links.mb_lsc_sock_lsm;
		return skel->progs.mb_lsc_sock_lsm;
	}
	*link = &skel->links.mb_lsc_sock_cg;
	return skel->progs.mb_lsc_sock_cg;
}

static struct bpf_program *kmalloc_prog(struct ls_create_bpf *skel, enum lsc_kmalloc km,
					struct bpf_link ***link)
{
	if (km == LSC_KM_RAW_TP) {
		*link = &skel->links.mb_lsc_kmalloc_raw;
		return skel->progs.mb_lsc_kmalloc_raw;
	}
	if (km == LSC_KM_TP_BTF) {
		*link = &skel->links.mb_lsc_kmalloc_btf;
		return skel->progs.mb_lsc_kmalloc_btf;
	}
	*link = &skel->links.mb_lsc_kmalloc_tp;
	return skel->progs.mb_lsc_kmalloc_tp;
}

/* Attach @prog, the link kept in the skeleton (its destroy detaches it). 0 or -errno. */
static int attach(struct bpf_program *prog, struct bpf_link **slot, int cgroup_fd)
{
	struct bpf_link *link = cgroup_fd >= 0 ? bpf_program__attach_cgroup(prog, cgroup_fd) :
						 bpf_program__attach(prog);

	if (!link)
		return -errno;
	*slot = link;
	return 0;
}

/* The object with the create hook and counter @km (LSC_KM_NONE: none), loaded and attached. */
static int load_with(struct mb_run *run, struct lsc_state *st, enum lsc_kmalloc km)
{
	const struct lsc_args *args = run->args;
	struct ls_create_bpf *skel = ls_create_bpf__open();
	struct bpf_program *hp, *kp = NULL;
	struct bpf_link **hl, **kl = NULL;
	int err;

	if (!skel)
		return -errno;
	skel->rodata->mb_lsc_tgid = (__u32)getpid();
	skel->rodata->mb_lsc_kmalloc_all = args->kmalloc_scope == LSC_SCOPE_ALL;
	hp = hook_prog(skel, st->hook, &hl);
	if (km != LSC_KM_NONE)
		kp = kmalloc_prog(skel, km, &kl);
	err = bpf_program__set_autoload(hp, true);
	if (!err && kp)
		err = bpf_program__set_autoload(kp, true);
	if (!err)
		err = ls_create_bpf__load(skel);
	if (!err)
		err = attach(hp, hl, st->hook == LSC_HOOK_CGROUP ? st->cg.fd : -1);
	if (!err && kp)
		err = attach(kp, kl, -1);
	if (err) {
		ls_create_bpf__destroy(skel);
		return err;
	}
	st->skel = skel;
	return 0;
}

/* cgroup/sock_create, on a fresh cgroup v2 directory: @lsm_why says why not lsm.s. */
static int use_cgroup(struct mb_run *run, struct lsc_state *st, const char *lsm_why)
{
	char why[512];

	st->hook = LSC_HOOK_CGROUP;
	mb_debug("%s: lsm.s/%s: %s", run->bench->name, LSM_HOOK, lsm_why);
	if (mb_cgroup2_enter(&st->cg, why, sizeof(why)))
		return mb_run_skip(run, "socket storage is made by lsm.s/%s, refused here (%s), or by cgroup/sock_create on a cgroup v2 directory, which cannot be made: %s",
				   LSM_HOOK, lsm_why, why);
	return 0;
}

/*
 * Socket storage: the kernel's lsm.s program where the BPF LSM and trampolines work, else
 * cgroup/sock_create on a fresh cgroup v2 directory this process joins (never the root).
 */
static int pick_hook(struct mb_run *run, struct lsc_state *st)
{
	const struct lsc_args *args = run->args;
	char why[512];

	if (args->storage == LSC_TASK) {
		st->hook = LSC_HOOK_FORK;
		return 0;
	}
	if (!mb_probe_lsm(LSM_HOOK, true, why, sizeof(why))) {
		st->hook = LSC_HOOK_LSM;
		return 0;
	}
	snprintf(st->hook_note, sizeof(st->hook_note), "lsm.s/%s refused", LSM_HOOK);
	return use_cgroup(run, st, why);
}

static bool tracefs_has_kmalloc(void)
{
	for (int i = 0; tracefs_kmalloc[i]; i++)
		if (!access(tracefs_kmalloc[i], F_OK))
			return true;
	return false;
}

/* Why counter @km is not tried (into @why), or false: try it. */
static bool skip_counter(enum lsc_kmalloc km, char *why, size_t len)
{
	if (lsc_kmalloc_refused(getenv(LSC_REFUSE_KMALLOC_ENV), km)) {
		snprintf(why, len, "%s refused (%s)", kmalloc_points[km].name,
			 LSC_REFUSE_KMALLOC_ENV);
		return true;
	}
	/* libbpf finds the tracepoint's id in tracefs: without it, the attach cannot work. */
	if (km == LSC_KM_TP && !tracefs_has_kmalloc()) {
		snprintf(why, len, "%s needs tracefs (mount -t tracefs nodev /sys/kernel/tracing)",
			 kmalloc_points[km].name);
		return true;
	}
	return false;
}

/* The first kmalloc counter that loads, else none; -EPERM and a failed plain load end it. */
static int load_chain(struct mb_run *run, struct lsc_state *st)
{
	char why[512];
	size_t off = 0;
	int err;

	for (int k = 0; k < LSC_KM_NONE; k++) {
		enum lsc_kmalloc km = (enum lsc_kmalloc)k;

		if (skip_counter(km, why, sizeof(why))) {
			err = 0;
		} else {
			err = load_with(run, st, km);
			if (!err) {
				st->km = km;
				return 0;
			}
			if (err == -EPERM)
				return err;
			snprintf(why, sizeof(why), "%s: %s", kmalloc_points[km].name,
				 strerror(-err));
		}
		off += (size_t)snprintf(st->km_why + off, sizeof(st->km_why) - off, "%s%.160s",
					off ? "; " : "", why);
		if (off >= sizeof(st->km_why))
			off = sizeof(st->km_why) - 1;
	}
	st->km = LSC_KM_NONE;
	return load_with(run, st, LSC_KM_NONE);
}

/*
 * Without a kmalloc counter: the kernel memory charged to a fresh memory cgroup per create.
 * Not where it is v2: the process cannot be in it and in cgroup/sock_create's directory too.
 */
static void memcg_fallback(struct mb_run *run, struct lsc_state *st)
{
	struct mb_memcg_site site;
	struct mb_memcg_usage u;

	if (mb_memcg_detect_self(&site, st->memcg_why, sizeof(st->memcg_why)))
		return;
	if (site.version == MB_MEMCG_V2 && st->hook == LSC_HOOK_CGROUP) {
		snprintf(st->memcg_why, sizeof(st->memcg_why),
			 "the memory cgroup is v2 here, the hierarchy cgroup/sock_create's directory is in");
		return;
	}
	if (mb_memcg_enter(&site, &st->memcg, st->memcg_why, sizeof(st->memcg_why)))
		return;
	if (mb_memcg_read(&st->memcg, &u) || !u.has_kmem) {
		snprintf(st->memcg_why, sizeof(st->memcg_why), "the memory cgroup %.300s has no kmem figure",
			 st->memcg.path);
		mb_memcg_leave(&st->memcg);
		return;
	}
	st->memcg_ok = true;
	st->kmem_last = u.kmem;
	mb_debug("%s: kmem per create from %s", run->bench->name, st->memcg.path);
}

int lsc_load(struct mb_run *run, struct lsc_state *st)
{
	char why[512];
	int err = pick_hook(run, st);

	if (err)
		return err;
	err = load_chain(run, st);
	/* The probe's program is not the bench's: where the bench's fails, the cgroup's. */
	if (err && st->hook == LSC_HOOK_LSM) {
		snprintf(why, sizeof(why), "its program does not load: %s", strerror(-err));
		snprintf(st->hook_note, sizeof(st->hook_note), "lsm.s/%s: %.400s", LSM_HOOK, why);
		st->km_why[0] = '\0';
		err = use_cgroup(run, st, why);
		if (!err)
			err = load_chain(run, st);
	}
	if (err == -EPERM) {
		mb_explain_eperm(why, sizeof(why));
		return mb_run_skip(run, "%s", why);
	}
	if (err) {
		mb_explain_load_error(err, "loading local-storage-create's programs", why,
				      sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	if (st->km == LSC_KM_NONE)
		memcg_fallback(run, st);
	else
		st->km_last = st->skel->bss->mb_lsc_kmallocs;
	return 0;
}

void lsc_unload(struct mb_run *run, struct lsc_state *st)
{
	int err;

	ls_create_bpf__destroy(st->skel);
	st->skel = NULL;
	err = mb_cgroup2_leave(&st->cg);
	if (err)
		mb_run_warn(run, "cannot remove the cgroup %s: %s", st->cg.path, strerror(-err));
	err = mb_memcg_leave(&st->memcg);
	if (err)
		mb_run_warn(run, "cannot remove the memory cgroup %s: %s", st->memcg.path,
			    strerror(-err));
}
