/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The trigger runner (its BPF side: trigger.bpf.h). A family's op runs in a program on the
 * entry of getpgid(), loaded at the first attach point the kernel accepts (tp_btf, raw_tp,
 * then the getpgid tracepoint); producers fire it with getpgid() calls, and each run counts
 * itself in the producer's slot (mb_slots in the program's .bss, read through the skeleton).
 * What it measures is an op with its trigger around it (syscall, tracepoint, program call), as
 * the kernel's benches do; the in-kernel op loop (kloop.h) measures the op alone.
 *
 * A family: its .bpf.c makes each op's programs with MB_TRIGGER_PROGS; its set-up calls
 * mb_trigger_load() with a loader that opens the skeleton, calls mb_trigger_prepare(), sizes
 * its maps, loads and attaches; its producers call mb_trigger_produce(), or fire themselves
 * (mb_trigger_fire(), mb_trigger_publish()) where they take turns; its finish hook reports the
 * attach point with mb_trigger_report().
 */
#ifndef MB_TRIGGER_H
#define MB_TRIGGER_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/bench.h"
#include "kloop_shared.h"
#include "trigger_shared.h"

struct bpf_map;
struct bpf_object;
struct mb_json;

/* Where the programs run, in the order they are tried (those of the trigger's kind). */
enum mb_trigger_attach {
	MB_TRIGGER_TP_BTF,	/* tp_btf/sys_enter */
	MB_TRIGGER_RAW_TP,	/* raw_tp/sys_enter */
	MB_TRIGGER_TP,		/* tp/syscalls/sys_enter_getpgid (needs tracefs) */
	MB_TRIGGER_SOCK_RECV,	/* tp_btf/sock_recv_length: the socket kind's only one */
	MB_TRIGGER_NR,
};

/* What fires the programs. */
enum mb_trigger_kind {
	MB_TRIGGER_KIND_SYSCALL,	/* a getpgid() call (the default) */
	MB_TRIGGER_KIND_SOCKET,	/* a read of the producer's own socket */
};

/*
 * A comma-separated list of attach points by key (tp_btf,raw_tp,tp,sock_recv): each is refused
 * before loading, as a kernel without it would refuse it (the tests' stand-in for such kernels).
 */
#define MB_TRIGGER_REFUSE_ENV "MAPBENCH_REFUSE_TRIGGER"

#define MB_TRIGGER_SYSCALL "getpgid"	/* what the producers call */

struct mb_trigger {
	enum mb_trigger_kind kind;	/* set before mb_trigger_load() (zero: syscall) */
	enum mb_trigger_attach attach;	/* where the loaded programs run */
	struct mb_slot *slots;		/* their mb_slots (skel->bss->mb_slots), set by the loader */
	/*
	 * The socket kind (trigger_sock.bpf.h): &skel->bss->mb_trigger_socks and
	 * skel->maps.mb_thread_slots, set by the loader.
	 */
	struct mb_trigger_socks *socks;
	struct bpf_map *threads;
};

/*
 * A family's loader for @t->attach: open the skeleton, mb_trigger_prepare() it, size its maps,
 * load and attach, and set @t->slots. Returns 0 or a negative errno, leaving nothing loaded.
 */
typedef int (*mb_trigger_load_fn)(struct mb_run *run, struct mb_trigger *t, void *ctx);

/*
 * Calls @load for each attach point of @t->kind in turn until one succeeds; sets run->runner.
 * Returns 0, or the error of the first attach point tried (-EPERM at once: no other does
 * better), the others' errors going to the debug log.
 */
int mb_trigger_load(struct mb_run *run, struct mb_trigger *t, mb_trigger_load_fn load, void *ctx);

/*
 * Between a skeleton's open and load: marks for loading the programs of @attach made by
 * MB_TRIGGER_PROGS for each op named in @ops (NULL-terminated: the names given to the macro),
 * and sets the programs' filter (this process, getpgid's number). 0, or -ENOENT when a
 * program or the filter's variables are not in the object.
 */
int mb_trigger_prepare(struct bpf_object *obj, enum mb_trigger_attach attach,
		       const char *const *ops);

/*
 * Between open and load, after mb_trigger_prepare(): the syscalls of this process's children
 * (processes it forked) fire the programs too, as a family's sleepers do where the kernel's
 * bench has every process fire them. 0, or -ENOENT when the object lacks the variable.
 */
int mb_trigger_allow_children(struct bpf_object *obj);

/*
 * Producer side: one run of the op @arg asks for (mb_trigger_arg(op, p->idx)); the first of
 * the run also checks that a program ran. 0, or -ENOENT when none did.
 */
int mb_trigger_fire(struct mb_run *run, struct mb_producer *p, const struct mb_trigger *t,
		    __u64 arg);
/* Publishes the runs counted in producer @p's slot, with its @excluded_ns and @wait_ns. */
void mb_trigger_publish(struct mb_producer *p, const struct mb_trigger *t, uint64_t excluded_ns,
			uint64_t wait_ns);
/* The counters of @s as mb_trigger_publish() publishes them (with its own counters). */
void mb_trigger_counters(const struct mb_slot *s, uint64_t excluded_ns, uint64_t wait_ns,
			 struct mb_counters *c);
/* A producer hook body: fires @op until the run stops. 0 or a negative errno. */
int mb_trigger_produce(struct mb_run *run, struct mb_producer *p, const struct mb_trigger *t,
		       __u32 op);

/*
 * The socket kind, producer side: register the calling thread as producer @p's, asking for
 * @op, before its first mb_trigger_sock_fire() (again: the thread's slot and op are replaced).
 * 0, -EINVAL where the loader did not set @t->socks and @t->threads, or -errno.
 */
int mb_trigger_sock_register(struct mb_producer *p, const struct mb_trigger *t, __u32 op);
/*
 * One run: a read of @fd, the producer's socket, which has nothing to read (-EAGAIN is how it
 * ends); the first of the run also checks that a program ran. 0, or -ENOENT when none did.
 */
int mb_trigger_sock_fire(struct mb_run *run, struct mb_producer *p, const struct mb_trigger *t,
			 int fd);

/* The result's extra.trigger (the attach point) and extra.syscall. */
void mb_trigger_report(const struct mb_trigger *t, struct mb_json *extra);

/* Pure parts, for the tests: */
/*
 * "tp_btf/sys_enter", "raw_tp/sys_enter", "tp/syscalls/sys_enter_getpgid",
 * "tp_btf/sock_recv_length"; NULL if none.
 */
const char *mb_trigger_attach_name(enum mb_trigger_attach attach);
/* "tp_btf", "raw_tp", "tp", "sock_recv": the keys of MB_TRIGGER_REFUSE_ENV; NULL if none. */
const char *mb_trigger_attach_key(enum mb_trigger_attach attach);
/*
 * "_btf", "_raw", "_tp", "_sk": what MB_TRIGGER_PROGS (MB_TRIGGER_SOCK_PROGS: "_sk") appends
 * to an op's name; NULL if none.
 */
const char *mb_trigger_attach_suffix(enum mb_trigger_attach attach);
/* The kind of trigger that fires the programs at @attach. */
enum mb_trigger_kind mb_trigger_attach_kind(enum mb_trigger_attach attach);
/* Whether @list (MB_TRIGGER_REFUSE_ENV's value, may be NULL) names @attach. */
bool mb_trigger_refused(const char *list, enum mb_trigger_attach attach);

#endif
